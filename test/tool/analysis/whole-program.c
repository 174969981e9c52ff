// RUN: %ompi-opt --transforms=reduction-fusion --report %s %S/Inputs/whole-program/setup.c -- %mpich_cflags 2>&1 | FileCheck --match-full-lines --check-prefix=ALONE %s
// RUN: %ompi-opt --whole-program --transforms=reduction-fusion --report %s %S/Inputs/whole-program/setup.c -- %mpich_cflags 2>&1 | FileCheck --match-full-lines --check-prefix=WHOLE %s
// RUN: %ompi-opt --whole-program --facts-out=%t.facts.json %s %S/Inputs/whole-program/setup.c -- %mpich_cflags
// RUN: %ompi-opt --program-facts=%t.facts.json --transforms=reduction-fusion --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines --check-prefix=WHOLE %s
// RUN: %ompi-opt --whole-program --facts-out=- %s %S/Inputs/whole-program/setup.c -- %mpich_cflags | FileCheck --check-prefix=FACTS %s
// RUN: %ompi-opt --whole-program --report %S/Inputs/whole-program/setup.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=NOMAIN %s
// -p DIR alone: the whole database, decided as one program.
// RUN: rm -rf %t.p && mkdir -p %t.p/build && cp %s %t.p/main.c && cp %S/Inputs/whole-program/setup.c %t.p/setup.c
// RUN: echo '[{"directory": "%t.p", "file": "%t.p/main.c", "command": "cc -c %mpich_cflags main.c"}, {"directory": "%t.p", "file": "%t.p/setup.c", "command": "cc -c %mpich_cflags setup.c"}]' > %t.p/build/compile_commands.json
// RUN: cd %t.p && %ompi-opt --transforms=reduction-fusion --report -p build 2>&1 | FileCheck --match-full-lines --check-prefix=DB %s
//
// Facts across files (--whole-program): a global that every file writes
// alike, a parameter every caller in any file passes alike and the result
// of a function defined in another file are the same on every rank; a
// global another file writes on rank 0 only, one written in a function
// another file calls on some ranks only, one no file of the program
// defines, and a parameter another file passes the rank to are not.
#include <mpi.h>

int nsteps, verbose, marked;
extern int libcount; // defined in no file of the program: a library's
void setup(int argc);
void mark(void);
int twice(int n);
double x0, x1;
double *norms, *noisy; // memory setup.c allocates and fills
void tables(int rank);

// ALONE-DAG: {{.*}}whole-program.c:[[#@LINE+6]]:5: reduction-fusion: not done: {{.*}}n is a parameter of work, which other files may call with any value{{.*}}
// DB: {{.*}}main.c:[[#@LINE+6]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
// WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+5]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
void work(int n) {
  double a = 1, b = 2;
  if (n > 2) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

// WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+4]]:5: reduction-fusion: not done: {{.*}}spread is called at setup.c:18 with a value that may differ between ranks{{.*}}
void spread(int n) {
  double a = 1, b = 2;
  if (n > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  setup(argc);
  if (rank == 0)
    mark();
  tables(rank);
  // ALONE-DAG: {{.*}}whole-program.c:[[#@LINE+3]]:{{.*}}not done: {{.*}}nsteps has external linkage: other files may write it{{.*}}
  // WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+3]]:{{.*}}reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (nsteps > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &x0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &x1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+2]]:{{.*}}not done: {{.*}}in setup.c: verbose is written at line 16 only on some ranks{{.*}}
  if (verbose) {
    MPI_Allreduce(MPI_IN_PLACE, &x0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &x1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+2]]:{{.*}}not done: {{.*}}in setup.c: marked is written in mark, which only some ranks may run (mark is called at whole-program.c:{{[0-9]+}} on some ranks only{{.*}}
  if (marked) {
    MPI_Allreduce(MPI_IN_PLACE, &x0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &x1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+2]]:{{.*}}not done: {{.*}}libcount is defined in no file of the program (a library may write it){{.*}}
  if (libcount) {
    MPI_Allreduce(MPI_IN_PLACE, &x0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &x1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+3]]:{{.*}}reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (twice(nsteps) > 4) {
    MPI_Allreduce(MPI_IN_PLACE, &x0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &x1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // ALONE-DAG: {{.*}}whole-program.c:[[#@LINE+3]]:{{.*}}not done: {{.*}}norms has external linkage: other files may write the memory it points to{{.*}}
  // WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+3]]:{{.*}}reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (norms[0] > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &x0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &x1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // WHOLE-DAG: {{.*}}whole-program.c:[[#@LINE+2]]:{{.*}}not done: {{.*}}in setup.c: noisy's memory is written at line {{[0-9]+}} with a value that may differ between ranks{{.*}}
  if (noisy[0] > 0) {
    MPI_Allreduce(MPI_IN_PLACE, &x0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &x1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}

// FACTS: "callee": "mark",
// FACTS-NEXT: "column": 5,
// FACTS-NEXT: "divergent": "the branch at line {{[0-9]+}} may go different ways on different ranks: rank holds the rank
// FACTS: "grab": {
// FACTS-NEXT: "address_taken": null,
// FACTS-NEXT: "collective": false,
// FACTS-NEXT: "defined": true,
// FACTS-NEXT: "frees": [],
// FACTS-NEXT: "fresh": true,
// FACTS: "setup": {
// FACTS: "reaches": [
// FACTS-NEXT: "spread",
// FACTS-NEXT: "work"
// FACTS: "writes": [
// FACTS-NEXT: "nsteps",
// FACTS-NEXT: "verbose"
// FACTS: "verbose": {
// FACTS-NEXT: "defined": true,
// FACTS-NEXT: "named_by": [
// FACTS-NEXT: "whole-program.c",
// FACTS-NEXT: "setup.c"
// FACTS-NEXT: ],
// FACTS-NEXT: "pointee": null,
// FACTS-NEXT: "varies": "in setup.c: verbose is written at line 16 only on some ranks
// FACTS: "ompi_program_facts": 1
// NOMAIN: warning: --whole-program: 0 of the files define main (a program has one); each file decided alone
