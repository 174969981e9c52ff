// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// The root's pack-broadcast-unpack (analysis/RootBroadcast.h) with writes
// made by functions the root's arm calls before the pack: the root's input
// check, directly, in a condition, or through another function. Their
// writes are overwritten by the root's value on every rank when the if
// ends, as the arm's own writes are. A function of another file called
// after the unpack cannot write the variables: only this file writes them.
// Negatives: a function that writes after the pack (the root keeps another
// value), a function also called outside the arm on some ranks.
#include <mpi.h>
#include <stdlib.h>

static int steps, deep, after, shared_fix;
void log_input(void); /* another file's */

static int check(void) { /* the root's input check adjusts what it read */
  if (steps > 100)
    steps = 100;
  return steps < 0;
}
static void clamp(void) { deep = deep > 8 ? 8 : deep; }
static void adjust(void) { clamp(); }
static void bump(void) { after++; }
static void fix(void) { shared_fix = 1; }

int main(int argc, char **argv) {
  int rank, buf[8];
  double a = 1, b = 2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    steps = atoi(argv[1]);
    deep = argc;
    after = argc;
    shared_fix = argc;
    if (check())
      MPI_Abort(MPI_COMM_WORLD, 1);
    adjust();
    fix();
    buf[0] = steps;
    buf[1] = deep;
    buf[2] = after;
    buf[3] = shared_fix;
    bump();
    MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
    steps = buf[0];
    deep = buf[1];
    after = buf[2];
    shared_fix = buf[3];
    log_input();
  }
  if (rank == 1)
    fix();
  // CHECK-DAG: {{.*}}root-broadcast-callee.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (steps) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}root-broadcast-callee.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (deep) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}root-broadcast-callee.c:[[#@LINE+3]]:5: reduction-fusion: not done: {{.*}}after is written in bump, which only some ranks may run{{.*}}
  if (after) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}root-broadcast-callee.c:[[#@LINE+3]]:5: reduction-fusion: not done: {{.*}}shared_fix is written in fix, which only some ranks may run{{.*}}
  if (shared_fix) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
