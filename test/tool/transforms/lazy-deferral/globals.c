// Globals with external linkage as receive buffers, with the program's
// facts (--whole-program): a global no other file's code names (total,
// peak; other.c only declares them) is deferred as a static one is, with
// its waits in this file; one another file reads (shared, in report) is
// not. Each file alone, every one of them is declined.
// RUN: %ompi-opt --whole-program --transforms=lazy-deferral --report %s %S/Inputs/globals/other.c -- %mpich_cflags 2>&1 | FileCheck --match-full-lines --check-prefix=FACTS %s
// RUN: %ompi-opt --transforms=lazy-deferral --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines --check-prefix=ALONE %s
#include <mpi.h>
#include <stdio.h>

double total, peak, shared;
double report(void);

void sums(double x) {
  // FACTS-DAG: {{.*}}globals.c:[[#@LINE+2]]:3: lazy-deferral: deferred MPI_Allreduce{{.*}}
  // ALONE-DAG: {{.*}}globals.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (total has external linkage{{.*}}
  MPI_Allreduce(&x, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // FACTS-DAG: {{.*}}globals.c:[[#@LINE+2]]:3: lazy-deferral: deferred MPI_Allreduce{{.*}}
  // ALONE-DAG: {{.*}}globals.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (peak has external linkage{{.*}}
  MPI_Allreduce(&x, &peak, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  // FACTS-DAG: {{.*}}globals.c:[[#@LINE+2]]:3: lazy-deferral: not done: defer MPI_Allreduce (shared has external linkage{{.*}}
  // ALONE-DAG: {{.*}}globals.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (shared has external linkage{{.*}}
  MPI_Allreduce(&x, &shared, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  sums(1.0);
  printf("%g %g %g\n", total, peak, report());
  MPI_Finalize();
  return 0;
}
