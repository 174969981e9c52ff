/* Alltoallv benchmark (benchmarks/alltoallv/bench.py runs it): the planned
 * Alltoallv against MPI_Alltoallv, one of them per run.
 *
 *   a2av_bench uniform K mpi|plan ITERS     every pair exchanges K doubles
 *   a2av_bench fft N mpi|plan ITERS          the transpose of an N^3 grid of
 *                                            complex doubles from x-slabs to
 *                                            y-slabs (blocks nx(i) ny(j) N)
 *
 * Prints one line on rank 0: "median_us create_us algorithm inter_msgs
 * intra_msgs checksum": the median over ITERS calls (each between
 * barriers) of the slowest rank's time, the plan's creation time, and the
 * messages of one call over all ranks as MPI's own pairwise exchange would
 * send them (for mpi; MPIOPT_STATS=1 counts the plan's), with
 * MPIOPT_RANKS_PER_NODE's emulated nodes. Both forms first make WARMUP
 * untimed calls: the plan's check of its algorithm against the MPI's own
 * (runtime/coll/alltoallv/trial.c, at most 48 executions) is over before the
 * timing starts. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiopt/plan.h"

enum { WARMUP = 50 };

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int planes(int n, int P, int r) { return n / P + (r < n % P); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (argc != 5) {
    if (rank == 0) fprintf(stderr, "usage: a2av_bench uniform|fft K|N mpi|plan ITERS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int fft = !strcmp(argv[1], "fft"), k = atoi(argv[2]), plan_it = !strcmp(argv[3], "plan"), iters = atoi(argv[4]);
  int *sc = malloc(sizeof(int) * (size_t)P), *sd = malloc(sizeof(int) * (size_t)P);
  int *rc = malloc(sizeof(int) * (size_t)P), *rd = malloc(sizeof(int) * (size_t)P);
  int s = 0, r = 0;
  for (int j = 0; j < P; j++) { /* in doubles: a complex value is two */
    sc[j] = fft ? 2 * planes(k, P, rank) * planes(k, P, j) * k : k;
    rc[j] = fft ? 2 * planes(k, P, j) * planes(k, P, rank) * k : k;
    sd[j] = s;
    rd[j] = r;
    s += sc[j];
    r += rc[j];
  }
  double *sb = malloc(sizeof(double) * (size_t)(s + 1)), *rb = malloc(sizeof(double) * (size_t)(r + 1));
  for (int i = 0; i < s; i++) sb[i] = rank + i * 1e-3;
  const char *rpn_s = getenv("MPIOPT_RANKS_PER_NODE");
  int rpn = rpn_s ? atoi(rpn_s) : 0;
  long long msgs[2] = {0, 0}; /* inter, intra: MPI's pairwise messages of this rank */
  for (int j = 0; j < P; j++)
    if (j != rank && sc[j]) msgs[rpn > 0 && j / rpn != rank / rpn ? 0 : 1]++;
  MPI_Allreduce(MPI_IN_PLACE, msgs, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  mpiopt_plan plan = NULL;
  double create = 0;
  if (plan_it) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    mpiopt_alltoallv_plan_create(sc, sd, MPI_DOUBLE, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD, &plan);
    create = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &create, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  double *t = malloc(sizeof(double) * (size_t)iters);
  for (int it = -WARMUP; it < iters; it++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (plan_it)
      mpiopt_plan_execute(plan, sb, rb);
    else
      MPI_Alltoallv(sb, sc, sd, MPI_DOUBLE, rb, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (it >= 0) t[it] = dt;
  }
  qsort(t, (size_t)iters, sizeof *t, cmp);
  double sum = 0;
  for (int i = 0; i < r; i++) sum += rb[i];
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%.3f %.1f %s %lld %lld %.6e\n", t[iters / 2] * 1e6, create * 1e6, plan ? mpiopt_plan_algorithm(plan) : "mpi",
           msgs[0], msgs[1], sum);
  mpiopt_plan_free(&plan);
  free(t);
  free(sb);
  free(rb);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  MPI_Finalize();
  return 0;
}
