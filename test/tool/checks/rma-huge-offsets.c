// Offsets beyond 64 bits (an index of 2^62 elements of 4 bytes, a
// displacement of 2^62 units): the evaluator and the one-sided runs give up
// on the bytes instead of overflowing (undefined behaviour, which the
// libFuzzer build's UndefinedBehaviorSanitizer stops on), and rma-conflict
// judges nothing it cannot place.
// RUN: %ompi-opt --check --checks=rma-conflict,rma-buffer-in-use %s -- %mpich_cflags 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: %s
// CHECK-NOT: Stack dump
#include <mpi.h>
void f(void) {
  int rank, mem[4] = {0}, x = 1;
  MPI_Win w;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(&mem[4611686018427387904], sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  if (rank == 0)
    MPI_Put(&x, 1, MPI_INT, 1, 4611686018427387904, 4611686018427387904, MPI_INT, w);
  if (rank == 1)
    mem[4611686018427387904] = 5;
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}
