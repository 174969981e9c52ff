/* calib.c: the measurements a simulated platform is fitted to and checked
 * against (issue 48): the same program runs on the real machine (mpiexec)
 * and in SimGrid's SMPI (smpirun on a platform of benchmarks/platforms), and
 * scripts/simulate puts the two side by side.
 *
 *   pingpong   ranks 0 and 1 ("near": neighbouring cores) and 0 and P-1
 *              ("far"), the other ranks idle in MPI_Barrier: microseconds
 *              per one-way message of B bytes (MPI_BYTE), and MB/s;
 *   barrier    MPI_Barrier on all P ranks, microseconds per call;
 *   alltoall   MPI_Alltoall of B bytes per pair;
 *   allreduce  MPI_Allreduce (MPI_SUM) of B / 8 doubles;
 *   bcast      MPI_Bcast of B bytes from rank 0.
 * Each point: a warm-up, then ROUNDS timed rounds of a loop sized to the
 * message (at least 5 calls), each round started by a barrier; the median
 * of the rounds, the slowest rank's time.
 *
 *   mpiexec -n P ./calib [ROUNDS [CALLS]]
 * CALLS (default 2000) caps the calls of a round; in the simulator, which
 * has no noise, 1 round of 20 calls gives the same figures in far less
 * time.
 * Prints one JSON object per point on rank 0:
 *   {"op": "pingpong", "pair": "near", "ranks": P, "bytes": B, "us": T, "mb_s": M} */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXROUNDS = 31, MAXBYTES = 4 << 20 };

static int rank, size, maxiters = 2000;
static char *abuf, *bbuf;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Calls in one round: many for small messages, a few for large ones. */
static int iterations(int bytes) {
  int it = maxiters;
  while (it > 5 && (long)it * bytes > 64L << 20)
    it /= 2;
  return it;
}

/* One round of a ping-pong of n bytes between ranks a and b; microseconds
   per one-way message on the ranks taking part, 0 elsewhere. */
static double pingpong_round(int a, int b, int n, int iters) {
  double t0;
  int i;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  if (rank == a || rank == b) {
    int peer = rank == a ? b : a;
    for (i = 0; i < iters; i++) {
      if (rank == a) {
        MPI_Send(abuf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(bbuf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(bbuf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(abuf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      }
    }
    return (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
  }
  return 0.0;
}

enum { BARRIER, ALLTOALL, ALLREDUCE, BCAST };

/* One round of iters collectives `op` of n bytes; microseconds per call. */
static double collective_round(int op, int n, int iters) {
  double t0;
  int i;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (i = 0; i < iters; i++) {
    switch (op) {
    case BARRIER:
      MPI_Barrier(MPI_COMM_WORLD);
      break;
    case ALLTOALL:
      MPI_Alltoall(abuf, n, MPI_BYTE, bbuf, n, MPI_BYTE, MPI_COMM_WORLD);
      break;
    case ALLREDUCE:
      MPI_Allreduce(abuf, bbuf, n / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      break;
    default:
      MPI_Bcast(abuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
      break;
    }
  }
  return (MPI_Wtime() - t0) * 1e6 / iters;
}

/* The median over rounds of the slowest rank's time, on rank 0. */
static double median_of(double *t, int rounds) {
  double *all = malloc(sizeof(double) * (size_t)rounds);
  double m;
  MPI_Reduce(t, all, rounds, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  qsort(all, (size_t)rounds, sizeof *all, cmp_double);
  m = all[rounds / 2];
  free(all);
  return m;
}

static void pingpongs(int rounds) {
  static const int sizes[] = {0, 8, 1024, 65536, 1 << 20, 4 << 20};
  double t[MAXROUNDS];
  int far, s, r;
  for (far = 0; far < 2 && (far == 0 || size > 2); far++) {
    int b = far ? size - 1 : 1;
    if (size < 2)
      return;
    for (s = 0; s < (int)(sizeof sizes / sizeof *sizes); s++) {
      int n = sizes[s], it = iterations(n);
      double us;
      pingpong_round(0, b, n, it / 4 + 1);
      for (r = 0; r < rounds; r++)
        t[r] = pingpong_round(0, b, n, it);
      us = median_of(t, rounds);
      if (rank == 0)
        printf("{\"op\": \"pingpong\", \"pair\": \"%s\", \"ranks\": %d, \"bytes\": %d, \"us\": %.3f, \"mb_s\": %.1f}\n",
               far ? "far" : "near", size, n, us, us > 0 ? n / us : 0.0);
    }
  }
}

static void collectives(int rounds) {
  static const char *const names[] = {"barrier", "alltoall", "allreduce", "bcast"};
  static const int sizes[] = {8, 1024, 65536, 1 << 20};
  double t[MAXROUNDS];
  int op, s, r;
  for (op = BARRIER; op <= BCAST; op++) {
    for (s = 0; s < (int)(sizeof sizes / sizeof *sizes); s++) {
      int n = sizes[s], it = iterations(op == ALLTOALL ? n * size : n);
      double us;
      if (op == BARRIER && s > 0)
        break;
      if (op == ALLTOALL && (long)n * size > MAXBYTES)
        break;
      collective_round(op, n, it / 4 + 1);
      for (r = 0; r < rounds; r++)
        t[r] = collective_round(op, n, it);
      us = median_of(t, rounds);
      if (rank == 0)
        printf("{\"op\": \"%s\", \"ranks\": %d, \"bytes\": %d, \"us\": %.3f}\n", names[op], size,
               op == BARRIER ? 0 : n, us);
    }
  }
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 7;
  if (argc > 2)
    maxiters = atoi(argv[2]);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rounds < 1 || rounds > MAXROUNDS || maxiters < 5) {
    if (rank == 0)
      fprintf(stderr, "calib: ROUNDS must be 1 to %d and CALLS at least 5 (got '%s'%s%s)\n", MAXROUNDS, argv[1],
              argc > 2 ? " and " : "", argc > 2 ? argv[2] : "");
    MPI_Finalize();
    return 2;
  }
  abuf = malloc(MAXBYTES);
  bbuf = malloc(MAXBYTES);
  memset(abuf, 1, MAXBYTES);
  memset(bbuf, 0, MAXBYTES);
  pingpongs(rounds);
  collectives(rounds);
  free(abuf);
  free(bbuf);
  MPI_Finalize();
  return 0;
}
