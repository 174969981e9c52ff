// RUN: %ompi-opt --whole-program --transforms=reduction-fusion --report %s %S/Inputs/root-broadcast-direct/other.c -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// The root broadcasts a variable itself, in both arms of the rank's if
// (analysis/RootBroadcast.h, the second shape), and calls of functions of
// another file that writes the variable elsewhere: by the program's facts
// of what each function writes, a call that cannot write it does not undo
// the broadcast. Negatives: a call of a function whose callee writes the
// variable; a call through a pointer (what it writes is unknown); a count
// of two for one int; a jump before the broadcast in an arm; a write after
// it.
#include <mpi.h>
#include <stdlib.h>

int steps, limit, depth, hooked, twice, jumped, late;
void log_start(void);
void log_reset(void);
void log_hook(void);
double a = 1, b = 2;

static void sums(void) {
  MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int rank, buf[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    steps = atoi(argv[1]);
    MPI_Bcast(&steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(&steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    depth = atoi(argv[2]);
    buf[0] = depth;
    log_start();
    MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    log_start();
  } else {
    MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    depth = buf[0];
  }
  if (rank == 0) {
    limit = atoi(argv[3]);
    buf[0] = limit;
    MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    log_reset();
  } else {
    MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    limit = buf[0];
  }
  if (rank == 0) {
    hooked = atoi(argv[4]);
    buf[0] = hooked;
    MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    log_hook();
  } else {
    MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    hooked = buf[0];
  }
  if (rank == 0) {
    twice = argc;
    MPI_Bcast(&twice, 2, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(&twice, 2, MPI_INT, 0, MPI_COMM_WORLD);
  }
  for (int i = 0; i < 2; i++) {
    if (rank == 0) {
      jumped = argc;
      if (argc > 5)
        break;
      MPI_Bcast(&jumped, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
      MPI_Bcast(&jumped, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) {
    MPI_Bcast(&late, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(&late, 1, MPI_INT, 0, MPI_COMM_WORLD);
    late += rank;
  }
  // CHECK-DAG: {{.*}}root-broadcast-direct.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (steps) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // log_start cannot write depth: depth is the root's.
  // CHECK-DAG: {{.*}}root-broadcast-direct.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (depth) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // log_reset calls reset_limit, which writes limit after the pack.
  // CHECK-DAG: {{.*}}root-broadcast-direct.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (limit) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // log_hook calls through a pointer: what it writes is unknown.
  // CHECK-DAG: {{.*}}root-broadcast-direct.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (hooked) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}root-broadcast-direct.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (twice) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}root-broadcast-direct.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (jumped) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}root-broadcast-direct.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (late) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  sums();
  MPI_Finalize();
  return 0;
}
