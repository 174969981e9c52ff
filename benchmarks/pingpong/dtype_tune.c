/* dtype_tune.c: the measurement behind the machine profile's
 * "templates.vector" points (scripts/tune). A ping-pong between ranks 0 and
 * 1 of a matrix column, N doubles STRIDE doubles apart (MPI_Type_vector(N,
 * 1, STRIDE, MPI_DOUBLE)), sent and received with the derived type
 * (generic) and through the templates of templates/mpiopt/dtype.h called
 * as ompi-opt calls them (the shape as constants), in alternating rounds;
 * medians of the rounds, microseconds per one-way message.
 *
 * With more than two ranks, every pair (0,1), (2,3), ... runs its ping-pong
 * at the same time (an odd last rank waits), so the figures are those of a
 * machine as loaded as a program with that many ranks per node loads it:
 * the copies a template adds cost more when every core is copying. Tune
 * with the ranks per node the programs will run with.
 *
 *   mpiexec -n 2 ./dtype_tune [ROUNDS]
 * Prints one JSON object per size on rank 0:
 *   {"family": "vector", "bytes": B, "generic_us": G, "template_us": T} */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiopt/dtype.h"

#define STRIDE 64

static int paired; /* ranks below this one have a partner */

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One round: iters round trips of the column, generic or through the
   template; microseconds per one-way message (rank 0's clock). */
#define ROUND(N)                                                                                                       \
  static double round_##N(double *a, MPI_Datatype col, int rank, int iters, int tpl) {                                \
    int base = rank & ~1;                                                                                              \
    MPI_Barrier(MPI_COMM_WORLD);                                                                                       \
    double t0 = MPI_Wtime();                                                                                           \
    for (int i = 0; rank < paired && i < iters; i++) {                                                                 \
      for (int r = base; r < base + 2; r++) {                                                                          \
        if (rank == r) {                                                                                               \
          if (tpl)                                                                                                     \
            mpiopt_send_dtype(a, 1, col, r ^ 1, 0, MPI_COMM_WORLD, N, 1, STRIDE * 8, ((N)-1) * STRIDE * 8 + 8,        \
                              MPI_DOUBLE, 8, 0);                                                                       \
          else                                                                                                         \
            MPI_Send(a, 1, col, r ^ 1, 0, MPI_COMM_WORLD);                                                             \
        } else if (rank == (r ^ 1)) {                                                                                  \
          if (tpl)                                                                                                     \
            mpiopt_recv_dtype(a, 1, col, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, N, 1, STRIDE * 8,                   \
                              ((N)-1) * STRIDE * 8 + 8, MPI_DOUBLE, 8);                                                \
          else                                                                                                         \
            MPI_Recv(a, 1, col, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);                                              \
        }                                                                                                              \
      }                                                                                                                \
    }                                                                                                                  \
    return (MPI_Wtime() - t0) / iters / 2 * 1e6;                                                                       \
  }
ROUND(8)
ROUND(64)
ROUND(512)
ROUND(2048)
ROUND(4096)
ROUND(8192)
ROUND(32768)

typedef double (*round_fn)(double *, MPI_Datatype, int, int, int);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 15;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  paired = size & ~1;
  if (size < 2 || rounds < 1) {
    if (!rank) fprintf(stderr, "usage: mpiexec -n 2 (or more) dtype_tune [ROUNDS >= 1]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  static const int sizes[] = {8, 64, 512, 2048, 4096, 8192, 32768};
  static const round_fn fns[] = {round_8, round_64, round_512, round_2048, round_4096, round_8192, round_32768};
  const int nsizes = (int)(sizeof sizes / sizeof *sizes);
  double *a = calloc((size_t)32768 * STRIDE, sizeof *a), *g = malloc(sizeof *g * (size_t)rounds),
         *t = malloc(sizeof *t * (size_t)rounds);
  if (!a || !g || !t) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < nsizes; k++) {
    int n = sizes[k], iters = n <= 64 ? 2000 : n <= 4096 ? 200 : n <= 8192 ? 60 : 20;
    MPI_Datatype col;
    MPI_Type_vector(n, 1, STRIDE, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    fns[k](a, col, rank, iters / 4 + 1, 0); /* warm up both */
    fns[k](a, col, rank, iters / 4 + 1, 1);
    for (int r = 0; r < rounds; r++) {
      int first = r % 2;
      double x = fns[k](a, col, rank, iters, first), y = fns[k](a, col, rank, iters, !first);
      g[r] = first ? y : x;
      t[r] = first ? x : y;
    }
    qsort(g, (size_t)rounds, sizeof *g, cmp);
    qsort(t, (size_t)rounds, sizeof *t, cmp);
    if (!rank)
      printf("{\"family\": \"vector\", \"bytes\": %d, \"generic_us\": %.3f, \"template_us\": %.3f}\n", n * 8,
             g[rounds / 2], t[rounds / 2]);
    MPI_Type_free(&col);
  }
  free(a);
  free(g);
  free(t);
  MPI_Finalize();
  return 0;
}
