// The other file of checks/other-file-helpers.c: one helper that
// communicates (a barrier, a send and a receive), one that computes only,
// and one that calls the first through another.
#include <mpi.h>

void sync_all(void) { MPI_Barrier(MPI_COMM_WORLD); }

void exchange(int rank, int *buf) {
  MPI_Send(buf, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
  MPI_Recv(buf + 4, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int scale(int x) { return 2 * x; }

void sync_through(void) { sync_all(); }
