// collective-sequence: every rank of a communicator issues the same
// collectives in the same order with the same root, op and count. Each
// function here is an entry (no function of the file calls it), run per
// rank with 2, 3, 4 and 8 processes. rank-dependent-collective runs too: it
// is silent where collective-sequence proves the ranks agree, and at the
// call where it reports a divergence.
// RUN: %ompi-opt --check --checks=collective-sequence,rank-dependent-collective %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=collective-sequence,rank-dependent-collective %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>
#include <stddef.h>

#define TRY(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != MPI_SUCCESS)                                                                                         \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                                    \
  } while (0)

static double a, b, buf[4];

static void reduce_all(void) { MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }

// Odd and even ranks issue different collectives.
void odd_even(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2)
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  else
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Reduce (line [[#@LINE+1]]) as their 1st collective but ranks 1 call MPI_Bcast (line [[#@LINE-2]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
    MPI_Reduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
}

// Rank 0 leaves before the barrier the others wait in.
int early_return(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    return 1;
  // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:3: warning: with 2 processes, ranks 1 call MPI_Barrier (line [[#@LINE+1]]) as their 1st collective but ranks 0 call none (their path ends at line [[#@LINE-1]]): every rank of a communicator must issue the same collectives [ompi-collective-sequence]
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}

// The root depends on the rank.
void root_by_rank(void) {
  int rank, root = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank > 1)
    root = 1;
  // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:3: warning: with 3 processes, ranks 0-1 call MPI_Bcast (line [[#@LINE+1]]) (root=0 count=1 type=MPI_DOUBLE) as their 1st collective but ranks 2 call it (root=1 count=1 type=MPI_DOUBLE) (line [[#@LINE+1]]): every rank must pass the same root, op and count [ompi-collective-sequence]
  MPI_Bcast(&a, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
}

// The op depends on the rank.
void op_by_rank(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Allreduce (line [[#@LINE+1]]) (op=MPI_MAX count=1 type=MPI_DOUBLE) as their 1st collective but ranks 1 call it (op=MPI_MIN count=1 type=MPI_DOUBLE) (line [[#@LINE+3]]): every rank must pass the same root, op and count [ompi-collective-sequence]
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  else
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
}

// The count of a broadcast depends on the rank.
void count_by_rank(void) {
  int rank, n = 4;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    n = 2;
  // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:3: warning: with 2 processes, ranks 0 call MPI_Bcast (line [[#@LINE+1]]) (root=0 count=2 type=MPI_DOUBLE) as their 1st collective but ranks 1 call it (root=0 count=4 type=MPI_DOUBLE) (line [[#@LINE+1]]): every rank must pass the same root, op and count [ompi-collective-sequence]
  MPI_Bcast(buf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

// Only rank 0 calls the helper that reduces.
void helper_on_one_rank(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Allreduce (line [[#@LINE-60]], through the call at line [[#@LINE+1]]) as their 1st collective but ranks 1 call MPI_Barrier (line [[#@LINE+2]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
    reduce_all();
  MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: every rank issues the same collectives in each of these.
void root_and_others(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // The root and non-root forms of a rooted collective.
  if (rank == 0)
    MPI_Reduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(&a, NULL, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  // The same sequence written twice.
  if (rank % 2) {
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    reduce_all();
  } else {
    MPI_Bcast(&b, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

// Three conditions that between them give every rank one barrier.
void covering_conditions(void) {
  int rank, src = 0, dest = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == src)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank == dest) {
    if (rank != src)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank != dest && rank != src)
    MPI_Barrier(MPI_COMM_WORLD);
}

// A rank that aborts stops every rank; a size test is the same everywhere;
// a collective in a CHECK macro is one call.
void abort_and_size(int bad) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0 && bad)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (size < 2)
    return;
  TRY(MPI_Barrier(MPI_COMM_WORLD));
}

// A window's creation, fences and free are collective over its group.
void window_on_some_ranks(int *mem) {
  int rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Win_create (line [[#@LINE+1]]) as their 1st collective but ranks 1 call none (their path ends at line [[#@LINE+4]]): every rank of a communicator must issue the same collectives [ompi-collective-sequence]
    MPI_Win_create(mem, 16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_free(&w);
  }
}

void fence_against_barrier(int *mem) {
  int rank;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (rank == 0) {
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Win_fence (line [[#@LINE+1]]) as their 2nd collective but ranks 1 call MPI_Barrier (line [[#@LINE+4]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
    MPI_Win_fence(0, w);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_fence(0, w);
  }
  MPI_Win_free(&w);
}

// Negative: fences on every rank with RMA on some; a window of a split
// communicator (its members are not known) is left out.
void fences_everywhere(int *mem, int *local) {
  int rank;
  MPI_Win w, v;
  MPI_Comm half;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(mem, 16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Put(local, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &half);
  MPI_Win_create(mem, 16, 4, MPI_INFO_NULL, half, &v);
  if (rank % 2 == 0)
    MPI_Win_fence(0, v);
  MPI_Win_free(&v);
  MPI_Comm_free(&half);
}

// A branch on a broadcast value: every rank takes it alike, so each
// outcome is followed in turn. Where 'n > 1' holds, rank 0 reduces to root
// 0 and the others to root 1.
void root_from_input(void) {
  int rank, n = 0, root = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (n > 1)
    root = 1;
  else
    root = 0;
  if (rank == 0)
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: with 2 processes, where 'n > 1' holds, ranks 0 call MPI_Reduce (line [[#@LINE+1]]) (root=0 op=MPI_SUM count=1 type=MPI_DOUBLE) as their 2nd collective but ranks 1 call it (root=1 op=MPI_SUM count=1 type=MPI_DOUBLE) (line [[#@LINE+3]]): every rank must pass the same root, op and count [ompi-collective-sequence]
    MPI_Reduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
}

// The same with an op held in a variable: where 'n > 1' does not hold the
// ranks agree, where it holds they do not.
void op_from_input(void) {
  int rank, n = 0;
  MPI_Op op = MPI_SUM;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (n > 1)
    op = MPI_MAX;
  if (rank == 0)
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: with 2 processes, where 'n > 1' holds, ranks 0 call MPI_Allreduce (line [[#@LINE+1]]) (op=MPI_SUM count=1 type=MPI_DOUBLE) as their 2nd collective but ranks 1 call it (op=MPI_MAX count=1 type=MPI_DOUBLE) (line [[#@LINE+3]]): every rank must pass the same root, op and count [ompi-collective-sequence]
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
}

// Negative: whichever way the broadcast value goes, every rank passes the
// same root and op, and calls the barrier or not together.
void agree_on_input(void) {
  int rank, n = 0, root = 0;
  MPI_Op op = MPI_SUM;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (n > 1) {
    root = 1;
    op = MPI_MAX;
  }
  if (rank == 0)
    MPI_Reduce(&a, &b, 1, MPI_DOUBLE, op, root, MPI_COMM_WORLD);
  else
    MPI_Reduce(&a, &b, 1, MPI_DOUBLE, op, root, MPI_COMM_WORLD);
  if (n > 1)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: a branch on a received value is not taken alike by every rank
// (rank 1 receives it, rank 0 knows it): its outcomes are not assumed.
void received_value(void) {
  int rank, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    n = 2;
    MPI_Send(&n, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&n, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (n > 1)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Loops the run decides iteration by iteration run so: odd ranks call 9
// barriers, even ranks 10 (PARCOACH's loop_barrier).
void loop_trip_counts(void) {
  int rank, i = 1, j = 10;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2) {
    while (i < 10) {
      MPI_Barrier(MPI_COMM_WORLD);
      i++;
    }
  } else {
    while (j < 20) {
      // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:7: warning: with 2 processes, ranks 0 call MPI_Barrier (line [[#@LINE+1]]) as their 10th collective but ranks 1 call none (their path ends at line {{[0-9]+}}): every rank of a communicator must issue the same collectives [ompi-collective-sequence]
      MPI_Barrier(MPI_COMM_WORLD);
      j++;
    }
  }
}

// Negative: the two loops run as many times on every rank.
void loop_same_trips(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2)
    for (int i = 0; i < 3; i++)
      MPI_Barrier(MPI_COMM_WORLD);
  else
    for (int k = 5; k > 2; k--)
      MPI_Barrier(MPI_COMM_WORLD);
}

// Odd ranks call the world's barrier, even ranks their half's (PARCOACH's
// mismatch_barrier_com): the world's collectives are compared, the half's
// are left out, and the even ranks issue none on the world.
void barrier_on_other_comm(void) {
  int rank;
  MPI_Comm half;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  if (rank % 2)
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 1 call MPI_Barrier (line [[#@LINE+1]]) as their 1st collective but ranks 0 call none (their path ends at line {{[0-9]+}}): every rank of a communicator must issue the same collectives [ompi-collective-sequence]
    MPI_Barrier(MPI_COMM_WORLD);
  else
    MPI_Barrier(half);
  MPI_Comm_free(&half);
}

// Negative: each half calls its own communicator's collectives (the colour
// selects the communicator, whose members all call them), and every rank
// the world's.
void halves_agree(void) {
  int rank;
  MPI_Comm half;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  if (rank % 2)
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, half);
  else
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, half);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&half);
}

// A collective of a created communicator under a condition on the world's
// rank: collective-sequence leaves it out, rank-dependent-collective still
// reports it.
void created_comm_on_some_ranks(void) {
  int rank;
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_rank(dup, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:5: warning: MPI_Barrier is reached only by the ranks for which 'rank == 0' (line [[#@LINE-1]]) holds, as 'rank' is the rank: every rank of dup must call the collective [ompi-rank-dependent-collective]
    MPI_Barrier(dup);
  MPI_Comm_free(&dup);
}
// A communicator variable the odd ranks set to the world after the split
// (MBI's CollComMatching): their broadcast is the world's, which the even
// ranks never join.
void world_on_odd_ranks(void) {
  int rank, buf = 0;
  MPI_Comm newcom;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &newcom);
  if (rank % 2)
    newcom = MPI_COMM_WORLD;
  // CHECK: {{.*}}collective-sequence.c:[[#@LINE+1]]:3: warning: with 2 processes, ranks 1 call MPI_Bcast (line [[#@LINE+1]], on MPI_COMM_WORLD, which 'newcom' holds there) as their 1st collective but ranks 0 call none (their path ends at line [[#@LINE+4]]): every rank of a communicator must issue the same collectives [ompi-collective-sequence]
  MPI_Bcast(&buf, 1, MPI_INT, 0, newcom);
  if (newcom != MPI_COMM_NULL && newcom != MPI_COMM_WORLD)
    MPI_Comm_free(&newcom);
}

// Negative: the same communicator on every rank, compared with the
// predefined ones before it is freed (the comparisons are decided on each
// rank's run, under either MPI).
void split_comm_everywhere(void) {
  int rank, buf = 0;
  MPI_Comm newcom;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &newcom);
  MPI_Bcast(&buf, 1, MPI_INT, 0, newcom);
  if (newcom != MPI_COMM_NULL && newcom != MPI_COMM_WORLD)
    MPI_Comm_free(&newcom);
  if (newcom == MPI_COMM_NULL)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK: 14 warnings generated.
