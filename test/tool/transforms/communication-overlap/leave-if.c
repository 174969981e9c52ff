// communication-overlap: a wait at the end of an if's block (after its
// own move) leaves the if with a copy of the condition, `if (c)
// MPI_Wait(...)`, when the rest of the block leaves what the condition
// reads alone, and goes on down the block around it: past statements that
// start and complete other requests (the other direction of a halo
// exchange) and past the computation. Negative cases say why a wait stays.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=NOEXIT %s
// RUN: %ompi-opt --transforms=communication-overlap %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

// Two directions, each in ifs (as the Parallel Research Kernels' Stencil
// writes them); the buffers of each direction in their own allocation.
double exchange(int up, int down, int iters) {
  double *grid = malloc(N * N * sizeof(double)), *next = malloc(N * N * sizeof(double));
  double *ybuf = malloc(2 * N * sizeof(double)), *xbuf = malloc(2 * N * sizeof(double));
  MPI_Request req[4];
  for (int i = 0; i < N * N; i++)
    grid[i] = next[i] = i;
  for (int it = 0; it < iters; it++) {
    if (up >= 0) {
      MPI_Irecv(ybuf + N, N, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[1]);
      for (int i = 0; i < N; i++)
        ybuf[i] = grid[i];
      MPI_Isend(ybuf, N, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);
    }
    if (up >= 0) {
      // REPORT-DAG: leave-if.c:[[#@LINE+1]]:7: communication-overlap: MPI_Wait moved down out of the if at line [[#@LINE-1]] (with its condition), before line [[#@LINE+25]] (the rest of its if's block and lines [[#@LINE+6]]-[[#@LINE+23]] do not depend on the transfers it completes: {{.*}} and call nothing that communicates but starts and waits of other requests; {{.*}}
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
      for (int i = 0; i < N; i++)
        grid[i] = ybuf[N + i];
    }
    if (down >= 0) {
      MPI_Irecv(xbuf + N, N, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[3]);
      for (int i = 0; i < N; i++)
        xbuf[i] = grid[N * i];
      MPI_Isend(xbuf, N, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[2]);
    }
    if (down >= 0) {
      // REPORT-DAG: leave-if.c:[[#@LINE+1]]:7: communication-overlap: MPI_Wait moved down out of the if at line [[#@LINE-1]] (with its condition), before line [[#@LINE+12]] (the rest of its if's block and lines [[#@LINE+6]]-[[#@LINE+10]] do not depend on the transfers it completes: {{.*}}
      MPI_Wait(&req[2], MPI_STATUS_IGNORE);
      MPI_Wait(&req[3], MPI_STATUS_IGNORE);
      for (int i = 0; i < N; i++)
        grid[N * i] = xbuf[N + i];
    }
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++)
        next[i + N * j] = 0.25 * (grid[i - 1 + N * j] + grid[i + 1 + N * j] + grid[i + N * j - N] + grid[i + N * j + N]);
    for (int i = 0; i < N * N; i++)
      grid[i] = next[i];
    // SRC:    if (up >= 0) MPI_Wait(&req[0], MPI_STATUS_IGNORE); if (down >= 0) MPI_Wait(&req[2], MPI_STATUS_IGNORE); MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double s = grid[N + 1];
  free(grid);
  free(next);
  free(ybuf);
  free(xbuf);
  return s;
}

// Negative cases.
double stays(int up, int iters) {
  double *grid = malloc(N * sizeof(double)), *buf = malloc(2 * N * sizeof(double));
  MPI_Request req[2];
  int on = up >= 0;
  for (int i = 0; i < N; i++)
    grid[i] = i;
  for (int it = 0; it < iters; it++) {
    if (on) {
      MPI_Irecv(buf + N, N, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &req[1]);
      for (int i = 0; i < N; i++)
        buf[i] = grid[i];
      MPI_Isend(buf, N, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &req[0]);
    }
    // The if's block writes what its condition reads after the wait: the
    // copy of the condition would read another value. The wait moves to
    // the end of the block only.
    if (on) {
      // REPORT-DAG: leave-if.c:[[#@LINE+1]]:7: communication-overlap: MPI_Wait moved down to the end of its block (line [[#@LINE+6]]) {{.*}}
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
      for (int i = 0; i < N; i++)
        grid[i] += buf[N + i];
      on = it < iters - 1;
    }
    // The if's block writes what its condition reads before the wait: the
    // copy of the condition, run after the block, would read another value.
    if (on) {
      on = 0;
      for (int i = 0; i < N; i++)
        grid[i] += 2;
      // NOEXIT-NOT: leave-if.c:[[#@LINE+1]]:{{.*}}moved
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < N; i++)
      grid[i] *= 0.5;
    // An if with an else: the wait stays in its block.
    MPI_Isend(buf, N, MPI_DOUBLE, up < 0 ? MPI_PROC_NULL : up, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(buf + N, N, MPI_DOUBLE, up < 0 ? MPI_PROC_NULL : up, 3, MPI_COMM_WORLD, &req[1]);
    if (up >= 0) {
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
      // REPORT-DAG: leave-if.c:[[#@LINE+1]]:7: communication-overlap: not done: MPI_Wait stays where it is written (what it could pass {{.*}}
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      grid[0] += buf[N];
    } else {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < N; i++)
      grid[i] += 1;
  }
  double s = grid[1];
  free(grid);
  free(buf);
  return s;
}

// A wait's count is read through a pointer whose memory a receive in a
// later statement fills: moved past it, the wait would read the message.
double received_count(int peer) {
  int *cnt = malloc(sizeof(int)), one = 1;
  double a[N], b[N], c[N];
  MPI_Request r[2], q[2];
  *cnt = 2;
  for (int i = 0; i < N; i++)
    a[i] = i;
  MPI_Isend(a, N, MPI_DOUBLE, peer, 8, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(b, N, MPI_DOUBLE, peer, 8, MPI_COMM_WORLD, &r[1]);
  // REPORT-DAG: leave-if.c:[[#@LINE+1]]:3: communication-overlap: MPI_Waitall moved down before line [[#@LINE+4]] {{.*}}(it stops there: line [[#@LINE+5]] writes the memory cnt owns, which the call's arguments read)); {{.*}}
  MPI_Waitall(*cnt, r, MPI_STATUSES_IGNORE);
  for (int i = 0; i < N; i++)
    c[i] = i + 1;
  if (peer >= 0) {
    MPI_Irecv(cnt, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(&one, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < N; i++)
    c[i] += 2;
  double s = a[1] + b[1] + c[1] + *cnt;
  free(cnt);
  return s;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int up = size > 1 ? (rank + 1) % size : -1, down = size > 1 ? (rank + size - 1) % size : -1;
  double x = exchange(up, down, 3) + stays(up, 3) + received_count(up < 0 ? rank : up);
  printf("%d %g\n", rank, x);
  MPI_Finalize();
  return 0;
}
