/* The run-time datatype templates' choice (templates/mpiopt/dtype.h,
 * mpiopt_dtype_rt_elements): a shape recorded by the construction wrappers
 * goes through the template only when the mask of its class of run lengths
 * (up to 8 bytes, 9-64, 65-512; longer runs never) has the bit of the
 * message's size; otherwise, and for a shadow never set, a count of 0 or
 * MPI_PROC_NULL, the generic call (0). Whatever the choice, the result is
 * the same (the e2e tests check that); this checks the choice itself, and
 * that the nonblocking templates return every pool buffer at the wait. */
#include <mpi.h>

#include "check.h"
#include "mpiopt/dtype.h"

#define BIT(bytes) (1UL << size_bit(bytes))

/* The mask bit of a message size, as mpiopt_dtype_wins reads it. */
static int size_bit(size_t bytes) {
  int k = 0;
  while (k < 31 && ((size_t)1 << k) < bytes)
    k++;
  return k;
}

/* Which class's mask decides a shape: the one whose mask alone admits it. */
static int chosen(const struct mpiopt_dshape *sh, int count, size_t bytes) {
  int c = 0;
  unsigned long b = BIT(bytes);
  c |= mpiopt_dtype_rt_elements(sh, count, 1, b, 0, 0) > 0 ? 1 : 0;
  c |= mpiopt_dtype_rt_elements(sh, count, 1, 0, b, 0) > 0 ? 2 : 0;
  c |= mpiopt_dtype_rt_elements(sh, count, 1, 0, 0, b) > 0 ? 4 : 0;
  c |= mpiopt_dtype_rt_elements(sh, count, 1, ~0UL, ~0UL, ~0UL) > 0 ? 8 : 0;
  return c;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  struct mpiopt_dshape col = {0}, quad = {0}, face = {0}, wide = {0}, row = {0}, abut = {0}, never = {0};
  MPI_Datatype t[6];
  mpiopt_type_vector_rt(100, 1, 8, MPI_DOUBLE, &t[0], &col);           /* 8-byte runs */
  mpiopt_type_vector_rt(10, 4, 8, MPI_DOUBLE, &t[1], &quad);           /* 32-byte runs */
  mpiopt_type_vector_rt(34, 34, 34 * 34, MPI_DOUBLE, &t[2], &face);    /* 272-byte runs */
  mpiopt_type_create_hvector_rt(4, 128, 2048, MPI_DOUBLE, &t[3], &wide); /* 1024-byte runs */
  mpiopt_type_contiguous_rt(10, MPI_DOUBLE, &t[4], &row);              /* one run: the whole message */
  mpiopt_type_vector_rt(5, 2, 2, MPI_INT, &t[5], &abut);               /* blocks that abut: one run */
  CHECK(chosen(&col, 1, 800) == 1 + 8, "a column: the 8-byte class (%d)", chosen(&col, 1, 800));
  CHECK(chosen(&col, 3, 2400) == 1 + 8, "3 columns: the 8-byte class at 2400 bytes");
  CHECK(chosen(&quad, 1, 320) == 2 + 8, "32-byte runs: the 9-64 class (%d)", chosen(&quad, 1, 320));
  CHECK(chosen(&face, 1, 34 * 272) == 4 + 8, "272-byte runs: the 65-512 class (%d)", chosen(&face, 1, 34 * 272));
  CHECK(chosen(&wide, 1, 4096) == 0, "1024-byte runs: never (%d)", chosen(&wide, 1, 4096));
  CHECK(chosen(&row, 1, 80) == 4 + 8, "a contiguous row of 80 bytes: the 65-512 class (%d)", chosen(&row, 1, 80));
  CHECK(chosen(&row, 4, 320) == 4 + 8, "4 rows, 320 bytes in one run: the 65-512 class (%d)", chosen(&row, 4, 320));
  CHECK(chosen(&row, 8, 640) == 0, "8 rows, 640 bytes in one run: never (%d)", chosen(&row, 8, 640));
  CHECK(chosen(&abut, 1, 40) == 2 + 8, "abutting blocks, 40 bytes in one run: the 9-64 class (%d)",
        chosen(&abut, 1, 40));
  CHECK(chosen(&abut, 20, 800) == 0, "abutting blocks, 800 bytes in one run: never (%d)", chosen(&abut, 20, 800));
  /* The size's bit: a column of 800 bytes is in (512, 1024]. */
  CHECK(mpiopt_dtype_rt_elements(&col, 1, 1, BIT(1024), 0, 0) == 100, "800 bytes: the bit of (512, 1024]");
  CHECK(mpiopt_dtype_rt_elements(&col, 1, 1, BIT(512) | BIT(2048), 0, 0) == 0, "800 bytes: not the neighbours' bits");
  /* The generic call whatever the masks. */
  CHECK(mpiopt_dtype_rt_elements(&never, 1, 1, ~0UL, ~0UL, ~0UL) == 0, "a shadow never set");
  CHECK(mpiopt_dtype_rt_elements(&col, 0, 1, ~0UL, ~0UL, ~0UL) == 0, "a count of 0");
  CHECK(mpiopt_dtype_rt_elements(&col, 1, MPI_PROC_NULL, ~0UL, ~0UL, ~0UL) == 0, "MPI_PROC_NULL");
  CHECK(mpiopt_dtype_rt_elements((const struct mpiopt_dshape *)0, 1, 1, ~0UL, ~0UL, ~0UL) == 0, "no shadow");
  /* The nonblocking templates' pool: 100 exchanges with this rank itself,
     two pending at a time, leave every buffer free again; the data arrive. */
  {
    static double a[8][8], b[8][8];
    MPI_Request r, s;
    struct mpiopt_dpend pr = {0}, ps = {0};
    int bad = 0;
    MPI_Datatype c8;
    MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &c8);
    MPI_Type_commit(&c8);
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++)
        a[i][j] = 10 * i + j;
    for (int k = 0; k < 100; k++) {
      mpiopt_irecv_dtype_nd(&b[0][k % 8], 1, c8, 0, k, MPI_COMM_SELF, &r, &pr, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);
      mpiopt_isend_dtype_nd(&a[0][(k + 1) % 8], 1, c8, 0, k, MPI_COMM_SELF, &s, &ps, 0, 1, 0, 8, 1, 64, 456,
                            MPI_DOUBLE, 8, 0);
      CHECK(pr.active && ps.active, "exchange %d: both through the template", k);
      mpiopt_wait_dtype(&s, MPI_STATUS_IGNORE, &ps);
      mpiopt_wait_dtype(&r, MPI_STATUS_IGNORE, &pr);
      for (int i = 0; i < 8; i++)
        bad += b[i][k % 8] != 10 * i + (k + 1) % 8;
    }
    CHECK(bad == 0, "the columns arrived (%d wrong)", bad);
    int used = 0;
    for (int i = 0; i < MPIOPT_DTYPE_POOL; i++)
      used += mpiopt_dtype_pool()->used[i];
    CHECK(used == 0, "every pool buffer returned (%d in use)", used);
    MPI_Type_free(&c8);
  }
  for (int i = 0; i < 6; i++)
    MPI_Type_free(&t[i]);
  printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
