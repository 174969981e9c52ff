// collective-sequence through another file's helpers: with the program's
// facts (--whole-program), a call of a function whose every MPI call is a
// collective made in order on every path counts as those collectives, with
// the root, count and communicator the caller passes. Positives: rank 0's
// barrier against the others' allreduce in global_sum (1); a root that
// differs between ranks, passed to share (3). Negatives: without the facts
// the runs stop at the other file's code (1 again, silent); the barrier of
// sync_all matches rank 0's own (2); two barriers against sync_twice's two
// (4); maybe_sync's barrier is under a branch, so its file cannot give a
// sequence and the runs stay silent although rank 1 makes none (5).
// Positive through a chain: sync_through's barrier is sync_all's (6).
// message-matching follows the same calls: rank 1 goes on to sync_all's
// barrier without sending what rank 0 waits for (7); rank 0's sync_all
// and rank 1's own barrier are one barrier, then the message arrives (8).
// RUN: %ompi-opt --check --checks=collective-sequence %s -- %mpich_cflags -DCASE=1 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=collective-sequence %s %S/Inputs/other-file-sequences/helpers.c -- %mpich_cflags -DCASE=1 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --whole-program --checks=collective-sequence %s %S/Inputs/other-file-sequences/helpers.c -- %mpich_cflags -DCASE=2 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=collective-sequence %s %S/Inputs/other-file-sequences/helpers.c -- %mpich_cflags -DCASE=3 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=THREE %s
// RUN: %ompi-opt --check --whole-program --checks=collective-sequence %s %S/Inputs/other-file-sequences/helpers.c -- %mpich_cflags -DCASE=4 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=collective-sequence %s %S/Inputs/other-file-sequences/helpers.c -- %mpich_cflags -DCASE=5 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=collective-sequence %s %S/Inputs/other-file-sequences/helpers.c -- %mpich_cflags -DCASE=6 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=SIX %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching %s %S/Inputs/other-file-sequences/helpers.c -- %mpich_cflags -DCASE=7 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=SEVEN %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching,collective-sequence %s %S/Inputs/other-file-sequences/helpers.c -- %mpich_cflags -DCASE=8 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// NONE-NOT: warning:
#include <mpi.h>

void sync_all(void);
double global_sum(double x);
void share(int *v, int root, MPI_Comm c);
void sync_twice(void);
void maybe_sync(int rank);
void sync_through(void);

int main(int argc, char **argv) {
  int rank, v = 0;
  double s = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#if CASE == 1
  if (rank == 0)
    // ONE: {{.*}}other-file-sequences.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Barrier (line [[#@LINE+1]]) as their 1st collective but ranks 1 call MPI_Allreduce (line [[#@LINE+3]], in global_sum, helpers.c line 11): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
    MPI_Barrier(MPI_COMM_WORLD);
  else
    s = global_sum(1.0);
#elif CASE == 2
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  else
    sync_all();
#elif CASE == 3
  if (rank == 0)
    // THREE: {{.*}}other-file-sequences.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Bcast (line [[#@LINE+1]], in share, helpers.c line 15) (root=0 count=1 type=MPI_INT) as their 1st collective but ranks 1 call it (root=1 count=1 type=MPI_INT) (line [[#@LINE+4]]): every rank must pass the same root, op and count [ompi-collective-sequence]
    share(&v, 0, MPI_COMM_WORLD);
  else
    // THREE: {{.*}}other-file-sequences.c:[[#@LINE+1]]:5: note: where ranks 1 call MPI_Bcast
    share(&v, 1, MPI_COMM_WORLD);
#elif CASE == 4
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    sync_twice();
  }
#elif CASE == 5
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  else
    maybe_sync(rank);
#elif CASE == 7
  if (rank == 0)
    // SEVEN: {{.*}}other-file-sequences.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0 waits in MPI_Recv (line [[#@LINE+1]]) for a message from rank 1 with tag 0, but rank 1 goes on to MPI_Barrier (line [[#@LINE+3]]) without sending it: the receive never completes, and MPI_Barrier waits for it [ompi-message-matching]
    MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else
    sync_all();
#elif CASE == 8
  if (rank == 0) {
    sync_all();
    MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else {
    sync_all();
  }
#else
  if (rank == 0)
    // SIX: {{.*}}other-file-sequences.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Barrier (line [[#@LINE+1]], in sync_through, helpers.c line 7) as their 1st collective but ranks 1 call MPI_Bcast (line [[#@LINE+3]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
    sync_through();
  else
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
#endif
  MPI_Finalize();
  return (int)s + v;
}
