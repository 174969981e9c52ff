/* communication-overlap end to end: halo exchanges on a ring whose waits
 * move down past computation that does not need them and whose receives
 * move up past packing; the program prints checksums of every buffer, so
 * a move that let computation see a message too early (or a send buffer
 * change too early) changes the output. Runs on any number of ranks. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256
#define STEPS 20

static double checksum(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * (double)(i % 7 + 1);
  return s;
}

/* A 1-D stencil with a halo of one cell each side: the sends' waits move
 * past the unpacking and the update of the interior. */
static double stencil(int rank, int size) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double *u = malloc((N + 2) * sizeof(double)), *v = malloc((N + 2) * sizeof(double));
  double *bufs = malloc(4 * sizeof(double)), *out_l = bufs, *out_r = bufs + 1, *in_l = bufs + 2, *in_r = bufs + 3;
  MPI_Request req[4];
  for (int i = 0; i < N + 2; i++)
    u[i] = v[i] = sin(0.1 * (i + rank * N));
  for (int step = 0; step < STEPS; step++) {
    MPI_Irecv(in_l, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(in_r, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    *out_l = u[1];
    *out_r = u[N];
    MPI_Isend(out_l, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(out_r, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    MPI_Wait(&req[3], MPI_STATUS_IGNORE);
    for (int i = 2; i < N; i++)
      v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    u[0] = *in_l;
    u[N + 1] = *in_r;
    v[1] = 0.25 * u[0] + 0.5 * u[1] + 0.25 * u[2];
    v[N] = 0.25 * u[N - 1] + 0.5 * u[N] + 0.25 * u[N + 1];
    for (int i = 1; i <= N; i++)
      u[i] = v[i];
  }
  double s = checksum(u, N + 2);
  free(u);
  free(v);
  free(bufs);
  return s;
}

/* Packing written before the receive: the receive moves up. The send
 * buffer is written again after the wait, which moves only that far. */
static double pack_first(int rank, int size) {
  int peer = (rank + 1) % size, from = (rank + size - 1) % size;
  double out[N], in[N], grid[N], acc = 0;
  MPI_Request r[2];
  for (int i = 0; i < N; i++)
    grid[i] = cos(0.01 * (i + 31 * rank));
  for (int step = 0; step < STEPS; step++) {
    for (int i = 0; i < N; i++)
      out[i] = grid[i] * (step + 1);
    MPI_Irecv(in, N, MPI_DOUBLE, from, 5, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(out, N, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &r[1]);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
      grid[i] = 0.5 * grid[i] + 0.001 * step;
    acc += fabs(grid[0]);
    out[0] = acc;
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
      grid[i] += 0.01 * in[i];
  }
  return checksum(grid, N) + acc + out[0];
}

/* A Waitall over both directions, with a status array read after it. */
static double statuses(int rank, int size) {
  int peer = (rank + 1) % size, from = (rank + size - 1) % size;
  double send[8], recv[8], work[64];
  MPI_Request q[2];
  MPI_Status st[2];
  for (int i = 0; i < 8; i++)
    send[i] = rank * 10 + i;
  MPI_Irecv(recv, 8, MPI_DOUBLE, from, 9, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(send, 8, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, &q[1]);
  MPI_Waitall(2, q, st);
  for (int i = 0; i < 64; i++)
    work[i] = sqrt((double)i + rank);
  int count = 0;
  MPI_Get_count(&st[0], MPI_DOUBLE, &count);
  return checksum(recv, 8) + checksum(work, 64) + count + st[0].MPI_TAG;
}

/* Waits and a receive written in an if and with their result kept (as
 * NPB IS and HPL write them): they move with their statement; rank 0
 * skips its send's wait until the end of the step. */
static double conditional(int rank, int size) {
  int peer = (rank + 1) % size, from = (rank + size - 1) % size, ierr = MPI_SUCCESS, errs = 0;
  double out[N], in[N], grid[N], acc = 0;
  MPI_Request s, r;
  for (int i = 0; i < N; i++)
    grid[i] = sin(0.02 * (i + 7 * rank));
  for (int step = 0; step < STEPS; step++) {
    for (int i = 0; i < N; i++)
      out[i] = grid[i] + step;
    for (int i = 0; i < N; i++)
      grid[i] = 0.9 * grid[i] + 0.001 * i;
    if (size > 1) {
      MPI_Irecv(in, N, MPI_DOUBLE, from, 7, MPI_COMM_WORLD, &r);
    }
    MPI_Isend(out, N, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &s);
    if (rank > 0)
      MPI_Wait(&s, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
      acc += grid[i] * 0.5;
    if (size > 1)
      ierr = MPI_Wait(&r, MPI_STATUS_IGNORE);
    errs += ierr != MPI_SUCCESS;
    for (int i = 0; i < N && size > 1; i++)
      grid[i] += 0.01 * in[i];
    if (size == 1)
      MPI_Recv(in, N, MPI_DOUBLE, from, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
      MPI_Wait(&s, MPI_STATUS_IGNORE);
  }
  return checksum(grid, N) + acc + errs;
}

/* Two directions of a halo exchange, each in ifs (as the Parallel Research
 * Kernels' Stencil writes them), each direction's buffers in their own
 * allocation: the sends' waits leave their ifs with copies of the
 * conditions and move past the other direction and the update. */
static double two_directions(int rank, int size) {
  int up = size > 1 ? (rank + 1) % size : -1, down = size > 1 ? (rank + size - 1) % size : -1;
  double *grid = malloc(N * 8 * sizeof(double)), *next = malloc(N * 8 * sizeof(double));
  double *ybuf = malloc(2 * N * sizeof(double)), *xbuf = malloc(2 * N * sizeof(double));
  MPI_Request req[4];
  for (int i = 0; i < N * 8; i++)
    grid[i] = next[i] = cos(0.003 * (i + 13 * rank));
  for (int step = 0; step < STEPS; step++) {
    if (up >= 0) {
      MPI_Irecv(ybuf + N, N, MPI_DOUBLE, down, 20, MPI_COMM_WORLD, &req[1]);
      for (int i = 0; i < N; i++)
        ybuf[i] = grid[i] + step;
      MPI_Isend(ybuf, N, MPI_DOUBLE, up, 20, MPI_COMM_WORLD, &req[0]);
    }
    if (up >= 0) {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
      for (int i = 0; i < N; i++)
        grid[i] += 0.5 * ybuf[N + i];
    }
    if (down >= 0) {
      MPI_Irecv(xbuf + N, N, MPI_DOUBLE, up, 21, MPI_COMM_WORLD, &req[3]);
      for (int i = 0; i < N; i++)
        xbuf[i] = grid[7 * N + i] - step;
      MPI_Isend(xbuf, N, MPI_DOUBLE, down, 21, MPI_COMM_WORLD, &req[2]);
    }
    if (down >= 0) {
      MPI_Wait(&req[2], MPI_STATUS_IGNORE);
      MPI_Wait(&req[3], MPI_STATUS_IGNORE);
      for (int i = 0; i < N; i++)
        grid[7 * N + i] += 0.5 * xbuf[N + i];
    }
    for (int i = 1; i < N * 8 - 1; i++)
      next[i] = 0.25 * grid[i - 1] + 0.5 * grid[i] + 0.25 * grid[i + 1];
    for (int i = 1; i < N * 8 - 1; i++)
      grid[i] = next[i];
  }
  double s = 0; /* summed here: passed to checksum, the buffers would not be this function's alone */
  for (int i = 0; i < N * 8; i++)
    s += grid[i] * (double)(i % 7 + 1);
  for (int i = 0; i < 2 * N; i++)
    s += ybuf[i] * (i + 1) + xbuf[i] * (i + 2);
  free(grid);
  free(next);
  free(ybuf);
  free(xbuf);
  return s;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a = stencil(rank, size), b = pack_first(rank, size),
         c = statuses(rank, size) + conditional(rank, size) + two_directions(rank, size);
  double mine[3] = {a, b, c}, *all = malloc(3 * (size_t)size * sizeof(double));
  MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size; r++)
    printf("rank %d: %.12f %.12f %.12f\n", r, all[3 * r], all[3 * r + 1], all[3 * r + 2]);
  free(all);
  MPI_Finalize();
  return 0;
}
