// The process counts the per-rank runs judge at (analysis/ProcessCounts.h):
// those main's size guard accepts, or those --nprocs gives. CASE 1: a guard
// that only warns below 3 processes; judged at 2, rank 1's send to rank 2
// would be reported, though the author said the program needs 3 (silent
// now). CASE 3: a guard that accepts 6 only: judged at 6 (no default count),
// the mismatch is found. CASE 2: a mismatch only 5 processes show, found
// with --nprocs=5 and not at the default counts, or with a .ompi-opt
// whose NProcs is 5 (the command line wins: --nprocs=2 finds nothing).
// --nprocs=0 is refused, and so is a .ompi-opt's NProcs of 0.
// RUN: %ompi-opt --check --checks=collective-sequence,message-matching %s -- %mpich_cflags -DCASE=1 | FileCheck --allow-empty --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=collective-sequence,message-matching %s -- %mpich_cflags -DCASE=2 | FileCheck --allow-empty --match-full-lines --implicit-check-not=warning: --check-prefix=TWO %s
// RUN: %ompi-opt --check --nprocs=5 --checks=collective-sequence %s -- %mpich_cflags -DCASE=2 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FIVE %s
// RUN: %ompi-opt --check --checks=collective-sequence %s -- %mpich_cflags -DCASE=3 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=SIX %s
// RUN: not %ompi-opt --check --nprocs=0 %s -- %mpich_cflags -DCASE=2 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: ompi-opt: error: --nprocs: 0 is not a process count from 1 to 64
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/process-counts.c && printf 'NProcs: "3,5"\n' > %t/.ompi-opt
// RUN: %ompi-opt --check --checks=collective-sequence %t/process-counts.c -- %mpich_cflags -DCASE=2 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FIVE %s
// RUN: %ompi-opt --check --nprocs=2 --checks=collective-sequence %t/process-counts.c -- %mpich_cflags -DCASE=2 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=TWO %s
// RUN: printf 'NProcs: "2,0"\n' > %t/.ompi-opt
// RUN: not %ompi-opt --check %t/process-counts.c -- %mpich_cflags -DCASE=2 2>&1 | FileCheck --check-prefix=BADCONFIG %s
// BADCONFIG: ompi-opt: error: {{.*}}.ompi-opt: NProcs: '0' is not a process count from 1 to 64
// ONE-NOT: warning:
// TWO-NOT: warning:
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int x, y;
#if CASE == 1
/* A guard that only warns: at 2 processes rank 1 would send to rank 2. */
int main(int argc, char **argv) {
  int rank, size;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3)
    printf("this test needs 3 processes\n");
  if (rank == 1)
    MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
  else if (rank == 2)
    MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &st);
  MPI_Finalize();
  return 0;
}
#elif CASE == 2
/* Only 5 processes show the mismatch; --nprocs=5 judges there. */
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 5 && rank == 4)
    MPI_Barrier(MPI_COMM_WORLD);
  // FIVE: {{.*}}process-counts.c:[[#@LINE+1]]:3: warning: with 5 processes, ranks 0-3 call MPI_Bcast (line [[#@LINE+1]]) as their 1st collective but ranks 4 call MPI_Barrier (line [[#@LINE-1]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
  MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
#elif CASE == 3
/* A guard that accepts 6 only: judged at 6. */
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 6) {
    fprintf(stderr, "run with 6 processes\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 5)
    MPI_Barrier(MPI_COMM_WORLD);
  // SIX: {{.*}}process-counts.c:[[#@LINE+1]]:3: warning: with 6 processes, ranks 0-4 call MPI_Bcast (line [[#@LINE+1]]) as their 1st collective but ranks 5 call MPI_Barrier (line [[#@LINE-1]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
  MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
#endif
