/* Sets main.c's globals from the command line, alike on every rank. */
#include "setup.h"
#include <mpi.h>

void setup(int argc) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  nsteps = argc + 3;
  verbose = argc;
}
