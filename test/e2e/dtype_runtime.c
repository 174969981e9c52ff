/* Datatype shapes known only at run time (datatype-templates, the _rt
 * templates): columns, rows and byte-strided blocks whose sizes come from a
 * loop, each built, committed, used and freed in every iteration, so the
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
