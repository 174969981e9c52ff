/* End-to-end cases of lazy-deferral: built with ompi-cc and with plain
 * mpicc, the outputs must be identical. Data are small integers, so every
 * sum is exact in any reduction order. */
#include <mpi.h>
#include <stdio.h>

#define N 12
static double s1, s2;
static long counts[4];
static int jmin, jmax;

static void note(const char *m) { (void)m; }

/* The CFL paper's Fig. 1: one reduction per function. */
static void sum(const double *d) {
  double s = 0.0;
  for (int j = jmin; j <= jmax; j++)
    s += d[j];
  MPI_Allreduce(&s, &s1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void sumsq(const double *d) {
  double s = 0.0;
  for (int j = jmin; j <= jmax; j++)
    s += d[j] * d[j];
  MPI_Allreduce(&s, &s2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void tally(long n, int k) { MPI_Reduce(&n, &counts[k], 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD); }

static long iterate(long x, int rank) {
  long err, local, norm = 0, lnorm;
  int steps = 0;
  do {
    local = x / 2 + rank;
    x = local;
    MPI_Allreduce(&local, &err, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    note("step");
    lnorm = x * x;
    MPI_Allreduce(&lnorm, &norm, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    steps++;
  } while (err > 20 && steps < 50);
  tally(steps, 0);
  tally(x, 1);
  return norm + steps;
}

static void spread(double x, int rank) {
  double lo, hi;
  MPI_Allreduce(&x, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  note("between");
  MPI_Allreduce(&x, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("spread %g %g\n", lo, hi);
}

int main(int argc, char **argv) {
  static double a[N][N], var[N];
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  jmin = rank * N / size;
  jmax = (rank + 1) * N / size - 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      a[i][j] = (i * 7 + j * 3) % 11;
  for (int i = 0; i < N; i++) {
    sum(a[i]);
    sumsq(a[i]);
    var[i] = (s2 * N - s1 * s1); /* N(N-1) times the variance: exact */
  }
  long it = iterate(1000, rank);
  spread(rank * 3.0, rank);
  if (rank == 0) {
    for (int i = 0; i < N; i++)
      printf("%d %.1f\n", i, var[i]);
    printf("iterate %ld counts %ld %ld\n", it, counts[0], counts[1]);
  }
  MPI_Finalize();
  return 0;
}
