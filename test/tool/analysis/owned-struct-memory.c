// RUN: %ompi-opt --closed-world --transforms=reduction-fusion --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// RUN: %ompi-opt --closed-world --transforms=reduction-fusion --report %s -- %openmpi_cflags 2>&1 | FileCheck --match-full-lines %s
// Memory a pointer owns that holds structs (analysis/OwnedMemory.h): a
// field of an element, p[i].f or p[i].a[k], is stored into as element i,
// and a local pointer given only &p[i] and never stored through reads
// p's memory at i (a read alias: op = &objs[o]; op->size). Positives: the
// same stores on every rank, read directly and through the alias.
// Negatives: a store at an index within a field that differs between
// ranks (sub), a value that differs (val), an alias stored through (wr),
// an alias given an element whose index differs (idx), an element's
// address passed to a function (esc).
#include <mpi.h>
#include <stdlib.h>

typedef struct {
  int kind;
  double size[3];
} shape;

shape *same, *sub, *val, *wr, *idx, *esc;
int n = 4;
double a = 1, b = 2;
void touch(shape *s);

// Every element set alike (and, for two of them, one store that is not).
#define FILL(P)                                                                                                        \
  P = malloc(n * sizeof(shape));                                                                                       \
  for (int i = 0; i < n; i++) {                                                                                        \
    P[i].kind = i;                                                                                                     \
    for (int k = 0; k < 3; k++)                                                                                        \
      P[i].size[k] = 1.0 * k;                                                                                          \
  }

static void through_alias(void) {
  shape *op;
  double most = 0;
  for (int o = 0; o < n; o++) {
    op = &same[o];
    if (op->size[2] > most)
      most = op->size[2];
  }
  // CHECK-DAG: {{.*}}owned-struct-memory.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (most > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void direct(void) {
  // CHECK-DAG: {{.*}}owned-struct-memory.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (same[1].kind > 0 && same[2].size[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}


static void neg_sub(void) {
  // CHECK-DAG: {{.*}}owned-struct-memory.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}sub's memory is written at line {{.*}} at an index that may differ between ranks{{.*}}
  if (sub[0].size[0] > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void neg_val(void) {
  // CHECK-DAG: {{.*}}owned-struct-memory.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}val's memory is written at line {{.*}}
  if (val[1].kind > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void neg_wr(int rank) {
  shape *op = &wr[0];
  op->kind = rank;
  // CHECK-DAG: {{.*}}owned-struct-memory.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}the address of an element of wr is kept in op{{.*}}
  if (wr[0].kind > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void neg_idx(int rank) {
  shape *op = &idx[rank % n];
  // CHECK-DAG: {{.*}}owned-struct-memory.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}reads through op, given the address of an element of idx at line {{.*}} at an index that may differ between ranks{{.*}}
  if (op->kind > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void neg_esc(void) {
  touch(&esc[1]);
  // CHECK-DAG: {{.*}}owned-struct-memory.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}esc is passed to touch{{.*}}
  if (esc[1].kind > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  FILL(same)
  FILL(sub)
  sub[0].size[rank % 3] = 7.0;
  FILL(val)
  val[1].kind = rank;
  FILL(wr)
  FILL(idx)
  FILL(esc)
  through_alias();
  direct();
  neg_sub();
  neg_val();
  neg_wr(rank);
  neg_idx(rank);
  neg_esc();
  MPI_Finalize();
  return 0;
}
