// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// The root reads the input into variables, packs them into a buffer and
// broadcasts it; the other ranks unpack the buffer into the same
// variables: after the if, every rank holds the root's values
// (analysis/RootBroadcast.h). Negatives: a condition that is not the world
// rank alone, a variable changed after the pack, a different root, a
// buffer element changed between the broadcast and the unpack, a narrowing
// pack, a global rank a jump may skip setting.
#include <mpi.h>
#include <stdlib.h>

static int nsteps, wide, late, other, clobbered, narrow_i;
static double narrow_d;
double x0, x1;

// nsteps is the root's on every rank after main's first if:
// CHECK-DAG: {{.*}}root-broadcast.c:[[#@LINE+4]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
static void sums(int go) {
  if (go) {
    MPI_Allreduce(MPI_IN_PLACE, &x0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &x1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  int rank, buf[8];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    nsteps = argc > 1 ? atoi(argv[1]) : 3;
    late = argc;
    buf[0] = nsteps;
    buf[1] = late;
    late = late + 1; // changed after the pack: the root keeps another value
    buf[2] = clobbered;
    MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
    nsteps = buf[0];
    late = buf[1];
    buf[2] = rank; // the unpack reads this rank's own value
    clobbered = buf[2];
  }
  if (!rank) {
    other = atoi(argv[0]);
    buf[3] = other;
    MPI_Bcast(buf, 8, MPI_INT, 1, MPI_COMM_WORLD); // root 1, not the rank that packs
  } else {
    MPI_Bcast(buf, 8, MPI_INT, 1, MPI_COMM_WORLD);
    other = buf[3];
  }
  if (rank < 2) { // ranks 0 and 1 pack: rank 1 keeps its own value
    wide = argc;
    buf[4] = wide;
    MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
    wide = buf[4];
  }
  sums(nsteps > 2);
  MPI_Finalize();
  return 0;
}

// Each variable alone decides a branch around two reductions:
// CHECK-DAG: {{.*}}root-broadcast.c:[[#@LINE+5]]:5: reduction-fusion: not done: {{.*}}late is written at line {{[0-9]+}} only on some ranks{{.*}}
void with_late(void) {
  double a = 1, b = 2;
  if (late) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}root-broadcast.c:[[#@LINE+5]]:5: reduction-fusion: not done: {{.*}}other is written at line {{[0-9]+}} only on some ranks{{.*}}
void with_other(void) {
  double a = 1, b = 2;
  if (other) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}root-broadcast.c:[[#@LINE+5]]:5: reduction-fusion: not done: {{.*}}wide is written at line {{[0-9]+}} only on some ranks{{.*}}
void with_wide(void) {
  double a = 1, b = 2;
  if (wide) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// (the unpack reads buf[2], which each rank sets to its rank)
// CHECK-DAG: {{.*}}root-broadcast.c:[[#@LINE+5]]:5: reduction-fusion: not done: {{.*}}buf is written at line {{[0-9]+}} only on some ranks{{.*}}
void with_clobbered(void) {
  double a = 1, b = 2;
  if (clobbered) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// A double packed into an int buffer: the root keeps the fraction.
// CHECK-DAG: {{.*}}root-broadcast.c:[[#@LINE+14]]:5: reduction-fusion: not done: {{.*}}narrow_d is written at line {{[0-9]+}} only on some ranks{{.*}}
void narrowing(void) {
  int rank, buf[2];
  double a = 1, b = 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    narrow_d = 2.5;
    buf[0] = narrow_d;
    MPI_Bcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
    narrow_d = buf[0];
  }
  if (narrow_d > 2) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

// A global rank MPI_Comm_rank sets, but a goto may jump over the call: then
// every rank would take the root's arm.
static int grank, jumped;
// CHECK-DAG: {{.*}}root-broadcast.c:[[#@LINE+17]]:5: reduction-fusion: not done: {{.*}}jumped is written at line {{[0-9]+}} only on some ranks{{.*}}
void skipped(void) {
  int buf[2];
  double a = 1, b = 2;
  if (a > 5)
    goto over;
  MPI_Comm_rank(MPI_COMM_WORLD, &grank);
over:
  if (grank == 0) {
    jumped = 4;
    buf[0] = jumped;
    MPI_Bcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
    jumped = buf[0];
  }
  if (jumped > 2) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

// A return between the broadcast and the unpack leaves the others' value
// unpacked (the root keeps its own).
static int early;
// CHECK-DAG: {{.*}}root-broadcast.c:[[#@LINE+16]]:5: reduction-fusion: not done: {{.*}}early is written at line {{[0-9]+}} only on some ranks{{.*}}
static void returns(void) {
  int r, buf[2];
  double a = 1, b = 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0) {
    early = 4;
    buf[0] = early;
    MPI_Bcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (buf[1] < 0)
      return;
    early = buf[0];
  }
  if (early > 2) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
void call_returns(void) { returns(); }
