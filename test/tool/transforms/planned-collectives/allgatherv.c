// planned-collectives on MPI_Allgatherv (analysis/CollectivePlan.h): a call
// whose send count, receive counts, displacements, datatypes and
// communicator stay the same on every iteration of a loop gets a plan that
// lives through the loop, where the machine profile's "allgatherv"
// measurement at its block size shows the plan faster. A call in a loop
// whose arrays or send count may change goes to the runtime's plan cache
// (mpiopt_allgatherv_cached). Negative cases say why.
// RUN: %ompi-opt --report --profile=%inputs/profile-collectives.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-collectives-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --transforms=planned-collectives --profile=%inputs/profile-collectives.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %openmpi_cflags %t.c
#include <mpi.h>

#define P 4
static double mine[1024], all[4 * 1024 + 8];
static int counts[P], displs[P];
void unknown(int *);

void positive(int n) {
  for (int s = 0; s < 10; s++) {
    mine[0] = s;
    // REPORT-DAG: allgatherv.c:[[#@LINE+2]]:5: planned-collectives: MPI_Allgatherv planned once per run of the loop at line [[#@LINE-2]] (mpiopt_allgatherv_planned) (its counts, displacements, datatypes and communicator are the same on every iteration and every rank runs it alike; the runtime makes the plan at the call and frees it after the loop); saves 0.40 of the MPI's 0.70 us per call at 8 bytes per rank (machine profile, algorithm node)
    // SLOWER: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: not done: MPI_Allgatherv not planned (the machine profile measured 1.20 us per call against the MPI's 1.00 us at 8 bytes per rank (node): the MPI's own call is as fast)
    MPI_Allgatherv(mine, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    // In place: the size is the receive side's, known at run time: the
    // profile's best point decides (the runtime's model and its check by
    // timing fall back to the MPI's own where the plan would not win).
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: MPI_Allgatherv planned once per run of the loop at line {{.*}} (mpiopt_allgatherv_planned) {{.*}}; saves 0.40 of the MPI's 0.70 us per call at 8 bytes per rank (machine profile, algorithm node)
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    // A run-time send count: the same, as n does not change in the loop.
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: MPI_Allgatherv planned once per run of the loop at line {{.*}}
    MPI_Allgatherv(mine, n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  // SRC:  { mpiopt_plan mpiopt_plan1_p = 0, mpiopt_plan2_p = 0, mpiopt_plan3_p = 0; for (int s = 0; s < 10; s++) {
  // SRC:    mpiopt_allgatherv_planned(&mpiopt_plan1_p, mine, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC:    mpiopt_allgatherv_planned(&mpiopt_plan2_p, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC:    mpiopt_allgatherv_planned(&mpiopt_plan3_p, mine, n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC-NEXT:  } mpiopt_plan_free(&mpiopt_plan1_p); mpiopt_plan_free(&mpiopt_plan2_p); mpiopt_plan_free(&mpiopt_plan3_p); }
}

void cached(int n) {
  // The counts change in the loop: the plan cache.
  for (int s = 0; s < 10; s++) {
    counts[s % P] = s;
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: MPI_Allgatherv handed to the runtime's plan cache (mpiopt_allgatherv_cached) (its plan is not proved to last (in the loop at line [[#@LINE-2]], the recvcounts array (counts) may change: counts is written at line [[#@LINE-1]], inside the loop); the cache keeps a plan per set of counts and displacements, and the ranks agree at each call whether theirs still fit (one small MPI_Allreduce)); saves 0.40 of the MPI's 0.70 us per call at 8 bytes per rank (machine profile, algorithm node)
    MPI_Allgatherv(mine, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  // SRC:    mpiopt_allgatherv_cached(mine, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // The displacements escape to a function that may write them.
  int lc[P] = {1, 1, 1, 1}, ld[P] = {0, 1, 2, 3};
  for (int s = 0; s < 10; s++) {
    unknown(ld);
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: MPI_Allgatherv handed to the runtime's plan cache (mpiopt_allgatherv_cached) (its plan is not proved to last (in the loop at line [[#@LINE-2]], the displs array (ld) may change: unknown at line [[#@LINE-1]] is given ld); {{.*}}
    MPI_Allgatherv(mine, 1, MPI_DOUBLE, all, lc, ld, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  // SRC:    mpiopt_allgatherv_cached(mine, 1, MPI_DOUBLE, all, lc, ld, MPI_DOUBLE, MPI_COMM_WORLD);
  // The send count changes in the loop (the runtime backs off a site whose
  // plans are never used twice).
  for (int s = 0; s < n; s++) {
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: MPI_Allgatherv handed to the runtime's plan cache (mpiopt_allgatherv_cached) (its plan is not proved to last (in the loop at line [[#@LINE-1]], sendcount (s) may change: {{.*}}
    MPI_Allgatherv(mine, s, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  // SRC:    mpiopt_allgatherv_cached(mine, s, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
}

void negative(int n) {
  // Blocks of 2^17 doubles (1 MiB): there the plan kept the MPI's own.
  for (int s = 0; s < 10; s++)
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: not done: MPI_Allgatherv not planned (the machine profile measured 262.00 us per call against the MPI's 263.00 us at 1048576 bytes per rank (native): the MPI's own call is as fast)
    MPI_Allgatherv(all, 131072, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // Only rank 0 calls it: every rank must make the runtime's calls alike.
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    for (int s = 0; s < 10; s++)
      // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:7: planned-collectives: not done: MPI_Allgatherv not planned (every rank must make the runtime's calls alike, but {{.*}})
      MPI_Allgatherv(mine, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  // In no loop: a plan would serve one call.
  // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:3: planned-collectives: not done: MPI_Allgatherv not planned (it is in no loop (directly or through the functions that call it): a plan would serve one call)
  MPI_Allgatherv(mine, n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
}

// MPI_Allgather: the runtime's Allgatherv plan of equal blocks, under the
// profile's own "allgather" measurements (MPI_Allgather's algorithms are not
// MPI_Allgatherv's; the bytes per rank are the send count times the type's
// size); a profile without them declines.
void allgather(int n) {
  for (int s = 0; s < 10; s++) {
    mine[0] = s;
    // REPORT-DAG: allgatherv.c:[[#@LINE+2]]:5: planned-collectives: MPI_Allgather planned once per run of the loop at line [[#@LINE-2]] (mpiopt_allgather_planned) (its counts, displacements, datatypes and communicator are the same on every iteration and every rank runs it alike; the runtime makes the plan at the call and frees it after the loop); saves 0.30 of the MPI's 0.60 us per call at 8 bytes per rank (machine profile, algorithm node)
    // SLOWER: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: not done: MPI_Allgather not planned (the machine profile has no planned Allgather measurement at 8 bytes per rank or more)
    MPI_Allgather(mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    // In place (PRK Sparse's form): the receive count and type stand for the send's.
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: MPI_Allgather planned once per run of the loop at line {{.*}} (mpiopt_allgather_planned) {{.*}}; saves 0.30 of the MPI's 0.60 us per call at 8 bytes per rank (machine profile, algorithm node)
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  // SRC:  { mpiopt_plan mpiopt_plan4_p = 0, mpiopt_plan5_p = 0; for (int s = 0; s < 10; s++) {
  // SRC:    mpiopt_allgather_planned(&mpiopt_plan4_p, mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC:    mpiopt_allgather_planned(&mpiopt_plan5_p, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC-NEXT:  } mpiopt_plan_free(&mpiopt_plan4_p); mpiopt_plan_free(&mpiopt_plan5_p); }
  // The count changes on every iteration: no plan lasts; the scalar-keyed
  // plan cache takes it (its datatypes are named: the count changes on
  // every rank alike).
  for (int s = 1; s < n; s++)
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: MPI_Allgather handed to the runtime's plan cache (mpiopt_allgather_cached) (its plan is not proved to last (in the loop at line [[#@LINE-1]], sendcount (s) may change: {{.*}}); the cache keeps one plan per call site {{.*}}
    MPI_Allgather(mine, s, MPI_DOUBLE, all, s, MPI_DOUBLE, MPI_COMM_WORLD);
  // SRC:    mpiopt_allgather_cached(mine, s, MPI_DOUBLE, all, s, MPI_DOUBLE, MPI_COMM_WORLD);
  // Blocks of 1 MiB: the plan measured no faster there.
  for (int s = 0; s < 10; s++)
    // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:5: planned-collectives: not done: MPI_Allgather not planned (the machine profile measured 262.00 us per call against the MPI's 250.00 us at 1048576 bytes per rank (native): the MPI's own call is as fast)
    MPI_Allgather(all, 131072, MPI_DOUBLE, all, 131072, MPI_DOUBLE, MPI_COMM_WORLD);
  // In no loop.
  // REPORT-DAG: allgatherv.c:[[#@LINE+1]]:3: planned-collectives: not done: MPI_Allgather not planned (it is in no loop (directly or through the functions that call it): a plan would serve one call)
  MPI_Allgather(mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
}
