/* A two-file program whose reductions only whole-program facts can
 * optimise: they run under a branch on a global that setup.c writes. Built
 * file by file, the branch may go different ways on different ranks (other
 * files may write the global); linked, ompi-cc learns that setup.c writes
 * it alike on every rank and recompiles this file. */
#include "setup.h"
#include <mpi.h>
#include <stdio.h>

int nsteps, verbose;

int main(int argc, char **argv) {
  int rank;
  double a, b;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  setup(argc);
  for (int s = 0; s < nsteps; s++) {
    a = rank + s;
    b = 2.0 * rank - s;
    if (verbose) {
      MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    if (rank == 0)
      printf("step %d: %g %g\n", s, a, b);
  }
  MPI_Finalize();
  return 0;
}
