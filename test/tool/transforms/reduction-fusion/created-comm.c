// reduction-fusion on a communicator the function creates: one created once
// (a constructor outside any loop, otherwise only freed) is the same
// communicator at every call and at the fused point, so its reductions
// fuse; one created in a loop is a new communicator each iteration and is
// not identified (declined, with the reason).
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=reduction-fusion %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>

void on_split(double x, double y, int color) {
  MPI_Comm c;
  double r1, r2;
  MPI_Comm_split(MPI_COMM_WORLD, color, 0, &c);
  // SRC:  double mpiopt_fuse1_buf[2];
  // SRC-NEXT:  __builtin_memcpy(&mpiopt_fuse1_buf[0], &x, 1 * sizeof(double));
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, c);
  // REPORT: {{.*}}created-comm.c:[[#@LINE+2]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-1]], [[#@LINE+2]]) into one of 2 x MPI_DOUBLE with MPI_SUM on c (same communicator, op and datatype; {{.*}}
  // SRC:    MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_DOUBLE, MPI_SUM, c);
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, c);
  printf("%g %g\n", r1, r2);
  MPI_Comm_free(&c);
}

void split_in_loop(double x, double y, int n) {
  for (int i = 0; i < n; i++) {
    MPI_Comm c;
    double r1, r2;
    MPI_Comm_split(MPI_COMM_WORLD, i % 2, 0, &c);
    // REPORT-DAG: {{.*}}created-comm.c:[[#@LINE+1]]:5: reduction-fusion: not done: MPI_Allreduce not fused (communicator c cannot be identified)
    MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, c);
    MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, c);
    printf("%g %g\n", r1, r2);
    MPI_Comm_free(&c);
  }
}
