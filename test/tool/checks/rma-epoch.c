// rma-epoch: one-sided synchronisation wrong on every path to the call; the
// negative cases are the epochs MPI allows (RMA on some ranks, a lock after a
// closing fence or a MPI_MODE_NOSUCCEED fence, nested locks on two targets,
// MPI_MODE_NOPRECEDE on a fence no RMA precedes, post-start-complete-wait
// in a loop).
// RUN: %ompi-opt --check --checks=rma-epoch %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=rma-epoch %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>

static void positives(int *mem, int rank) {
  int local[4] = {0};
  MPI_Win w;
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  // CHECK: {{.*}}rma-epoch.c:[[#@LINE+1]]:3: warning: MPI_Put on window 'w' outside any access epoch (none open since line [[#@LINE-1]]): RMA must follow an MPI_Win_fence, MPI_Win_lock(_all) or MPI_Win_start on the window [ompi-rma-epoch]
  MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w); // no epoch yet
  MPI_Win_fence(0, w);
  // CHECK: {{.*}}rma-epoch.c:[[#@LINE+1]]:3: warning: MPI_Win_lock on window 'w' inside the access epoch the fence at line [[#@LINE-1]] opened: a lock epoch must not start inside a fence epoch (end it with a fence asserting MPI_MODE_NOSUCCEED first) [ompi-rma-epoch]
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w); // inside the fence epoch
  MPI_Win_unlock(1, w);
  MPI_Win_fence(0, w);
  // CHECK: {{.*}}rma-epoch.c:[[#@LINE+1]]:3: warning: MPI_Win_unlock on window 'w', on which no lock is held: an unlock must end an epoch that MPI_Win_lock opened [ompi-rma-epoch]
  MPI_Win_unlock(1, w); // no lock held
  MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w);
  // CHECK: {{.*}}rma-epoch.c:[[#@LINE+1]]:3: warning: MPI_Win_fence on window 'w' while the epoch that line [[#@LINE-1]] opened is still open: close it (MPI_Win_unlock, MPI_Win_unlock_all, MPI_Win_complete) before a fence [ompi-rma-epoch]
  MPI_Win_fence(0, w); // while locked
  MPI_Win_unlock(1, w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  else
    MPI_Put(local, 4, MPI_INT, 0, 0, 4, MPI_INT, w);
  // CHECK: {{.*}}rma-epoch.c:[[#@LINE+1]]:3: warning: MPI_Win_free on window 'w' while the epoch of line [[#@LINE-5]] is still open: RMA must be completed (a closing fence, MPI_Win_unlock, MPI_Win_complete) before the window is freed [ompi-rma-epoch]
  MPI_Win_free(&w); // the fence epoch's RMA never completed
}

static void negatives(int *mem, int rank, int n) {
  int local[4] = {0};
  MPI_Win w;
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  // Fence epochs, with RMA on some ranks only.
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  MPI_Win_fence(0, w);
  // A lock after a fence that closed an epoch (MPICH's mixedsync does this).
  for (int i = 0; i < n; ++i) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w);
    MPI_Accumulate(local, 4, MPI_INT, 1, 0, 4, MPI_INT, MPI_SUM, w);
    MPI_Win_unlock(1, w);
    MPI_Win_fence(0, w);
    MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
    MPI_Win_fence(0, w);
  }
  // A fence asserting MPI_MODE_NOSUCCEED opens no epoch: a lock may follow.
  MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
  MPI_Win_lock_all(0, w);
  MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  MPI_Win_flush(1, w);
  MPI_Win_unlock_all(w);
  // Two locks held at once, released in turn.
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
  MPI_Win_unlock(0, w);
  MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  MPI_Win_unlock(1, w);
  MPI_Win_free(&w);
}

static void noprecede(int *mem) {
  int local[4] = {0}, assertion = MPI_MODE_NOPRECEDE;
  MPI_Win w;
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, w); // negative: no RMA precedes it
  MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  // CHECK: {{.*}}rma-epoch.c:[[#@LINE+1]]:3: warning: MPI_Win_fence on window 'w' asserts MPI_MODE_NOPRECEDE, but it completes the RMA of line [[#@LINE-1]]: the assertion says that no RMA call of this process precedes the fence [ompi-rma-epoch]
  MPI_Win_fence(MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE, w);
  MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  // Negative: the path-wise check does not read a variable's assertion (the
  // per-rank runs of rma-epoch-ranks.c do).
  MPI_Win_fence(assertion, w);
  MPI_Win_free(&w);
}

static void pscw(int *mem, MPI_Group peers, int n) {
  int local[4] = {0};
  MPI_Win w;
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  // Negative: exposure and access epochs, in a loop.
  for (int i = 0; i < n; ++i) {
    MPI_Win_post(peers, 0, w);
    MPI_Win_start(peers, 0, w);
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
    MPI_Win_complete(w);
    MPI_Win_wait(w);
  }
  MPI_Win_start(peers, 0, w);
  // CHECK: {{.*}}rma-epoch.c:[[#@LINE+1]]:3: warning: MPI_Win_start on window 'w' while the access epoch that line [[#@LINE-1]] opened is still open: end it with MPI_Win_complete first [ompi-rma-epoch]
  MPI_Win_start(peers, 0, w);
  MPI_Win_complete(w);
  // CHECK: {{.*}}rma-epoch.c:[[#@LINE+1]]:3: warning: MPI_Win_complete on window 'w', on which no MPI_Win_start epoch is open: MPI_Win_complete must end an access epoch that MPI_Win_start opened [ompi-rma-epoch]
  MPI_Win_complete(w);
  MPI_Win_free(&w);
}

int main(int argc, char **argv) {
  int mem[4] = {0}, rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  positives(mem, rank);
  negatives(mem, rank, argc);
  noprecede(mem);
  {
    MPI_Group world, peers;
    int other = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &other, &peers);
    pscw(mem, peers, argc);
    MPI_Group_free(&peers);
    MPI_Group_free(&world);
  }
  MPI_Finalize();
  return 0;
}
// CHECK: 8 warnings generated.
