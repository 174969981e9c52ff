// rma-epoch along each rank's run: what one rank certainly does wrong where
// the paths of the function do not all agree (so the per-path check of
// rma-epoch.c is silent). Each case is an entry function of its own (no
// function of the file calls it), run per rank with 2, 3 and 4 processes.
// The negative cases say why the tool must stay silent.
// RUN: %ompi-opt --check --checks=rma-epoch %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=rma-epoch %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>

void free_pending(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w); // no fence completes it
  // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:3: warning: with 2 processes, on rank 0: MPI_Win_free on window 'w' while the epoch of line [[#@LINE-3]] is still open: RMA must be completed (a closing fence, MPI_Win_unlock, MPI_Win_complete) before the window is freed [ompi-rma-epoch]
  MPI_Win_free(&w);
}

void fence_on_one_rank(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0)
    MPI_Win_fence(0, w);
  // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:3: warning: with 2 processes, on rank 1: MPI_Put on window 'w' outside any access epoch (none open since line [[#@LINE-3]]): RMA must follow an MPI_Win_fence, MPI_Win_lock(_all) or MPI_Win_start on the window [ompi-rma-epoch]
  MPI_Put(local, 4, MPI_INT, 0, 0, 4, MPI_INT, w);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void unlock_unlocked(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank > 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
    MPI_Get(local, 4, MPI_INT, 0, 0, 4, MPI_INT, w);
  }
  // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:3: warning: with 2 processes, on rank 0: MPI_Win_unlock on window 'w', on which no lock is held: an unlock must end an epoch that MPI_Win_lock opened [ompi-rma-epoch]
  MPI_Win_unlock(0, w);
  MPI_Win_free(&w);
}

void noprecede_by_variable(int *mem) {
  int local[4] = {0}, rank, assertion = 0;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 1) {
    MPI_Put(local, 4, MPI_INT, 0, 0, 4, MPI_INT, w);
    assertion = MPI_MODE_NOPRECEDE;
  }
  // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:3: warning: with 2 processes, on rank 1: MPI_Win_fence on window 'w' asserts MPI_MODE_NOPRECEDE, but it completes the RMA of line [[#@LINE-3]]: the assertion says that no RMA call of this process precedes the fence [ompi-rma-epoch]
  MPI_Win_fence(assertion, w);
  MPI_Win_free(&w);
}

void assertions_differ(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, w);
  MPI_Put(local, 4, MPI_INT, (rank + 1) % 2, 0, 4, MPI_INT, w);
  if (rank == 0)
    // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:5: warning: with 2 processes, fence 2 on window 'w' asserts MPI_MODE_NOSUCCEED on rank 0 but not on rank 1 (line [[#@LINE+4]]): the assertion must be given by every process of the window's group or by none [ompi-rma-epoch]
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
  else
    // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:5: note: rank 1's fence
    MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

// Negative: each half of the ranks has a window of its own, whose fences
// assert alike within the half.
void windows_of_halves(int *mem) {
  int rank;
  MPI_Comm half;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, half, &w);
  if (rank % 2)
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w);
  else
    MPI_Win_fence(0, w);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
  MPI_Win_free(&w);
  MPI_Comm_free(&half);
}

// Negative: every rank's epochs are right, though the paths differ.
void split_epochs(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_fence(0, w);
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
    MPI_Win_fence(0, w);
  } else {
    MPI_Win_fence(0, w);
    MPI_Win_fence(0, w);
  }
  for (int i = 0; i < 3; ++i) {
    if (rank % 2)
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w);
    if (rank % 2)
      MPI_Accumulate(local, 4, MPI_INT, 0, 0, 4, MPI_INT, MPI_SUM, w);
    if (rank % 2)
      MPI_Win_unlock(0, w);
  }
  MPI_Win_free(&w);
}

// Negative: the data decides whether the epoch opens (the runs cannot).
void data_decides(int *mem) {
  int local[4] = {0};
  MPI_Win w;
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (mem[0] > 0)
    MPI_Win_fence(0, w);
  MPI_Put(local, 4, MPI_INT, 0, 0, 4, MPI_INT, w);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

static void sync_all(MPI_Win win) { MPI_Win_fence(0, win); }

// Negative: a helper synchronises the window it is given (not followed).
void helper_syncs(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0)
    sync_all(w);
  if (rank == 0)
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  if (rank == 0)
    sync_all(w);
  MPI_Win_free(&w);
}

// Negative: a copy of the window synchronises it.
void copied(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w, alias;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  alias = w;
  if (rank == 0)
    MPI_Win_fence(0, alias);
  if (rank == 0)
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  if (rank == 0)
    MPI_Win_fence(0, alias);
  MPI_Win_free(&w);
}

// Negative: with fewer than 3 processes the program stops (rank 1 would put
// outside an epoch with 2); with 3 or more every rank fences first.
void needs_three(int *mem) {
  int local[4] = {0}, rank, size;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (size >= 3 || rank == 0)
    MPI_Win_fence(0, w);
  MPI_Put(local, 4, MPI_INT, (rank + 1) % size, 0, 4, MPI_INT, w);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

int main(int argc, char **argv) {
  int mem[4] = {0}, local[4] = {0}, rank;
  MPI_Win w;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    if (argc > 1)
      MPI_Win_fence(0, w);
    // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:5: warning: with 2 processes, where 'argc > 1' does not hold, on rank 0: MPI_Put on window 'w' outside any access epoch (none open since line [[#@LINE-4]]): RMA must follow an MPI_Win_fence, MPI_Win_lock(_all) or MPI_Win_start on the window [ompi-rma-epoch]
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
    if (argc > 1)
      MPI_Win_fence(0, w);
  } else if (argc > 1) {
    MPI_Win_fence(0, w);
    MPI_Win_fence(0, w);
  }
  MPI_Win_free(&w);
  MPI_Finalize();
  return 0;
}

void lock_twice(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w); // another target: fine
    // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:5: warning: with 2 processes, on rank 0: MPI_Win_lock of rank 1 on window 'w' while the lock of line [[#@LINE-2]] on that rank is still held: a process may hold only one lock on each target of a window at a time (unlock it first) [ompi-rma-epoch]
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w);
    MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
    MPI_Win_unlock(1, w);
    MPI_Win_unlock(0, w);
    MPI_Win_unlock(1, w);
  }
  MPI_Win_free(&w);
}

void lock_beside_lock_all(int *mem) {
  int rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 1) {
    MPI_Win_lock_all(0, w);
    // CHECK: {{.*}}rma-epoch-ranks.c:[[#@LINE+1]]:5: warning: with 2 processes, on rank 1: MPI_Win_lock of rank 0 on window 'w' while the MPI_Win_lock_all of line [[#@LINE-1]] holds a lock on every rank: a process may hold only one lock on each target of a window at a time (unlock it first) [ompi-rma-epoch]
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
    MPI_Win_unlock_all(w);
    MPI_Win_unlock(0, w);
  }
  MPI_Win_free(&w);
}

void lock_again_after_unlock(int *mem) {
  int local[4] = {0}, rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
    MPI_Win_unlock(1, w); // the second lock comes after this unlock: fine
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w);
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
    MPI_Win_unlock(1, w);
  }
  MPI_Win_free(&w);
}
// CHECK: 8 warnings generated.
