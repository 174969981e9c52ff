// --check, rank-dependent-collective and unmatched-p2p. Negative cases:
// the root / non-root idiom (the same collective in both branches), a
// condition on the size (the same on every rank), a collective on a split
// communicator under a condition on the world rank (the colour selects the
// communicator, whose members all call it), receives with MPI_ANY_TAG or a
// tag not known statically, sends whose tag some receive accepts, a branch
// dead on every rank (flag && ...), and an if-else-if whose every arm calls
// the collective.
// RUN: %ompi-opt --check --checks=rank-dependent-collective %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=RANK %s
// RUN: %ompi-opt --check --checks=rank-dependent-collective %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=RANK %s
// RUN: %ompi-opt --check --checks=unmatched-p2p %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=P2P %s
// Without main in the file the receives may be elsewhere: no unmatched-p2p.
// RUN: %ompi-opt --check --checks=unmatched-p2p %s -- %mpich_cflags -DNO_MAIN | count 0
#include <mpi.h>
#include <stddef.h>

double a, b;

void positives(int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    // RANK: {{.*}}collectives.c:[[#@LINE+1]]:5: warning: MPI_Barrier is reached only by the ranks for which 'rank == 0' (line [[#@LINE-1]]) holds, as 'rank' is the rank: every rank of MPI_COMM_WORLD must call the collective [ompi-rank-dependent-collective]
    MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < rank; i++)
    // RANK: {{.*}}collectives.c:[[#@LINE+1]]:5: warning: MPI_Allreduce is reached only by the ranks for which 'i < rank' (line [[#@LINE-1]]) holds, as 'rank' is the rank: every rank of MPI_COMM_WORLD must call the collective [ompi-rank-dependent-collective]
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // P2P: {{.*}}collectives.c:[[#@LINE+1]]:3: warning: no receive or probe of this program on MPI_COMM_WORLD accepts tag 42 of this MPI_Send: the message can never be received [ompi-unmatched-p2p]
  MPI_Send(&a, 1, MPI_DOUBLE, (rank + 1) % 2, 42, MPI_COMM_WORLD);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // A ring shift whose receive names the wrong neighbour:
  // P2P: {{.*}}collectives.c:[[#@LINE+1]]:3: warning: this MPI_Send sends to '(rank + 1) % size' (rank + 1), but every receive of this program on MPI_COMM_WORLD that accepts its tag expects a message from another rank (rank - 1 would be needed; they match only when 2 x 1 is a multiple of the number of ranks) [ompi-unmatched-p2p]
  MPI_Send(&a, 1, MPI_DOUBLE, (rank + 1) % size, 3, MPI_COMM_WORLD);
  MPI_Recv(&b, 1, MPI_DOUBLE, (rank + 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // The right one: no finding.
  MPI_Send(&a, 1, MPI_DOUBLE, (rank + 1) % size, 4, MPI_COMM_WORLD);
  MPI_Recv(&b, 1, MPI_DOUBLE, (rank - 1 + size) % size, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // A variable holding MPI_COMM_WORLD is MPI_COMM_WORLD: communicators are
  // compared by identity, not spelling (no finding; it used to report one).
  MPI_Comm world = MPI_COMM_WORLD;
  MPI_Send(&a, 1, MPI_DOUBLE, (rank + 1) % size, 7, world);
  MPI_Recv(&b, 1, MPI_DOUBLE, (rank - 1 + size) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // And a duplicate is another communicator: its message is not received.
  MPI_Comm other;
  MPI_Comm_dup(MPI_COMM_WORLD, &other);
  // P2P: {{.*}}collectives.c:[[#@LINE+1]]:3: warning: no receive or probe of this program on other accepts tag 8 of this MPI_Send: the message can never be received [ompi-unmatched-p2p]
  MPI_Send(&a, 1, MPI_DOUBLE, (rank + 1) % size, 8, other);
  MPI_Recv(&b, 1, MPI_DOUBLE, (rank - 1 + size) % size, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // Two arms of an if-else-if call it: the ranks of neither skip it (one
  // finding, at the first).
  if (rank == 0)
    // RANK: {{.*}}collectives.c:[[#@LINE+1]]:5: warning: MPI_Bcast is called in the arms of 'rank == 0' (line [[#@LINE-1]]) and 'rank == 1' (line [[#@LINE+2]]) ('rank' is the rank), but the ranks for which none of them holds skip it: every rank of MPI_COMM_WORLD must call the collective [ompi-rank-dependent-collective]
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  // A duplicate has its parent's group: the world rank is the rank in it,
  // through a chain of duplicates too.
  MPI_Comm dup, dup2;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_dup(dup, &dup2);
  if (rank == 0)
    // RANK: {{.*}}collectives.c:[[#@LINE+1]]:5: warning: MPI_Barrier is reached only by the ranks for which 'rank == 0' (line [[#@LINE-1]]) holds, as 'rank' is the rank: every rank of dup must call the collective [ompi-rank-dependent-collective]
    MPI_Barrier(dup);
  if (rank > 1)
    // RANK: {{.*}}collectives.c:[[#@LINE+1]]:5: warning: MPI_Bcast is reached only by the ranks for which 'rank > 1' (line [[#@LINE-1]]) holds, as 'rank' is the rank: every rank of dup2 must call the collective [ompi-rank-dependent-collective]
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, dup2);
  MPI_Comm_free(&dup2);
  MPI_Comm_free(&dup);
  (void)n;
}

// Negative: all correct.
void negatives(int tag) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0)
    MPI_Reduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); // the root's form
  else
    MPI_Reduce(&a, NULL, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);         // everyone else's
  if (size > 1)
    MPI_Barrier(MPI_COMM_WORLD);                                             // the size is the same everywhere
  int flag = 0;
  if (flag && rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);                                             // dead: flag is 0 on every rank
  if (rank == 0)
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);                         // every arm calls it
  else if (rank == 1)
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  else
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  if (rank % 2 == 0)
    MPI_Barrier(half);                                                       // every member of this half calls it
  MPI_Send(&a, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);                         // received below with tag 7
  MPI_Recv(&b, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&a, 1, MPI_DOUBLE, 0, 8, half);                                   // MPI_ANY_TAG accepts it
  MPI_Recv(&b, 1, MPI_DOUBLE, 0, MPI_ANY_TAG, half, MPI_STATUS_IGNORE);
  MPI_Send(&a, 1, MPI_DOUBLE, 0, 9, MPI_COMM_SELF);                          // the receive's tag is not static
  MPI_Recv(&b, 1, MPI_DOUBLE, 0, tag, MPI_COMM_SELF, MPI_STATUS_IGNORE);
}

#ifndef NO_MAIN
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  positives(1);
  negatives(9);
  MPI_Finalize();
  return 0;
}
#endif
