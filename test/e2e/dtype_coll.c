/* Compiled derived datatypes in collectives (datatype-templates, the
 * collectives' _nd templates): MPI_Bcast, MPI_Gather, MPI_Scatter and
 * MPI_Alltoall with a column, a 2-D subarray, a resized column (whose
 * chunks interleave) and a contiguous row (its own packed form: no copy),
 * on either side or both; roots 0 and the last rank;
 * MPI_IN_PLACE at a gather's root (the template runs the generic call
 * there); a transformed rank with untransformed peers (the root sends the
 * column, the others receive contiguous doubles, and the reverse); run
 * lists (indexed block types whose blocks no stride describes). Every
 * rank folds what it holds into a checksum, and rank 0 prints every rank's.
 * The same output through ompi-cc (e2e dtype-coll.*) shows that the
 * templates move the elements MPI's engine moves. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 8
static double g[N][N], flat[N * N * N], gath[N * N * N];
static MPI_Datatype col, sub, rcol, row;
static long sum;

static void fold(const double *p, int n) {
  for (int i = 0; i < n; i++)
    sum = sum * 31 + (long)p[i];
}

static void fill(int rank) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      g[i][j] = 1000 * rank + 10 * i + j;
  for (int i = 0; i < N * N * N; i++)
    flat[i] = gath[i] = -1;
}

static void bcasts(int rank, int root) {
  fill(rank);
  MPI_Bcast(&g[0][1], 1, col, root, MPI_COMM_WORLD);
  MPI_Bcast(g, 1, sub, root, MPI_COMM_WORLD);
  MPI_Bcast(g[6], 1, row, root, MPI_COMM_WORLD); /* no holes: no copy */
  fold(&g[0][0], N * N);
  /* The root through the template, the others untransformed; then the reverse. */
  fill(rank);
  if (rank == root)
    MPI_Bcast(&g[0][2], 1, col, root, MPI_COMM_WORLD);
  else
    MPI_Bcast(flat, N, MPI_DOUBLE, root, MPI_COMM_WORLD);
  if (rank == root)
    MPI_Bcast(flat, N, MPI_DOUBLE, root, MPI_COMM_WORLD);
  else
    MPI_Bcast(&g[0][3], 1, col, root, MPI_COMM_WORLD);
  fold(&g[0][0], N * N);
  fold(flat, N);
}

static void gathers(int rank, int size, int root) {
  fill(rank);
  MPI_Gather(&g[0][1], 1, col, gath, 1, col, root, MPI_COMM_WORLD);
  fold(gath, N * N * N);
  fill(rank);
  MPI_Gather(g[2], N, MPI_DOUBLE, gath, 1, col, root, MPI_COMM_WORLD);
  fold(gath, N * N * N);
  fill(rank);
  MPI_Gather(g, 1, sub, flat, 12, MPI_DOUBLE, root, MPI_COMM_WORLD);
  fold(flat, 12 * size);
  /* In place at the root: its own column stays where it is. */
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    gath[i] = rank + i;
  if (rank == root)
    MPI_Gather(MPI_IN_PLACE, 1, col, gath, 1, col, root, MPI_COMM_WORLD);
  else
    MPI_Gather(&g[0][4], 1, col, NULL, 0, MPI_DOUBLE, root, MPI_COMM_WORLD);
  fold(gath, N * N * N);
}

static void scatters(int rank, int size, int root) {
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    flat[i] = 7 * i + rank;
  MPI_Scatter(flat, N, MPI_DOUBLE, &g[0][5], 1, col, root, MPI_COMM_WORLD);
  fold(&g[0][0], N * N);
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    gath[i] = 3 * i + rank;
  MPI_Scatter(gath, 1, col, flat, N, MPI_DOUBLE, root, MPI_COMM_WORLD);
  fold(flat, N);
  fill(rank);
  MPI_Scatter(g, 1, rcol, flat, N, MPI_DOUBLE, root, MPI_COMM_WORLD); /* column j to rank j */
  fold(flat, N);
  (void)size;
}

static void alltoalls(int rank, int size) {
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    flat[i] = 5 * i + rank;
  MPI_Alltoall(flat, 1, col, gath, 1, col, MPI_COMM_WORLD);
  fold(gath, N * N * N);
  fill(rank);
  MPI_Alltoall(g, 1, rcol, flat, N, MPI_DOUBLE, MPI_COMM_WORLD); /* column j to rank j */
  fold(flat, N * size);
  fill(rank);
  MPI_Alltoall(g, 1, row, flat, 1, row, MPI_COMM_WORLD); /* row j to rank j, no copies */
  fold(flat, N * size);
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    flat[i] = 11 * i + rank;
  MPI_Alltoall(flat, N, MPI_DOUBLE, g, 1, rcol, MPI_COMM_WORLD); /* rank j's chunk into column j */
  fold(&g[0][0], N * N);
}

/* Shapes recorded at run time (the _rt collectives): a column, a
   subarray and a resized column whose sizes the program reads at run time;
   the root through the template and the others with contiguous doubles. */
static void recorded(int rank, int size, int root, int n) {
  MPI_Datatype rtcol, rtsub, rtrcol;
  int sizes[2] = {n, n}, subs[2] = {4, 3}, starts[2] = {2, 1};
  MPI_Type_vector(n, 1, N, MPI_DOUBLE, &rtcol);
  MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &rtsub);
  MPI_Type_create_resized(rtcol, 0, sizeof(double), &rtrcol);
  MPI_Type_commit(&rtcol);
  MPI_Type_commit(&rtsub);
  MPI_Type_commit(&rtrcol);
  fill(rank);
  MPI_Bcast(&g[0][1], 1, rtcol, root, MPI_COMM_WORLD);
  MPI_Bcast(g, 1, rtsub, root, MPI_COMM_WORLD);
  fold(&g[0][0], N * N);
  fill(rank);
  if (rank == root)
    MPI_Bcast(&g[0][2], 1, rtcol, root, MPI_COMM_WORLD);
  else
    MPI_Bcast(flat, N, MPI_DOUBLE, root, MPI_COMM_WORLD);
  fold(flat, N);
  fill(rank);
  MPI_Gather(&g[0][1], 1, rtcol, gath, 1, rtcol, root, MPI_COMM_WORLD);
  fold(gath, N * N * N);
  fill(rank);
  MPI_Gather(g[2], N, MPI_DOUBLE, gath, 1, rtrcol, root, MPI_COMM_WORLD); /* rank j's row into column j */
  fold(gath, N * N);
  fill(rank);
  MPI_Scatter(g, 1, rtrcol, flat, N, MPI_DOUBLE, root, MPI_COMM_WORLD); /* column j to rank j */
  fold(flat, N);
  fill(rank);
  MPI_Alltoall(g, 1, rtrcol, flat, N, MPI_DOUBLE, MPI_COMM_WORLD);
  fold(flat, N * size);
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    flat[i] = 13 * i + rank;
  MPI_Alltoall(flat, N, MPI_DOUBLE, g, 1, rtrcol, MPI_COMM_WORLD);
  fold(&g[0][0], N * N);
  MPI_Type_free(&rtcol);
  MPI_Type_free(&rtsub);
  MPI_Type_free(&rtrcol);
}

/* Run lists (the _ix collectives): an indexed block type of unevenly
   spaced pairs (ix), an hindexed one whose blocks run downwards (dn), one
   with a block below the buffer (lo) and one of eight single doubles (sg);
   each on both sides, beside predefined types, and sg beside a column (which
   then passes as written); the root through the template and the others
   with contiguous doubles. */
static void runlists(int rank, int size, int root) {
  MPI_Datatype ix, dn, lo, sg;
  int ixd[4] = {0, 3, 10, 12}, lod[3] = {-2, 0, 3}, sgd[8] = {0, 2, 7, 9, 14, 16, 21, 23};
  MPI_Aint dnd[3] = {16, 8, 0};
  MPI_Type_create_indexed_block(4, 2, ixd, MPI_DOUBLE, &ix);
  MPI_Type_create_hindexed_block(3, 1, dnd, MPI_DOUBLE, &dn);
  MPI_Type_create_indexed_block(3, 1, lod, MPI_DOUBLE, &lo);
  MPI_Type_create_indexed_block(8, 1, sgd, MPI_DOUBLE, &sg);
  MPI_Type_commit(&ix);
  MPI_Type_commit(&dn);
  MPI_Type_commit(&lo);
  MPI_Type_commit(&sg);
  fill(rank);
  MPI_Bcast(&g[1][2], 1, lo, root, MPI_COMM_WORLD);
  MPI_Bcast(&g[3][0], 2, dn, root, MPI_COMM_WORLD);
  fold(&g[0][0], N * N);
  fill(rank);
  if (rank == root)
    MPI_Bcast(g, 1, ix, root, MPI_COMM_WORLD);
  else
    MPI_Bcast(flat, 8, MPI_DOUBLE, root, MPI_COMM_WORLD);
  if (rank == root)
    MPI_Bcast(flat, 8, MPI_DOUBLE, root, MPI_COMM_WORLD);
  else
    MPI_Bcast(&g[2][0], 1, ix, root, MPI_COMM_WORLD);
  fold(&g[0][0], N * N);
  fold(flat, 8);
  fill(rank);
  MPI_Gather(g, 1, ix, gath, 1, ix, root, MPI_COMM_WORLD);
  fold(gath, 14 * size);
  fill(rank);
  MPI_Gather(g[1], 8, MPI_DOUBLE, gath, 1, sg, root, MPI_COMM_WORLD);
  MPI_Gather(g, 1, dn, flat, 3, MPI_DOUBLE, root, MPI_COMM_WORLD);
  fold(gath, 24 * size);
  fold(flat, 3 * size);
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    gath[i] = 3 * i + rank;
  MPI_Scatter(gath, 1, dn, &g[2][1], 1, dn, root, MPI_COMM_WORLD);
  MPI_Scatter(gath, 2, ix, flat, 16, MPI_DOUBLE, root, MPI_COMM_WORLD);
  fold(&g[0][0], N * N);
  fold(flat, 16);
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    flat[i] = 5 * i + rank;
  MPI_Alltoall(flat, 1, sg, gath, 1, sg, MPI_COMM_WORLD);
  fold(gath, 24 * size);
  fill(rank);
  for (int i = 0; i < N * N * N; i++)
    flat[i] = 7 * i + rank;
  MPI_Alltoall(flat, 1, sg, gath, 1, col, MPI_COMM_WORLD); /* rank j's run list into chunk j of columns */
  MPI_Alltoall(&g[0][2], 1, lo, flat, 3, MPI_DOUBLE, MPI_COMM_WORLD);
  fold(gath, N * N * N);
  fold(flat, 3 * size);
  MPI_Type_free(&ix);
  MPI_Type_free(&dn);
  MPI_Type_free(&lo);
  MPI_Type_free(&sg);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > N) {
    if (!rank) fprintf(stderr, "dtype_coll: at most %d ranks\n", N);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int sizes[2] = {N, N}, subs[2] = {4, 3}, starts[2] = {2, 1};
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);
  MPI_Type_create_resized(col, 0, sizeof(double), &rcol);
  MPI_Type_contiguous(N, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Type_commit(&col);
  MPI_Type_commit(&sub);
  MPI_Type_commit(&rcol);
  for (int root = 0; root < size; root += size > 1 ? size - 1 : 1) {
    bcasts(rank, root);
    gathers(rank, size, root);
    scatters(rank, size, root);
    recorded(rank, size, root, argc > 100 ? 1 : N); /* N, known only at run time */
    runlists(rank, size, root);
  }
  alltoalls(rank, size);
  long *all = malloc(sizeof *all * (size_t)size);
  MPI_Gather(&sum, 1, MPI_LONG, all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  for (int r = 0; !rank && r < size; r++)
    printf("rank %d: %ld\n", r, all[r]);
  free(all);
  MPI_Type_free(&col);
  MPI_Type_free(&sub);
  MPI_Type_free(&rcol);
  MPI_Type_free(&row);
  MPI_Finalize();
  return 0;
}
