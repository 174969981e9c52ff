/* Runtime test (expected to abort): rank 0 waits for a deferred result
 * where the other ranks do not: they go on into one of the program's own
 * collectives first. Without the check, rank 0's fused collective would meet
 * theirs (wrong results, or "Message truncated"); with MPIOPT_CHECK=1 the
 * check, on its own communicator and bounded by MPIOPT_CHECK_TIMEOUT, must
 * stop the job with a message naming the force point and the pending call
 * site, never hang (the ctest checks the text). At one rank it passes. */
#include <stdio.h>

#include <mpi.h>
#include "mpiopt/lazy.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a = 1, b = 0;
  long z[3] = {1, 2, 3}, zz[3];
  mpiopt_lazy_allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    mpiopt_lazy_wait_range(&b, sizeof b); /* only rank 0 waits here */
  MPI_Allreduce(z, zz, 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  mpiopt_lazy_wait_range(&b, sizeof b);
  if (size == 1) printf("ok: 1 checks, 0 failures\n");
  MPI_Finalize();
  return 0;
}
