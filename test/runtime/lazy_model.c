/* The grouped/composite choice of runtime/lazy/select.c follows its cost
 * model. Run with MPIOPT_LAZY_MODEL=8:1,1000:1,2000:-5: a saving of 1 us per
 * batch up to 1000 bytes, falling to -5 us at 2000 bytes. Each case queues
 * a batch, flushes it, checks the results and counts the collectives the
 * flush issued (1: composite; one per group: grouped). */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"
#include "mpiopt/lazy.h"

static unsigned long long collectives(void) {
  mpiopt_lazy_stats_t s;
  mpiopt_lazy_get_stats(&s);
  return s.collectives;
}

/* Groups: a SUM of n doubles, a MAX of one long, and `extra` more groups
   (MIN of an int, PROD of a float, MAX of a double) up to three. */
static void batch(int n, int extra, unsigned long long expect, const char *what) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *in = malloc(sizeof *in * (size_t)n), *out = malloc(sizeof *out * (size_t)n), dmax = 0;
  long l = rank, lmax = -1;
  int i = rank + 5, imin = 0;
  float f = 1.5f, fprod = 0;
  double d = -rank, dm = 0;
  for (int k = 0; k < n; k++) in[k] = k + rank;
  unsigned long long before = collectives();
  mpiopt_lazy_allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  mpiopt_lazy_allreduce(&l, &lmax, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (extra > 0) mpiopt_lazy_allreduce(&i, &imin, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (extra > 1) mpiopt_lazy_allreduce(&f, &fprod, 1, MPI_FLOAT, MPI_PROD, MPI_COMM_WORLD);
  if (extra > 2) mpiopt_lazy_allreduce(&d, &dm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  mpiopt_lazy_flush(MPI_COMM_WORLD);
  CHECK(collectives() - before == expect, "%s: %llu collectives, expected %llu", what, collectives() - before,
        expect);
  for (int k = 0; k < n; k++)
    CHECK(out[k] == (double)k * size + (double)size * (size - 1) / 2, "%s: out[%d] = %g", what, k, out[k]);
  CHECK(lmax == size - 1, "%s: max %ld", what, lmax);
  if (extra > 0) CHECK(imin == 5, "%s: min %d", what, imin);
  if (extra > 1) {
    float p = 1;
    for (int r = 0; r < size; r++) p *= 1.5f;
    CHECK(fprod == p, "%s: prod %g", what, (double)fprod);
  }
  if (extra > 2) CHECK(dm == 0, "%s: max %g", what, dm);
  (void)dmax;
  free(in);
  free(out);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  /* 16 + 8 bytes: saving 1 > 0, one composite collective. */
  batch(2, 0, 1, "small batch");
  /* 1600 + 8 bytes: saving 1 - 0.608 * 6 < 0: grouped, two collectives. */
  batch(200, 0, 2, "large batch of two groups");
  /* The same vector with three more groups: -2.7 + 3 * 1 > 0, composite. */
  batch(200, 3, 1, "large batch of five groups");
  /* Beyond the last point the curve stays at -5: 4 groups, -5 + 2 < 0. */
  batch(1000, 2, 4, "very large batch");
  if (check_rank == 0) printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
