/* variance.c: the variance benchmark of Field, Kelly and Hansen (CFL,
 * Fig. 1), with its two reductions written inline in the loop.
 *
 * N batches of M values, replicated on every rank; each rank sums its share
 * of every batch's values and of their squares, and two MPI_Allreduce calls
 * combine the partial sums; var[i] is then computed from both.
 *
 *   build: mpicc variance.c              (original)
 *          mpicc -DHAND_FUSED variance.c  (the two reductions fused by hand)
 *          ompi-cc variance.c             (fused by ompi-opt)
 *          mpicc -DFUNCTIONS variance.c   (the paper's form: each reduction in its own
 *                                          function, out of static fusion's sight)
 *          ompi-cc -DFUNCTIONS variance.c (deferred by ompi-opt, fused by the runtime)
 *   run:   mpiexec -n P ./variance N [REPEAT [EXTRA]]
 * EXTRA (Fig. 2 of the paper): that many further sum() reductions per batch,
 * into extra[k]; their results are read with var[i], so with deferral all
 * EXTRA + 2 reductions of a batch go in one collective.
 * Prints: "N seconds checksum" on rank 0 (REPEAT passes over the N batches
 * are timed, so that small sizes still take measurable time). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_EXTRA 64
static double s1, s2, extra[MAX_EXTRA];
static int jmin, jmax;

#ifdef FUNCTIONS
static void sum(const double *data, double *unused) {
  double s = 0.0;
  (void)unused;
  for (int j = jmin; j < jmax; j++)
    s += data[j];
  MPI_Allreduce(&s, &s1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static void sumsq(const double *data) {
  double s = 0.0;
  for (int j = jmin; j < jmax; j++)
    s += data[j] * data[j];
  MPI_Allreduce(&s, &s2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
#endif
/* The k-th extra reduction of Fig. 2: a weighted sum of the batch (the
 * weight keeps the compiler from computing one sum for every k). */
static void sumk(const double *data, int k) {
  double s = 0.0, w = k + 1;
  for (int j = jmin; j < jmax; j++)
    s += data[j] * w;
  MPI_Allreduce(&s, &extra[k], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int rank, size, i, j, r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 500;
  int repeat = argc > 2 ? atoi(argv[2]) : 10;
  int nextra = argc > 3 ? atoi(argv[3]) : 0;
  if (n < 2 || repeat < 1 || nextra < 0 || nextra > MAX_EXTRA) {
    if (rank == 0)
      fprintf(stderr, "usage: variance N [REPEAT [EXTRA]] (N >= 2, REPEAT >= 1, 0 <= EXTRA <= %d)\n", MAX_EXTRA);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int m = n;
  double *a = malloc(sizeof(double) * (size_t)n * (size_t)m);
  double *var = malloc(sizeof(double) * (size_t)n);
  if (!a || !var) {
    fprintf(stderr, "variance: out of memory for N=%d\n", n);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      a[(size_t)i * m + j] = (double)((i * 7 + j * 13) % 101) / 10.0;
  /* This rank's share of every batch. */
  jmin = (int)((long)m * rank / size);
  jmax = (int)((long)m * (rank + 1) / size);
  double echeck = 0;

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (r = 0; r < repeat; r++) {
    for (i = 0; i < n; i++) {
      const double *data = &a[(size_t)i * m];
      for (int k = 0; k < nextra; k++)
        sumk(data, k);
#ifdef HAND_FUSED
      /* The paper's hand optimisation: the same two local sums, combined
       * into one reduction over a two-element vector. */
      double s[2] = {0.0, 0.0}, g[2];
      for (j = jmin; j < jmax; j++)
        s[0] += data[j];
      for (j = jmin; j < jmax; j++)
        s[1] += data[j] * data[j];
      MPI_Allreduce(s, g, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      s1 = g[0];
      s2 = g[1];
#elif defined(FUNCTIONS)
      sum(data, NULL);
      sumsq(data);
#else
      double s = 0.0;
      for (j = jmin; j < jmax; j++)
        s += data[j];
      MPI_Allreduce(&s, &s1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      s = 0.0;
      for (j = jmin; j < jmax; j++)
        s += data[j] * data[j];
      MPI_Allreduce(&s, &s2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#endif
      var[i] = (s2 - s1 * s1 / m) / (m - 1);
      for (int k = 0; k < nextra; k++)
        echeck += extra[k];
    }
  }
  double t = MPI_Wtime() - t0, tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double check = 0;
  for (i = 0; i < n; i++)
    check += var[i];
  check += echeck * 1e-9;
  if (rank == 0)
    printf("%d %.6f %.9e\n", n, tmax, check);
  free(a);
  free(var);
  MPI_Finalize();
  return 0;
}
