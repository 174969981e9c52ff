// RUN: %ompi-opt --report %s -- %mpich_cflags 2>&1 | FileCheck %s
// Open MPI's handles are globals of incomplete types (&ompi_mpi_comm_world):
// RUN: %if openmpi %{ %ompi-opt --report %s -- %openmpi_cflags 2>&1 | FileCheck %s %}
//
// A global read straight after a collective set all of it (graph500's
// validate.c) holds the collective's result on every rank, however else
// the program writes it; the reductions after the branch on it run alike
// on every rank.
#include <mpi.h>
#include <stdio.h>

long errs; // written where only some ranks may be (check), so it may differ
static int bad(int v) { return v < 0; }
static void check(int v) {
  if (bad(v))
    errs++;
}
static void (*checker)(int) = check;

double a, b, c, d;

static void validate(int v) {
  checker(v);
  MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (errs > 0)
    return;
  // CHECK: collective-global.c:[[#@LINE+2]]:3: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Negative: a call between the collective and the read may write errs.
static void validate_late(int v) {
  MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  checker(v);
  if (errs > 0)
    return;
  // CHECK: collective-global.c:[[#@LINE+1]]:3: lazy-deferral: not done: {{.*}}only some ranks may run it{{.*}}
  MPI_Allreduce(MPI_IN_PLACE, &c, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Negative: the condition itself calls code that may write errs first.
static void validate_call(int v) {
  MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (bad(v) || errs > 0)
    return;
  // CHECK: collective-global.c:[[#@LINE+1]]:3: lazy-deferral: not done: {{.*}}only some ranks may run it{{.*}}
  MPI_Allreduce(MPI_IN_PLACE, &c, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// A handle right after a collective (found by difftest seed 111108): Open
// MPI's MPI_COMM_WORLD is the address of a global of incomplete type.
static int fwd(const void *s, void *r, long n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  return MPI_Allreduce(s, r, (int)n, t, o, c);
}
static void handles(int v) {
  int x = v, y = 0, z = v;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  fwd(&z, &y, 1L, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  printf("%d %d\n", x, y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  validate(rank);
  validate_late(rank);
  validate_call(rank);
  handles(rank);
  printf("%g %g %g %g %ld\n", a, b, c, d, errs);
  MPI_Finalize();
  return 0;
}
