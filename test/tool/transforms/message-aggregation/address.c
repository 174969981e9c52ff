// message-aggregation: an MPI function whose address is taken may be
// called with any tag, and a function no file of the program defines (a
// library of its own) may communicate: the groups stay separate.
// RUN: %ompi-opt --closed-world --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags | FileCheck --check-prefix=ADDR %s
// RUN: %ompi-opt --closed-world --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags -DNO_ADDRESS | FileCheck --check-prefix=DONE %s
// RUN: %ompi-opt --closed-world --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags -DNO_ADDRESS -DLIBRARY | FileCheck --check-prefix=LIB %s
#include <mpi.h>

#ifdef LIBRARY
void solve(void); // a library of the program's own: its code may communicate
#else
static void solve(void) {}
#endif
#ifndef NO_ADDRESS
int (*send_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm) = MPI_Send;
#endif

int main(int argc, char **argv) {
  int rank, size, a = 1, b = 2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0 && size > 1) {
    // ADDR: address.c:[[#@LINE+3]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+3]]-[[#@LINE+4]] (tags 1, 2 of MPI_INT, MPI_INT) stay separate (the call at line 15 (any tag) may take a message of these tags and is no group of this shape)
    // LIB: address.c:[[#@LINE+2]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+2]]-[[#@LINE+3]] (tags 1, 2 of MPI_INT, MPI_INT) stay separate (solve (called at line {{[0-9]+}}) is defined in no file of the program {{.*}})
    // DONE: address.c:[[#@LINE+1]]:5: message-aggregation: 2 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+2]] (tags 1, 2 of MPI_INT, MPI_INT) as one message
    MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  solve();
  MPI_Finalize();
  return a + b == 0;
}
