// A function that ends with a label on an empty statement (`done:;`): its
// end is not in the CFG, so the tool cannot prove that only some ranks
// reach it, and the waits for its locals could not be placed there on
// proof. The reductions into locals stay as written (the deferred ones
// would have written into the dead stack frame: difftest seed 108819).
// RUN: %ompi-opt --transforms=lazy-deferral --report %s -- %mpich_cflags | FileCheck --match-full-lines %s
#include <mpi.h>

static double trace;

void step(int n) {
  double v = 1, w[4] = {0}, t = 0;
  int i;
  for (i = 0; i < n; i++) {
    v = v + i;
    // CHECK: {{.*}}label-at-end.c:[[#@LINE+1]]:5: lazy-deferral: not done: defer MPI_Allreduce into v (v dies at the end of step, whose last statement (line [[#@LINE+4]]) the tool cannot place in its control flow)
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  MPI_Reduce(&t, &w[2], 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
done:;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  step(argc);
  MPI_Allreduce(MPI_IN_PLACE, &trace, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
