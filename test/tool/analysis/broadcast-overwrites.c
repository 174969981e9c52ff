// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// The root writes a struct, an array or a global in its own arm of an if,
// and a broadcast after the if sets all of it on every rank before any
// other code reads it (analysis/Uniformity.h, broadcastOverwrites): after
// the broadcast every rank holds the root's values. Negatives: a
// broadcast of part of it; a read between the if and the broadcast; a
// write in an if whose condition is the same on every rank (what follows
// it reads the rank's own value); a loop whose other code reads it before
// the root's next write; a broadcast on a communicator that may not hold
// every rank; a global read by a function called before the broadcast. A
// return or a jump out of the root's arm stops the rule too (the code
// after such an arm is judged to run on some ranks anyway). The
// negatives' values happen to agree when run, so the program is an e2e
// test as well.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct params {
  int n;
  double t;
};
static int g, h;
double a = 1, b = 2;

// h is read here between the root's write and the broadcast: only the
// root has written it yet.
// CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+3]]:5: reduction-fusion: not done: {{.*}}
static void peek(void) {
  if (h > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  int rank, arr[4], part[4] = {1, 1, 1, 1}, seen = 0, late[2] = {0, 0}, early = 0, mid;
  struct params p, q = {0, 0}, s = {0, 0};
  MPI_Comm half;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &half);
  if (rank == 0) {
    p.n = argc > 1 ? atoi(argv[1]) : 3;
    if (p.n < 0)
      p.n = 0;
    p.t = 2.0 * p.n;
    g = p.n + 1;
    for (int i = 0; i < 4; i++) {
      if (i > p.n)
        break;
      arr[i] = i * p.n;
    }
    part[0] = rank + 1;
    q.n = rank;
  }
  MPI_Bcast(&p, sizeof(p), MPI_BYTE, 0, MPI_COMM_WORLD);
  a = 3;
  MPI_Bcast(&g, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(arr, 4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(part, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&q, sizeof(q), MPI_BYTE, 0, half);
  if (rank == 0)
    s.n = rank;
  if (rank == 0)
    h = rank;
  peek();
  MPI_Bcast(&h, 1, MPI_INT, 0, MPI_COMM_WORLD);
  mid = s.n;
  MPI_Bcast(&s, sizeof(s), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (argc > 2) {
    late[0] = rank;
    seen = late[0];
  }
  MPI_Bcast(late, 2, MPI_INT, 0, MPI_COMM_WORLD);
  for (int k = 0; k < 2; k++) {
    early += late[1];
    if (rank == 0)
      late[1] = rank + k;
    MPI_Bcast(late, 2, MPI_INT, 0, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (p.n > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (g > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (arr[3] > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // Only 2 of part's 4 elements are broadcast.
  // CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (part[0] > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // q is broadcast on half the ranks.
  // CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (q.n > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // mid reads s before the broadcast: the root's value there, the others'
  // own.
  // CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (mid > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // seen reads each rank's own late[0] before the broadcast.
  // CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (seen > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // The loop's next iteration reads the root's late[1] before the broadcast.
  // CHECK-DAG: {{.*}}broadcast-overwrites.c:[[#@LINE+2]]:5: reduction-fusion: not done: {{.*}}
  if (early > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("%g %g %d %g %d %d %d %d\n", a, b, p.n, p.t, g, arr[3], seen, early);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
