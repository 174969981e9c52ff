// lazy-deferral in a function with gotos that jump forwards over no wait
// (the Parallel Research Kernels' argument checks: "goto ENDOFTESTS"):
// source order is still the order control takes, so the force points
// placed in it are on every path. Gotos that jump back or over a wait are
// declined (negative.c).
// RUN: %ompi-opt --transforms=lazy-deferral --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=lazy-deferral %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double sum(double x) {
  double s;
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

int main(int argc, char **argv) {
  int rank, size, error = 0, iterations = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    if (argc > 3) {
      printf("Usage: %s [iterations]\n", *argv);
      error = 1;
      goto ENDOFTESTS;
    }
    iterations = argc > 1 ? atoi(argv[1]) : 4;
    if (iterations < 1) {
      error = 1;
      goto ENDOFTESTS;
    }
  ENDOFTESTS:;
  }
  MPI_Bcast(&error, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (error) {
    MPI_Finalize();
    return 1;
  }
  MPI_Bcast(&iterations, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double lo = 0, hi = 0, total = 0;
  for (int it = 0; it < iterations; it++) {
    double x = rank + it + 1;
    // REPORT-DAG: {{.*}}goto.c:[[#@LINE+2]]:5: lazy-deferral: deferred MPI_Allreduce(&x -> &lo) to the lazy runtime {{.*}}
    // SRC:    mpiopt_lazy_allreduce(&x, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    // REPORT-DAG: {{.*}}goto.c:[[#@LINE+2]]:5: lazy-deferral: deferred MPI_Allreduce(&x -> &hi) to the lazy runtime {{.*}}
    // SRC:    mpiopt_lazy_allreduce(&x, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    // The waits go before the condition only rank 0 passes:
    // SRC:    total += sum(x);
    // SRC-NEXT:    mpiopt_lazy_wait_range(&lo, sizeof(lo));
    // SRC-NEXT:    mpiopt_lazy_wait_range(&hi, sizeof(hi));
    // SRC-NEXT:    if (rank == 0)
    total += sum(x);
    if (rank == 0)
      printf("iteration %d: min %g max %g\n", it, lo, hi);
  }
  if (rank == 0)
    printf("size %d total %g\n", size, total);
  MPI_Finalize();
  return 0;
}
