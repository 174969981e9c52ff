// Another file of the program of whole.c: a receive of tag 21.
#include <mpi.h>

void drain(int from) {
  int v;
  MPI_Recv(&v, 1, MPI_INT, from, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
