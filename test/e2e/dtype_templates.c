/* Compiled derived datatypes (datatype-templates): every case sends or
 * receives with a datatype ompi-opt knows the shape of, and some with one
 * it must leave alone; each rank folds what it received, and every status
 * count, into a checksum that rank 0 prints. The same output through
 * ompi-cc (e2e dtype-templates.*) shows that a template puts the same data
 * on the wire, talks to an untransformed peer both ways and fills the same
 * status (MPI_Get_count, MPI_Get_elements, a short message). */
#include <mpi.h>
#include <stdio.h>

#define N 8
static double a[N][N], b[N][N];
static MPI_Datatype col; /* one construction, in main */
static long sum;

static void fold(const double *p, int n) {
  for (int i = 0; i < n; i++)
    sum = sum * 31 + (long)p[i];
}

static void fill(int rank) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      a[i][j] = 1000 * rank + 10 * i + j, b[i][j] = -1;
}

/* A ring: every rank sends column 1 to the next and receives column 2 from
   the previous (any number of ranks, 1 included). */
static void ring(int rank, int size, int n) {
  MPI_Status st;
  int count = -1, elems = -1;
  MPI_Sendrecv(&a[0][1], n, col, (rank + 1) % size, 1, &b[0][2], n, col, (rank + size - 1) % size, 1,
               MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, col, &count);
  MPI_Get_elements(&st, col, &elems);
  fold(&b[0][0], N * N);
  sum = sum * 7 + count * 100 + elems;
}

/* Pairs (0,1), (2,3), ...: a column as the derived type to an untransformed
   contiguous receive, back as contiguous doubles into the derived type,
   then a message shorter than the receive buffer. */
static void pairs(int rank, int size) {
  MPI_Status st;
  double v[N];
  int count = -1, elems = -1, peer = rank ^ 1;
  for (int i = 0; i < N; i++)
    v[i] = 100 * rank + i; /* the even rank's short message sends it as it is */
  if (peer >= size)
    return;
  if (rank % 2 == 0) {
    MPI_Send(&a[0][3], 1, col, peer, 2, MPI_COMM_WORLD);
    MPI_Recv(&b[0][4], 1, col, peer, 3, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, col, &count);
    MPI_Ssend(&a[0][5], 1, col, peer, 4, MPI_COMM_WORLD);
  } else {
    MPI_Recv(v, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &st);
    fold(v, N);
    MPI_Send(v, N, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD);
    MPI_Recv(&b[0][6], 1, col, peer, 4, MPI_COMM_WORLD, &st); /* all of it */
    MPI_Get_count(&st, col, &count);
  }
  fold(&b[0][0], N * N);
  sum = sum * 7 + count;
  /* A short message: 3 doubles into a column of 8. */
  if (rank % 2 == 0)
    MPI_Send(v, 3, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD);
  else {
    MPI_Recv(&b[0][7], 1, col, peer, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, col, &count);
    MPI_Get_elements(&st, col, &elems);
    sum = sum * 7 + (count == MPI_UNDEFINED) * 100 + elems;
  }
  fold(&b[0][0], N * N);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Datatype blocks, hcol, row, varying;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Type_vector(N / 2, 2, N, MPI_DOUBLE, &blocks);
  MPI_Type_commit(&blocks);
  MPI_Type_create_hvector(N, 1, (MPI_Aint)sizeof a[0], MPI_DOUBLE, &hcol);
  MPI_Type_commit(&hcol);
  MPI_Type_contiguous(N, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Type_vector(N / 2, 1, N + (rank % 2), MPI_DOUBLE, &varying); /* per rank: recorded at run time */
  MPI_Type_commit(&varying);
  fill(rank);
  ring(rank, size, 1);
  pairs(rank, size);
  fill(rank);
  MPI_Sendrecv(a, 1, blocks, (rank + 1) % size, 6, b, 1, blocks, (rank + size - 1) % size, 6, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&a[0][2], 1, hcol, 0, 7, &b[0][1], N, MPI_DOUBLE, 0, 7, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  MPI_Sendrecv(a[3], 2, row, 0, 8, b[5], 2, row, 0, 8, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  MPI_Sendrecv(a, 1, varying, 0, 9, b, N / 2, MPI_DOUBLE, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  fold(&b[0][0], N * N);
  long all = 0;
  MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_BXOR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("checksum %ld on %d ranks\n", all, size);
  MPI_Type_free(&col);
  MPI_Type_free(&blocks);
  MPI_Type_free(&hcol);
  MPI_Type_free(&row);
  MPI_Type_free(&varying);
  MPI_Finalize();
  return 0;
}
