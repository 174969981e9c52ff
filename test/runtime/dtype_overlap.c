/* Receive datatypes whose entries overlap (templates/mpiopt/dtype.h,
 * mpiopt_dtype_may_overlap): a column resized to one double, received as
 * several elements or one chunk per process, writes some bytes twice once
 * the elements outnumber its stride. That is erroneous MPI, and which write
 * lands last is the library's affair, so the receive templates must call
 * the MPI as written there; found by the differential tester (seed 68000:
 * an MPI_Alltoall of such a column on 3 Open MPI processes printed other
 * values than the plain build). Checks the predicate, that the all-to-all
 * template gives what the MPI gives where nothing overlaps, and that the
 * sendrecv template gives what the MPI gives for 1 to 3 elements (one
 * message from oneself: the library's writes come in one order). */
#include <mpi.h>
#include <string.h>

#include "check.h"
#include "mpiopt/dtype.h"

#define LEN 480

static void predicate(void) {
  /* 6 doubles 16 bytes apart, extent 8: elements d apart meet once 8d is a multiple of 16 below the span. */
  CHECK(!mpiopt_dtype_may_overlap(1, 0, 1, 0, 6, 1, 16, 8, 8), "one element never overlaps");
  CHECK(!mpiopt_dtype_may_overlap(2, 0, 1, 0, 6, 1, 16, 8, 8), "two interleaved elements do not overlap");
  CHECK(mpiopt_dtype_may_overlap(3, 0, 1, 0, 6, 1, 16, 8, 8), "the third element meets the first");
  /* A column of an 8-wide matrix resized to one double: 8 columns fit. */
  CHECK(!mpiopt_dtype_may_overlap(8, 0, 1, 0, 100, 1, 64, 8, 8), "8 columns of an 8-wide matrix");
  CHECK(mpiopt_dtype_may_overlap(9, 0, 1, 0, 100, 1, 64, 8, 8), "a 9th column wraps onto the first");
  /* A vector whose extent covers its span, and a dense run. */
  CHECK(!mpiopt_dtype_may_overlap(100, 0, 1, 0, 4, 2, 64, 208, 8), "a plain vector");
  CHECK(!mpiopt_dtype_may_overlap(100, 0, 1, 0, 1, 3, 0, 24, 8), "contiguous elements");
  /* Blocks of one element that overlap, and two levels whose span exceeds the extent. */
  CHECK(mpiopt_dtype_may_overlap(1, 0, 1, 0, 2, 2, 8, 32, 8), "blocks 8 bytes apart of 16 bytes");
  CHECK(mpiopt_dtype_may_overlap(2, 0, 2, 128, 2, 1, 16, 8, 8), "two levels, span over the extent");
  CHECK(!mpiopt_dtype_may_overlap(2, 0, 2, 128, 2, 1, 16, 256, 8), "two levels within the extent");
}

static void fill(double *a, double *b, double *c, int rank) {
  for (int i = 0; i < LEN; i++)
    a[i] = rank * 1000 + i, b[i] = c[i] = -1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  predicate();
  static double a[LEN], b[LEN], c[LEN];
  MPI_Datatype col, t;
  MPI_Type_vector(6, 1, 2, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, (MPI_Aint)sizeof(double), &t);
  MPI_Type_commit(&t);
  fill(a, b, c, check_rank);
  mpiopt_alltoall_dtype_nd(a, 1, t, b, 1, t, MPI_COMM_WORLD, 0, 1, 0, 6, 1, 16, 8, MPI_DOUBLE, 8, 0, 1, 0, 6, 1, 16, 8,
                           MPI_DOUBLE, 8);
  MPI_Alltoall(a, 1, t, c, 1, t, MPI_COMM_WORLD);
  /* From 3 processes the chunks overlap: the template calls MPI_Alltoall
     as written, and two such calls may themselves differ (the messages of
     an erroneous receive land in any order), so only the choice is checked. */
  if (size <= 2)
    CHECK(!memcmp(b, c, sizeof b), "alltoall of the resized column on %d processes", size);
  else
    CHECK(mpiopt_dtype_may_overlap(size, 0, 1, 0, 6, 1, 16, 8, 8), "%d chunks overlap", size);
  for (int n = 1; n <= 3; n++) {
    fill(a, b, c, check_rank);
    MPI_Status s1, s2;
    mpiopt_sendrecv_dtype_nd(a, n, t, check_rank, 5, b, n, t, check_rank, 5, MPI_COMM_WORLD, &s1, 0, 1, 0, 6, 1, 16,
                             8, MPI_DOUBLE, 8, 0, 1, 0, 6, 1, 16, 8, MPI_DOUBLE, 8);
    MPI_Sendrecv(a, n, t, check_rank, 5, c, n, t, check_rank, 5, MPI_COMM_WORLD, &s2);
    int k1 = -1, k2 = -2;
    MPI_Get_count(&s1, t, &k1);
    MPI_Get_count(&s2, t, &k2);
    CHECK(!memcmp(b, c, sizeof b) && k1 == k2, "sendrecv of %d resized columns", n);
  }
  MPI_Type_free(&t);
  MPI_Type_free(&col);
  printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
