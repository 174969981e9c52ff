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
 * requests and one MPI_Waitall (the nonblocking templates). With
 * -DSUBARRAY each face is instead a 3-D subarray of the whole array, its
 * place in the subarray's starts (twelve types: each face sent and
 * received), as codes that describe faces by MPI_Type_create_subarray do;
 * with -DRUNTIME_N too, their shapes are recorded at run time.
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

#ifdef SUBARRAY
#ifdef NONBLOCKING
#error "SUBARRAY goes with the blocking exchange"
#endif
  /* C order (z, y, x): a face is one plane of its dimension, at the start
     its position gives. */
  int whole[3] = {n + 2, n + 2, n + 2}, xsub[3] = {n + 2, n + 2, 1}, ysub[3] = {n + 2, 1, n + 2},
      zsub[3] = {1, n + 2, n + 2};
  int x1[3] = {0, 0, 1}, xn[3] = {0, 0, n}, xh[3] = {0, 0, n + 1}, o[3] = {0, 0, 0};
  int y1[3] = {0, 1, 0}, yn[3] = {0, n, 0}, yh[3] = {0, n + 1, 0};
  int z1[3] = {1, 0, 0}, zn[3] = {n, 0, 0}, zh[3] = {n + 1, 0, 0};
  MPI_Datatype xs1, xsn, xrh, xr0, ys1, ysn, yrh, yr0, zs1, zsn, zrh, zr0;
  MPI_Type_create_subarray(3, whole, xsub, x1, MPI_ORDER_C, MPI_DOUBLE, &xs1);
  MPI_Type_create_subarray(3, whole, xsub, xn, MPI_ORDER_C, MPI_DOUBLE, &xsn);
  MPI_Type_create_subarray(3, whole, xsub, xh, MPI_ORDER_C, MPI_DOUBLE, &xrh);
  MPI_Type_create_subarray(3, whole, xsub, o, MPI_ORDER_C, MPI_DOUBLE, &xr0);
  MPI_Type_create_subarray(3, whole, ysub, y1, MPI_ORDER_C, MPI_DOUBLE, &ys1);
  MPI_Type_create_subarray(3, whole, ysub, yn, MPI_ORDER_C, MPI_DOUBLE, &ysn);
  MPI_Type_create_subarray(3, whole, ysub, yh, MPI_ORDER_C, MPI_DOUBLE, &yrh);
  MPI_Type_create_subarray(3, whole, ysub, o, MPI_ORDER_C, MPI_DOUBLE, &yr0);
  MPI_Type_create_subarray(3, whole, zsub, z1, MPI_ORDER_C, MPI_DOUBLE, &zs1);
  MPI_Type_create_subarray(3, whole, zsub, zn, MPI_ORDER_C, MPI_DOUBLE, &zsn);
  MPI_Type_create_subarray(3, whole, zsub, zh, MPI_ORDER_C, MPI_DOUBLE, &zrh);
  MPI_Type_create_subarray(3, whole, zsub, o, MPI_ORDER_C, MPI_DOUBLE, &zr0);
  MPI_Type_commit(&xs1);
  MPI_Type_commit(&xsn);
  MPI_Type_commit(&xrh);
  MPI_Type_commit(&xr0);
  MPI_Type_commit(&ys1);
  MPI_Type_commit(&ysn);
  MPI_Type_commit(&yrh);
  MPI_Type_commit(&yr0);
  MPI_Type_commit(&zs1);
  MPI_Type_commit(&zsn);
  MPI_Type_commit(&zrh);
  MPI_Type_commit(&zr0);
#endif
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
#elif defined(SUBARRAY)
    MPI_Sendrecv(u, 1, xs1, xl, 0, u, 1, xrh, xr, 0, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, xsn, xr, 1, u, 1, xr0, xl, 1, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, ys1, yl, 2, u, 1, yrh, yr, 2, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, ysn, yr, 3, u, 1, yr0, yl, 3, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, zs1, zl, 4, u, 1, zrh, zr, 4, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, zsn, zr, 5, u, 1, zr0, zl, 5, cart, MPI_STATUS_IGNORE);
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
#ifdef SUBARRAY
  MPI_Type_free(&xs1);
  MPI_Type_free(&xsn);
  MPI_Type_free(&xrh);
  MPI_Type_free(&xr0);
  MPI_Type_free(&ys1);
  MPI_Type_free(&ysn);
  MPI_Type_free(&yrh);
  MPI_Type_free(&yr0);
  MPI_Type_free(&zs1);
  MPI_Type_free(&zsn);
  MPI_Type_free(&zrh);
  MPI_Type_free(&zr0);
#endif
  MPI_Comm_free(&cart);
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
