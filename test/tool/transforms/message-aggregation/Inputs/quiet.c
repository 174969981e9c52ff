// Another file of the program of whole.c: messages of other tags only.
#include <mpi.h>

void drain(int from) {
  int v;
  MPI_Recv(&v, 1, MPI_INT, from, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
