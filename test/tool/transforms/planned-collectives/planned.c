// planned-collectives (analysis/CollectivePlan.h): an MPI_Alltoallv or
// MPI_Alltoall whose counts, displacements, datatypes and communicator stay
// the same on every iteration of a loop gets a plan that lives through the
// loop (made at the call, freed after the loop and before each return in
// it); one whose arrays may change, in a loop or in a function a loop calls,
// goes to the runtime's plan cache. Negative cases say why a call stays as
// written.
// RUN: %ompi-opt --report --profile=%inputs/profile-collectives.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=NOPROFILE %s
// RUN: %ompi-opt --report --profile=%inputs/profile-collectives-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --transforms=planned-collectives --profile=%inputs/profile-collectives.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %openmpi_cflags %t.c
// Every original line keeps its number (the prologue adds two lines):
// RUN: %python -c "import sys; a = open(sys.argv[1]).read().count('\n'); b = open(sys.argv[2]).read().count('\n'); sys.exit(b - a != 2)" %s %t.c
#include <mpi.h>
#include <stdlib.h>

#define P 4
#define STEPS 10
#define A2AV(sb, rb) (void)MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD)
#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != MPI_SUCCESS)                                                                                         \
      abort();                                                                                                         \
  } while (0)
#define TWICE(call) ((call), (call))
static double sb[64], rb[64];
static int counts[P], displs[P], other[P];
static MPI_Datatype pairs; // a derived datatype the program would make
void unknown(int *);

void positive(void) {
  for (int s = 0; s < STEPS; s++) {
    sb[0] = s;
    // REPORT-DAG: planned.c:[[#@LINE+3]]:5: planned-collectives: MPI_Alltoallv planned once per run of the loop at line [[#@LINE-2]] (mpiopt_alltoallv_planned) (its counts, displacements, datatypes and communicator are the same on every iteration and every rank runs it alike; the runtime makes the plan at the call and frees it after the loop); saves 1.00 of the MPI's 2.00 us per call at 8 bytes per pair (machine profile, algorithm node)
    // NOPROFILE: planned.c:[[#@LINE+2]]:5: planned-collectives: not done: MPI_Alltoallv not planned (no machine profile is loaded (the planned form is used only where a measurement shows it faster))
    // SLOWER: planned.c:[[#@LINE+1]]:5: planned-collectives: not done: MPI_Alltoallv not planned (the machine profile measured 1.50 us per call against the MPI's 1.00 us at 8 bytes per pair (pairwise): the MPI's own call is as fast)
    MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoall planned once per run of the loop at line {{.*}} (mpiopt_alltoall_planned) {{.*}}; saves 2.00 of the MPI's 4.00 us per call at 2560 bytes per pair (machine profile, algorithm node)
    MPI_Alltoall(sb, 40, MPI_DOUBLE, rb, 40, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  // SRC:  { mpiopt_plan mpiopt_plan1_p = 0, mpiopt_plan2_p = 0; for (int s = 0; s < STEPS; s++) {
  // SRC-NEXT:    sb[0] = s;
  // SRC:    mpiopt_alltoallv_planned(&mpiopt_plan1_p, sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC:    mpiopt_alltoall_planned(&mpiopt_plan2_p, sb, 40, MPI_DOUBLE, rb, 40, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC-NEXT:  } mpiopt_plan_free(&mpiopt_plan1_p); mpiopt_plan_free(&mpiopt_plan2_p); }

  // Nothing in either loop changes the plan: it lives through the outer one.
  for (int o = 0; o < 3; o++)
    for (int s = 0; s < STEPS; s++)
      // REPORT-DAG: planned.c:[[#@LINE+1]]:7: planned-collectives: MPI_Alltoallv planned once per run of the loop at line [[#@LINE-2]] (mpiopt_alltoallv_planned) (its counts, displacements, datatypes and communicator are the same on every iteration of the 2 loops around it and {{.*}}
      MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // A body without braces gets them (the release after it would look guarded
  // by the loop: -Wmisleading-indentation).
  // SRC:  { mpiopt_plan mpiopt_plan3_p = 0; for (int o = 0; o < 3; o++)
  // SRC-NEXT:    { for (int s = 0; s < STEPS; s++)
  // SRC:      mpiopt_alltoallv_planned(&mpiopt_plan3_p, sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD); } mpiopt_plan_free(&mpiopt_plan3_p); }

  // The outer loop rewrites the counts: the plan lives through the inner one.
  for (int o = 0; o < 3; o++) {
    counts[o % P] = o;
    for (int s = 0; s < STEPS; s++)
      // REPORT-DAG: planned.c:[[#@LINE+1]]:7: planned-collectives: MPI_Alltoallv planned once per run of the loop at line [[#@LINE-1]] (mpiopt_alltoallv_planned) (its counts, displacements, datatypes and communicator are the same on every iteration and {{.*}}
      MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  // SRC:    { mpiopt_plan mpiopt_plan4_p = 0; for (int s = 0; s < STEPS; s++)
  // SRC:      { mpiopt_alltoallv_planned(&mpiopt_plan4_p, sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD); } mpiopt_plan_free(&mpiopt_plan4_p); }
}

// A return inside the loop frees the plan first; heap arrays that only
// their pointers reach; MPI_IN_PLACE (the send arguments do not count).
static int exits(int stop) {
  int *sc = malloc(sizeof(int) * P), *sd = malloc(sizeof(int) * P);
  for (int j = 0; j < P; j++) {
    sc[j] = 1;
    sd[j] = j;
  }
  for (int s = 0; s < STEPS; s++) {
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv planned once per run of the loop at line [[#@LINE-1]] {{.*}}the runtime makes the plan at the call and frees it after the loop and before each return in it); {{.*}}
    MPI_Alltoallv(sb, sc, sd, MPI_DOUBLE, rb, sc, sd, MPI_DOUBLE, MPI_COMM_WORLD);
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv planned once per run of the loop at line {{.*}}
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    if (s == stop)
      return s;
  }
  // SRC:  { mpiopt_plan mpiopt_plan5_p = 0, mpiopt_plan6_p = 0; for (int s = 0; s < STEPS; s++) {
  // SRC:    mpiopt_alltoallv_planned(&mpiopt_plan5_p, sb, sc, sd, MPI_DOUBLE, rb, sc, sd, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC:    mpiopt_alltoallv_planned(&mpiopt_plan6_p, MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC-NEXT:    if (s == stop)
  // SRC-NEXT:      { mpiopt_plan_free(&mpiopt_plan5_p); mpiopt_plan_free(&mpiopt_plan6_p); return s; }
  // SRC-NEXT:  } mpiopt_plan_free(&mpiopt_plan5_p); mpiopt_plan_free(&mpiopt_plan6_p); }
  free(sc);
  free(sd);
  return -1;
}

// The plan cache: arrays the loop writes, an array given to a function of
// another file, a communicator the loop frees and makes again, a goto out
// of the loop, a label in it, MPI_Finalize run in it, a call in a function a
// loop calls.
static void finish(void) { MPI_Finalize(); }

static void helper(void) {
  // REPORT-DAG: planned.c:[[#@LINE+1]]:3: planned-collectives: MPI_Alltoallv handed to the runtime's plan cache (mpiopt_alltoallv_cached) (it is not in a loop of its own function; the cache keeps a plan per set of counts and displacements, and the ranks agree at each call whether theirs still fit (one small MPI_Allreduce)); {{.*}}
  MPI_Alltoallv(sb, displs, displs, MPI_DOUBLE, rb, displs, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC:  mpiopt_alltoallv_cached(sb, displs, displs, MPI_DOUBLE, rb, displs, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // An MPI_Alltoall naming predefined datatypes: the scalar-keyed cache (one
  // plan per site; the counts change on every rank alike, no agreement).
  // REPORT-DAG: planned.c:[[#@LINE+1]]:3: planned-collectives: MPI_Alltoall handed to the runtime's plan cache (mpiopt_alltoall_cached) (it is not in a loop of its own function; the cache keeps one plan per call site while its counts and datatypes stay the same: with predefined datatypes named at the call, MPI's matching rule makes the counts change on every rank alike, so the ranks need no agreement); {{.*}}
  MPI_Alltoall(sb, 2, MPI_DOUBLE, rb, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC:  mpiopt_alltoall_cached(sb, 2, MPI_DOUBLE, rb, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  // Negative: a datatype held in a variable the tool cannot resolve (a
  // parameter): ranks could pass different ones, so the counts could change
  // on one rank only; left alone, and the note says why.
  // REPORT-DAG: planned.c:[[#@LINE+1]]:3: planned-collectives: not done: MPI_Alltoall not planned (it is not in a loop of its own function and its sendtype (pairs) is not a predefined datatype named at the call, which the runtime's plan cache for MPI_Alltoall needs)
  MPI_Alltoall(sb, 1, pairs, rb, 1, pairs, MPI_COMM_WORLD);
  // SRC:  MPI_Alltoall(sb, 1, pairs, rb, 1, pairs, MPI_COMM_WORLD);
}

static void cached(MPI_Comm c) {
  int ones[P] = {1, 1, 1, 1};
  for (int s = 0; s < STEPS; s++) {
    counts[s % P] = s;
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv handed to the runtime's plan cache (mpiopt_alltoallv_cached) (its plan is not proved to last (in the loop at line [[#@LINE-2]], the sendcounts array (counts) may change: counts is written at line [[#@LINE-1]], inside the loop); {{.*}}
    MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    // SRC:    mpiopt_alltoallv_cached(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    unknown(other);
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv handed to the runtime's plan cache (mpiopt_alltoallv_cached) (its plan is not proved to last (in the loop at line {{.*}}, the sendcounts array (other) may change: unknown at line [[#@LINE-1]] is given other); {{.*}}
    MPI_Alltoallv(sb, other, other, MPI_DOUBLE, rb, other, other, MPI_DOUBLE, MPI_COMM_WORLD);
    // SRC:    mpiopt_alltoallv_cached(sb, other, other, MPI_DOUBLE, rb, other, other, MPI_DOUBLE, MPI_COMM_WORLD);
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv handed to the runtime's plan cache (mpiopt_alltoallv_cached) (its plan is not proved to last (in the loop at line {{.*}}, comm (c) may change: {{.*}}
    MPI_Alltoallv(sb, ones, ones, MPI_DOUBLE, rb, ones, ones, MPI_DOUBLE, c);
    MPI_Comm_free(&c);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
  }
  for (int s = 0; s < STEPS; s++) {
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv handed to the runtime's plan cache (mpiopt_alltoallv_cached) (its plan is not proved to last (its plan could live through the loop at line [[#@LINE-1]], but the goto at line [[#@LINE+3]] leaves the loop); {{.*}}
    MPI_Alltoallv(sb, displs, displs, MPI_DOUBLE, rb, displs, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    if (s == 4)
      goto out;
  }
out:
  for (int s = 0; s < STEPS; s++) {
    if (s == 5)
      goto in;
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv handed to the runtime's plan cache (mpiopt_alltoallv_cached) (its plan is not proved to last (its plan could live through the loop at line [[#@LINE-3]], but the label in at line [[#@LINE+2]] lets a goto enter the loop); {{.*}}
    MPI_Alltoallv(sb, displs, displs, MPI_DOUBLE, rb, displs, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  in:
    sb[1] = s;
  }
  // MPI_Finalize in the loop (through a helper): no plan could be freed after it.
  for (int s = 0; s < STEPS; s++) {
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv handed to the runtime's plan cache (mpiopt_alltoallv_cached) (its plan is not proved to last (its plan could live through the loop at line [[#@LINE-1]], but MPI_Finalize may run in the loop (the call at line [[#@LINE+3]]), after which nothing could be released); {{.*}}
    MPI_Alltoallv(sb, displs, displs, MPI_DOUBLE, rb, displs, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    if (s == STEPS - 1)
      finish();
  }
  for (int s = 0; s < STEPS; s++)
    helper();
}

// Left as written: once per call of a function no loop calls, a branch
// only some ranks take, a macro, an MPI_Alltoall whose count changes (the
// runtime has no cache for MPI_Alltoall).
static void negative(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // REPORT-DAG: planned.c:[[#@LINE+1]]:3: planned-collectives: not done: MPI_Alltoallv not planned (it is in no loop (directly or through the functions that call it): a plan would serve one call)
  MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int s = 0; s < STEPS; s++) {
    if (rank == 0)
      // REPORT-DAG: planned.c:[[#@LINE+1]]:7: planned-collectives: not done: MPI_Alltoallv not planned (every rank must make the runtime's calls alike, but the branch at line [[#@LINE-1]] {{.*}})
      MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: not done: MPI_Alltoallv not planned (the call is written in a macro's body (only a call written as a macro's argument, as in CHECK(MPI_Alltoallv(...)), is rewritten))
    A2AV(sb, rb);
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoall handed to the runtime's plan cache (mpiopt_alltoall_cached) (its plan is not proved to last (in the loop at line {{.*}}, sendcount (s) may change: s is assigned at line {{.*}}, inside the loop); the cache keeps one plan per call site {{.*}}
    MPI_Alltoall(sb, s, MPI_DOUBLE, rb, s, MPI_DOUBLE, MPI_COMM_WORLD);
    // SRC:    mpiopt_alltoall_cached(sb, s, MPI_DOUBLE, rb, s, MPI_DOUBLE, MPI_COMM_WORLD);
  }
}

// Calls written as a macro's argument: renamed in the argument, the return
// code still going to the macro. Left as written: a macro that expands its
// argument twice (two calls at one text).
static void macros(void) {
  for (int s = 0; s < STEPS; s++) {
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoallv planned once per run of the loop at line [[#@LINE-1]] (mpiopt_alltoallv_planned) (its counts, displacements, datatypes and communicator are the same on every iteration and every rank runs it alike; {{.*}}
    CHECK(MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD));
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: MPI_Alltoall planned once per run of the loop at line {{.*}} (mpiopt_alltoall_planned) {{.*}}
    CHECK(MPI_Alltoall(sb, 4, MPI_DOUBLE, rb, 4, MPI_DOUBLE, MPI_COMM_WORLD));
    // REPORT-DAG: planned.c:[[#@LINE+1]]:5: planned-collectives: not done: MPI_Alltoall not planned (the macro around the call expands its argument more than once)
    TWICE(MPI_Alltoall(sb, 2, MPI_DOUBLE, rb, 2, MPI_DOUBLE, MPI_COMM_WORLD));
  }
  // SRC:  { mpiopt_plan mpiopt_plan7_p = 0, mpiopt_plan8_p = 0; for (int s = 0; s < STEPS; s++) {
  // SRC:    CHECK(mpiopt_alltoallv_planned(&mpiopt_plan7_p, sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD));
  // SRC:    CHECK(mpiopt_alltoall_planned(&mpiopt_plan8_p, sb, 4, MPI_DOUBLE, rb, 4, MPI_DOUBLE, MPI_COMM_WORLD));
  // SRC:    TWICE(MPI_Alltoall(sb, 2, MPI_DOUBLE, rb, 2, MPI_DOUBLE, MPI_COMM_WORLD));
  // The do ... while (0) of a statement macro is no loop: a call in no
  // other stays as written (not even the plan cache: a plan would serve
  // one call).
  // REPORT-DAG: planned.c:[[#@LINE+1]]:3: planned-collectives: not done: MPI_Alltoallv not planned (it is in no loop (directly or through the functions that call it): a plan would serve one call)
  CHECK(MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD));
  // SRC:  CHECK(MPI_Alltoallv(sb, counts, displs, MPI_DOUBLE, rb, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD));
}

int main(int argc, char **argv) {
  MPI_Comm c;
  MPI_Init(&argc, &argv);
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  positive();
  exits(3);
  cached(c);
  negative();
  macros();
  MPI_Finalize();
  return 0;
}
