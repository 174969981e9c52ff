/* Runtime test (expected to abort): rank 0 queues one reduction more than
 * the others. With MPIOPT_CHECK=1 the flush must abort with a message that
 * names the call sites of every rank's queue (the ctest checks the text). */
#include <stdio.h>

#include <mpi.h>
#include "mpiopt/lazy.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double a = 1, b = 0, c = 2, d = 0;
  mpiopt_lazy_allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) mpiopt_lazy_allreduce(&c, &d, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); /* divergent */
  mpiopt_lazy_flush(MPI_COMM_WORLD);
  printf("not reached: %g %g\n", b, d);
  MPI_Finalize();
  return 0;
}
