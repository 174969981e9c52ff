/* Large-vector reduction benchmark (benchmarks/reduce/bench.py runs it):
 * MPI_Reduce / MPI_Allreduce of floats (MPI_SUM) against mpiopt_reduce /
 * mpiopt_allreduce (the algorithm MPIOPT_REDUCE_ALGO / MPIOPT_ALLREDUCE_ALGO
 * forces, or the selector's), one of them per run.
 *
 *   reduce_bench reduce|allreduce mpi|ours ZEROS COUNT,COUNT,... [ITERS]
 *   reduce_bench local mpi 0 COUNT,...   MPI_Reduce_local alone (the gamma
 *                                        of the runtime's cost model)
 *
 * ZEROS is the percentage of zero elements (placed at random, the same on
 * every rank for a fair comparison of encodings: each rank's own pattern).
 * For each count, rank 0 prints "count median_us algorithm": the median
 * over the calls (each between barriers) of the slowest rank's time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiopt/coll.h"

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 5) {
    if (rank == 0) fprintf(stderr, "usage: reduce_bench reduce|allreduce mpi|ours ZEROS COUNTS [ITERS]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int all = !strcmp(argv[1], "allreduce"), local = !strcmp(argv[1], "local"), ours = !strcmp(argv[2], "ours"),
      zeros = atoi(argv[3]);
  int fixed_iters = argc > 5 ? atoi(argv[5]) : 0;
  long counts[64];
  int nc = 0;
  for (char *p = argv[4]; *p && nc < 64; p++) {
    counts[nc++] = strtol(p, &p, 10);
    if (!*p) break;
  }
  long max = 0;
  for (int i = 0; i < nc; i++) max = counts[i] > max ? counts[i] : max;
  float *in = malloc(sizeof(float) * (size_t)max), *out = malloc(sizeof(float) * (size_t)max);
  unsigned h = 12345u + (unsigned)rank * 7919u;
  for (long i = 0; i < max; i++) {
    h = h * 1664525u + 1013904223u;
    in[i] = (int)((h >> 8) % 100) < zeros ? 0.0f : (float)((h >> 16) % 7 + 1);
    out[i] = 0;
  }
  for (int c = 0; c < nc; c++) {
    int n = (int)counts[c];
    int iters = fixed_iters ? fixed_iters : (int)(n <= 65536 ? 200 : n <= 1048576 ? 40 : n <= 4194304 ? 12 : 5);
    double *t = malloc(sizeof(double) * (size_t)iters);
    for (int it = -2; it < iters; it++) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      if (local)
        MPI_Reduce_local(in, out, n, MPI_FLOAT, MPI_SUM);
      else if (all && ours)
        mpiopt_allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      else if (all)
        MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      else if (ours)
        mpiopt_reduce(in, out, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
      else
        MPI_Reduce(in, out, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
      double dt = MPI_Wtime() - t0;
      MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (it >= 0) t[it] = dt;
    }
    qsort(t, (size_t)iters, sizeof *t, cmp);
    if (rank == 0) printf("%d %.2f %s\n", n, t[iters / 2] * 1e6, ours ? mpiopt_coll_last_algorithm() : "mpi");
    free(t);
  }
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
