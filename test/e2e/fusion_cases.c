/* Every positive case of reduction-fusion in one program. Prints exact
 * values only: integers, and doubles that are small integers (sums of
 * them are exact in any order), from rank 0. */
#include <mpi.h>
#include <stdio.h>

#define N 12
static double a[N][N], var[N], s1, s2;

static void variance(int rank) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i][j] = (double)((i * 3 + j * 5 + rank) % 7);
  for (i = 0; i < N; i++) {
    double s = 0.0;
    for (j = 0; j < N; j++)
      s += a[i][j];
    MPI_Allreduce(&s, &s1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    s = 0.0;
    for (j = 0; j < N; j++)
      s += a[i][j] * a[i][j];
    MPI_Allreduce(&s, &s2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    var[i] = s2 * N - s1 * s1; /* N^2 (N-1) times the variance: exact */
  }
}

static int three(int x, int y, int z) {
  int sx = 0, sy = 0, sz = 0, rc1, rc2, rc3;
  rc1 = MPI_Allreduce(&x, &sx, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  rc2 = MPI_Allreduce(&y, &sy, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  rc3 = MPI_Allreduce(&z, &sz, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return (rc1 | rc2 | rc3) != MPI_SUCCESS ? -1 : sx * 10000 + sy * 100 + sz;
}

static void arrays(int rank, double *out) {
  double lo[4] = {1, 2, 3, 4}, hi[3] = {5, 6, 7}, rlo[4], rhi[3], inplace[2] = {8, 9};
  int cnt[2] = {rank, 2 * rank}, rcnt[2], big = 3 + rank, rbig;
  lo[rank % 4] += rank;
  MPI_Allreduce(lo, rlo, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(cnt, rcnt, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, inplace, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&big, &rbig, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(hi, rhi, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  out[0] = rlo[0] + 10 * rlo[3] + 100 * rhi[2] + 1000 * inplace[1];
  out[1] = rcnt[1] * 100 + rbig;
}

static void reduce_to_root(int rank, long *out) {
  long x = rank + 1, y = 10 * (rank + 1), rx = -1, ry = -1;
  MPI_Reduce(&x, &rx, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&y, &ry, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  /* Off the root the receive buffers keep their values, as before. */
  *out = rank == 0 ? rx * 1000 + ry : rx + ry;
}

/* Counts known only at run time: small (a stack buffer) and large (heap). */
static long runtime_counts(int rank, int n) {
  int a[600], b[600], ra[600], rb[600], k;
  int m = n / 2;
  long t = 0;
  for (k = 0; k < n; k++) {
    a[k] = rank + k;
    b[k] = rank * k;
  }
  MPI_Allreduce(a, ra, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(b, rb, m, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (k = 0; k < n; k++)
    t += ra[k];
  for (k = 0; k < m; k++)
    t += rb[k] * 3;
  return t;
}

int main(int argc, char **argv) {
  int rank, size, i;
  double arr[2];
  long red, others = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  variance(rank);
  arrays(rank, arr);
  reduce_to_root(rank, &red);
  if (rank != 0)
    others = red;
  MPI_Allreduce(MPI_IN_PLACE, &others, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  int t = three(rank, 2 * rank, 3);
  int small = argc > 100 ? 1 : 10, large = argc > 100 ? 1 : 500;
  long rsmall = runtime_counts(rank, small), rlarge = runtime_counts(rank, large);
  if (rank == 0) {
    printf("ranks %d\n", size);
    for (i = 0; i < N; i++)
      printf("var[%d] %.1f\n", i, var[i]);
    printf("three %d\n", t);
    printf("arrays %.1f %.1f\n", arr[0], arr[1]);
    printf("reduce %ld untouched-off-root %ld\n", red, size > 1 ? others : -2L);
    printf("runtime counts %ld %ld\n", rsmall, rlarge);
  }
  MPI_Finalize();
  return 0;
}
