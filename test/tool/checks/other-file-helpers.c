// The per-rank runs (collective-sequence, message-matching) and
// rank-dependent-collective where main calls functions of another file.
// Such a function may communicate: the runs do not follow main, and a
// collective one arm calls directly may be called by the other arm's
// helper, so nothing is reported without the program's facts (a correct
// program: rank 0 calls the barrier, the others call it in sync_all; rank
// 1 sends in exchange what rank 0 receives). With --whole-program the
// facts say which functions of the other file make MPI calls (directly or
// through that file's functions): those that do keep the runs silent, a
// function that only computes does not stop them, and the real mismatch
// of case 2 is found.
// RUN: %ompi-opt --check --checks=collective-sequence,message-matching,rank-dependent-collective %s -- %mpich_cflags -DCASE=1 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=collective-sequence,message-matching,rank-dependent-collective %s %S/Inputs/other-file-helpers/helpers.c -- %mpich_cflags -DCASE=1 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=collective-sequence,message-matching %s -- %mpich_cflags -DCASE=2 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=collective-sequence,message-matching %s %S/Inputs/other-file-helpers/helpers.c -- %mpich_cflags -DCASE=2 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TWO %s
// NONE-NOT: warning:
#include <mpi.h>

void sync_all(void);
void sync_through(void);
void exchange(int rank, int *buf);
int scale(int x);

int main(int argc, char **argv) {
  int rank, buf[8] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#if CASE == 1
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  else
    sync_through();
  if (rank == 0)
    MPI_Recv(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else if (rank == 1)
    exchange(rank, buf);
  sync_all();
#else
  // Rank 0 waits for a message nobody sends; scale only computes.
  buf[0] = scale(rank);
  if (rank == 0)
    // TWO: {{.*}}other-file-helpers.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0 waits in MPI_Recv (line [[#@LINE+1]]) for a message from rank 1 with tag 0, but rank 1 goes on to MPI_Finalize (line [[#@LINE+3]]) without sending it: the receive never completes, and MPI_Finalize waits for it [ompi-message-matching]
    MPI_Recv(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
  MPI_Finalize();
  return 0;
}
// TWO: {{.*}}other-file-helpers.c:[[#@LINE-3]]:3: note: rank 1 waits here
