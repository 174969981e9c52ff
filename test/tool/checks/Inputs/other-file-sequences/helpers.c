// The other file of checks/other-file-sequences.c: helpers whose every MPI
// call is a collective made in order on every path (their facts carry the
// sequence), one that reaches its barrier through another of them, and one
// whose barrier is under a branch (no sequence).
#include <mpi.h>

void sync_all(void) { MPI_Barrier(MPI_COMM_WORLD); }

double global_sum(double x) {
  double r;
  MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return r;
}

void share(int *v, int root, MPI_Comm c) { MPI_Bcast(v, 1, MPI_INT, root, c); }

void sync_twice(void) {
  int rc = MPI_Barrier(MPI_COMM_WORLD);
  (void)rc;
  MPI_Barrier(MPI_COMM_WORLD);
}

void maybe_sync(int rank) {
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}

void sync_through(void) { sync_all(); }
