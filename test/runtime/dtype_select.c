/* The run-time datatype templates' choice (templates/mpiopt/dtype.h,
 * mpiopt_dtype_rt_elements): a shape recorded by the construction wrappers
 * goes through the template only when the mask of its class of run lengths
 * (up to 8 bytes, 9-64, 65-512; longer runs never) has the bit of the
 * message's size; otherwise, and for a shadow never set, a count of 0 or
 * MPI_PROC_NULL, the generic call (0). Whatever the choice, the result is
 * the same (the e2e tests check that); this checks the choice itself, and
 * that the nonblocking templates return every pool buffer at the wait. */
#include <mpi.h>
#include <string.h>

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

/* The shape a wrapper recorded packs what MPI packs: MPI_Pack of count
   elements of the type against the template's pack loop with the shadow's
   shape, byte for byte, over a buffer of distinct values. */
static void same_as_mpi(const char *what, MPI_Datatype t, const struct mpiopt_dshape *sh, int count) {
  static double src[4096], mine[4096], theirs[4096];
  int pos = 0, size = 0;
  for (int i = 0; i < 4096; i++)
    src[i] = i + 0.5;
  CHECK(sh->valid, "%s: recorded", what);
  if (!sh->valid)
    return;
  MPI_Type_size(t, &size);
  memset(mine, 0, sizeof mine);
  memset(theirs, 0, sizeof theirs);
  MPI_Pack(src + 64, count, t, theirs, (int)sizeof theirs, &pos, MPI_COMM_SELF); /* room below: lower bounds < 0 */
  if (sh->nruns) /* a run list: its table */
    mpiopt_dtype_pack_ix(mine, src + 64, count, sh->runs, sh->nblocks, sh->blocklen, sh->extent, sh->elem);
  else
    mpiopt_dtype_pack_nd(mine, src + 64, count, sh->offset, sh->nouter, sh->ostride, sh->nblocks, sh->blocklen,
                         sh->stride, sh->extent, sh->elem);
  CHECK(pos == count * size && memcmp(mine, theirs, (size_t)pos) == 0, "%s x %d: packs as MPI packs", what, count);
}

/* Contiguous, vector and hvector types of recorded variables (the _of_rt
   wrappers): runs of rows, interleaved resized columns, groups of columns,
   each packed as MPI packs it; three levels are left to MPI. */
static void check_recorded_of(void) {
  struct mpiopt_dshape row = {0}, col = {0}, rcol = {0}, sh[5];
  MPI_Datatype r, c, rc, t[5];
  memset(sh, 0, sizeof sh);
  mpiopt_type_contiguous_rt(6, MPI_DOUBLE, &r, &row);
  mpiopt_type_vector_rt(5, 1, 9, MPI_DOUBLE, &c, &col);
  mpiopt_type_create_resized_of_rt(c, 0, sizeof(double), &rc, &rcol, &col);
  mpiopt_type_vector_of_rt(4, 1, 2, r, &t[0], &sh[0], &row);                               /* every other row */
  mpiopt_type_contiguous_of_rt(3, rc, &t[1], &sh[1], &rcol);                               /* 3 columns side by side */
  mpiopt_type_create_hvector_of_rt(3, 1, 2 * sizeof(double), c, &t[2], &sh[2], &col);      /* every other column */
  mpiopt_type_vector_of_rt(2, 3, 4, r, &t[3], &sh[3], &row);                               /* blocks of 3 rows */
  mpiopt_type_vector_of_rt(2, 2, 3, c, &t[4], &sh[4], &col);                               /* three levels */
  for (int i = 0; i < 5; i++)
    MPI_Type_commit(&t[i]);
  static const char *what[] = {"vector of rows", "contiguous resized columns", "hvector of columns",
                               "vector of row blocks"};
  for (int i = 0; i < 4; i++)
    for (int count = 1; count <= 2; count++)
      same_as_mpi(what[i], t[i], &sh[i], count);
  CHECK(sh[0].nouter == 1 && sh[0].nblocks == 4 && sh[0].blocklen == 6, "vector of rows: 4 runs of 6");
  CHECK(sh[1].nouter == 3 && sh[1].nblocks == 5 && sh[1].ostride == 8, "resized columns: 3 groups 8 bytes apart");
  CHECK(!sh[4].valid, "a vector of blocks of columns (three levels): left to MPI");
  for (int i = 0; i < 5; i++)
    MPI_Type_free(&t[i]);
  MPI_Type_free(&r);
  MPI_Type_free(&c);
  MPI_Type_free(&rc);
}

/* Subarrays and resized types recorded at run time (the wrappers of
   MPI_Type_create_subarray and _resized): the shapes, their run classes,
   and shapes the templates do not cover left to MPI. */
static void check_recorded(void) {
  struct mpiopt_dshape sh[8], col = {0};
  MPI_Datatype t[8], c;
  int sz2[2] = {12, 10}, sub2[2] = {4, 3}, st2[2] = {2, 5};
  int sz3[3] = {6, 5, 4}, sub3[3] = {2, 3, 2}, st3[3] = {1, 1, 2};
  int rows[2] = {4, 10}, rst[2] = {3, 0}, sz4[4] = {2, 2, 2, 2}, st4[4] = {0, 0, 0, 0};
  memset(sh, 0, sizeof sh);
  mpiopt_type_create_subarray_rt(2, sz2, sub2, st2, MPI_ORDER_C, MPI_DOUBLE, &t[0], &sh[0]);
  mpiopt_type_create_subarray_rt(2, sz2, sub2, st2, MPI_ORDER_FORTRAN, MPI_INT, &t[1], &sh[1]);
  mpiopt_type_create_subarray_rt(3, sz3, sub3, st3, MPI_ORDER_C, MPI_DOUBLE, &t[2], &sh[2]);
  mpiopt_type_create_subarray_rt(3, sz3, sub3, st3, MPI_ORDER_FORTRAN, MPI_FLOAT, &t[3], &sh[3]);
  mpiopt_type_create_subarray_rt(2, sz2, rows, rst, MPI_ORDER_C, MPI_DOUBLE, &t[4], &sh[4]); /* whole rows */
  mpiopt_type_vector_rt(7, 1, 10, MPI_DOUBLE, &c, &col);
  mpiopt_type_create_resized_of_rt(c, 0, sizeof(double), &t[5], &sh[5], &col); /* interleaved columns */
  mpiopt_type_create_resized_rt(MPI_DOUBLE, 0, 3 * sizeof(double), &t[6], &sh[6]); /* every third double */
  mpiopt_type_create_subarray_rt(4, sz4, sz4, st4, MPI_ORDER_C, MPI_DOUBLE, &t[7], &sh[7]); /* 4 dimensions */
  for (int i = 0; i < 8; i++)
    MPI_Type_commit(&t[i]);
  static const char *what[] = {"2-D C subarray", "2-D Fortran subarray", "3-D C subarray", "3-D Fortran subarray",
                               "whole rows", "resized column", "resized double"};
  for (int i = 0; i < 7; i++)
    for (int count = 1; count <= 3; count++)
      same_as_mpi(what[i], t[i], &sh[i], i == 5 ? count : 1);
  CHECK(sh[0].offset == (2 * 10 + 5) * 8 && sh[0].nblocks == 4 && sh[0].blocklen == 3 && sh[0].stride == 80 &&
            sh[0].extent == 960,
        "2-D C subarray: 4 rows of 3 from byte 200, extent 960");
  CHECK(sh[2].nouter == 2 && sh[2].nblocks == 3 && sh[2].blocklen == 2, "3-D subarray: two levels");
  CHECK(sh[4].nblocks == 1 && sh[4].blocklen == 40 && chosen(&sh[4], 1, 320) == 4 + 8,
        "whole rows: one run of 320 bytes, the 65-512 class (%d)", chosen(&sh[4], 1, 320));
  CHECK(chosen(&sh[0], 1, 96) == 2 + 8, "rows of 24 bytes: the 9-64 class (%d)", chosen(&sh[0], 1, 96));
  CHECK(chosen(&sh[5], 2, 112) == 1 + 8, "two resized columns: the 8-byte class (%d)", chosen(&sh[5], 2, 112));
  CHECK(!sh[7].valid, "a subarray of 4 dimensions: left to MPI");
  for (int i = 0; i < 8; i++)
    MPI_Type_free(&t[i]);
  MPI_Type_free(&c);
  check_recorded_of();
}

/* Indexed blocks recorded at run time (the wrappers of
   MPI_Type_create_indexed_block and _hindexed_block): evenly spaced
   displacements from the buffer or after it (a strided shape), and run
   lists (unevenly spaced, downwards, a block below the buffer), each packed
   as MPI packs it for 1 to 3 elements; blocks that overlap, more blocks
   than a shadow holds, and a derived old type are left to MPI. */
static void check_recorded_indexed(void) {
  enum { N = 9 };
  struct mpiopt_dshape sh[N];
  MPI_Datatype t[N], pair;
  static const int even[4] = {2, 9, 16, 23}, uneven[3] = {0, 3, 10}, down[3] = {20, 10, 0}, below[2] = {-1, 5},
                   over[2] = {0, 1}, one[1] = {7};
  static const MPI_Aint heven[3] = {16, 96, 176}, hodd[3] = {40, 8, 200};
  static int many[MPIOPT_DSHAPE_RUNS + 1];
  for (int i = 0; i <= MPIOPT_DSHAPE_RUNS; i++)
    many[i] = 3 * i + i % 2;
  memset(sh, 0, sizeof sh);
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  mpiopt_type_create_indexed_block_rt(4, 2, even, MPI_DOUBLE, &t[0], &sh[0]);
  mpiopt_type_create_hindexed_block_rt(3, 3, heven, MPI_INT, &t[1], &sh[1]);
  mpiopt_type_create_indexed_block_rt(1, 5, one, MPI_FLOAT, &t[2], &sh[2]);
  mpiopt_type_create_indexed_block_rt(3, 2, uneven, MPI_DOUBLE, &t[3], &sh[3]);
  mpiopt_type_create_indexed_block_rt(3, 1, down, MPI_DOUBLE, &t[4], &sh[4]);
  mpiopt_type_create_indexed_block_rt(2, 1, below, MPI_DOUBLE, &t[5], &sh[5]);
  mpiopt_type_create_hindexed_block_rt(3, 1, hodd, MPI_DOUBLE, &t[6], &sh[6]);
  mpiopt_type_create_indexed_block_rt(2, 2, over, MPI_DOUBLE, &t[7], &sh[7]);
  mpiopt_type_create_indexed_block_rt(MPIOPT_DSHAPE_RUNS + 1, 1, many, MPI_DOUBLE, &t[8], &sh[8]);
  for (int i = 0; i < N; i++)
    MPI_Type_commit(&t[i]);
  static const char *what[] = {"evenly spaced pairs", "evenly spaced hindexed ints", "one block of floats",
                               "uneven pairs",        "downwards",                   "below the buffer",
                               "uneven hindexed"};
  for (int i = 0; i < 7; i++)
    for (int count = 1; count <= 3; count++)
      same_as_mpi(what[i], t[i], &sh[i], count);
  CHECK(sh[0].offset == 16 && sh[0].nblocks == 4 && sh[0].blocklen == 2 && sh[0].stride == 56 && sh[0].extent == 184 &&
            !sh[0].nruns,
        "evenly spaced pairs: 4 blocks 56 bytes apart from byte 16, extent 184");
  CHECK(chosen(&sh[0], 1, 64) == 2 + 8, "16-byte blocks: the 9-64 class (%d)", chosen(&sh[0], 1, 64));
  CHECK(sh[3].nruns == 3 && sh[3].runs[2] == 80 && sh[3].extent == 96, "uneven pairs: a run list, extent 96");
  CHECK(sh[5].nruns == 2 && sh[5].runs[0] == -8 && sh[5].extent == 56, "below the buffer: a run list from byte -8");
  for (int k = 4; k <= 6; k++) { /* through the _rt calls, every size chosen: where MPI puts them */
    static double src[512], mine[512], theirs[512];
    MPI_Status sm, st;
    int cm = -2, ct = -2;
    for (int i = 0; i < 512; i++)
      src[i] = i + 0.25, mine[i] = theirs[i] = -1;
    MPI_Sendrecv(src + 64, 2, t[k], 0, 5, theirs + 64, 2, t[k], 0, 5, MPI_COMM_SELF, &st);
    mpiopt_sendrecv_dtype_rt(src + 64, 2, t[k], 0, 5, mine + 64, 2, t[k], 0, 5, MPI_COMM_SELF, &sm, &sh[k], &sh[k],
                             ~0UL, ~0UL, ~0UL);
    MPI_Get_count(&st, t[k], &ct);
    MPI_Get_count(&sm, t[k], &cm);
    CHECK(chosen(&sh[k], 2, 16) > 0 && memcmp(mine, theirs, sizeof mine) == 0 && cm == ct,
          "%s x 2 through mpiopt_sendrecv_dtype_rt: received where MPI puts them (count %d/%d)", what[k], cm, ct);
  }
  { /* blocks whose span is not a multiple of their elements' size: Open MPI
       rounds the extent up to the alignment (24), MPICH does not (20); the
       shape is recorded only where MPI's extent is the span */
    struct mpiopt_dshape uh = {0};
    MPI_Datatype u;
    MPI_Aint lb, ext;
    mpiopt_type_create_hvector_rt(2, 1, 12, MPI_DOUBLE, &u, &uh);
    MPI_Type_commit(&u);
    MPI_Type_get_extent(u, &lb, &ext);
    CHECK(uh.valid == (ext == 20), "an hvector of doubles 12 bytes apart: recorded only with MPI's extent 20 (%ld)",
          (long)ext);
    for (int count = 1; uh.valid && count <= 3; count++)
      same_as_mpi("unaligned hvector", u, &uh, count);
    MPI_Type_free(&u);
  }
  CHECK(!sh[7].valid, "blocks that overlap: left to MPI");
  CHECK(!sh[8].valid, "more blocks than a shadow holds: left to MPI");
  MPI_Type_free(&t[7]);
  mpiopt_type_create_indexed_block_rt(2, 1, even, pair, &t[7], &sh[7]);
  CHECK(!sh[7].valid, "blocks of a derived type: left to MPI");
  /* A run list rebuilt as an evenly spaced type in the same shadow: strided again. */
  MPI_Type_free(&t[3]);
  mpiopt_type_create_indexed_block_rt(4, 2, even, MPI_DOUBLE, &t[3], &sh[3]);
  CHECK(sh[3].valid && !sh[3].nruns && sh[3].stride == 56, "rebuilt evenly spaced: strided");
  /* A resized type of a run list: taken only as it is. */
  struct mpiopt_dshape rs = {0};
  MPI_Datatype r;
  mpiopt_type_create_resized_of_rt(t[4], 0, 8, &r, &rs, &sh[4]);
  CHECK(!rs.valid, "a resized run list: left to MPI");
  MPI_Type_free(&r);
  for (int i = 0; i < N; i++)
    MPI_Type_free(&t[i]);
  MPI_Type_free(&pair);
}

/* Run lists (the _ix templates): indexed and hindexed blocks at uneven
   displacements, in decreasing order and below the buffer, packed as MPI
   packs them for 1 to 3 elements; received, whole and from a shorter
   message, where MPI's engine puts them (the same bytes, status counts). */
static void check_run_lists(void) {
  static const int d1[4] = {0, 3, 10, 12}, d2[3] = {20, 10, 0};
  static const MPI_Aint d3[3] = {-16, 40, 8};
  static const MPI_Aint b1[4] = {0, 24, 80, 96}, b2[3] = {160, 80, 0}, b3[3] = {-16, 40, 8};
  static double src[512], mine[512], theirs[512];
  struct {
    const char *what;
    int nblocks, blocklen;
    const MPI_Aint *displs;
  } lists[3] = {{"uneven", 4, 2, b1}, {"decreasing", 3, 1, b2}, {"below the buffer", 3, 1, b3}};
  MPI_Datatype t[3];
  MPI_Type_create_indexed_block(4, 2, d1, MPI_DOUBLE, &t[0]);
  MPI_Type_create_indexed_block(3, 1, d2, MPI_DOUBLE, &t[1]);
  MPI_Type_create_hindexed_block(3, 1, d3, MPI_DOUBLE, &t[2]);
  for (int i = 0; i < 512; i++)
    src[i] = i + 0.5;
  for (int k = 0; k < 3; k++) {
    MPI_Aint lb, extent;
    MPI_Type_commit(&t[k]);
    MPI_Type_get_extent(t[k], &lb, &extent);
    for (int count = 1; count <= 3; count++) {
      int pos = 0, n = count * lists[k].nblocks * lists[k].blocklen;
      memset(mine, 0, sizeof mine);
      memset(theirs, 0, sizeof theirs);
      MPI_Pack(src + 64, count, t[k], theirs, (int)sizeof theirs, &pos, MPI_COMM_SELF);
      mpiopt_dtype_pack_ix(mine, src + 64, count, lists[k].displs, lists[k].nblocks, lists[k].blocklen, extent, 8);
      CHECK(pos == n * 8 && memcmp(mine, theirs, (size_t)pos) == 0, "%s x %d: packs as MPI packs", lists[k].what,
            count);
      for (int sent = n; sent >= n - 3 && sent > 0; sent -= 3) { /* whole, and shorter messages */
        MPI_Status sm, st;
        int cm = -2, ct = -2, em = -2, et = -2;
        for (int i = 0; i < 512; i++)
          mine[i] = theirs[i] = -1;
        MPI_Sendrecv(src, sent, MPI_DOUBLE, 0, 1, theirs + 64, count, t[k], 0, 1, MPI_COMM_SELF, &st);
        MPI_Request r;
        MPI_Isend(src, sent, MPI_DOUBLE, 0, 2, MPI_COMM_SELF, &r);
        mpiopt_recv_dtype_ix(mine + 64, count, t[k], 0, 2, MPI_COMM_SELF, &sm, lists[k].displs, lists[k].nblocks,
                             lists[k].blocklen, extent, MPI_DOUBLE, 8);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Get_count(&st, t[k], &ct);
        MPI_Get_count(&sm, t[k], &cm);
        MPI_Get_elements(&st, t[k], &et);
        MPI_Get_elements(&sm, t[k], &em);
        CHECK(memcmp(mine, theirs, sizeof mine) == 0 && cm == ct && em == et,
              "%s x %d, %d doubles sent: received where MPI puts them (count %d/%d, elements %d/%d)", lists[k].what,
              count, sent, cm, ct, em, et);
      }
    }
    MPI_Type_free(&t[k]);
  }
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
  check_recorded();
  check_recorded_indexed();
  check_run_lists();
  for (int i = 0; i < 6; i++)
    MPI_Type_free(&t[i]);
  printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
