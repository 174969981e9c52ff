// reduction-fusion: the names the fused code declares never clash with the
// program's own, even in the reserved mpiopt_ prefix: mpiopt_fuse1 is taken
// here (a variable mpiopt_fuse1_buf), so the fusion uses mpiopt_fuse2.
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
#include <mpi.h>

double mpiopt_fuse1_buf[2];

double f(double a, double c) {
  double b, d;
  mpiopt_fuse1_buf[0] = a;
  // CHECK:  double mpiopt_fuse2_buf[2];
  // CHECK-NEXT:  __builtin_memcpy(&mpiopt_fuse2_buf[0], &a, 1 * sizeof(double));
  MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&c, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK: return b + d + mpiopt_fuse1_buf[0];
  return b + d + mpiopt_fuse1_buf[0];
}
