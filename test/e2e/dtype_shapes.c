/* Compiled derived datatypes of two levels from an offset
 * (datatype-templates, the _nd templates): subarrays of 2 and 3 dimensions
 * in C and Fortran order, a resized column sent two at a time, types built
 * from the resized column (interleaved columns), a message shorter than a
 * subarray receive, indexed blocks evenly spaced (two elements of one:
 * the second starts one extent after the first's lower bound), and run
 * lists (the _ix templates: indexed blocks unevenly spaced, in decreasing
 * order, below the buffer; a message shorter than the receive). Each case
 * sends to a contiguous receive as well, which shows the order the
 * elements travel in (MPI's typemap order), and every
 * rank folds what it received and every status count into a checksum that
 * rank 0 prints. The same output through ompi-cc (e2e dtype-shapes.*) shows
 * that the templates move the elements MPI's engine moves. */
#include <mpi.h>
#include <stdio.h>

static double cube[6][5][4], got[6][5][4], flat[128];
static double g[8][8], h[8][8];
static MPI_Datatype yplane, box, fbox, rcol, twocols, everythird, ib, hib, uix, dix, hdown;
static long sum;

static void fold(const double *p, int n) {
  for (int i = 0; i < n; i++)
    sum = sum * 31 + (long)p[i];
}

static void fill(int rank) {
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 5; j++)
      for (int k = 0; k < 4; k++)
        cube[i][j][k] = 1000 * rank + 100 * i + 10 * j + k, got[i][j][k] = -1;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      g[i][j] = 1000 * rank + 10 * i + j, h[i][j] = -1;
  for (int i = 0; i < 128; i++)
    flat[i] = -1;
}

/* Each type to this rank itself: into a contiguous buffer (the order on
   the wire), and into the same type (where the elements land). */
static void self(void) {
  MPI_Status st;
  int count = -1, elems = -1;
  MPI_Sendrecv(cube, 1, yplane, 0, 1, flat, 128, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  fold(flat, 128);
  MPI_Sendrecv(cube, 1, box, 0, 2, got, 1, box, 0, 2, MPI_COMM_SELF, &st);
  MPI_Get_count(&st, box, &elems);
  sum = sum * 7 + count * 100 + elems;
  MPI_Sendrecv(cube, 1, fbox, 0, 3, flat, 128, MPI_DOUBLE, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  fold(flat, 128);
  MPI_Sendrecv(g, 2, rcol, 0, 4, flat, 128, MPI_DOUBLE, 0, 4, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  fold(flat, 128);
  MPI_Sendrecv(g, 1, twocols, 0, 5, h, 1, twocols, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&g[0][3], 1, everythird, 0, 6, flat, 128, MPI_DOUBLE, 0, 6, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  fold(flat, 128);
  fold(&got[0][0][0], 120);
  fold(&h[0][0], 64);
  /* Indexed blocks evenly spaced: a vector from the first displacement. */
  MPI_Sendrecv(g, 2, ib, 0, 9, flat, 128, MPI_DOUBLE, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  fold(flat, 128);
  MPI_Sendrecv(g, 1, hib, 0, 10, h, 1, hib, 0, 10, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  fold(&h[0][0], 64);
  /* Run lists: two elements to contiguous doubles; one into another. */
  MPI_Sendrecv(g, 2, uix, 0, 14, flat, 128, MPI_DOUBLE, 0, 14, MPI_COMM_SELF, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  sum = sum * 7 + count;
  fold(flat, 128);
  MPI_Sendrecv(&g[2][0], 1, dix, 0, 15, &h[5][0], 1, hdown, 0, 15, MPI_COMM_SELF, &st);
  MPI_Get_elements(&st, hdown, &elems);
  sum = sum * 7 + elems;
  fold(&h[0][0], 64);
}

/* Pairs (0,1), (2,3), ...: the box of the peer into this one's fbox
   position; then a ring: a message of 5 doubles into a box of 12 (the rest
   stays as it was). */
static void ring(int rank, int size) {
  MPI_Status st;
  int count = -1, elems = -1, next = (rank + 1) % size, prev = (rank + size - 1) % size, peer = rank ^ 1;
  if (peer < size && rank % 2 == 0) {
    MPI_Send(cube, 1, box, peer, 7, MPI_COMM_WORLD);
    MPI_Recv(got, 1, fbox, peer, 7, MPI_COMM_WORLD, &st);
  } else if (peer < size) {
    MPI_Recv(got, 1, fbox, peer, 7, MPI_COMM_WORLD, &st);
    MPI_Send(cube, 1, box, peer, 7, MPI_COMM_WORLD);
  }
  if (peer < size)
    MPI_Get_count(&st, fbox, &count);
  sum = sum * 7 + count;
  MPI_Sendrecv(&cube[1][1][1], 5, MPI_DOUBLE, next, 8, got, 1, box, prev, 8, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, box, &count);
  MPI_Get_elements(&st, box, &elems);
  sum = sum * 7 + (count == MPI_UNDEFINED) * 100 + elems;
  fold(&got[0][0][0], 120);
  if (peer >= size)
    return;
  /* Run lists: two elements to a contiguous receive (the order on the
     wire); 3 doubles into two elements (a shorter message); three blocks,
     one below the buffer, received from a contiguous send. */
  MPI_Request r1, r2, r3;
  MPI_Irecv(flat, 128, MPI_DOUBLE, peer, 11, MPI_COMM_WORLD, &r1);
  MPI_Send(g, 2, uix, peer, 11, MPI_COMM_WORLD);
  MPI_Wait(&r1, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  sum = sum * 7 + count;
  fold(flat, 128);
  MPI_Irecv(h, 2, uix, peer, 12, MPI_COMM_WORLD, &r2);
  MPI_Ssend(&g[1][0], 1, dix, peer, 12, MPI_COMM_WORLD);
  MPI_Wait(&r2, &st);
  MPI_Get_count(&st, uix, &count);
  MPI_Get_elements(&st, uix, &elems);
  sum = sum * 7 + (count == MPI_UNDEFINED) * 100 + elems;
  MPI_Isend(&g[3][0], 3, MPI_DOUBLE, peer, 13, MPI_COMM_WORLD, &r3);
  MPI_Recv(&h[4][0], 1, hdown, peer, 13, MPI_COMM_WORLD, &st);
  MPI_Wait(&r3, MPI_STATUS_IGNORE);
  MPI_Get_count(&st, hdown, &count);
  sum = sum * 7 + count;
  fold(&h[0][0], 64);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Datatype colv;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int sizes[3] = {6, 5, 4}, plane[3] = {6, 1, 4}, at2[3] = {0, 2, 0};
  MPI_Type_create_subarray(3, sizes, plane, at2, MPI_ORDER_C, MPI_DOUBLE, &yplane);
  int sub[3] = {2, 3, 2}, at[3] = {1, 1, 1};
  MPI_Type_create_subarray(3, sizes, sub, at, MPI_ORDER_C, MPI_DOUBLE, &box);
  int fsizes[3] = {4, 5, 6}, fsub[3] = {2, 3, 2}, fat[3] = {2, 0, 3};
  MPI_Type_create_subarray(3, fsizes, fsub, fat, MPI_ORDER_FORTRAN, MPI_DOUBLE, &fbox);
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &colv);
  MPI_Type_create_resized(colv, 0, (MPI_Aint)sizeof(double), &rcol);
  MPI_Type_contiguous(2, rcol, &twocols);
  MPI_Type_vector(2, 1, 3, rcol, &everythird);
  MPI_Type_commit(&yplane);
  MPI_Type_commit(&box);
  MPI_Type_commit(&fbox);
  MPI_Type_commit(&rcol);
  MPI_Type_commit(&twocols);
  MPI_Type_commit(&everythird);
  int ibd[3] = {1, 6, 11};
  MPI_Aint hibd[2] = {24, 96};
  MPI_Type_create_indexed_block(3, 2, ibd, MPI_DOUBLE, &ib);
  MPI_Type_create_hindexed_block(2, 3, hibd, MPI_DOUBLE, &hib);
  MPI_Type_commit(&ib);
  MPI_Type_commit(&hib);
  int ud[4] = {0, 3, 10, 12}, dd[3] = {20, 10, 0};
  MPI_Aint hd[3] = {48, -16, 96};
  MPI_Type_create_indexed_block(4, 2, ud, MPI_DOUBLE, &uix);
  MPI_Type_create_indexed_block(3, 1, dd, MPI_DOUBLE, &dix);
  MPI_Type_create_hindexed_block(3, 1, hd, MPI_DOUBLE, &hdown);
  MPI_Type_commit(&uix);
  MPI_Type_commit(&dix);
  MPI_Type_commit(&hdown);
  fill(rank);
  self();
  fill(rank);
  ring(rank, size);
  long all = 0;
  MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_BXOR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("checksum %ld on %d ranks\n", all, size);
  MPI_Type_free(&yplane);
  MPI_Type_free(&box);
  MPI_Type_free(&fbox);
  MPI_Type_free(&colv);
  MPI_Type_free(&rcol);
  MPI_Type_free(&twocols);
  MPI_Type_free(&everythird);
  MPI_Type_free(&ib);
  MPI_Type_free(&hib);
  MPI_Type_free(&uix);
  MPI_Type_free(&dix);
  MPI_Type_free(&hdown);
  MPI_Finalize();
  return 0;
}
