/* Allgatherv benchmark (benchmarks/allgatherv/bench.py runs it): the
 * planned Allgatherv against MPI_Allgatherv, one of them per run.
 *
 *   agv_bench uniform K mpi|plan ITERS   every rank contributes K doubles
 *   agv_bench uneven K mpi|plan ITERS    rank i contributes K * (i % 4) doubles
 *                                        (a quarter of the ranks nothing)
 *   agv_bench gather K mpi|plan ITERS    MPI_Allgather of K doubles against
 *                                        mpiopt_allgather_planned (scripts/tune's
 *                                        "allgather" points)
 *
 * Prints one line on rank 0: "median_us create_us algorithm checksum": the
 * median over ITERS calls (each between barriers) of the slowest rank's
 * time, the plan's creation time, the algorithm the plan kept. Both forms
 * first make WARMUP untimed calls: the plan's check of its algorithm
 * against the MPI's own (at most 32 executions) is over before the timing
 * starts. */
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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (argc != 5) {
    if (rank == 0) fprintf(stderr, "usage: agv_bench uniform|uneven|gather K mpi|plan ITERS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int uneven = !strcmp(argv[1], "uneven"), gather = !strcmp(argv[1], "gather"), k = atoi(argv[2]),
      plan_it = !strcmp(argv[3], "plan");
  int iters = atoi(argv[4]);
  int *rc = malloc(sizeof(int) * (size_t)P), *rd = malloc(sizeof(int) * (size_t)P), r = 0;
  for (int j = 0; j < P; j++) {
    rc[j] = uneven ? k * (j % 4) : k;
    rd[j] = r;
    r += rc[j];
  }
  int n = rc[rank];
  double *sb = malloc(sizeof(double) * (size_t)(n + 1)), *rb = malloc(sizeof(double) * (size_t)(r + 1));
  for (int i = 0; i < n; i++) sb[i] = rank + i * 1e-3;
  mpiopt_plan plan = NULL;
  double create = 0;
  if (plan_it && !gather) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    mpiopt_allgatherv_plan_create(n, MPI_DOUBLE, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD, &plan);
    create = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &create, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  double *t = malloc(sizeof(double) * (size_t)iters);
  for (int it = -WARMUP; it < iters; it++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (gather && plan_it) /* as ompi-opt writes it: the plan made at the second call */
      mpiopt_allgather_planned(&plan, sb, n, MPI_DOUBLE, rb, n, MPI_DOUBLE, MPI_COMM_WORLD);
    else if (gather)
      MPI_Allgather(sb, n, MPI_DOUBLE, rb, n, MPI_DOUBLE, MPI_COMM_WORLD);
    else if (plan_it)
      mpiopt_plan_execute(plan, sb, rb);
    else
      MPI_Allgatherv(sb, n, MPI_DOUBLE, rb, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (it >= 0) t[it] = dt;
  }
  qsort(t, (size_t)iters, sizeof *t, cmp);
  double sum = 0;
  for (int i = 0; i < r; i++) sum += rb[i];
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%.3f %.1f %s %.6e\n", t[iters / 2] * 1e6, create * 1e6, plan ? mpiopt_plan_algorithm(plan) : "mpi", sum);
  mpiopt_plan_free(&plan);
  free(t);
  free(sb);
  free(rb);
  free(rc);
  free(rd);
  MPI_Finalize();
  return 0;
}
