// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %mpich_cflags | FileCheck --match-full-lines %s
// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %openmpi_cflags | FileCheck --match-full-lines %s
// A value set on the root and then broadcast (or combined by MPI_Allreduce)
// is the same on every rank after the collective, whatever it was before:
// each read sees only the definitions that reach it
// (tool/lib/analysis/Uniformity.h). The witness is reduction-fusion, which
// fuses two reductions only where every rank runs them alike. Each case says
// why the tool may fuse, or why it must not.
#include <mpi.h>
#include <stdio.h>

static double kept[32];
static int nkept;
static void keep2(double x, double y) {
  if (nkept + 2 <= 32) {
    kept[nkept++] = x;
    kept[nkept++] = y;
  }
}

// Set on the root only, then broadcast on MPI_COMM_WORLD: fused.
// CHECK-DAG: {{.*}}broadcast.c:[[#@LINE+9]]:5: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+8]], [[#@LINE+9]]) into one {{.*}}
static void root_then_bcast(int rank, double a, double b) {
  double r1, r2;
  int n = 0;
  if (rank == 0)
    n = 5;
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (n > 3) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    keep2(r1, r2);
  }
}

// A flag each rank computes from its rank, combined in place by
// MPI_Allreduce: the same everywhere afterwards. Fused.
// CHECK-DAG: {{.*}}broadcast.c:[[#@LINE+7]]:5: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+6]], [[#@LINE+7]]) into one {{.*}}
static void allreduce_in_place(int rank, double a, double b) {
  double r1, r2;
  int flag = rank == 0;
  MPI_Allreduce(MPI_IN_PLACE, &flag, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (flag) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    keep2(r1, r2);
  }
}

// Broadcast on a duplicate of MPI_COMM_WORLD (the same ranks): fused.
// CHECK-DAG: {{.*}}broadcast.c:[[#@LINE+11]]:5: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+10]], [[#@LINE+11]]) into one {{.*}}
static void bcast_on_dup(int rank, double a, double b) {
  double r1, r2;
  long n = 0;
  MPI_Comm w;
  MPI_Comm_dup(MPI_COMM_WORLD, &w);
  if (rank == 0)
    n = 7;
  MPI_Bcast(&n, 1, MPI_LONG, 0, w);
  if (n == 7) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    keep2(r1, r2);
  }
  MPI_Comm_free(&w);
}

// Read before the broadcast: only rank 0 has set it. Not fused.
// CHECK-DAG: {{.*}}broadcast.c:[[#@LINE+7]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, {{.*}} (the branch at line [[#@LINE+6]] may go different ways on different ranks: n is set at line [[#@LINE+5]] only on some ranks: {{.*}}))
static void read_before_bcast(int rank, double a, double b) {
  double r1 = 0, r2 = 0;
  int n = 0;
  if (rank == 0)
    n = 5;
  if (n > 3) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  keep2(r1, r2 + n);
}

// Broadcast within each half of a split: the halves' roots may hold
// different values. Not fused.
// CHECK-DAG: {{.*}}broadcast.c:[[#@LINE+12]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, {{.*}}: n is set by MPI_Bcast at line [[#@LINE+10]] on a communicator that may not hold every rank))
static void bcast_on_split(int rank, double a, double b) {
  double r1 = 0, r2 = 0;
  int n = 0;
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int hrank;
  MPI_Comm_rank(half, &hrank);
  if (hrank == 0)
    n = 5 + rank;
  MPI_Bcast(&n, 1, MPI_INT, 0, half);
  if (n > 5) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Comm_free(&half);
  keep2(r1, r2);
}

// A long broadcast as one MPI_INT: its other bytes keep each rank's value.
// Not fused.
// CHECK-DAG: {{.*}}broadcast.c:[[#@LINE+8]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, {{.*}}: m may be only partly set by MPI_Bcast at line [[#@LINE+6]]))
static void partial_bcast(int rank, double a, double b) {
  double r1 = 0, r2 = 0;
  long m = 0;
  if (rank == 0)
    m = 3;
  MPI_Bcast(&m, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (m != 0) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  keep2(r1, r2);
}

// Broadcast, then changed on one rank: the later definition reaches the
// branch. Not fused.
// CHECK-DAG: {{.*}}broadcast.c:[[#@LINE+8]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, {{.*}}: n is set at line [[#@LINE+6]] only on some ranks: {{.*}}))
static void changed_after_bcast(int rank, double a, double b) {
  double r1 = 0, r2 = 0;
  int n = 4;
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 1)
    n = 2;
  if (n > 3) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  keep2(r1, r2);
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double a = rank + 1, b = 2 * rank + 3;
  root_then_bcast(rank, a, b);
  allreduce_in_place(rank, a, b);
  bcast_on_dup(rank, a, b);
  read_before_bcast(rank, a, b);
  bcast_on_split(rank, a, b);
  partial_bcast(rank, a, b);
  changed_after_bcast(rank, a, b);
  if (rank == 0) {
    for (int i = 0; i < nkept; i++)
      printf(" %g", kept[i]);
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
