/* halo.c: a 3-D 7-point stencil (Jacobi) on a periodic Cartesian grid of
 * processes, each holding N^3 points plus a halo of one. Every iteration
 * exchanges the six faces with MPI_Sendrecv, each face one derived datatype
 * built once (the faces include the halo ring, so each is one
 * MPI_Type_vector):
 *   x faces  vector((N+2)^2, 1, N+2)        one double every N+2: the costly one
 *   y faces  vector(N+2, N+2, (N+2)^2)      a row of every plane
 *   z faces  contiguous((N+2)^2)            one plane
 * then updates the interior. The exchange is the paper's halo with derived
 * types; `ompi-cc` replaces each face's Sendrecv by the compiled pack loops
 * of templates/mpiopt/dtype.h where the machine profile measured them
 * winning (benchmarks/halo/bench.py compares the two builds).
 *
 * The size is a compile-time constant (-DN=48): the faces' shapes are then
 * static (partial evaluation of the type constructors) and the templates
 * get them as constants. With -DRUNTIME_N the size comes from the command
 * line: the shapes are known only at run time, recorded when the types are
 * built, and the templates take them from there. With -DNONBLOCKING each
 * dimension's faces go through MPI_Irecv/MPI_Isend into an array of
 * requests and one MPI_Waitall (the nonblocking templates).
 *
 *   mpicc -DN=48 halo.c; mpiexec -n P ./halo ITERATIONS
 *   mpicc -DRUNTIME_N halo.c; mpiexec -n P ./halo ITERATIONS N
 * Prints "N seconds_per_iteration exchange_seconds_per_iteration checksum"
 * on rank 0 (the slowest rank's times). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 48
#endif
#define AT(x, y, z) ((size_t)(z) * (size_t)(n + 2) * (size_t)(n + 2) + (size_t)(y) * (size_t)(n + 2) + (size_t)(x))

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, rank, dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef RUNTIME_N /* the size from the command line: shapes known only at run time */
  const int n = argc > 2 ? atoi(argv[2]) : N;
#else
  const int n = N;
#endif
  int iters = argc > 1 ? atoi(argv[1]) : 100;
  if (n < 2 || n > 512 || iters < 1) {
    fprintf(stderr, "usage: halo ITERATIONS (built with -DN=2..512)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm cart;
  MPI_Dims_create(size, 3, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  int xl, xr, yl, yr, zl, zr;
  MPI_Cart_shift(cart, 0, 1, &xl, &xr);
  MPI_Cart_shift(cart, 1, 1, &yl, &yr);
  MPI_Cart_shift(cart, 2, 1, &zl, &zr);

  MPI_Datatype xface, yface, zface;
  MPI_Type_vector((n + 2) * (n + 2), 1, n + 2, MPI_DOUBLE, &xface);
  MPI_Type_commit(&xface);
  MPI_Type_vector(n + 2, n + 2, (n + 2) * (n + 2), MPI_DOUBLE, &yface);
  MPI_Type_commit(&yface);
  MPI_Type_contiguous((n + 2) * (n + 2), MPI_DOUBLE, &zface);
  MPI_Type_commit(&zface);

  size_t total = (size_t)(n + 2) * (size_t)(n + 2) * (size_t)(n + 2);
  double *u = malloc(total * sizeof *u), *v = malloc(total * sizeof *v);
  if (!u || !v)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (size_t i = 0; i < total; i++)
    u[i] = v[i] = (double)((i * 7 + (size_t)rank * 13) % 101) / 101.0;

  MPI_Barrier(cart);
  double t0 = MPI_Wtime(), tx = 0;
  for (int it = 0; it < iters; it++) {
    double t1 = MPI_Wtime();
#ifdef NONBLOCKING
    /* Each dimension's two faces posted at once and waited for together,
       one dimension after another (the rings carry the previous ones). */
    MPI_Request rq[12];
    MPI_Status st[4];
    MPI_Irecv(&u[AT(n + 1, 0, 0)], 1, xface, xr, 0, cart, &rq[0]);
    MPI_Irecv(&u[AT(0, 0, 0)], 1, xface, xl, 1, cart, &rq[1]);
    MPI_Isend(&u[AT(1, 0, 0)], 1, xface, xl, 0, cart, &rq[2]);
    MPI_Isend(&u[AT(n, 0, 0)], 1, xface, xr, 1, cart, &rq[3]);
    MPI_Waitall(4, rq, st);
    MPI_Irecv(&u[AT(0, n + 1, 0)], 1, yface, yr, 2, cart, &rq[4]);
    MPI_Irecv(&u[AT(0, 0, 0)], 1, yface, yl, 3, cart, &rq[5]);
    MPI_Isend(&u[AT(0, 1, 0)], 1, yface, yl, 2, cart, &rq[6]);
    MPI_Isend(&u[AT(0, n, 0)], 1, yface, yr, 3, cart, &rq[7]);
    MPI_Waitall(4, rq + 4, st);
    MPI_Irecv(&u[AT(0, 0, n + 1)], 1, zface, zr, 4, cart, &rq[8]);
    MPI_Irecv(&u[AT(0, 0, 0)], 1, zface, zl, 5, cart, &rq[9]);
    MPI_Isend(&u[AT(0, 0, 1)], 1, zface, zl, 4, cart, &rq[10]);
    MPI_Isend(&u[AT(0, 0, n)], 1, zface, zr, 5, cart, &rq[11]);
    MPI_Waitall(4, rq + 8, st);
#else
    /* x faces: the planes x = 1 and x = n go to the left and right. */
    MPI_Sendrecv(&u[AT(1, 0, 0)], 1, xface, xl, 0, &u[AT(n + 1, 0, 0)], 1, xface, xr, 0, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[AT(n, 0, 0)], 1, xface, xr, 1, &u[AT(0, 0, 0)], 1, xface, xl, 1, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[AT(0, 1, 0)], 1, yface, yl, 2, &u[AT(0, n + 1, 0)], 1, yface, yr, 2, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[AT(0, n, 0)], 1, yface, yr, 3, &u[AT(0, 0, 0)], 1, yface, yl, 3, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[AT(0, 0, 1)], 1, zface, zl, 4, &u[AT(0, 0, n + 1)], 1, zface, zr, 4, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[AT(0, 0, n)], 1, zface, zr, 5, &u[AT(0, 0, 0)], 1, zface, zl, 5, cart, MPI_STATUS_IGNORE);
#endif
    tx += MPI_Wtime() - t1;
    for (int z = 1; z <= n; z++)
      for (int y = 1; y <= n; y++)
        for (int x = 1; x <= n; x++)
          v[AT(x, y, z)] = (u[AT(x - 1, y, z)] + u[AT(x + 1, y, z)] + u[AT(x, y - 1, z)] + u[AT(x, y + 1, z)] +
                            u[AT(x, y, z - 1)] + u[AT(x, y, z + 1)]) /
                           6.0;
    double *w = u;
    u = v;
    v = w;
  }
  double t[2] = {(MPI_Wtime() - t0) / iters, tx / iters}, tmax[2], sum = 0, all;
  for (int z = 1; z <= n; z++)
    for (int y = 1; y <= n; y++)
      for (int x = 1; x <= n; x++)
        sum += u[AT(x, y, z)];
  MPI_Reduce(t, tmax, 2, MPI_DOUBLE, MPI_MAX, 0, cart);
  MPI_Reduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
  if (rank == 0)
    printf("%d %.6e %.6e %.12e\n", n, tmax[0], tmax[1], all);
  MPI_Type_free(&xface);
  MPI_Type_free(&yface);
  MPI_Type_free(&zface);
  MPI_Comm_free(&cart);
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
