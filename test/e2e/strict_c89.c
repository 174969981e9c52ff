/* Strict C89 (built with -ansi -pedantic-errors -Wdeclaration-after-statement
 * -Wall -Wextra -Werror): every transformation's output must still compile,
 * so the optimised build is the one that runs. Exact integer data. */
#include <mpi.h>
#include <stdio.h>

#define N 8
static double total, top;

static void stats(const double *d, int n) {
  double s = 0.0, m = 0.0;
  int i;
  for (i = 0; i < n; i++) {
    s += d[i];
    if (d[i] > m)
      m = d[i];
  }
  MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&m, &top, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

static long deferred(int rank) {
  long a = rank + 1, b = 2 * rank, ga, gb;
  MPI_Allreduce(&a, &ga, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  a = 7;
  MPI_Allreduce(&b, &gb, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  {
    long sum = ga + gb;
    long prod = ga * gb;
    return sum + prod + a;
  }
}

static int mixed(int rank) {
  int lo, hi, x = rank * 3;
  long n = rank, gn;
  MPI_Allreduce(&x, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&n, &gn, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return lo + hi + (int)gn;
}

static void column(int rank, int size) {
  double m[N][N], got[N][N];
  MPI_Datatype col;
  MPI_Status st;
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      m[i][j] = i * N + j + rank;
      got[i][j] = -1;
    }
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Sendrecv(&m[0][1], 1, col, (rank + 1) % size, 0, &got[0][2], 1, col, (rank + size - 1) % size, 0,
               MPI_COMM_WORLD, &st);
  MPI_Type_free(&col);
  if (rank == 0)
    for (i = 0; i < N; i++)
      printf("column %d: %g %g\n", i, got[i][2], got[i][1]);
}

int main(int argc, char **argv) {
  double d[N];
  int rank, size, i;
  long r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < N; i++)
    d[i] = rank + i;
  stats(d, N);
  r = deferred(rank);
  if (rank == 0)
    printf("total %g top %g deferred %ld mixed %d\n", total, top, r, mixed(rank));
  else
    mixed(rank);
  column(rank, size);
  MPI_Finalize();
  return 0;
}
