// rma-conflict: RMA calls of one epoch, of any ranks, that reach the same
// bytes of one rank's window where one of them writes them. Each function
// is an entry, run per rank with 2, 3 and 4 processes (rank 2's calls need
// 3). Positives: two ranks' puts to one element in a fence epoch (MBI's
// GlobalConcurrency_Win_fence_Put_Put), a put and a get in shared lock
// epochs, a put beside an accumulate under MPI_Win_lock_all, one rank's
// two puts to one element in one fence epoch, its put and get in one lock
// epoch, its accumulate and put in one access epoch. Negatives: two gets, two
// accumulates (atomic), disjoint elements, different fence epochs,
// exclusive locks; (CASE 2) shared lock epochs in a file whose ranks
// also synchronise otherwise (a barrier may order them); and (CASE 3) one
// rank's accesses that a flush or a request's wait orders, or that do not
// conflict.
// RUN: %ompi-opt --check --checks=rma-conflict %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=rma-conflict %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=rma-conflict %s -- %mpich_cflags -DCASE=2 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=OTHER %s
// RUN: %ompi-opt --check --checks=rma-conflict %s -- %mpich_cflags -DCASE=3 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=ONE %s
#include <mpi.h>

#if CASE == 3
// (A file of its own: its waits synchronise ranks, which would leave the
// other cases' shared lock epochs unjudged.)
// ONE-NOT: warning:
// One rank's accesses of one location that something orders, or that do
// not conflict: a flush (or flush_local) between them, two accumulates
// (ordered among themselves), two gets, request-based calls (a wait the
// runs do not record may complete the first), separate lock epochs.
void one_rank_negatives(void) {
  int rank, mem[4] = {0}, x = 1, y = 0;
  MPI_Win w;
  MPI_Request r[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Win_flush(1, w);
    MPI_Get(&y, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Win_flush_local(1, w);
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Win_flush_all(w);
    MPI_Accumulate(&x, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, w);
    MPI_Accumulate(&x, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, w);
    MPI_Get(&y, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
    MPI_Get(&y, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
    MPI_Rput(&x, 1, MPI_INT, 1, 3, 1, MPI_INT, w, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Rget(&y, 1, MPI_INT, 1, 3, 1, MPI_INT, w, &r[1]);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    MPI_Win_unlock(1, w);
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Get(&y, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
    MPI_Win_unlock(1, w);
  }
  MPI_Win_free(&w);
}

#elif CASE == 2
// OTHER-NOT: warning:
void ordered_by_barrier(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Win_unlock(1, w);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 2) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Win_unlock(1, w);
  }
  MPI_Win_free(&w);
}
#else
void fence_put_put(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Put(&x, 2, MPI_INT, 1, 1, 2, MPI_INT, w);
  else if (rank == 2)
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE+1]]:5: warning: with 3 processes, rank 0's MPI_Put (line [[#@LINE-2]]) and rank 2's MPI_Put (line [[#@LINE+1]]) reach bytes 8 to 12 of rank 1's window 'w' in the same fence epoch (number 1), and both write them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Put(&x, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
  // CHECK: {{.*}}rma-conflict.c:[[#@LINE-4]]:5: note: rank 0's MPI_Put
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void lock_put_get(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
  if (rank == 0)
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  else if (rank == 2)
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE+1]]:5: warning: with 3 processes, rank 0's MPI_Put (line [[#@LINE-2]]) and rank 2's MPI_Get (line [[#@LINE+1]]) reach bytes 0 to 4 of rank 1's window 'w' in shared lock epochs that nothing orders, and one writes them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Get(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  // CHECK: {{.*}}rma-conflict.c:[[#@LINE-4]]:5: note: rank 0's MPI_Put
  MPI_Win_unlock(1, w);
  MPI_Win_free(&w);
}

void lock_all_put_acc(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_lock_all(0, w);
  if (rank == 1)
    MPI_Accumulate(&x, 1, MPI_INT, 0, 3, 1, MPI_INT, MPI_SUM, w);
  else if (rank == 2)
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE+1]]:5: warning: with 3 processes, rank 1's MPI_Accumulate (line [[#@LINE-2]]) and rank 2's MPI_Put (line [[#@LINE+1]]) reach bytes 12 to 16 of rank 0's window 'w' in shared lock epochs that nothing orders, and one writes them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Put(&x, 1, MPI_INT, 0, 3, 1, MPI_INT, w);
  // CHECK: {{.*}}rma-conflict.c:[[#@LINE-4]]:5: note: rank 1's MPI_Accumulate
  MPI_Win_unlock_all(w);
  MPI_Win_free(&w);
}

void one_rank_twice(void) {
  int rank, mem[4] = {0}, x = 1, y = 2;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0) {
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0's MPI_Put (line [[#@LINE-1]]) and rank 0's MPI_Put (line [[#@LINE+1]]) reach bytes 0 to 4 of rank 1's window 'w' in the same fence epoch (number 1), and both write them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Put(&y, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE-3]]:5: note: rank 0's MPI_Put
  }
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void one_rank_lock_epoch(void) {
  int rank, mem[4] = {0}, x = 1, y = 0;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w);
    MPI_Put(&x, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0's MPI_Put (line [[#@LINE-1]]) and rank 0's MPI_Get (line [[#@LINE+1]]) reach bytes 8 to 12 of rank 1's window 'w' in one lock epoch with nothing between them that completes the first, and one writes them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Get(&y, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE-3]]:5: note: rank 0's MPI_Put
    MPI_Win_unlock(1, w);
  }
  MPI_Win_free(&w);
}

void one_rank_access_epoch(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Group world, peer;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int other = 1 - rank;
  MPI_Group_incl(world, 1, &other, &peer);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_start(peer, 0, w);
    MPI_Accumulate(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, w);
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0's MPI_Accumulate (line [[#@LINE-1]]) and rank 0's MPI_Put (line [[#@LINE+1]]) reach bytes 0 to 4 of rank 1's window 'w' in one access epoch (MPI_Win_start to MPI_Win_complete) with nothing between them that completes the first, and one writes them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    // CHECK: {{.*}}rma-conflict.c:[[#@LINE-3]]:5: note: rank 0's MPI_Accumulate
    MPI_Win_complete(w);
  } else if (rank == 1) {
    MPI_Win_post(peer, 0, w);
    MPI_Win_wait(w);
  }
  MPI_Win_free(&w);
  MPI_Group_free(&peer);
  MPI_Group_free(&world);
}

void negatives(void) {
  int rank, mem[8] = {0}, x = 1, y = 0;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  MPI_Get(&y, 1, MPI_INT, 0, 0, 1, MPI_INT, w);              // every rank reads element 0
  MPI_Accumulate(&x, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, w); // accumulates are atomic
  MPI_Put(&x, 1, MPI_INT, 0, 4 + rank, 1, MPI_INT, w); // an element per rank
  MPI_Win_fence(0, w);
  if (rank == 1)
    MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, w); // another epoch than the gets
  MPI_Win_fence(0, w);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w);
  MPI_Put(&x, 1, MPI_INT, 0, 1, 1, MPI_INT, w); // one rank at a time
  MPI_Win_unlock(0, w);
  MPI_Win_free(&w);
}
#endif
