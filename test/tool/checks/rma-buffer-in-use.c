// rma-buffer-in-use: an MPI_Get's origin used, or an MPI_Put's or
// MPI_Accumulate's origin written, before the window's next fence, unlock or
// flush; the negative cases read a put's origin, use the buffer after the
// completing call, or on another path.
// RUN: %ompi-opt --check --checks=rma-buffer-in-use %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=rma-buffer-in-use %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>

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

int main(int argc, char **argv) {
  int mem[4] = {0}, rank;
  MPI_Win w;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  positives(mem, w);
  negatives(rank, w);
  MPI_Win_free(&w);
  MPI_Finalize();
  return 0;
}
// CHECK: 3 warnings generated.
