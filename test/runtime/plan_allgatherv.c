/* Planned Allgatherv against MPI_Allgatherv: patterns (uniform 1 and 40,
 * random, zero-heavy, one rank holding everything, all empty), gaps between
 * the blocks and blocks in reverse rank order, a derived receive type with
 * holes and a send type of pairs, MPI_IN_PLACE (plan, planned call), plans
 * executed several times (both halves of the node segment), arrays changed
 * by the program after the plan was made, the planned call ompi-opt
 * writes, a split communicator freed before its plan, the check against
 * the MPI's own (MPIOPT_ALLGATHERV_TRIAL) and the plan cache
 * (mpiopt_allgatherv_cached), and MPI_Allgather's planned call
 * (mpiopt_allgather_planned). Run with each algorithm
 * forced (MPIOPT_ALLGATHERV_ALGO) and emulated nodes (MPIOPT_RANKS_PER_NODE).
 * Prints "ok: N checks, 0 failures". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpiopt/plan.h"

static int rank, size;

static unsigned hash(unsigned a, unsigned b) {
  unsigned h = a * 2654435761u ^ (b * 40503u + 0x9e3779b9u);
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return h;
}

enum { UNIFORM1, UNIFORM40, RANDOM, ZEROHEAVY, ONEHOLDER, ALLZERO, LARGE, NPATTERNS };
static const char *pname[] = {"uniform-1", "uniform-40", "random", "zero-heavy", "one-holder", "all-zero", "large"};

/* Rank i's block, in elements. */
static int count(int pattern, int i) {
  switch (pattern) {
  case UNIFORM1: return 1;
  case UNIFORM40: return 40;
  case RANDOM: return (int)(hash((unsigned)i, 7) % 23);
  case ZEROHEAVY: return hash((unsigned)i, 11) % 3 == 0 ? (int)(hash((unsigned)i, 3) % 17) + 1 : 0;
  case ONEHOLDER: return i == size / 2 ? 77 : 0;
  case LARGE: return 40000 + i * 3; /* past the MPI's short-message algorithms */
  default: return 0;
  }
}

static double value(int i, int k, int round) { return (double)i * 1048576.0 + k + round * 0.5; }

typedef struct {
  int *rc, *rd;
  int total;
} layout;

/* Displacements with gaps (spread) and in reverse rank order, so that a
 * wrong displacement shows. */
static void make(layout *l, int pattern, int spread) {
  l->rc = malloc(sizeof(int) * (size_t)size);
  l->rd = malloc(sizeof(int) * (size_t)size);
  int r = 0;
  for (int j = size - 1; j >= 0; j--) {
    l->rc[j] = count(pattern, j);
    l->rd[j] = r;
    r += l->rc[j] + spread;
  }
  l->total = r + 1;
}

static void unmake(layout *l) {
  free(l->rc);
  free(l->rd);
}

static void fill_send(double *sb, int n, int round) {
  for (int k = 0; k < n; k++) sb[k] = value(rank, k, round);
}

static void check_recv(const layout *l, const double *buf, int round, const char *what) {
  int bad = 0;
  for (int j = 0; j < size && !bad; j++)
    for (int k = 0; k < l->rc[j] && !bad; k++) bad = buf[l->rd[j] + k] != value(j, k, round);
  CHECK(!bad, "%s: wrong data", what);
  int holes = 0; /* elements between blocks keep their fill */
  for (int k = 0; k < l->total; k++) {
    int in = 0;
    for (int j = 0; j < size; j++) in |= k >= l->rd[j] && k < l->rd[j] + l->rc[j];
    holes += !in && buf[k] != -7;
  }
  CHECK(holes == 0, "%s: %d elements outside the blocks were written", what, holes);
}

static void plans_of(int pattern) {
  layout l;
  make(&l, pattern, pattern == RANDOM ? 2 : 0);
  int n = l.rc[rank];
  double *sb = malloc(sizeof(double) * (size_t)(n + 1)), *rb = malloc(sizeof(double) * (size_t)l.total);
  char what[128];
  mpiopt_plan plan = NULL;
  mpiopt_allgatherv_plan_create(n, MPI_DOUBLE, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD, &plan);
  int *copy = malloc(sizeof(int) * (size_t)size);
  memcpy(copy, l.rc, sizeof(int) * (size_t)size);
  for (int j = 0; j < size; j++) l.rc[j] += 1000; /* the plan copied the arrays */
  memcpy(l.rc, copy, sizeof(int) * (size_t)size);
  for (int round = 0; round < 4; round++) { /* both halves of the segment, twice */
    fill_send(sb, n, round);
    for (int k = 0; k < l.total; k++) rb[k] = -7;
    mpiopt_plan_execute(plan, sb, rb);
    snprintf(what, sizeof what, "%s plan (%s) round %d", pname[pattern], mpiopt_plan_algorithm(plan), round);
    check_recv(&l, rb, round, what);
  }
  /* In place with a plan made for a send buffer: MPI ignores the send side. */
  for (int k = 0; k < l.total; k++) rb[k] = -7;
  for (int k = 0; k < n; k++) rb[l.rd[rank] + k] = value(rank, k, 9);
  mpiopt_plan_execute(plan, MPI_IN_PLACE, rb);
  snprintf(what, sizeof what, "%s plan (%s) in place", pname[pattern], mpiopt_plan_algorithm(plan));
  check_recv(&l, rb, 9, what);
  mpiopt_plan_free(&plan);
  CHECK(plan == NULL, "mpiopt_plan_free leaves the plan NULL");
  /* The planned call, as ompi-opt writes it in a loop; rounds 4 and 5 in place. */
  mpiopt_plan p2 = NULL; /* the first call runs MPI_Allgatherv, the second plans */
  for (int round = 0; round < 7; round++) {
    int inplace = round == 4 || round == 5;
    fill_send(sb, n, round);
    for (int k = 0; k < l.total; k++) rb[k] = -7;
    if (inplace) {
      for (int k = 0; k < n; k++) rb[l.rd[rank] + k] = value(rank, k, round);
      mpiopt_allgatherv_planned(&p2, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rb, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD);
    } else {
      mpiopt_allgatherv_planned(&p2, sb, n, MPI_DOUBLE, rb, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD);
    }
    snprintf(what, sizeof what, "%s planned round %d%s", pname[pattern], round, inplace ? " (in place)" : "");
    check_recv(&l, rb, round, what);
  }
  mpiopt_plan_free(&p2);
  free(copy);
  free(sb);
  free(rb);
  unmake(&l);
}

/* The check (MPIOPT_ALLGATHERV_TRIAL): results stay right through and past
 * it, every rank ends with the same algorithm, and a second plan is freed
 * in the middle of its check. */
static void checked(int pattern) {
  layout l;
  make(&l, pattern, 0);
  int n = l.rc[rank];
  double *sb = malloc(sizeof(double) * (size_t)(n + 1)), *rb = malloc(sizeof(double) * (size_t)l.total);
  char what[128];
  mpiopt_plan plan = NULL, half = NULL;
  mpiopt_allgatherv_plan_create(n, MPI_DOUBLE, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD, &plan);
  mpiopt_allgatherv_plan_create(n, MPI_DOUBLE, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD, &half);
  for (int round = 0; round < 48; round++) { /* the default check takes up to 32 */
    fill_send(sb, n, round);
    for (int k = 0; k < l.total; k++) rb[k] = -7;
    mpiopt_plan_execute(round % 2 || !half ? plan : half, sb, rb);
    snprintf(what, sizeof what, "%s checked plan round %d", pname[pattern], round);
    check_recv(&l, rb, round, what);
    if (round == 4) mpiopt_plan_free(&half);
  }
  const char *algo = mpiopt_plan_algorithm(plan);
  int mine = (int)strlen(algo) * 256 + algo[0], lo = 0, hi = 0;
  MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(lo == hi, "%s: the ranks' checks ended with different algorithms (this rank: %s)", pname[pattern], algo);
  mpiopt_plan_free(&plan);
  free(sb);
  free(rb);
  unmake(&l);
}

/* Derived types: pairs of doubles sent as one contiguous type, received as
 * doubles spaced by a hole (a resized type); the types are freed while the
 * plan lives. */
static void derived(void) {
  MPI_Datatype pair, spaced;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  MPI_Type_create_resized(MPI_DOUBLE, 0, 2 * sizeof(double), &spaced);
  MPI_Type_commit(&spaced);
  int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
  int r = 0, mine = 1 + rank % 3;
  for (int j = 0; j < size; j++) {
    rc[j] = 2 * (1 + j % 3); /* spaced doubles: two per pair */
    rd[j] = r;
    r += rc[j];
  }
  double *sb = malloc(sizeof(double) * 2 * (size_t)mine), *rb = malloc(sizeof(double) * 2 * (size_t)r);
  double *want = malloc(sizeof(double) * 2 * (size_t)r);
  for (int k = 0; k < 2 * mine; k++) sb[k] = rank * 1000 + k;
  for (int k = 0; k < 2 * r; k++) want[k] = -3;
  MPI_Allgatherv(sb, mine, pair, want, rc, rd, spaced, MPI_COMM_WORLD);
  mpiopt_plan plan;
  mpiopt_allgatherv_plan_create(mine, pair, rc, rd, spaced, MPI_COMM_WORLD, &plan);
  MPI_Type_free(&pair); /* the plan keeps its own */
  MPI_Type_free(&spaced);
  for (int round = 0; round < 2; round++) {
    for (int k = 0; k < 2 * r; k++) rb[k] = -3;
    mpiopt_plan_execute(plan, sb, rb);
    CHECK(!memcmp(rb, want, sizeof(double) * 2 * (size_t)r),
          "derived types (%s), round %d: differs from MPI_Allgatherv", mpiopt_plan_algorithm(plan), round);
  }
  mpiopt_plan_free(&plan);
  free(rc);
  free(rd);
  free(sb);
  free(rb);
  free(want);
}

/* Ints on a communicator split in two (other members, other nodes), freed
 * while a plan still refers to it. */
static void on_split(void) {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half); /* reversed order */
  int hr, hs;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  int *rc = malloc(sizeof(int) * (size_t)hs), *rd = malloc(sizeof(int) * (size_t)hs), total = 0;
  for (int j = 0; j < hs; j++) {
    rc[j] = 1 + j;
    rd[j] = total;
    total += rc[j];
  }
  int *sb = malloc(sizeof(int) * (size_t)rc[hr]), *rb = malloc(sizeof(int) * (size_t)total);
  mpiopt_plan plan = NULL;
  for (int round = 0; round < 4; round++) {
    for (int k = 0; k < rc[hr]; k++) sb[k] = hr * 1000 + k + round;
    mpiopt_allgatherv_planned(&plan, sb, rc[hr], MPI_INT, rb, rc, rd, MPI_INT, half);
    int bad = 0;
    for (int j = 0; j < hs; j++)
      for (int k = 0; k < rc[j]; k++) bad += rb[rd[j] + k] != j * 1000 + k + round;
    CHECK(bad == 0, "split plan (%s) round %d: %d wrong", mpiopt_plan_algorithm(plan), round, bad);
  }
  MPI_Comm_free(&half);
  mpiopt_plan_free(&plan); /* after its communicator: still fine */
  free(rc);
  free(rd);
  free(sb);
  free(rb);
}

/* The plan cache (mpiopt_allgatherv_cached, as ompi-opt writes a call whose
 * arguments may change): recurring patterns (hits; with MPIOPT_PLAN_CACHE=2
 * evictions), rounds in place, a layout only rank 0 changes (its plan is
 * stale while the others' hit: every rank plans afresh), cached Alltoallv
 * calls on the same communicator between them (one cache holds both
 * kinds), and a derived receive type (not cached: MPI_Allgatherv). */
static void cached(void) {
  static const int order[] = {UNIFORM40, RANDOM, UNIFORM40, ZEROHEAVY, RANDOM, UNIFORM40, ONEHOLDER, UNIFORM1,
                              UNIFORM40, RANDOM, ALLZERO, RANDOM};
  int nrounds = (int)(sizeof order / sizeof order[0]);
  char what[160];
  for (int round = 0; round < 2 * nrounds; round++) {
    int pattern = order[round % nrounds], inplace = round % 5 == 4;
    layout l;
    make(&l, pattern, rank == 0 && round % 3 == 1 ? 3 : 0); /* rank 0's own layout now and then */
    int n = l.rc[rank];
    double *sb = malloc(sizeof(double) * (size_t)(n + 1)), *rb = malloc(sizeof(double) * (size_t)l.total);
    fill_send(sb, n, round);
    for (int k = 0; k < l.total; k++) rb[k] = -7;
    if (inplace) {
      for (int k = 0; k < n; k++) rb[l.rd[rank] + k] = value(rank, k, round);
      mpiopt_allgatherv_cached(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rb, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD);
    } else {
      mpiopt_allgatherv_cached(sb, n, MPI_DOUBLE, rb, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD);
    }
    snprintf(what, sizeof what, "%s cached round %d%s", pname[pattern], round, inplace ? " (in place)" : "");
    check_recv(&l, rb, round, what);
    /* An Alltoallv through the same cache: one int from every rank to every rank. */
    int *ones = malloc(sizeof(int) * (size_t)size), *d = malloc(sizeof(int) * (size_t)size);
    int *out = malloc(sizeof(int) * (size_t)size), *in = malloc(sizeof(int) * (size_t)size);
    for (int j = 0; j < size; j++) {
      ones[j] = 1;
      d[j] = j;
      out[j] = rank * 1000 + j + round;
      in[j] = -1;
    }
    mpiopt_alltoallv_cached(out, ones, d, MPI_INT, in, ones, d, MPI_INT, MPI_COMM_WORLD);
    int bad = 0;
    for (int j = 0; j < size; j++) bad += in[j] != j * 1000 + rank + round;
    CHECK(bad == 0, "cached Alltoallv between cached Allgatherv calls, round %d: %d wrong", round, bad);
    free(ones);
    free(d);
    free(out);
    free(in);
    free(sb);
    free(rb);
    unmake(&l);
  }
  /* A derived receive type: the MPI's own call. */
  MPI_Datatype two;
  MPI_Type_contiguous(2, MPI_INT, &two);
  MPI_Type_commit(&two);
  int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
  int *all = malloc(sizeof(int) * 2 * (size_t)size), mine[2] = {rank, -rank};
  for (int j = 0; j < size; j++) {
    rc[j] = 1;
    rd[j] = j;
  }
  mpiopt_allgatherv_cached(mine, 2, MPI_INT, all, rc, rd, two, MPI_COMM_WORLD);
  int bad = 0;
  for (int j = 0; j < size; j++) bad += all[2 * j] != j || all[2 * j + 1] != -j;
  CHECK(bad == 0, "cached Allgatherv with a derived receive type: %d wrong", bad);
  MPI_Type_free(&two);
  free(rc);
  free(rd);
  free(all);
}

/* MPI_Allgather as ompi-opt writes it in a loop (mpiopt_allgather_planned:
 * an Allgatherv plan of equal blocks, rank j's at j x n): blocks of 1, 40
 * and 40,000 doubles, a send type of pairs against doubles, rounds 4 and 5
 * in place; the results compared with MPI_Allgather's. */
static void allgather(void) {
  static const int ns[] = {1, 40, 40000};
  MPI_Datatype two;
  MPI_Type_contiguous(2, MPI_DOUBLE, &two);
  MPI_Type_commit(&two);
  for (int t = 0; t < 3; t++) {
    int n = ns[t];
    size_t all = (size_t)n * (size_t)size;
    double *sb = malloc(sizeof(double) * (size_t)n), *rb = malloc(sizeof(double) * (all + 1));
    double *want = malloc(sizeof(double) * all);
    mpiopt_plan p = NULL, p2 = NULL;
    char what[128];
    /* rounds 0-5 on one plan (4 and 5 in place); rounds 6-8 a send type of
     * pairs on a second (where n is even) */
    for (int round = 0; round < 9; round++) {
      int inplace = round == 4 || round == 5, pairs = round >= 6;
      if (pairs && n % 2) break;
      fill_send(sb, n, round);
      MPI_Allgather(sb, n, MPI_DOUBLE, want, n, MPI_DOUBLE, MPI_COMM_WORLD);
      for (size_t k = 0; k <= all; k++) rb[k] = -7;
      if (inplace) {
        for (int k = 0; k < n; k++) rb[(size_t)rank * (size_t)n + (size_t)k] = sb[k];
        mpiopt_allgather_planned(&p, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rb, n, MPI_DOUBLE, MPI_COMM_WORLD);
      } else if (pairs) {
        mpiopt_allgather_planned(&p2, sb, n / 2, two, rb, n, MPI_DOUBLE, MPI_COMM_WORLD);
      } else {
        mpiopt_allgather_planned(&p, sb, n, MPI_DOUBLE, rb, n, MPI_DOUBLE, MPI_COMM_WORLD);
      }
      snprintf(what, sizeof what, "Allgather of %d planned round %d%s%s", n, round, inplace ? " (in place)" : "",
               pairs ? " (pairs)" : "");
      CHECK(memcmp(rb, want, sizeof(double) * all) == 0, "%s: not MPI_Allgather's result", what);
      CHECK(rb[all] == -7, "%s: an element past the blocks was written", what);
    }
    mpiopt_plan_free(&p2);
    mpiopt_plan_free(&p);
    CHECK(p == NULL, "mpiopt_plan_free leaves the Allgather plan NULL");
    free(sb);
    free(rb);
    free(want);
  }
  MPI_Type_free(&two);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  for (int pattern = 0; pattern < NPATTERNS; pattern++) plans_of(pattern);
  checked(UNIFORM40);
  checked(LARGE);
  derived();
  on_split();
  cached();
  allgather();
  int f = failures, all = 0;
  MPI_Allreduce(&f, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("ok: %d checks, %d failures\n", checks, all);
  MPI_Finalize();
  return all != 0;
}
