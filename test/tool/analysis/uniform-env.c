// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=DEFAULT %s
// RUN: %ompi-opt --uniform-env --transforms=reduction-fusion --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=ENV %s
// MPI does not promise every process the same environment, so by default a
// branch on getenv's result may go different ways on different ranks and
// the reductions under it are left alone; --uniform-env asserts the
// launcher passes every rank the same environment.
#include <mpi.h>
#include <stdlib.h>

double out0, out1;

// DEFAULT: {{.*}}uniform-env.c:[[#@LINE+8]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, {{.*}}getenv at line [[#@LINE+5]] reads each process's environment (--uniform-env: the same on every rank){{.*}}
// ENV: {{.*}}uniform-env.c:[[#@LINE+8]]:5: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+7]], [[#@LINE+8]]) into one {{.*}}
int main(int argc, char **argv) {
  double a = 1, b = 2;
  MPI_Init(&argc, &argv);
  const char *s = getenv("VERBOSE_SUMS");
  int verbose = s ? atoi(s) : 0;
  if (verbose > 0) {
    MPI_Allreduce(&a, &out0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &out1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
