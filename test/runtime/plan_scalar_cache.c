/* The scalar-keyed plan cache (runtime/coll/scalar_cache.c):
 * mpiopt_alltoall_cached and mpiopt_allgather_cached keep one plan per call
 * site and communicator while the counts, datatypes and MPI_IN_PLACE stay
 * the same. Every call's data is checked against what MPI_Alltoall /
 * MPI_Allgather deliver, through: a count that stays (planned at its
 * MPIOPT_PLAN_AFTER-th call, executed after), a count that changes at every call (never
 * planned), a count that changes every third call (planned, dropped,
 * planned again), MPI_IN_PLACE switched on and off, two sites on one line's
 * neighbours, a communicator freed and made again between phases (its
 * handle may come back: the site must forget the old plan), a split
 * communicator, and an intercommunicator (the MPI's own call). Run with
 * MPIOPT_STATS=1 it counts the plans (test/runtime/CMakeLists.txt). Prints
 * "ok: N checks, 0 failures". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "mpiopt/plan.h"

enum { CALLS = 20, MAXN = 5 };

static const char *where = "MPI_COMM_WORLD"; /* the communicator, in messages */

static double value(int from, int to, int e, int k) { return from * 1e6 + to * 1e3 + e + k * 0.25; }

/* One MPI_Alltoall of n doubles per pair (in place when inplace) through
 * the cache, on comm; checked. */
static void alltoall(MPI_Comm comm, int n, int inplace, int k) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double *sb = malloc(sizeof(double) * MAXN * (size_t)size), *rb = malloc(sizeof(double) * MAXN * (size_t)size);
  for (int j = 0; j < size; j++)
    for (int e = 0; e < n; e++) (inplace ? rb : sb)[j * n + e] = value(rank, j, e, k);
  if (!inplace)
    for (int e = 0; e < n * size; e++) rb[e] = -1;
  if (inplace)
    mpiopt_alltoall_cached(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rb, n, MPI_DOUBLE, comm);
  else
    mpiopt_alltoall_cached(sb, n, MPI_DOUBLE, rb, n, MPI_DOUBLE, comm);
  int bad = 0;
  for (int j = 0; j < size; j++)
    for (int e = 0; e < n; e++) bad += rb[j * n + e] != value(j, rank, e, k);
  CHECK(bad == 0, "%s: alltoall call %d (%d per pair, in place %d): %d elements wrong", where, k, n, inplace, bad);
  free(sb);
  free(rb);
}

/* One MPI_Allgather of n ints per rank through the cache; checked. */
static void allgather(MPI_Comm comm, int n, int inplace, int k) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *mine = malloc(sizeof(int) * MAXN), *all = malloc(sizeof(int) * MAXN * (size_t)size);
  for (int e = 0; e < n * size; e++) all[e] = -1;
  for (int e = 0; e < n; e++) (inplace ? all + rank * n : mine)[e] = rank * 1000 + e * 10 + k;
  if (inplace)
    mpiopt_allgather_cached(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, n, MPI_INT, comm);
  else
    mpiopt_allgather_cached(mine, n, MPI_INT, all, n, MPI_INT, comm);
  int bad = 0;
  for (int j = 0; j < size; j++)
    for (int e = 0; e < n; e++) bad += all[j * n + e] != j * 1000 + e * 10 + k;
  CHECK(bad == 0, "%s: allgather call %d (%d per rank, in place %d): %d elements wrong", where, k, n, inplace, bad);
  free(mine);
  free(all);
}

/* The phases on one communicator (CALLS is more than MPIOPT_PLAN_AFTER's
 * 16: the first phase plans; the tests that set it to 2 plan in all). */
static void phases(MPI_Comm comm) {
  for (int k = 0; k < CALLS; k++) alltoall(comm, 2, 0, k);             /* the same count: planned */
  for (int k = 0; k < CALLS; k++) alltoall(comm, 1 + k % MAXN, 0, k);  /* changes every call */
  for (int k = 0; k < CALLS; k++) alltoall(comm, 1 + k / 3 % 2, 0, k); /* every third call */
  for (int k = 0; k < CALLS; k++) alltoall(comm, 3, k / 4 % 2, k);     /* in place on and off */
  for (int k = 0; k < CALLS; k++) allgather(comm, 1, 0, k);
  for (int k = 0; k < CALLS; k++) allgather(comm, 1 + k % 3, k / 6, k);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  phases(MPI_COMM_WORLD);
  for (int round = 0; round < 3; round++) { /* freed and made again: a handle that comes back */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    where = round == 0 ? "a duplicate" : round == 1 ? "the second duplicate" : "the third duplicate";
    phases(dup);
    MPI_Comm_free(&dup);
  }
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half); /* reversed order */
  where = "half of MPI_COMM_WORLD";
  phases(half);
#ifndef SMPI_H /* (SMPI 3.32 has no MPI_Intercomm_create) */
  if (size >= 2) { /* an intercommunicator between the halves: the MPI's own call */
    MPI_Comm inter;
    int last_even = (size - 1) % 2 ? size - 2 : size - 1, last_odd = (size - 1) % 2 ? size - 1 : size - 2;
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? last_even : last_odd, 7, &inter); /* leaders: the last */
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    int out[1] = {rank}, *in = malloc(sizeof(int) * (size_t)remote);
    for (int k = 0; k < 3; k++) {
      mpiopt_allgather_cached(out, 1, MPI_INT, in, 1, MPI_INT, inter);
      int bad = 0; /* the remote group: the other parity, in reversed order of MPI_COMM_WORLD */
      for (int j = 0; j < remote; j++) bad += in[j] % 2 == rank % 2;
      CHECK(bad == 0, "intercommunicator allgather %d: %d from this rank's own group", k, bad);
    }
    free(in);
    MPI_Comm_free(&inter);
  }
#endif
  MPI_Comm_free(&half);
  printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
