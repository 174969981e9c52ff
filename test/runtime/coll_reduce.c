/* Large-vector reduce and allreduce against MPI_Reduce / MPI_Allreduce:
 * every builtin op on every arithmetic type it applies to (values exact in
 * any order, so integer and floating results must match bit for bit),
 * dense and sparse vectors (90% and 99% zeros), counts below the rank
 * count and odd ones, MPI_IN_PLACE, every root, MAXLOC on a pair type, a
 * commutative user op on a derived contiguous type, a non-commutative user
 * op (run by the MPI in order), random doubles (within rounding, and the
 * same bits on every rank), and MPIOPT_THREADS. Run with each algorithm
 * forced (MPIOPT_REDUCE_ALGO / MPIOPT_ALLREDUCE_ALGO) and with each sparse
 * encoding forced (MPIOPT_SPARSE). Prints "ok: N checks, 0 failures". */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpiopt/coll.h"

static int rank, size;

typedef struct {
  MPI_Datatype dt;
  const char *name;
  int size, isfloat;
} type;

static const type types[] = {
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 0},  {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 0},
    {MPI_SHORT, "MPI_SHORT", 2, 0},              {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", 2, 0},
    {MPI_INT, "MPI_INT", 4, 0},                  {MPI_UNSIGNED, "MPI_UNSIGNED", 4, 0},
    {MPI_LONG, "MPI_LONG", sizeof(long), 0},     {MPI_LONG_LONG, "MPI_LONG_LONG", 8, 0},
    {MPI_INT64_T, "MPI_INT64_T", 8, 0},          {MPI_UINT32_T, "MPI_UINT32_T", 4, 0},
    {MPI_FLOAT, "MPI_FLOAT", 4, 1},              {MPI_DOUBLE, "MPI_DOUBLE", 8, 1},
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

typedef struct {
  MPI_Op op;
  const char *name;
  int ints_only;
} op;
static const op ops[] = {
    {MPI_SUM, "MPI_SUM", 0},  {MPI_PROD, "MPI_PROD", 0}, {MPI_MIN, "MPI_MIN", 0},   {MPI_MAX, "MPI_MAX", 0},
    {MPI_LAND, "MPI_LAND", 1}, {MPI_LOR, "MPI_LOR", 1},  {MPI_LXOR, "MPI_LXOR", 1}, {MPI_BAND, "MPI_BAND", 1},
    {MPI_BOR, "MPI_BOR", 1},  {MPI_BXOR, "MPI_BXOR", 1},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* Element i of rank r's vector: small values (sums, products and mins exact
 * in every type), zero with the given probability (in 1/100). */
static long long element(int r, size_t i, int zeros, int prod) {
  unsigned h = (unsigned)r * 7919u + (unsigned)i * 104729u + 17u;
  h ^= h >> 13;
  h *= 2654435761u;
  h ^= h >> 16;
  if ((int)(h % 100) < zeros) return 0;
  if (prod) return 1 + (long long)(h % 2); /* products stay small */
  return (long long)(h % 5) + (r % 3 == 2 ? 1 : 0);
}

static void fill(void *buf, const type *t, size_t n, int r, int zeros, int prod) {
  for (size_t i = 0; i < n; i++) {
    long long x = element(r, i, zeros, prod);
    unsigned char *p = (unsigned char *)buf + i * (size_t)t->size;
    if (t->dt == MPI_FLOAT) {
      float f = (float)x;
      memcpy(p, &f, 4);
    } else if (t->dt == MPI_DOUBLE) {
      double d = (double)x;
      memcpy(p, &d, 8);
    } else {
      memcpy(p, &x, (size_t)t->size); /* little-endian: the low bytes */
    }
  }
}

static const char *algo_env(int all) { return getenv(all ? "MPIOPT_ALLREDUCE_ALGO" : "MPIOPT_REDUCE_ALGO"); }

/* One case: mpiopt_(all)reduce against MPI's, both in and out of place. */
static void one(const type *t, const op *o, size_t n, int zeros, int all, int root, int inplace) {
  size_t bytes = n * (size_t)t->size + 1;
  unsigned char *in = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
  int prod = o->op == MPI_PROD;
  fill(in, t, n, rank, zeros, prod);
  memset(got, 0x5a, bytes);
  memset(want, 0x5a, bytes);
  if (all) {
    MPI_Allreduce(in, want, (int)n, t->dt, o->op, MPI_COMM_WORLD);
    if (inplace) {
      memcpy(got, in, n * (size_t)t->size);
      mpiopt_allreduce(MPI_IN_PLACE, got, (int)n, t->dt, o->op, MPI_COMM_WORLD);
    } else {
      mpiopt_allreduce(in, got, (int)n, t->dt, o->op, MPI_COMM_WORLD);
    }
  } else {
    MPI_Reduce(in, want, (int)n, t->dt, o->op, root, MPI_COMM_WORLD);
    if (inplace && rank == root) {
      memcpy(got, in, n * (size_t)t->size);
      mpiopt_reduce(MPI_IN_PLACE, got, (int)n, t->dt, o->op, root, MPI_COMM_WORLD);
    } else {
      mpiopt_reduce(in, got, (int)n, t->dt, o->op, root, MPI_COMM_WORLD);
    }
  }
  int checked = all || rank == root;
  CHECK(!checked || !memcmp(got, want, bytes), "%s %s %s n=%zu zeros=%d%% root=%d%s (%s): differs from MPI",
        all ? "allreduce" : "reduce", t->name, o->name, n, zeros, root, inplace ? " in place" : "",
        mpiopt_coll_last_algorithm());
  free(in);
  free(got);
  free(want);
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  const int *a = in;
  int *b = inout;
  for (int i = 0; i < *len * 3; i++) b[i] += a[i]; /* triples of int */
}

static void user_first(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  const int *a = in;
  int *b = inout;
  for (int i = 0; i < *len; i++) b[i] = a[i] * 10 + b[i] % 10; /* not commutative: order shows */
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  static const size_t counts[] = {1, 3, 17, 1000, 20001, 70000};
  static const int zeros[] = {0, 90, 99};
  for (int all = 0; all < 2; all++)
    for (int ti = 0; ti < NTYPES; ti++)
      for (int oi = 0; oi < NOPS; oi++) {
        if (ops[oi].ints_only && types[ti].isfloat) continue;
        for (int ci = 0; ci < 6; ci++)
          for (int zi = 0; zi < 3; zi++) {
            if (ci < 4 && zi > 0) continue; /* sparse only where it is long */
            if (ci == 5 && (ti % 3 != 0 || oi > 3)) continue; /* the longest on a few */
            int root = (ti + oi + ci) % size;
            one(&types[ti], &ops[oi], counts[ci], zeros[zi], all, root, (ti + ci) % 2);
          }
      }
  /* MAXLOC on a pair type (its padding travels with it). */
  {
    size_t n = 5000;
    struct {
      double v;
      int i;
    } *in = calloc(n, 16), *got = calloc(n, 16), *want = calloc(n, 16);
    for (size_t i = 0; i < n; i++) {
      in[i].v = (double)element(rank, i, 0, 0);
      in[i].i = rank;
    }
    MPI_Allreduce(in, want, (int)n, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    mpiopt_allreduce(in, got, (int)n, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad += got[i].v != want[i].v || got[i].i != want[i].i;
    CHECK(bad == 0, "MAXLOC on MPI_DOUBLE_INT (%s): %d differ", mpiopt_coll_last_algorithm(), bad);
    free(in);
    free(got);
    free(want);
  }
  /* A commutative user op on a contiguous derived type. */
  {
    MPI_Datatype triple;
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Op sum3;
    MPI_Op_create(user_sum, 1, &sum3);
    int n = 30000, *in = malloc(sizeof(int) * 3 * (size_t)n), *got = malloc(sizeof(int) * 3 * (size_t)n);
    int *want = malloc(sizeof(int) * 3 * (size_t)n);
    for (int i = 0; i < 3 * n; i++) in[i] = (int)element(rank, (size_t)i, 50, 0);
    MPI_Reduce(in, want, n, triple, sum3, size - 1, MPI_COMM_WORLD);
    mpiopt_reduce(in, got, n, triple, sum3, size - 1, MPI_COMM_WORLD);
    CHECK(rank != size - 1 || !memcmp(got, want, sizeof(int) * 3 * (size_t)n), "user op on a derived type (%s)",
          mpiopt_coll_last_algorithm());
    MPI_Op_free(&sum3);
    MPI_Type_free(&triple);
    free(in);
    free(got);
    free(want);
  }
  /* A non-commutative user op: the MPI's own call, in rank order (forcing an
     algorithm stops the job instead: coll_bad_args). */
  if (!algo_env(0) || !strcmp(algo_env(0), "auto")) {
    MPI_Op first;
    MPI_Op_create(user_first, 0, &first);
    int n = 40000, *in = malloc(sizeof(int) * (size_t)n), *got = malloc(sizeof(int) * (size_t)n);
    int *want = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) in[i] = rank + i % 7;
    MPI_Reduce(in, want, n, MPI_INT, first, 0, MPI_COMM_WORLD);
    mpiopt_reduce(in, got, n, MPI_INT, first, 0, MPI_COMM_WORLD);
    CHECK(rank != 0 || !memcmp(got, want, sizeof(int) * (size_t)n), "non-commutative op (%s)",
          mpiopt_coll_last_algorithm());
    CHECK(!strcmp(mpiopt_coll_last_algorithm(), "native"), "a non-commutative op ran %s",
          mpiopt_coll_last_algorithm());
    MPI_Op_free(&first);
    free(in);
    free(got);
    free(want);
  }
  /* Random doubles: within rounding of MPI's sum, the same bits everywhere. */
  {
    int n = 100000;
    double *in = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)n);
    double *want = malloc(sizeof(double) * (size_t)n), *first = malloc(sizeof(double) * (size_t)n);
    srand(rank + 1);
    for (int i = 0; i < n; i++) in[i] = (double)rand() / RAND_MAX - 0.5;
    MPI_Allreduce(in, want, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    mpiopt_allreduce(in, got, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int far = 0;
    for (int i = 0; i < n; i++) far += fabs(got[i] - want[i]) > 1e-12 * (1 + fabs(want[i]));
    CHECK(far == 0, "random doubles (%s): %d beyond rounding", mpiopt_coll_last_algorithm(), far);
    memcpy(first, got, sizeof(double) * (size_t)n);
    MPI_Bcast(first, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    CHECK(!memcmp(first, got, sizeof(double) * (size_t)n), "random doubles (%s): ranks got different bits",
          mpiopt_coll_last_algorithm());
    free(in);
    free(got);
    free(want);
    free(first);
  }
  /* On a communicator of half the ranks, freed afterwards. */
  {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    long long in[9000], got[9000], want[9000];
    for (int i = 0; i < 9000; i++) in[i] = element(rank, (size_t)i, 90, 0);
    MPI_Allreduce(in, want, 9000, MPI_LONG_LONG, MPI_SUM, half);
    mpiopt_allreduce(in, got, 9000, MPI_LONG_LONG, MPI_SUM, half);
    CHECK(!memcmp(got, want, sizeof got), "allreduce on a split (%s)", mpiopt_coll_last_algorithm());
    MPI_Comm_free(&half);
  }
  int f = failures, total = 0;
  MPI_Allreduce(&f, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("ok: %d checks, %d failures\n", checks, total);
  MPI_Finalize();
  return total != 0;
}
