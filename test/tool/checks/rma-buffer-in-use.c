// rma-buffer-in-use: an MPI_Get's origin used, or an MPI_Put's or
// MPI_Accumulate's origin written, before the window's next fence, unlock or
// flush, a fetching call's origin or compare buffer written, another MPI
// call reading a pending get's buffer or receiving into a pending put's;
// the negative cases read a put's origin, use the buffer after the
// completing call, or on another path.
// RUN: %ompi-opt --check --checks=rma-buffer-in-use %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=rma-buffer-in-use %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>
#include <stdlib.h>

static void positives(int *mem, MPI_Win w) {
  int local[4] = {0}, x = 0;
  MPI_Win_fence(0, w);
  MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:7: warning: 'local' is used before the MPI_Get at line [[#@LINE-1]] has completed: the origin buffer of RMA belongs to MPI until the window's epoch ends (the MPI_Win_fence at line [[#@LINE+2]]) [ompi-rma-buffer-in-use]
  x = local[0]; // not yet received
  MPI_Win_fence(0, w);
  MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:3: warning: 'local' is written before the MPI_Put at line [[#@LINE-1]] has completed: the origin buffer of RMA belongs to MPI until the window's epoch ends (the MPI_Win_fence at line [[#@LINE+2]]) [ompi-rma-buffer-in-use]
  local[1] = 2; // MPI may still be reading it
  MPI_Win_fence(0, w);
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
  MPI_Accumulate(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, w);
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:3: warning: 'x' is written before the MPI_Accumulate at line [[#@LINE-1]] has completed: the origin buffer of RMA belongs to MPI until the window's epoch ends (the MPI_Win_unlock at line [[#@LINE+2]]) [ompi-rma-buffer-in-use]
  x++;
  MPI_Win_unlock(1, w);
  (void)mem;
}

// Two RMA calls of one epoch on one origin buffer that one of them writes
// (MBI's LocalConcurrency Get_Get, Get_Put); two puts from one buffer only
// read it, gets into disjoint elements and the calls of different cases of
// a switch (MPICH's rma/rputget.c) are fine.
static void shared_origin(MPI_Win w, int kind) {
  int local = 0, other[2] = {0};
  MPI_Win_fence(0, w);
  MPI_Get(&local, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:3: warning: this MPI_Get writes into 'local', which the MPI_Get at line [[#@LINE-1]] may still be writing: RMA calls of one epoch must not share origin memory that one of them writes (the first completes only when the epoch ends) [ompi-rma-buffer-in-use]
  MPI_Get(&local, 1, MPI_INT, 1, 1, 1, MPI_INT, w);
  MPI_Win_fence(0, w);
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
  MPI_Get(&local, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:3: warning: this MPI_Put reads 'local', which the MPI_Get at line [[#@LINE-1]] may still be writing: RMA calls of one epoch must not share origin memory that one of them writes (the first completes only when the epoch ends) [ompi-rma-buffer-in-use]
  MPI_Put(&local, 1, MPI_INT, 1, 1, 1, MPI_INT, w);
  MPI_Win_unlock(1, w);
  MPI_Win_fence(0, w);
  MPI_Put(other, 2, MPI_INT, 1, 0, 2, MPI_INT, w);
  MPI_Put(other, 2, MPI_INT, 1, 2, 2, MPI_INT, w);
  MPI_Win_fence(0, w);
  MPI_Get(&other[0], 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  MPI_Get(&other[1], 1, MPI_INT, 1, 1, 1, MPI_INT, w);
  MPI_Win_fence(0, w);
  switch (kind) {
  case 0:
    MPI_Put(&local, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    break;
  default:
    MPI_Get(&local, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    break;
  }
  MPI_Win_fence(0, w);
}

static void negatives(int rank, MPI_Win w) {
  int local[4] = {0}, x = 0;
  MPI_Win_fence(0, w);
  // A put's origin may be read while it is in flight.
  MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  x = local[0];
  MPI_Win_fence(0, w);
  // Used after the fence that completes the get.
  MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  MPI_Win_fence(0, w);
  local[0] = x;
  // A use on another path (the other branch) is not after the get.
  MPI_Win_fence(0, w);
  if (rank == 0) {
    MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  } else {
    local[0] = 1;
  }
  MPI_Win_fence(0, w);
  // A flush completes the get at the origin.
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
  MPI_Get(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  MPI_Win_flush(1, w);
  x++;
  MPI_Win_unlock(1, w);
}

// A window's memory freed before MPI_Win_free, with no synchronisation of
// the window in between (on one path: argc decides).
static void freed_memory(int argc) {
  int *a = malloc(4 * sizeof(int));
  MPI_Win w;
  MPI_Win_create(a, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (argc > 1)
    // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:5: warning: 'a' is freed while the window 'w' created on it at line [[#@LINE-2]] still exposes it: a window's memory belongs to MPI until MPI_Win_free (line [[#@LINE+2]]) [ompi-rma-buffer-in-use]
    free(a);
  MPI_Win_free(&w);
  if (argc <= 1)
    free(a);
}

// Negative: the memory freed after the last fence (MPICH's own tests do
// this), or after MPI_Win_free, or on a path that returns first.
static void freed_after(int argc) {
  int *a = malloc(4 * sizeof(int)), *b = malloc(4 * sizeof(int));
  MPI_Win w, v;
  MPI_Win_create(a, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  MPI_Win_fence(0, w);
  free(a);
  MPI_Win_free(&w);
  MPI_Win_create(b, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &v);
  if (argc > 5) {
    free(b);
    return;
  }
  MPI_Win_free(&v);
  free(b);
}

static void fetching_origins(MPI_Win w, MPI_Comm comm) {
  int add = 1, old = 0, cmp = 0, swap = 5, got = 0;
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
  MPI_Fetch_and_op(&add, &old, MPI_INT, 1, 0, MPI_SUM, w);
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:3: warning: 'add' is written before the MPI_Fetch_and_op at line [[#@LINE-1]] has completed: the origin buffer of RMA belongs to MPI until the window's epoch ends (the MPI_Win_flush at line [[#@LINE+2]]) [ompi-rma-buffer-in-use]
  add = 2; // MPI may still be reading the value to add
  MPI_Win_flush(1, w);
  MPI_Compare_and_swap(&swap, &cmp, &got, MPI_INT, 1, 0, w);
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:3: warning: 'cmp' is written before the MPI_Compare_and_swap at line [[#@LINE-1]] has completed: the origin buffer of RMA belongs to MPI until the window's epoch ends (the MPI_Win_unlock at line [[#@LINE+2]]) [ompi-rma-buffer-in-use]
  cmp = 1; // and the value to compare with
  MPI_Win_unlock(1, w);
  swap = old + got; // after the unlock: fine
  MPI_Win_fence(0, w);
  MPI_Get(&got, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:13: warning: 'got' is read by this MPI_Send before the MPI_Get at line [[#@LINE-1]] has completed: the origin buffer of RMA belongs to MPI until the window's epoch ends [ompi-rma-buffer-in-use]
  MPI_Send(&got, 1, MPI_INT, 0, 0, comm); // not yet fetched
  MPI_Win_fence(0, w);
  MPI_Put(&swap, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  MPI_Send(&swap, 1, MPI_INT, 0, 0, comm); // two reads of the put's origin: fine
  // CHECK: {{.*}}rma-buffer-in-use.c:[[#@LINE+1]]:13: warning: 'swap' is written by this MPI_Recv before the MPI_Put at line [[#@LINE-2]] has completed: the origin buffer of RMA belongs to MPI until the window's epoch ends [ompi-rma-buffer-in-use]
  MPI_Recv(&swap, 1, MPI_INT, 0, 0, comm, MPI_STATUS_IGNORE);
  MPI_Win_fence(0, w);
}

int main(int argc, char **argv) {
  int mem[4] = {0}, rank;
  MPI_Win w;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  positives(mem, w);
  negatives(rank, w);
  shared_origin(w, argc);
  fetching_origins(w, MPI_COMM_WORLD);
  MPI_Win_free(&w);
  freed_memory(argc);
  freed_after(argc);
  MPI_Finalize();
  return 0;
}
// CHECK: 10 warnings generated.
