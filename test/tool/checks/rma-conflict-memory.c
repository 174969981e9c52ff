// rma-conflict, the memory model beyond two puts: a rank's loads and stores
// of its own window memory beside other ranks' RMA calls (fence, lock and
// post-start-complete-wait epochs), accumulates that are atomic with
// respect to each other only with the same predefined datatype and the
// same op (or MPI_NO_OP; only the same op under the info same_op), and
// MPI_NO_OP fetches, which only read. Each function is an entry of its
// own, run per rank with 2, 3 and 4 processes; each negative says why the
// tool must stay silent. World barriers order lock epochs where the runs
// place them: a put completed (unlocked) before a barrier the target passes
// before its load is ordered; one unlocked after it is not. No function
// synchronises ranks otherwise (a send anywhere in the file may order them).
// RUN: %ompi-opt --check --checks=rma-conflict %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=rma-conflict %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>

void fence_store(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Put(&x, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
  if (rank == 1)
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0's MPI_Put (line [[#@LINE-2]]) and rank 1's store of its own window memory (line [[#@LINE+1]]) reach bytes 8 to 12 of rank 1's window 'w' in the same fence epoch (number 1), and both write them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    mem[2] = 5;
  // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE-4]]:5: note: rank 0's MPI_Put
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void fence_store_later(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Put(&x, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
  mem[3] = 7; // no rank's call reaches mem[3]
  MPI_Win_fence(0, w);
  if (rank == 1)
    mem[2] = 6; // after the fence that completes the put
  MPI_Win_free(&w);
}

void fence_load_get(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Get(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  x = mem[0]; // two reads
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void fence_store_unknown_index(int k) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Put(&x, 1, MPI_INT, 1, 2, 1, MPI_INT, w);
  if (rank == 1)
    mem[k] = 5; // which element is not known
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void lock_load(void) {
  int rank, x = 1, y;
  int *base;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Put(&x, 1, MPI_INT, 1, 1, 1, MPI_INT, w);
    MPI_Win_unlock(1, w);
  }
  if (rank == 1)
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:9: warning: with 2 processes, rank 0's MPI_Put (line [[#@LINE-4]]) and rank 1's load of its own window memory (line [[#@LINE+1]]) reach bytes 4 to 8 of rank 1's window 'w' while rank 1 holds no lock on its own window that excludes the other's and nothing orders them, and one writes them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    y = base[1];
  // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE-6]]:5: note: rank 0's MPI_Put
  MPI_Win_free(&w);
}

void lock_self_exclusive(void) {
  int rank, x = 1, mem = 0;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(&mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Get(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Win_unlock(1, w);
  } else if (rank == 1) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w); // excludes rank 0's shared lock
    mem++;
    MPI_Win_unlock(1, w);
  }
  MPI_Win_free(&w);
}

void lock_self_shared(void) {
  int rank, x = 1, mem = 0;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(&mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w); // shared locks do not exclude each other
  if (rank == 0)
    MPI_Get(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
  if (rank == 1)
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0's MPI_Get (line [[#@LINE-2]]) and rank 1's load and store of its own window memory (line [[#@LINE+1]]) reach bytes 0 to 4 of rank 1's window 'w' while rank 1 holds no lock on its own window that excludes the other's and nothing orders them, and one writes them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    mem++;
  // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE-4]]:5: note: rank 0's MPI_Get
  MPI_Win_unlock(1, w);
  MPI_Win_free(&w);
}

void acc_types(void) {
  int rank, mem[4] = {0}, x = 1;
  float f = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Accumulate(&x, 1, MPI_INT, 2, 0, 1, MPI_INT, MPI_SUM, w);
  else if (rank == 1)
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:5: warning: with 3 processes, rank 0's MPI_Accumulate (line [[#@LINE-2]]) and rank 1's MPI_Accumulate (line [[#@LINE+1]]) reach bytes 0 to 4 of rank 2's window 'w' in the same fence epoch (number 1), and one updates them as MPI_INT and the other as MPI_FLOAT (accumulates are atomic with respect to each other only with the same predefined datatype): conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Accumulate(&f, 1, MPI_FLOAT, 2, 0, 1, MPI_FLOAT, MPI_SUM, w);
  // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE-4]]:5: note: rank 0's MPI_Accumulate
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void acc_ops(void) {
  int rank, mem[4] = {0}, x = 1, r;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Accumulate(&x, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, w);
  else if (rank == 1)
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:5: warning: with 3 processes, rank 0's MPI_Accumulate (line [[#@LINE-2]]) and rank 1's MPI_Fetch_and_op (line [[#@LINE+1]]) reach bytes 4 to 8 of rank 2's window 'w' in the same fence epoch (number 1), and they use different ops, MPI_SUM and MPI_MAX (the window's accumulate_ops, same_op_no_op by default, lets concurrent accumulates to one location use only the same op or MPI_NO_OP): conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Fetch_and_op(&x, &r, MPI_INT, 2, 1, MPI_MAX, w);
  // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE-4]]:5: note: rank 0's MPI_Accumulate
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void acc_atomic(void) {
  int rank, mem[4] = {0}, x = 1, r;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Accumulate(&x, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, w);
  else if (rank == 1)
    MPI_Fetch_and_op(&x, &r, MPI_INT, 2, 1, MPI_SUM, w); // the same op and datatype: atomic
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Accumulate(&x, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, w);
  else if (rank == 1)
    MPI_Fetch_and_op(&x, &r, MPI_INT, 2, 1, MPI_NO_OP, w); // same_op_no_op, the default: atomic
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Get(&x, 1, MPI_INT, 2, 1, 1, MPI_INT, w);
  else if (rank == 1)
    MPI_Get_accumulate(&x, 1, MPI_INT, &r, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_NO_OP, w); // two reads
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void same_op(void) {
  int rank, mem[4] = {0}, x = 1, r;
  MPI_Win w;
  MPI_Info info;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Info_create(&info);
  MPI_Info_set(info, "accumulate_ops", "same_op");
  MPI_Win_create(mem, sizeof mem, sizeof(int), info, MPI_COMM_WORLD, &w);
  MPI_Info_free(&info);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Accumulate(&x, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, w);
  else if (rank == 1)
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:5: warning: with 3 processes, rank 0's MPI_Accumulate (line [[#@LINE-2]]) and rank 1's MPI_Fetch_and_op (line [[#@LINE+1]]) reach bytes 4 to 8 of rank 2's window 'w' in the same fence epoch (number 1), and they use different ops, MPI_SUM and MPI_NO_OP (the window's accumulate_ops, same_op by its info, lets concurrent accumulates to one location use only the same op): conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Fetch_and_op(&x, &r, MPI_INT, 2, 1, MPI_NO_OP, w);
  // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE-4]]:5: note: rank 0's MPI_Accumulate
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

void pscw_puts(MPI_Group g) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_post(g, 0, w);
    MPI_Win_wait(w);
  } else {
    MPI_Win_start(g, 0, w);
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:5: warning: with 3 processes, rank 1's MPI_Put (line [[#@LINE+1]]) and rank 2's MPI_Put (line [[#@LINE+1]]) reach bytes 0 to 4 of rank 0's window 'w' in access epochs (MPI_Win_start to MPI_Win_complete) of the same exposure epoch, and both write them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, w);
    MPI_Win_complete(w);
  }
  MPI_Win_free(&w);
}

void pscw_store(MPI_Group g) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_post(g, 0, w);
    mem[1] = 2;
    MPI_Win_wait(w);
    mem[1] = 3; // the exposure epoch has ended
  } else if (rank == 1) {
    MPI_Win_start(g, 0, w);
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0's store of its own window memory (line [[#@LINE-5]]) and rank 1's MPI_Put (line [[#@LINE+1]]) reach bytes 4 to 8 of rank 0's window 'w' during rank 0's exposure epoch (MPI_Win_post to MPI_Win_wait) that the access epoch reaches, and both write them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
    MPI_Put(&x, 1, MPI_INT, 0, 1, 1, MPI_INT, w);
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE-7]]:5: note: rank 0's store of its own window memory
    MPI_Win_complete(w);
  }
  MPI_Win_free(&w);
}

void pscw_epochs(MPI_Group g) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  // Rank 0 posts twice: which access epoch meets which exposure epoch
  // depends on the groups, which the runs do not follow.
  if (rank == 0) {
    MPI_Win_post(g, 0, w);
    MPI_Win_wait(w);
    MPI_Win_post(g, 0, w);
    MPI_Win_wait(w);
  } else {
    MPI_Win_start(g, 0, w);
    MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, w);
    MPI_Win_complete(w);
  }
  MPI_Win_free(&w);
}

void barrier_before_unlock(void) {
  int rank, x = 1, y, mem = 0;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(&mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Barrier(MPI_COMM_WORLD); // the put may still be in flight
    MPI_Win_unlock(1, w);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
      // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE+1]]:11: warning: with 2 processes, rank 0's MPI_Put (line [[#@LINE-6]]) and rank 1's load of its own window memory (line [[#@LINE+1]]) reach bytes 0 to 4 of rank 1's window 'w' while rank 1 holds no lock on its own window that excludes the other's and nothing orders them, and one writes them: conflicting accesses to a window location in one epoch are erroneous (the value there is undefined) [ompi-rma-conflict]
      y = mem;
    // CHECK: {{.*}}rma-conflict-memory.c:[[#@LINE-8]]:5: note: rank 0's MPI_Put
  }
  MPI_Win_free(&w);
}

void unlock_before_barrier(void) {
  int rank, x = 1, y, mem = 0;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(&mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Win_unlock(1, w);
  }
  MPI_Barrier(MPI_COMM_WORLD); // the put is complete: rank 1 loads after it
  if (rank == 1)
    y = mem;
  MPI_Win_free(&w);
}

void puts_ordered_by_barrier(void) {
  int rank, x = 1, mem = 0;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(&mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w);
    MPI_Win_flush(1, w); // completes the put at the target
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_unlock(1, w);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) {
      MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
      MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, w); // after rank 0's, which the flush completed before the barrier
      MPI_Win_unlock(1, w);
    }
  }
  MPI_Win_free(&w);
}
