/* Planned Alltoallv against MPI_Alltoallv: every pattern (uniform, random,
 * zero-heavy, FFT transpose, one rank sending everything), predefined and
 * derived datatypes (a receive type with holes, a send type of pairs),
 * MPI_IN_PLACE, plans executed several times (both halves of the node
 * segment), arrays changed by the program after the plan was made, the
 * cache (hits, misses, changed arrays), the planned call ompi-opt writes,
 * MPI_Alltoall plans, plans outliving a freed datatype, and the check
 * against the MPI's own (MPIOPT_ALLTOALLV_TRIAL). Run with each
 * algorithm forced (MPIOPT_ALLTOALLV_ALGO) and emulated nodes
 * (MPIOPT_RANKS_PER_NODE). Prints "ok: N checks, 0 failures". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpiopt/plan.h"

static int rank, size;

/* How many elements rank i sends to rank j in each pattern. */
static unsigned hash(unsigned a, unsigned b, unsigned c) {
  unsigned h = a * 2654435761u ^ (b + 0x9e3779b9u) ^ (c * 40503u);
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return h;
}

enum { UNIFORM1, UNIFORM40, RANDOM, ZEROHEAVY, FFT, ONESENDER, SYMMETRIC, ALLZERO, NPATTERNS };
static const char *pname[] = {"uniform-1", "uniform-40", "random", "zero-heavy", "fft", "one-sender", "symmetric",
                              "all-zero"};

/* FFT transpose of an n^3 grid from x-slabs to y-slabs: rank i holds nx(i)
 * planes; the block i -> j is nx(i) x ny(j) x n complex values. */
static int planes(int n, int r) { return n / size + (r < n % size); }

static int count(int pattern, int i, int j) {
  switch (pattern) {
  case UNIFORM1: return 1;
  case UNIFORM40: return 40;
  case RANDOM: return (int)(hash((unsigned)i, (unsigned)j, 7) % 23);
  case ZEROHEAVY: return hash((unsigned)i, (unsigned)j, 11) % 5 == 0 ? (int)(hash((unsigned)i, (unsigned)j, 3) % 17) + 1 : 0;
  case FFT: {
    int n = size + size / 2 + 1; /* uneven planes; at 8 ranks several have none */
    if (size >= 4) n = size - 2;
    return planes(n, i) * planes(n, j) * n * 2;
  }
  case ONESENDER: return i == 0 ? 3 + j : 0;
  case SYMMETRIC: return (int)(hash((unsigned)(i < j ? i : j), (unsigned)(i < j ? j : i), 5) % 9);
  default: return 0;
  }
}

/* The value element k of the block i -> j carries (exact in a double). */
static double value(int i, int j, int k, int round) { return (double)i * 1048576.0 + j * 1024.0 + k + round * 0.5; }

typedef struct {
  int *sc, *sd, *rc, *rd;
  int stotal, rtotal;
} layout;

/* Counts, and displacements with gaps between the blocks (in reverse order
 * for the receive side) so that a wrong displacement shows. */
static void make(layout *l, int pattern, int spread) {
  l->sc = malloc(sizeof(int) * (size_t)size);
  l->sd = malloc(sizeof(int) * (size_t)size);
  l->rc = malloc(sizeof(int) * (size_t)size);
  l->rd = malloc(sizeof(int) * (size_t)size);
  int s = 0, r = 0;
  for (int j = 0; j < size; j++) {
    l->sc[j] = count(pattern, rank, j);
    l->sd[j] = s;
    s += l->sc[j] + spread;
  }
  for (int j = size - 1; j >= 0; j--) {
    l->rc[j] = count(pattern, j, rank);
    l->rd[j] = r;
    r += l->rc[j] + spread;
  }
  l->stotal = s + 1;
  l->rtotal = r + 1;
}

static void unmake(layout *l) {
  free(l->sc);
  free(l->sd);
  free(l->rc);
  free(l->rd);
}

static void fill_send(const layout *l, double *buf, int round) {
  for (int k = 0; k < l->stotal; k++) buf[k] = -1;
  for (int j = 0; j < size; j++)
    for (int k = 0; k < l->sc[j]; k++) buf[l->sd[j] + k] = value(rank, j, k, round);
}

static void check_recv(const layout *l, const double *buf, int round, const char *what) {
  int bad = 0;
  for (int j = 0; j < size && !bad; j++)
    for (int k = 0; k < l->rc[j] && !bad; k++)
      bad = buf[l->rd[j] + k] != value(j, rank, k, round);
  CHECK(!bad, "%s: wrong data", what);
  int holes = 0; /* elements between blocks keep their fill */
  for (int k = 0; k < l->rtotal; k++) {
    int in = 0;
    for (int j = 0; j < size; j++) in |= k >= l->rd[j] && k < l->rd[j] + l->rc[j];
    holes += !in && buf[k] != -7;
  }
  CHECK(holes == 0, "%s: %d elements outside the blocks were written", what, holes);
}

static void plans_of(int pattern) {
  layout l;
  make(&l, pattern, pattern == RANDOM ? 2 : 0);
  double *sb = malloc(sizeof(double) * (size_t)l.stotal), *rb = malloc(sizeof(double) * (size_t)l.rtotal);
  char what[128];
  mpiopt_plan plan = NULL;
  mpiopt_alltoallv_plan_create(l.sc, l.sd, MPI_DOUBLE, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD, &plan);
  int *copy = malloc(sizeof(int) * (size_t)size);
  memcpy(copy, l.sc, sizeof(int) * (size_t)size);
  for (int j = 0; j < size; j++) l.sc[j] += 1000; /* the plan copied the arrays */
  memcpy(l.sc, copy, sizeof(int) * (size_t)size);
  for (int round = 0; round < 4; round++) { /* both halves of the segment, twice */
    fill_send(&l, sb, round);
    for (int k = 0; k < l.rtotal; k++) rb[k] = -7;
    mpiopt_plan_execute(plan, sb, rb);
    snprintf(what, sizeof what, "%s plan (%s) round %d", pname[pattern], mpiopt_plan_algorithm(plan), round);
    check_recv(&l, rb, round, what);
  }
  mpiopt_plan_free(&plan);
  CHECK(plan == NULL, "mpiopt_plan_free leaves the plan NULL");
  /* The cache, twice (a miss, then a hit), then with other arrays. */
  for (int round = 0; round < 3; round++) {
    fill_send(&l, sb, round);
    for (int k = 0; k < l.rtotal; k++) rb[k] = -7;
    mpiopt_alltoallv_cached(sb, l.sc, l.sd, MPI_DOUBLE, rb, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD);
    snprintf(what, sizeof what, "%s cached round %d", pname[pattern], round);
    check_recv(&l, rb, round, what);
  }
  /* The planned call, as ompi-opt writes it in a loop. */
  mpiopt_plan p2 = NULL; /* the first call runs MPI_Alltoallv, the second plans */
  for (int round = 0; round < 4; round++) {
    fill_send(&l, sb, round);
    for (int k = 0; k < l.rtotal; k++) rb[k] = -7;
    mpiopt_alltoallv_planned(&p2, sb, l.sc, l.sd, MPI_DOUBLE, rb, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD);
    snprintf(what, sizeof what, "%s planned round %d", pname[pattern], round);
    check_recv(&l, rb, round, what);
  }
  mpiopt_plan_free(&p2);
  free(copy);
  free(sb);
  free(rb);
  unmake(&l);
}

/* The check (MPIOPT_ALLTOALLV_TRIAL): a plan executed through its check and
 * well past it gives the same results every time, and every rank ends with
 * the same algorithm (a rank that took another would deadlock or
 * misplace blocks); a second plan is freed in the middle of its check. */
static void checked(int pattern) {
  layout l;
  make(&l, pattern, 0);
  double *sb = malloc(sizeof(double) * (size_t)l.stotal), *rb = malloc(sizeof(double) * (size_t)l.rtotal);
  char what[128];
  mpiopt_plan plan = NULL, half = NULL;
  mpiopt_alltoallv_plan_create(l.sc, l.sd, MPI_DOUBLE, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD, &plan);
  mpiopt_alltoallv_plan_create(l.sc, l.sd, MPI_DOUBLE, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD, &half);
  for (int round = 0; round < 64; round++) { /* the default check takes up to 48 */
    fill_send(&l, sb, round);
    for (int k = 0; k < l.rtotal; k++) rb[k] = -7;
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
 * doubles spaced by a hole (a resized type), and the reverse. */
static void derived(void) {
  MPI_Datatype pair, spaced;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  MPI_Type_create_resized(MPI_DOUBLE, 0, 2 * sizeof(double), &spaced);
  MPI_Type_commit(&spaced);
  int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
  int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
  int s = 0, r = 0;
  for (int j = 0; j < size; j++) {
    sc[j] = 1 + (rank + j) % 3; /* pairs */
    sd[j] = s;
    s += sc[j];
    rc[j] = 2 * (1 + (j + rank) % 3); /* spaced doubles: two per pair */
    rd[j] = r;
    r += rc[j];
  }
  double *sb = malloc(sizeof(double) * 2 * (size_t)s), *rb = malloc(sizeof(double) * 2 * (size_t)r);
  double *want = malloc(sizeof(double) * 2 * (size_t)r);
  for (int k = 0; k < 2 * s; k++) sb[k] = rank * 1000 + k;
  for (int k = 0; k < 2 * r; k++) want[k] = rb[k] = -3;
  MPI_Alltoallv(sb, sc, sd, pair, want, rc, rd, spaced, MPI_COMM_WORLD);
  mpiopt_plan plan;
  mpiopt_alltoallv_plan_create(sc, sd, pair, rc, rd, spaced, MPI_COMM_WORLD, &plan);
  MPI_Type_free(&pair); /* the plan keeps its own */
  MPI_Type_free(&spaced);
  for (int round = 0; round < 2; round++) {
    for (int k = 0; k < 2 * r; k++) rb[k] = -3;
    mpiopt_plan_execute(plan, sb, rb);
    CHECK(!memcmp(rb, want, sizeof(double) * 2 * (size_t)r), "derived types (%s), round %d: differs from MPI_Alltoallv",
          mpiopt_plan_algorithm(plan), round);
  }
  mpiopt_plan_free(&plan);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  free(sb);
  free(rb);
  free(want);
}

/* MPI_IN_PLACE: a plan made with the receive side as the send side. */
static void in_place(void) {
  layout l;
  make(&l, SYMMETRIC, 1);
  double *buf = malloc(sizeof(double) * (size_t)l.rtotal), *want = malloc(sizeof(double) * (size_t)l.rtotal);
  for (int round = 0; round < 3; round++) {
    for (int k = 0; k < l.rtotal; k++) want[k] = -7;
    for (int j = 0; j < size; j++)
      for (int k = 0; k < l.rc[j]; k++) want[l.rd[j] + k] = value(rank, j, k, round);
    memcpy(buf, want, sizeof(double) * (size_t)l.rtotal);
    MPI_Alltoallv(MPI_IN_PLACE, l.rc, l.rd, MPI_DOUBLE, want, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD);
    mpiopt_plan plan;
    mpiopt_alltoallv_plan_create(l.rc, l.rd, MPI_DOUBLE, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD, &plan);
    mpiopt_plan_execute(plan, MPI_IN_PLACE, buf);
    CHECK(!memcmp(buf, want, sizeof(double) * (size_t)l.rtotal), "in place (%s), round %d: differs",
          mpiopt_plan_algorithm(plan), round);
    mpiopt_plan_free(&plan);
  }
  /* The cached and planned forms with MPI_IN_PLACE. */
  for (int form = 0; form < 2; form++) {
    mpiopt_plan p = NULL;
    for (int round = 0; round < 3; round++) {
      for (int k = 0; k < l.rtotal; k++) want[k] = -7;
      for (int j = 0; j < size; j++)
        for (int k = 0; k < l.rc[j]; k++) want[l.rd[j] + k] = value(rank, j, k, round);
      memcpy(buf, want, sizeof(double) * (size_t)l.rtotal);
      MPI_Alltoallv(MPI_IN_PLACE, l.rc, l.rd, MPI_DOUBLE, want, l.rc, l.rd, MPI_DOUBLE, MPI_COMM_WORLD);
      if (form == 0)
        mpiopt_alltoallv_cached(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, l.rc, l.rd, MPI_DOUBLE,
                                MPI_COMM_WORLD);
      else
        mpiopt_alltoallv_planned(&p, MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, l.rc, l.rd, MPI_DOUBLE,
                                 MPI_COMM_WORLD);
      CHECK(!memcmp(buf, want, sizeof(double) * (size_t)l.rtotal), "in place (%s form), round %d: differs",
            form ? "planned" : "cached", round);
    }
    mpiopt_plan_free(&p);
  }
  free(buf);
  free(want);
  unmake(&l);
}

/* MPI_Alltoall plans, on a communicator split in two (other members, other
 * nodes), freed while a plan still refers to it. */
static void alltoall_on_split(void) {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int hr, hs;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  int n = 5;
  int *sb = malloc(sizeof(int) * (size_t)(n * hs)), *rb = malloc(sizeof(int) * (size_t)(n * hs));
  mpiopt_plan plan = NULL;
  for (int round = 0; round < 4; round++) {
    for (int j = 0; j < hs; j++)
      for (int k = 0; k < n; k++) sb[j * n + k] = hr * 10000 + j * 100 + k + round;
    mpiopt_alltoall_planned(&plan, sb, n, MPI_INT, rb, n, MPI_INT, half);
    int bad = 0;
    for (int j = 0; j < hs; j++)
      for (int k = 0; k < n; k++) bad += rb[j * n + k] != j * 10000 + hr * 100 + k + round;
    CHECK(bad == 0, "alltoall plan (%s) round %d: %d wrong", mpiopt_plan_algorithm(plan), round, bad);
  }
  MPI_Comm_free(&half);
  mpiopt_plan_free(&plan); /* after its communicator: still fine */
  free(sb);
  free(rb);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  for (int pattern = 0; pattern < NPATTERNS; pattern++) plans_of(pattern);
  checked(UNIFORM40);
  checked(FFT);
  derived();
  in_place();
  alltoall_on_split();
  /* A duplicate freed between plans: its state goes with it. */
  for (int i = 0; i < 3; i++) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int *all = malloc(sizeof(int) * (size_t)size), *ones = malloc(sizeof(int) * (size_t)size);
    int *d = malloc(sizeof(int) * (size_t)size);
    for (int j = 0; j < size; j++) {
      ones[j] = 1;
      d[j] = j;
    }
    mpiopt_alltoallv_cached(ones, ones, d, MPI_INT, all, ones, d, MPI_INT, dup);
    int sum = 0;
    for (int j = 0; j < size; j++) sum += all[j];
    CHECK(sum == size, "duplicate %d: sum %d", i, sum);
    MPI_Comm_free(&dup);
    free(all);
    free(ones);
    free(d);
  }
  int f = failures, all = 0;
  MPI_Allreduce(&f, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("ok: %d checks, %d failures\n", checks, all);
  MPI_Finalize();
  return all != 0;
}
