/* Datatype shapes known only at run time (datatype-templates, the _rt
 * templates): columns, rows, byte-strided blocks, subarrays and resized
 * types and indexed blocks whose sizes come from a loop, each built, committed, used and freed in every iteration, so the
 * shadow ompi-cc records beside each variable must follow every
 * construction. The sizes cross the profile's classes (the test profile
 * measured the template winning up to 4 KiB), so some messages run the
 * template and some the generic call, decided at run time; a column also
 * goes through MPI_Irecv/MPI_Isend and MPI_Waitall. Each rank folds
 * what it received and every status count into a checksum rank 0 prints;
 * the same output through ompi-cc (e2e dtype-runtime.*) shows the wrappers
 * and templates move what MPI's engine moves. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long sum;

static void fold(const double *p, int n) {
  for (int i = 0; i < n; i++)
    sum = sum * 31 + (long)p[i];
}

/* Subarrays and resized types with sizes known only at run time: a 2-D
   C-order block, a 3-D Fortran-order block, columns resized to one double
   (two of them interleave) and every second to fourth double. */
static void shaped_round(int n, int next, int prev, double *a, double *b) {
  MPI_Datatype face, cube, col, rcol, third;
  MPI_Status st;
  int count = -1, sz[2] = {n + 1, n + 1}, sub[2] = {n, (n + 1) / 2}, start[2] = {1, n / 2};
  int sz3[3] = {3, 4, n + 1}, sub3[3] = {2, 2, n}, start3[3] = {1, 1, 1};
  for (int i = 0; i < 2 * (n + 1) * (n + 1); i++)
    b[i] = -1;
  MPI_Type_create_subarray(2, sz, sub, start, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_create_subarray(3, sz3, sub3, start3, MPI_ORDER_FORTRAN, MPI_DOUBLE, &cube);
  MPI_Type_vector(n, 1, n + 1, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &rcol);
  MPI_Type_create_resized(MPI_DOUBLE, 0, (MPI_Aint)(n % 3 + 2) * (MPI_Aint)sizeof(double), &third);
  MPI_Type_commit(&face);
  MPI_Type_commit(&cube);
  MPI_Type_commit(&rcol);
  MPI_Type_commit(&third);
  MPI_Sendrecv(a, 1, face, next, 11, b, 1, face, prev, 11, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, face, &count);
  sum = sum * 7 + count;
  MPI_Sendrecv(a, 1, cube, next, 12, b + 1, 1, cube, prev, 12, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  sum = sum * 7 + count;
  MPI_Sendrecv(a, 2, rcol, next, 13, b + 2, 2, rcol, prev, 13, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, rcol, &count);
  sum = sum * 7 + count;
  MPI_Sendrecv(a, n, third, next, 14, b + 3, n, third, prev, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fold(b, 2 * (n + 1) * (n + 1));
  /* Types of those types: every other row, and two resized columns side
     by side. */
  MPI_Datatype row, rows, pair;
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Type_vector((n + 1) / 2, 1, 2, row, &rows);
  MPI_Type_contiguous(2, rcol, &pair);
  MPI_Type_commit(&rows);
  MPI_Type_commit(&pair);
  MPI_Sendrecv(a, 1, rows, next, 15, b + 1, 1, rows, prev, 15, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, rows, &count);
  sum = sum * 7 + count;
  MPI_Sendrecv(a + 1, 1, pair, next, 16, b + 2, 1, pair, prev, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fold(b, 2 * (n + 1) * (n + 1));
  MPI_Type_free(&row);
  MPI_Type_free(&rows);
  MPI_Type_free(&pair);
  MPI_Type_free(&face);
  MPI_Type_free(&cube);
  MPI_Type_free(&col);
  MPI_Type_free(&rcol);
  MPI_Type_free(&third);
}

/* Indexed blocks whose displacements come from a loop: evenly spaced
   pairs and hindexed singles (the wrapper records them as strided shapes),
   and an uneven run list (recorded as a run list of up to 32 blocks),
   through MPI_Sendrecv, MPI_Bcast, MPI_Gather and nonblocking calls. */
static void indexed_round(int n, int next, int prev, double *a, double *b) {
  MPI_Datatype ev, hv, un;
  MPI_Status st;
  int count = -1, *d = malloc(sizeof(int) * (size_t)n), *u = malloc(sizeof(int) * (size_t)n);
  MPI_Aint *hd = malloc(sizeof(MPI_Aint) * (size_t)n);
  if (!d || !u || !hd)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < n; i++) {
    d[i] = i * (n + 3);
    hd[i] = (MPI_Aint)(8 * (2 * i + 1));
    u[i] = 3 * i + i % 2;
  }
  MPI_Type_create_indexed_block(n, 2, d, MPI_DOUBLE, &ev);
  MPI_Type_create_hindexed_block(n, 1, hd, MPI_DOUBLE, &hv);
  MPI_Type_create_indexed_block(n, 1, u, MPI_DOUBLE, &un);
  free(d);
  free(u);
  free(hd);
  MPI_Type_commit(&ev);
  MPI_Type_commit(&hv);
  MPI_Type_commit(&un);
  for (int i = 0; i < (n + 3) * (n + 3); i++)
    b[i] = -1;
  MPI_Sendrecv(a, 1, ev, next, 21, b, 1, ev, prev, 21, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, ev, &count);
  sum = sum * 7 + count;
  MPI_Sendrecv(a + 1, 2, hv, next, 22, b + 1, 2 * n, MPI_DOUBLE, prev, 22, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  sum = sum * 7 + count;
  MPI_Sendrecv(a, 1, un, next, 23, b + 2, 1, un, prev, 23, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, un, &count);
  sum = sum * 7 + count;
  fold(b, (n + 3) * (n + 3));
  MPI_Bcast(b, 1, ev, 0, MPI_COMM_WORLD);
  fold(b, (n + 3) * (n + 3));
  /* The run list through nonblocking calls (the generic calls at run time)
     and a gather (the _ix collective). */
  MPI_Request rq[2];
  MPI_Status sts[2];
  for (int i = 0; i < (n + 3) * (n + 3); i++)
    b[i] = -1;
  MPI_Irecv(b + 5, 1, un, prev, 24, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(a, 1, un, next, 24, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, sts);
  MPI_Get_count(&sts[0], un, &count);
  sum = sum * 7 + count;
  fold(b, (n + 3) * (n + 3));
  MPI_Gather(a + 1, 1, un, b, 1, un, 0, MPI_COMM_WORLD);
  fold(b, (n + 3) * (n + 3));
  /* Doubles 8n + 4 bytes apart: Open MPI rounds the extent up to 8 bytes,
     MPICH does not; the wrapper records the shape only where MPI's extent
     is the span. */
  MPI_Datatype uh;
  MPI_Type_create_hvector(2, 1, (MPI_Aint)(8 * n + 4), MPI_DOUBLE, &uh);
  MPI_Type_commit(&uh);
  for (int i = 0; i < (n + 3) * (n + 3); i++)
    b[i] = -1;
  MPI_Sendrecv(a, 3, uh, next, 25, b, 3, uh, prev, 25, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, uh, &count);
  sum = sum * 7 + count;
  fold(b, (n + 3) * (n + 3));
  MPI_Type_free(&uh);
  MPI_Type_free(&ev);
  MPI_Type_free(&hv);
  MPI_Type_free(&un);
}

static void round_of(int n, int rank, int size, double *a, double *b) {
  MPI_Datatype col, row, blocks;
  MPI_Status st;
  int count = -1, elems = -1, next = (rank + 1) % size, prev = (rank + size - 1) % size, peer = rank ^ 1;
  for (int i = 0; i < (n + 1) * (n + 1); i++)
    a[i] = 1000 * rank + i, b[i] = -1;
  MPI_Type_vector(n, 1, n + 1, MPI_DOUBLE, &col);
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Type_create_hvector((n + 1) / 2, 2, (MPI_Aint)(2 * (n + 1) * sizeof(double)), MPI_DOUBLE, &blocks);
  MPI_Type_commit(&col);
  MPI_Type_commit(&row);
  MPI_Type_commit(&blocks);
  MPI_Sendrecv(&a[1], 1, col, next, 1, &b[2], 1, col, prev, 1, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, col, &count);
  MPI_Get_elements(&st, col, &elems);
  sum = sum * 7 + count * 100 + elems;
  MPI_Sendrecv(a, 1, blocks, next, 2, b, 2 * n + 2, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fold(b, (n + 1) * (n + 1));
  if (peer < size && rank % 2 == 0) {
    MPI_Send(&a[3 % n], 1, col, peer, 3, MPI_COMM_WORLD);
    MPI_Recv(b, 1, col, peer, 4, MPI_COMM_WORLD, &st); /* n - 1 doubles: a short message */
    MPI_Get_count(&st, col, &count);
    MPI_Get_elements(&st, col, &elems);
    sum = sum * 7 + (count == MPI_UNDEFINED) * 100 + elems;
  } else if (peer < size) {
    MPI_Recv(b, n, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &st);
    MPI_Send(a, n - 1, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD);
  }
  MPI_Sendrecv(a, 2, row, 0, 5, &b[n], 2, row, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  fold(b, (n + 1) * (n + 1));
  /* Two columns: the second starts one extent after the first. */
  MPI_Sendrecv(a, 2, col, 0, 6, b, 2 * n, MPI_DOUBLE, 0, 6, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  fold(b, 2 * n);
  /* Nonblocking: the run-time shape through the pending state and the waits. */
  MPI_Request rq[2];
  MPI_Status sts[2];
  MPI_Irecv(&b[1], 1, col, prev, 7, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(&a[2], 1, col, next, 7, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, sts);
  MPI_Get_count(&sts[0], col, &count);
  sum = sum * 7 + count + sts[0].MPI_SOURCE * 10;
  fold(b, (n + 1) * (n + 1));
  MPI_Type_free(&col);
  MPI_Type_free(&row);
  MPI_Type_free(&blocks);
  shaped_round(n, next, prev, a, b);
  indexed_round(n, next, prev, a, b);
}

int main(int argc, char **argv) {
  static const int sizes[] = {1, 3, 8, 40, 100, 600};
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *a = malloc(sizeof(double) * 2 * 601 * 601), *b = malloc(sizeof(double) * 2 * 601 * 601);
  if (!a || !b)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < (int)(sizeof sizes / sizeof *sizes); k++)
    round_of(sizes[k], rank, size, a, b);
  long all = 0;
  MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_BXOR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("checksum %ld on %d ranks\n", all, size);
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
