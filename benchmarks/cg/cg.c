/* cg.c: the conjugate-gradient core of the OMPI paper's application
 * benchmark, on the 2-D Poisson matrix (5-point stencil, zero Dirichlet
 * boundary) of a grid of P x Q processes, each holding N x N points plus a
 * halo of one. Every iteration exchanges the halo of the search direction
 * (north and south rows contiguous, east and west columns one
 * MPI_Type_vector(N, 1, N + 2) each, through MPI_Sendrecv), applies the
 * matrix, and takes two dot products (MPI_Allreduce of one double each;
 * the second depends on the first, so they cannot be fused).
 *
 * `ompi-cc` replaces the column exchanges by the compiled pack loops of
 * templates/mpiopt/dtype.h where the machine profile measured them winning
 * (benchmarks/cg/bench.py compares the two builds). N is a compile-time
 * constant (-DN=128): the column's shape is static and the templates get it
 * as constants; with -DRUNTIME_N it comes from the command line, and the
 * shape is recorded when the type is built.
 *
 *   mpicc -DN=128 cg.c -lm; mpiexec -n P ./cg ITERATIONS
 *   mpicc -DRUNTIME_N cg.c -lm; mpiexec -n P ./cg ITERATIONS N
 * Prints "N seconds_per_iteration exchange_seconds_per_iteration residual"
 * on rank 0 (the slowest rank's times; the residual norm after the
 * iterations, which the two builds must print alike). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 128
#endif
#ifdef RUNTIME_N /* the size from the command line: the column's shape known only at run time */
static int n = N;
#else
static const int n = N;
#endif
#define W (n + 2)
#define AT(i, j) ((size_t)(i) * (size_t)W + (size_t)(j))

static double dot(const double *a, const double *b, MPI_Comm comm) {
  double local = 0, all = 0;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++)
      local += a[AT(i, j)] * b[AT(i, j)];
  MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_SUM, comm);
  return all;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, rank, iters = argc > 1 ? atoi(argv[1]) : 100;
#ifdef RUNTIME_N
  n = argc > 2 ? atoi(argv[2]) : N;
#endif
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (iters < 1) {
    fprintf(stderr, "usage: cg ITERATIONS (at least 1)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int dims[2] = {0, 0}, periods[2] = {0, 0}, north, south, west, east;
  MPI_Comm grid;
  MPI_Dims_create(size, 2, dims);
  int rows = dims[1]; /* more process columns than rows: 2 ranks exchange columns */
  dims[1] = dims[0];
  dims[0] = rows;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_shift(grid, 0, 1, &north, &south);
  MPI_Cart_shift(grid, 1, 1, &west, &east);

  MPI_Datatype column;
  MPI_Type_vector(n, 1, W, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);

  size_t total = (size_t)W * (size_t)W;
  double *x = calloc(total, sizeof *x), *r = calloc(total, sizeof *r), *p = calloc(total, sizeof *p),
         *q = calloc(total, sizeof *q);
  if (!x || !r || !p || !q)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 1; i <= n; i++) /* b: a smooth right-hand side, x0 = 0, r = p = b */
    for (int j = 1; j <= n; j++)
      r[AT(i, j)] = p[AT(i, j)] = 1.0 + 0.001 * (double)((i * 31 + j * 17 + rank * 7) % 97);
  double rr = dot(r, r, grid), tx = 0;

  MPI_Barrier(grid);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iters; it++) {
    double t1 = MPI_Wtime();
    MPI_Sendrecv(&p[AT(1, 1)], n, MPI_DOUBLE, north, 0, &p[AT(n + 1, 1)], n, MPI_DOUBLE, south, 0, grid,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&p[AT(n, 1)], n, MPI_DOUBLE, south, 1, &p[AT(0, 1)], n, MPI_DOUBLE, north, 1, grid,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&p[AT(1, 1)], 1, column, west, 2, &p[AT(1, n + 1)], 1, column, east, 2, grid, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&p[AT(1, n)], 1, column, east, 3, &p[AT(1, 0)], 1, column, west, 3, grid, MPI_STATUS_IGNORE);
    tx += MPI_Wtime() - t1;
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++)
        q[AT(i, j)] = 4.0 * p[AT(i, j)] - p[AT(i - 1, j)] - p[AT(i + 1, j)] - p[AT(i, j - 1)] - p[AT(i, j + 1)];
    double alpha = rr / dot(p, q, grid);
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++) {
        x[AT(i, j)] += alpha * p[AT(i, j)];
        r[AT(i, j)] -= alpha * q[AT(i, j)];
      }
    double rr_next = dot(r, r, grid), beta = rr_next / rr;
    rr = rr_next;
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++)
        p[AT(i, j)] = r[AT(i, j)] + beta * p[AT(i, j)];
  }
  double t[2] = {(MPI_Wtime() - t0) / iters, tx / iters}, tmax[2];
  MPI_Reduce(t, tmax, 2, MPI_DOUBLE, MPI_MAX, 0, grid);
  if (rank == 0)
    printf("%d %.6e %.6e %.12e\n", n, tmax[0], tmax[1], sqrt(rr));
  MPI_Type_free(&column);
  MPI_Comm_free(&grid);
  free(x);
  free(r);
  free(p);
  free(q);
  MPI_Finalize();
  return 0;
}
