// The analyses see inside OpenMP regions (parsed with -fopenmp, Clang keeps
// a region's body in a captured declaration, not among the statement's
// children): an MPI call in a `#pragma omp master` between two reductions
// is a call between them, and fusion declines as it does for the same call
// written without the pragma (before, the region looked empty and the two
// reductions were fused across the broadcast). A region that communicates
// nothing is no obstacle.
// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %mpich_cflags -fopenmp | FileCheck --match-full-lines %s
// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %openmpi_cflags -fopenmp | FileCheck --match-full-lines %s
// RUN: %ompi-opt --transforms=reduction-fusion %s -o %t.c -- %mpich_cflags -fopenmp
// RUN: %clang -fsyntax-only -fopenmp -Wall -Wextra -Werror %mpich_cflags %t.c
#include <mpi.h>
#include <stdio.h>

void bcast_between(double a, double b) {
  double x, y;
  MPI_Allreduce(&a, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-6]]: the MPI call MPI_Bcast at line [[#@LINE-2]] may depend on the results)
  MPI_Allreduce(&b, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g %g\n", x, y, a);
}

void compute_between(double a, double b) {
  double x, y, z[8];
#pragma omp parallel for
  for (int i = 0; i < 8; i++)
    z[i] = a * i;
  MPI_Allreduce(&a, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma omp parallel for
  for (int i = 0; i < 8; i++)
    z[i] += b;
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-4]], [[#@LINE+1]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD {{.*}}
  MPI_Allreduce(&b, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g %g\n", x, y, z[3]);
}
