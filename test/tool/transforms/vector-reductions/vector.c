// vector-reductions (analysis/CollectivePlan.h): an MPI_Allreduce or
// MPI_Reduce that fusion and deferral leave alone, of a predefined
// arithmetic type with a predefined commutative op, goes to the runtime's
// large-vector selector where the machine profile measured the selector
// faster at its size (a size known at run time: where it measured it faster
// at all). Floating-point sums only with --reassociate. Negative cases say
// why a call stays as written; scalars and short vectors are no candidates
// (nothing is said of them).
// RUN: %ompi-opt --report --transforms=vector-reductions --profile=%inputs/profile-collectives.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --transforms=vector-reductions --reassociate --profile=%inputs/profile-collectives.json %s -- %mpich_cflags | FileCheck --check-prefix=REASSOC %s
// RUN: %ompi-opt --report --transforms=vector-reductions --profile=%inputs/profile-collectives-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --report --transforms=vector-reductions %s -- %mpich_cflags | FileCheck --check-prefix=NOPROFILE %s
// RUN: %ompi-opt --transforms=vector-reductions --profile=%inputs/profile-collectives.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %openmpi_cflags %t.c
// With every transformation: the calls lazy deferral takes stay its own.
// RUN: %ompi-opt --report --profile=%inputs/profile-collectives.json %s -- %mpich_cflags | FileCheck --check-prefix=ALL %s
#include <mpi.h>
#include <stdlib.h>

#define N 100000
#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != MPI_SUCCESS)                                                                                         \
      abort();                                                                                                         \
  } while (0)
static long hist[N], all[N];
static int ints[N], imax[N];
static double d[N], dsum[N], dmin[N];
static float scalar, total;
static struct {
  double v;
  int i;
} pairs[N], best[N];
static MPI_Datatype triple;
static MPI_Op myop;

static void positive(int n) {
  // REPORT-DAG: vector.c:[[#@LINE+2]]:3: vector-reductions: MPI_Allreduce of MPI_LONG with MPI_SUM handed to the large-vector selector (mpiopt_allreduce) (every rank runs it alike and it reduces 800000 bytes; the selector runs binomial, reduce-scatter or ring algorithms where its model expects them faster, and the MPI's own call elsewhere (the result is exactly the MPI's)); saves 24.00 of the MPI's 64.00 us at 262144 bytes on dense data, 34.00 with 90% zeros (machine profile)
  // SRC:  mpiopt_allreduce(hist, all, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(hist, all, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  // A size known only at run time, a minimum of doubles (exact in any order).
  // REPORT-DAG: vector.c:[[#@LINE+2]]:3: vector-reductions: MPI_Allreduce of MPI_DOUBLE with MPI_MIN handed to the large-vector selector (mpiopt_allreduce) (every rank runs it alike and it reduces a size known at run time; {{.*}} (the result is exactly the MPI's)); saves 24.00 of the MPI's 64.00 us at 262144 bytes on dense data (machine profile)
  // SRC:  mpiopt_allreduce(d, dmin, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(d, dmin, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  // MPI_Reduce of ints: the profile measured the selector faster only on
  // sparse data, which the selector detects at run time.
  // REPORT-DAG: vector.c:[[#@LINE+2]]:3: vector-reductions: MPI_Reduce of MPI_INT with MPI_SUM handed to the large-vector selector (mpiopt_reduce) {{.*}}; saves 30.00 of the MPI's 60.00 us at 262144 bytes with 90% zeros (machine profile; dense data goes to the MPI's own call, as the selector measures each call's density)
  // SRC:  mpiopt_reduce(ints, imax, N, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(ints, imax, N, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  // Written as a macro's argument: renamed there, the return code still
  // going to the macro.
  // REPORT-DAG: vector.c:[[#@LINE+2]]:3: vector-reductions: MPI_Allreduce of MPI_INT with MPI_MAX handed to the large-vector selector (mpiopt_allreduce) {{.*}}
  // SRC:  CHECK(mpiopt_allreduce(ints, imax, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  CHECK(MPI_Allreduce(ints, imax, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
}
// SLOWER: vector.c:[[#@LINE-16]]:3: vector-reductions: not done: MPI_Allreduce left to the MPI (the machine profile measured the selector at 60.00 us (dense) and 50.00 us (90% zeros) against 40.00 us for the MPI's own call at 262144 bytes: the MPI's own call is as fast)
// NOPROFILE: vector.c:[[#@LINE-13]]:3: vector-reductions: not done: MPI_Allreduce left to the MPI (no machine profile is loaded (the selector is used only where a measurement shows it faster))

static void negative(int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // A floating-point sum: reassociated by the selector's algorithms.
  // REPORT-DAG: vector.c:[[#@LINE+2]]:3: vector-reductions: not done: MPI_Allreduce left to the MPI (a floating-point SUM would be reassociated by the selector's algorithms (the last bits may change); --reassociate allows it)
  // REASSOC: vector.c:[[#@LINE+1]]:3: vector-reductions: MPI_Allreduce of MPI_DOUBLE with MPI_SUM handed to the large-vector selector (mpiopt_allreduce) {{.*}} (the sums are reassociated: --reassociate)); {{.*}}
  MPI_Allreduce(d, dsum, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // A pair type, a derived type, a user-defined op: not the selector's.
  // REPORT-DAG: vector.c:[[#@LINE+1]]:3: vector-reductions: not done: MPI_Allreduce left to the MPI (its datatype (MPI_DOUBLE_INT) is not a predefined arithmetic type the selector's algorithms reduce)
  MPI_Allreduce(pairs, best, N, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  // REPORT-DAG: vector.c:[[#@LINE+1]]:3: vector-reductions: not done: MPI_Allreduce left to the MPI (its datatype (triple) is not a predefined arithmetic type the selector's algorithms reduce)
  MPI_Allreduce(ints, imax, n, triple, MPI_SUM, MPI_COMM_WORLD);
  // REPORT-DAG: vector.c:[[#@LINE+1]]:3: vector-reductions: not done: MPI_Allreduce left to the MPI (its op (myop) is not a predefined one known to commute)
  MPI_Allreduce(hist, all, n, MPI_LONG, myop, MPI_COMM_WORLD);
  // Only some ranks make the call.
  if (rank == 0)
    // REPORT-DAG: vector.c:[[#@LINE+1]]:5: vector-reductions: not done: MPI_Reduce left to the MPI (every rank must make the runtime's calls alike, but the branch at line [[#@LINE-1]] {{.*}})
    MPI_Reduce(ints, imax, N, MPI_INT, MPI_MAX, 0, MPI_COMM_SELF);
  // 8000 bytes: the profile measured the selector faster only from 262144
  // bytes on, so the selector would run the MPI's own call (NPB IS's
  // 4116-byte bucket sizes were handed over, at a cost, before).
  // REPORT-DAG: vector.c:[[#@LINE+1]]:3: vector-reductions: not done: MPI_Allreduce left to the MPI (8000 bytes: the selector would run the MPI's own call, as the machine profile measured it faster only from 262144 bytes on)
  MPI_Allreduce(hist, all, 1000, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  // Below the smallest size the profile measured: not a candidate (no note).
  MPI_Allreduce(hist, all, 100, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&scalar, &total, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
}

// With every transformation on, lazy deferral takes the reductions whose
// results are used later (positive()'s first one); vector-reductions takes
// those it leaves (this one, read at once).
// ALL-DAG: vector.c:42:3: lazy-deferral: deferred MPI_Allreduce(hist -> all) {{.*}}
// ALL-DAG: vector.c:[[#@LINE+3]]:3: vector-reductions: MPI_Allreduce of MPI_LONG with MPI_SUM handed to the large-vector selector {{.*}}
static long later(void) {
  long s = 0;
  MPI_Allreduce(hist, all, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) s += all[i];
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  positive(argc * 1000);
  negative(argc * 1000);
  long s = later();
  MPI_Finalize();
  return s == 0;
}
