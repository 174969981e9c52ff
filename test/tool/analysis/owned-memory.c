// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// Memory read through a pointer variable that alone reaches it (it owns
// the memory: analysis/OwnedMemory.h) is the same on every rank when every
// store into it is. Each case branches on such memory around two
// reductions, which fuse only when the branch is the same on every rank.
// Negatives: the pointer copied, passed to a function, given memory
// another pointer reaches, a store of the rank, a store on some ranks only,
// a point-to-point receive into it, a global other files may write.
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static double *sums, *copied, *passed, *borrowed, *ranked, *divergent, *received, *fresh;
double *shared_sums;
static double pool[8];
static int nvars = 4;

static void *checked_alloc(size_t n) {
  void *p = malloc(n);
  if (!p)
    exit(1);
  return p;
}

static double total(int v) {
  double x = v, g;
  MPI_Allreduce(&x, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

static void keep(double *p) { (void)p; }

static void setup(int rank) {
  sums = malloc(nvars * sizeof(double));
  fresh = (double *)checked_alloc(nvars * sizeof(double));
  copied = calloc(nvars, sizeof(double));
  passed = calloc(nvars, sizeof(double));
  borrowed = pool;
  ranked = calloc(nvars, sizeof(double));
  divergent = calloc(nvars, sizeof(double));
  received = calloc(nvars, sizeof(double));
  for (int v = 0; v < nvars; v++) {
    sums[v] = total(v);
    *(fresh + v) = 2.0 * v;
  }
  memset(fresh, 0, sizeof(double));
  MPI_Allreduce(MPI_IN_PLACE, sums, nvars, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double *alias = copied;
  alias[0] = rank;
  keep(passed);
  ranked[1] = rank;
  if (rank == 0)
    divergent[0] = 1;
  if (rank == 1)
    MPI_Recv(received, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else if (rank == 0)
    MPI_Send(sums, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
}

// Every store into sums is an allreduce result at a point every rank reaches:
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+5]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
static void with_sums(void) {
  double a = 1, b = 2;
  if (sums[2] > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// A local pointer, and memory from a function that returns a fresh object:
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+11]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
static void with_local(int n) {
  int *counts = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    counts[i] = 2 * i;
  counts[0] += n;
  int go = counts[1] > 1 && *fresh < 3.0;
  free(counts);
  double a = 1, b = 2;
  if (go) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+4]]:5: reduction-fusion: not done: {{.*}}the value of copied is kept at line {{[0-9]+}}{{.*}}
static void with_copied(void) {
  double a = 1, b = 2;
  if (copied[0] > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+4]]:5: reduction-fusion: not done: {{.*}}passed is passed to keep at line {{[0-9]+}}{{.*}}
static void with_passed(void) {
  double a = 1, b = 2;
  if (passed[0] > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+4]]:5: reduction-fusion: not done: {{.*}}borrowed is given memory other code may reach at line {{[0-9]+}}{{.*}}
static void with_borrowed(void) {
  double a = 1, b = 2;
  if (borrowed[0] > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+4]]:5: reduction-fusion: not done: {{.*}}ranked's memory is written at line {{[0-9]+}} with a value that may differ between ranks{{.*}}
static void with_ranked(void) {
  double a = 1, b = 2;
  if (ranked[0] > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+4]]:5: reduction-fusion: not done: {{.*}}divergent's memory is written at line {{[0-9]+}} only on some ranks{{.*}}
static void with_divergent(void) {
  double a = 1, b = 2;
  if (divergent[0] > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+4]]:5: reduction-fusion: not done: {{.*}}received's memory is written by MPI_Recv at line {{[0-9]+}}, whose data differs between ranks{{.*}}
static void with_received(void) {
  double a = 1, b = 2;
  if (received[0] > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// CHECK-DAG: {{.*}}owned-memory.c:[[#@LINE+4]]:5: reduction-fusion: not done: {{.*}}shared_sums has external linkage: other files may write the memory it points to{{.*}}
static void with_shared(void) {
  double a = 1, b = 2;
  if (shared_sums[0] > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  shared_sums = malloc(sizeof(double));
  shared_sums[0] = 1;
  setup(rank);
  with_sums();
  with_local(argc + 2);
  with_copied();
  with_passed();
  with_borrowed();
  with_ranked();
  with_divergent();
  with_received();
  with_shared();
  MPI_Finalize();
  return 0;
}
