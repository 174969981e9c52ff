// RUN: %ompi-opt --transforms=reduction-fusion %s -o - -- %mpich_cflags | FileCheck %s
//
// The fused call takes counts and handles as values: a local variable
// that only the calls read is named once in the fused block, so that a
// build with -Werror=unused-variable (or unused-but-set) still compiles.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long one = 1;
  MPI_Datatype type = MPI_DOUBLE;
  double lo = -rank, hi = rank, lo_max, hi_max;
  // CHECK: fused into one
  // CHECK-NEXT: (void)one;
  // CHECK-NOT: {{^}}    (void)type;
  // CHECK: MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, type, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&lo, &lo_max, one, type, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&hi, &hi_max, one, type, MPI_MAX, MPI_COMM_WORLD);
  printf("%g %g\n", lo_max, hi_max);
  MPI_Finalize();
  return 0;
}
