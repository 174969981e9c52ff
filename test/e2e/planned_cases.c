/* End-to-end cases of planned-collectives and vector-reductions (e2e.sh
 * "planned"): built with ompi-cc and a profile in which the runtime's forms
 * win, it must print what the plain build prints at every rank count.
 *
 *   - a time loop's MPI_Alltoallv, MPI_Alltoall (written in a CHECK macro)
 *     MPI_Allgatherv and MPI_Allgather (planned per loop run, blocks of 1
 *     to 3 doubles per rank for the gathers), an
 *     FFT-like transpose over heap arrays (planned), MPI_IN_PLACE (planned,
 *     Alltoallv, Allgatherv and Allgather), a return inside a planned loop;
 *   - counts that change every third step (Alltoallv and Allgatherv), a
 *     helper a loop calls (the plan cache);
 *   - a histogram of longs summed (MPI_Allreduce), a sparse vector of ints
 *     summed to the last rank (MPI_Reduce), a minimum of doubles (exact)
 *     and a sum of doubles (left to the MPI unless --ompi-reassociate; its
 *     values are small integers, exact in any order); the root's
 *     MPI_Reduce and the others' (NULL for the result) in the two arms of
 *     an if, the root moving each step. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 64
#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 3);                                                           \
  } while (0)
#define STEPS 7
static int rank, size;
static int counts[MAXP], displs[MAXP], vcounts[MAXP], vdispls[MAXP], gcounts[MAXP], gdispls[MAXP], gtotal;
static int ccounts[MAXP], cdispls[MAXP];
static double sbuf[MAXP * 8], rbuf[MAXP * 8];
static unsigned long sum;

static void fold(const double *v, int n) {
  for (int i = 0; i < n; i++) sum = sum * 31 + (unsigned long)(v[i] * 4 + 1);
}

static void helper(int step) {
  for (int i = 0; i < size * 2; i++) sbuf[i] = rank * 100 + i + step;
  MPI_Alltoallv(sbuf, vcounts, vdispls, MPI_DOUBLE, rbuf, vcounts, vdispls, MPI_DOUBLE, MPI_COMM_WORLD);
  fold(rbuf, size * 2);
  /* The scalar-keyed plan cache: a count that changes every third step. */
  int n = 1 + step / 3 % 2;
  MPI_Alltoall(sbuf, n, MPI_DOUBLE, rbuf, n, MPI_DOUBLE, MPI_COMM_WORLD);
  fold(rbuf, size * n);
  MPI_Allgather(sbuf + rank, n, MPI_DOUBLE, rbuf, n, MPI_DOUBLE, MPI_COMM_WORLD);
  fold(rbuf, size * n);
}

static int transpose(int n, int stop) {
  int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
  int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
  int s = 0, r = 0;
  for (int j = 0; j < size; j++) {
    sc[j] = (n / size + (rank < n % size)) * (n / size + (j < n % size)) * 2;
    rc[j] = (n / size + (j < n % size)) * (n / size + (rank < n % size)) * 2;
    sd[j] = s;
    rd[j] = r;
    s += sc[j];
    r += rc[j];
  }
  double *a = malloc(sizeof(double) * (s + 1)), *b = malloc(sizeof(double) * (r + 1));
  int done = -1;
  for (int step = 0; step < STEPS; step++) {
    for (int i = 0; i < s; i++) a[i] = rank + i * 0.5 + step;
    MPI_Alltoallv(a, sc, sd, MPI_DOUBLE, b, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(b, r);
    if (step == stop) {
      done = step;
      break;
    }
  }
  free(a);
  free(b);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  return done;
}

static int early(int stop) {
  for (int step = 0; step < STEPS; step++) {
    for (int i = 0; i < size; i++) sbuf[i] = rank + step + i;
    MPI_Alltoallv(sbuf, counts, displs, MPI_DOUBLE, rbuf, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, size);
    if (step == stop)
      return step;
  }
  return -1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXP) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int j = 0; j < size; j++) {
    counts[j] = 1;
    displs[j] = j;
    vcounts[j] = 2;
    vdispls[j] = 2 * j;
    gcounts[j] = 1 + j % 3;
    gdispls[j] = gtotal;
    gtotal += gcounts[j];
  }
  for (int step = 0; step < STEPS; step++) {
    for (int i = 0; i < size * 4; i++) sbuf[i] = rank * 1000 + i * 3 + step;
    MPI_Alltoallv(sbuf, counts, displs, MPI_DOUBLE, rbuf, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, size);
    CHECK(MPI_Alltoall(sbuf, 4, MPI_DOUBLE, rbuf, 4, MPI_DOUBLE, MPI_COMM_WORLD)); /* renamed in the macro */
    fold(rbuf, size * 4);
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rbuf, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, size);
    MPI_Allgatherv(sbuf, 1 + rank % 3, MPI_DOUBLE, rbuf, gcounts, gdispls, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, gtotal);
    for (int i = 0; i < gcounts[rank]; i++) rbuf[gdispls[rank] + i] = rank * 7 + i + step;
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, gcounts, gdispls, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, gtotal);
    MPI_Allgather(sbuf + rank, 3, MPI_DOUBLE, rbuf, 3, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, size * 3);
    for (int i = 0; i < 2; i++) rbuf[rank * 2 + i] = rank * 5 - i + step;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, 2, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, size * 2);
  }
  for (int step = 0; step < STEPS * 2; step++) {
    if (step % 3 == 0)
      for (int j = 0; j < size; j++) vcounts[j] = 1 + (step / 3 + rank + j) % 2;
    for (int i = 0; i < size * 2; i++) sbuf[i] = rank * 10 + i + step;
    MPI_Alltoallv(sbuf, vcounts, vdispls, MPI_DOUBLE, rbuf, vcounts, vdispls, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, size * 2);
    for (int j = 0; j < size; j++) { /* recomputed at every step: the plan cache */
      ccounts[j] = 1 + (step / 3 + j) % 2;
      cdispls[j] = 2 * (size - 1 - j);
    }
    MPI_Allgatherv(sbuf, ccounts[rank], MPI_DOUBLE, rbuf, ccounts, cdispls, MPI_DOUBLE, MPI_COMM_WORLD);
    fold(rbuf, size * 2);
  }
  for (int j = 0; j < size; j++) vcounts[j] = 2;
  for (int step = 0; step < STEPS; step++)
    helper(step);
  int t1 = transpose(12, STEPS), t2 = transpose(5, 3), e = early(4);

  enum { H = 100000 };
  long *hist = calloc(H, sizeof(long)), *hall = calloc(H, sizeof(long));
  int *sparse = calloc(H, sizeof(int)), *sall = calloc(H, sizeof(int));
  double *d = calloc(H, sizeof(double)), *dmin = calloc(H, sizeof(double)), *dsum = calloc(H, sizeof(double));
  for (int i = 0; i < H; i++) {
    hist[i] = (i * 7 + rank) % 13;
    sparse[i] = i % 97 == rank % 5 ? i % 11 + rank : 0;
    d[i] = (double)((i + rank * 3) % 17);
  }
  MPI_Allreduce(hist, hall, H, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce(sparse, sall, H, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD);
  MPI_Allreduce(d, dmin, H, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(d, dsum, H, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  /* The root's MPI_Reduce into its buffer, the others' with NULL there, the
     root moving each step (twins in the two arms of the if; the sparse
     ints again, so the selector measures each call's density). With
     MPI_IN_PLACE at a root other than 0 MPICH 4.0's own MPI_Reduce of
     400 KB crashes (the plain build could not run). */
  unsigned long tw = 0;
  int *tall = calloc(H, sizeof(int));
  for (int step = 0; step < 4; step++) {
    int root = step % size;
    for (int i = 0; i < H; i++) sparse[i] += step;
    if (rank == root)
      MPI_Reduce(sparse, tall, H, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    else
      MPI_Reduce(sparse, NULL, H, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root)
      for (int i = 0; i < H; i += 101) tw = tw * 3 + (unsigned long)tall[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, &tw, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
  unsigned long h = 0, sp = 0;
  double mn = 0, sm = 0;
  for (int i = 0; i < H; i++) {
    h = h * 7 + (unsigned long)hall[i];
    sp = sp * 5 + (unsigned long)sall[i];
    mn += dmin[i];
    sm += dsum[i];
  }
  MPI_Bcast(&sp, 1, MPI_UNSIGNED_LONG, size - 1, MPI_COMM_WORLD);
  unsigned long all[MAXP];
  MPI_Gather(&sum, 1, MPI_UNSIGNED_LONG, all, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("transposes %d %d, early %d\n", t1, t2, e);
    for (int r = 0; r < size; r++) printf("rank %d: checksum %lu\n", r, all[r]);
    printf("histogram %lu, minimum %.1f, sum %.1f\n", h, mn, sm);
    printf("sparse sum at the last rank %lu\n", sp);
    printf("reduced to a moving root %lu\n", tw);
  }
  free(hist);
  free(hall);
  free(sparse);
  free(sall);
  free(tall);
  free(d);
  free(dmin);
  free(dsum);
  MPI_Finalize();
  return 0;
}
