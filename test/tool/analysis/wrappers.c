// RUN: %ompi-opt --whole-program --report %s %S/Inputs/wrappers/comm.c %S/Inputs/wrappers/caller.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --whole-program --facts-out=%t.facts.json %s %S/Inputs/wrappers/comm.c %S/Inputs/wrappers/caller.c %S/Inputs/wrappers/redefined.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=FACTS %s < %t.facts.json
// RUN: %ompi-opt --program-facts=%t.facts.json %s -o - -- %mpich_cflags | FileCheck --check-prefix=OUT %s
// RUN: %ompi-opt --program-facts=%t.facts.json %S/Inputs/wrappers/caller.c -o %t.caller.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=CALLER --match-full-lines %s < %t.caller.c
// RUN: %ompi-opt --whole-program --summary %s %S/Inputs/wrappers/comm.c %S/Inputs/wrappers/caller.c -- %mpich_cflags 2>/dev/null | FileCheck --check-prefix=SUMMARY %s
// SUMMARY: (7 of the sites are calls of forwarding wrappers or uses of macros, judged as the MPI call they make; 6 of them changed)
// Each file alone: caller.c knows nothing of addReal and is left as written.
// RUN: %ompi-opt %S/Inputs/wrappers/caller.c -o - -- %mpich_cflags | diff - %S/Inputs/wrappers/caller.c
// Open MPI's and SMPI's mpi.h spell the handles as addresses of globals: the same calls are inlined.
// RUN: %if openmpi %{ %ompi-opt --whole-program --report %s %S/Inputs/wrappers/comm.c %S/Inputs/wrappers/caller.c -- %openmpi_cflags 2>&1 | FileCheck --check-prefix=REPORT %s %}
//
// Calls of forwarding wrappers (analysis/Wrappers.h) are judged as the MPI
// calls they make, with the caller's arguments; only the calls a
// transformation changes are written as MPI calls, the others stay.
#include <mpi.h>
#include <stdio.h>

typedef int my_int;
void addReal(double *send, double *recv, int count);
my_int my_Allreduce(void *send, void *recv, my_int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int twoSteps(double *send, double *recv);
void inPlace(double *buf, int n);
void weakSum(double *s, double *r);
double energy(double kinetic, double potential);

static void addInt(int *s, int *r, int n) { MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); }
// An argument the MPI call does not take: dropped only when it has no side effects.
static void sumOne(double *s, double *r, int unused) {
  MPI_Allreduce(s, r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
#define ADD_INT(a, b) addInt(a, b, 1)

// OUT: __attribute__((unused)) static void addInt(int *s, int *r, int n) {{.*}}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int a = rank, b, c = 2 * rank, d;
  // REPORT-DAG: wrappers.c:[[#@LINE+4]]:3: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}a call of the wrapper addInt (wrappers.c:[[#@LINE-14]]), written here as its MPI call){{.*}}
  // OUT: MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  // OUT-NOT: {{^}}  addInt(&
  addInt(&a, &b, 1);
  addInt(&c, &d, 1);
  printf("%d %d\n", b, d);
  double x = rank, y, x2 = -rank, y2;
  long n = 1;
  // The count converts to my_int, as the call converted it.
  // REPORT-DAG: wrappers.c:[[#@LINE+3]]:3: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}my_Allreduce (comm.c:13){{.*}}
  // OUT: MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse2_buf, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  my_Allreduce(&x, &y, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  my_Allreduce(&x2, &y2, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  // Judged as MPI_Allreduce and declined: left as written.
  // REPORT-DAG: wrappers.c:[[#@LINE+3]]:{{.*}}: lazy-deferral: not done: {{.*}}my_Allreduce (comm.c:13), judged as its MPI call and left as written
  // OUT: {{^}}  my_int err = my_Allreduce(&x, &y,
  // OUT-NEXT: {{^}}                            1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  my_int err = my_Allreduce(&x, &y,
                            1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  printf("%d: %d %d %g %g %g %d\n", rank, b, d, y, y2, y, err);
  // Not wrappers (two statements, a parameter used twice, a weak definition),
  // a dropped argument with side effects, a call in a macro, a void call
  // whose value a comma expression takes: as written, not MPI calls.
  // REPORT-NOT: {{.*}}wrapper twoSteps
  // REPORT-NOT: {{.*}}wrapper inPlace
  // REPORT-NOT: {{.*}}wrapper weakSum
  // REPORT-NOT: {{.*}}wrapper sumOne
  // OUT: {{^}}  twoSteps(&p, &q);
  // OUT: {{^}}  inPlace(&p, 1);
  // OUT: {{^}}  weakSum(&p, &q);
  // OUT: {{^}}  sumOne(&p, &q, e++);
  // OUT: {{^}}  ADD_INT(&e, &f);
  // OUT: {{^}}  g = (addInt(&e, &f, 1), 1);
  double p = rank, q;
  int e = rank, f, g;
  twoSteps(&p, &q);
  inPlace(&p, 1);
  weakSum(&p, &q);
  sumOne(&p, &q, e++);
  ADD_INT(&e, &f);
  g = (addInt(&e, &f, 1), 1);
  printf("%d: %g %d %d %g\n", rank, q, f, g, energy(x, y));
  MPI_Finalize();
  return 0;
}

// FACTS: "wrappers": {
// FACTS: "addReal": {
// FACTS: "args": [
// FACTS-NEXT: 0,
// FACTS-NEXT: 1,
// FACTS-NEXT: 2,
// FACTS-NEXT: "MPI_DOUBLE",
// FACTS-NEXT: "MPI_SUM",
// FACTS-NEXT: "MPI_COMM_WORLD"
// FACTS: "my_Allreduce": {
// FACTS: "returns": "int"
// FACTS-NOT: "twoSteps"
// FACTS-NOT: "inPlace"
// FACTS-NOT: "weakSum"
// FACTS-NOT: "sum_app"

// In caller.c (no mpi.h of its own): mpi.h in the blank line after its
// #include, the two calls fused, every line where it was.
// CALLER: #include <stdio.h>
// CALLER-NEXT: #include <mpi.h>
// CALLER-NEXT: void addReal(double *send, double *recv, int count);
// CALLER-EMPTY:
// CALLER-NEXT: double energy(double kinetic, double potential) {
// CALLER: {{.*}}fused into one{{.*}}
