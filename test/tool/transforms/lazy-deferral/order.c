// lazy-deferral keeps the order of the writes into a variable: found by
// scripts/difftest (seeds 20139 and 20235), each case its minimal form.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
#include <mpi.h>
#include <stdio.h>

static int g;
static int rank, size;

// Writes g at once (its result is read right after, so it is not deferred):
// the deferred reduction into g must land before this one, not after it.
static void overwrite(void) {
  int t = rank + 5;
  // REPORT-DAG: {{.*}}order.c:[[#@LINE+2]]:3: lazy-deferral: force point: wait for g (line [[#@LINE+2]] writes g with a reduction that is not deferred)
  // SRC:  mpiopt_lazy_wait_range(&g, sizeof(g));
  MPI_Allreduce(&t, &g, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("overwrite: %d\n", g);
}

static void first(void) {
  int t = rank + 1;
  // REPORT-DAG: {{.*}}order.c:[[#@LINE+1]]:3: lazy-deferral: deferred MPI_Reduce(&t -> &g) to the lazy runtime {{.*}}
  MPI_Reduce(&t, &g, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  first();
  overwrite();
  // One variable written on two communicators: not deferred (the runtime
  // keeps order within a communicator, not across).
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  long v = 0, one = 1, two = 2, other = 0;
  // REPORT-DAG: {{.*}}order.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce into v (v also receives results on another communicator (line [[#@LINE+3]]): their order across communicators would be lost)
  MPI_Allreduce(&one, &v, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&one, &other, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&two, &v, 1, MPI_LONG, MPI_SUM, dup);
  if (rank == 0)
    printf("v %ld other %ld g %d\n", v, other, g);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
