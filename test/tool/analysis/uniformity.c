// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --report %s -- %openmpi_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// The lint's fusion hint follows the same rule: only the fusions made.
// RUN: %ompi-opt --check --checks=fusable-reductions %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=LINT %s
// LINT-COUNT-3: {{.*}} remark: fuse 2 MPI_Allreduce calls {{.*}}
// LINT-NOT: remark:
// Transformations change the sequence of collectives: they apply only where
// every rank runs the code alike (tool/lib/analysis/Uniformity.h). Each case
// says why the tool must leave it alone, or why it may transform it.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

// Every rank records what it computed; rank 0 prints all of it at the end,
// so the output does not depend on how the ranks' lines interleave.
static double kept[64];
static int nkept;
static void keep2(double x, double y) {
  if (nkept + 2 <= 64) {
    kept[nkept++] = x;
    kept[nkept++] = y;
  }
}
static void keep3(double x, double y, double z) {
  keep2(x, y);
  keep2(z, 0);
}

static double ga, gb;
static void suma(double x) { MPI_Allreduce(&x, &ga, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
static void sumb(double x) { MPI_Allreduce(&x, &gb, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
static double gsum(double x) {
  double r;
  MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return r;
}

// Issue 12, bug 1: rank 0 reaches gsum's collective through printf's
// arguments, the others through the else arm. A wait inside the rank-0 arm
// would be a collective only rank 0 runs: the waits go before the if, and
// gsum's own reduction is not deferred (only some ranks run each call).
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE-8]]:3: lazy-deferral: not done: defer MPI_Allreduce (only some ranks may run it, and the runtime's queues must hold the same reductions on every rank (gsum is called at line [[#@LINE+10]], and the branch at line [[#@LINE+9]] may go different ways on different ranks: {{.*}}))
// SRC:  sumb(b);
// SRC-NEXT:  mpiopt_lazy_wait_range(&ga, sizeof(ga));
// SRC-NEXT:  mpiopt_lazy_wait_range(&gb, sizeof(gb));
// SRC-NEXT:  if (rank == 0)
// SRC-NEXT:    keep3(ga, gb, gsum(a));
static void helper_in_both_arms(int rank, double a, double b) {
  suma(a);
  sumb(b);
  if (rank == 0)
    keep3(ga, gb, gsum(a));
  else
    gsum(a);
}

// Issue 12, bug 2: fusing the non-root arm alone would give the root two
// collectives and the others one. Neither arm is fused.
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+6]]:5: reduction-fusion: not done: MPI_Reduce not fused (only some ranks may run it, so fusing it would change their sequence of collectives and not the others' (the branch at line [[#@LINE+3]] may go different ways on different ranks: {{.*}}))
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+8]]:5: reduction-fusion: not done: MPI_Reduce not fused (only some ranks may run it, so fusing it would change their sequence of collectives and not the others' (the branch at line [[#@LINE+2]] may go different ways on different ranks: {{.*}}))
static void reduce_arms(int rank, double a, double b) {
  if (rank != 0) {
    // SRC:    MPI_Reduce(&a, &a, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    // SRC-NEXT:    MPI_Reduce(&b, &b, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&a, &a, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&b, &b, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  } else {
    MPI_Reduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  if (rank == 0)
    keep2(a, b);
}

// Ranks that leave early skip what follows (they make the same calls on
// their own path first): not fused.
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+9]]:3: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, so fusing it would change their sequence of collectives and not the others' (the branch at line [[#@LINE+3]] may go different ways on different ranks: {{.*}}))
static void early_return(int rank, double a, double b) {
  double r1, r2;
  if (rank >= 2) {
    MPI_Allreduce(&b, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&a, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    keep2(r1, r2);
    return;
  }
  MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  keep2(r1, r2);
}

// A path that stops the job never continues on any rank: what follows is
// still run by every rank, and is fused.
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+6]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+5]], [[#@LINE+6]]) into one {{.*}}
static void abort_path(int rank, double a, double b) {
  double r1, r2;
  if (rank == 0 && a < 0)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  keep2(r1, r2);
}

// A loop that runs a collective on every iteration runs alike on every
// rank whatever bounds it: fused.
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+5]]:5: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+4]], [[#@LINE+5]]) into one {{.*}}
static void collective_loop(int n, double a, double b) {
  double r1, r2;
  for (int i = 0; i < n; i++) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    a = r1 + r2;
  }
  keep2(a, 0);
}

// Not when the collectives run on some iterations only and the bound
// differs between ranks (each rank makes them once, in its last iteration).
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+5]]:7: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, {{.*}} (the branch at line [[#@LINE+4]] may go different ways on different ranks: i is set at line [[#@LINE+3]] only on some ranks: the loop condition at line [[#@LINE+3]] may go different ways on different ranks: {{.*}}))
static void rank_bound_loop(int rank, double a, double b) {
  double r1, r2;
  for (int i = 0; i < rank + 3; i++)
    if (i == rank + 2) {
      MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      keep2(r1, r2);
    }
}

// A value every rank computes alike (a reduction's result, the size) is
// no reason to decline: fused.
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+8]]:5: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+7]], [[#@LINE+8]]) into one {{.*}}
static void uniform_condition(double a, double b) {
  double r1, r2, tot;
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&a, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (tot > size) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    keep2(r1, r2);
  }
}

// A value assigned under a rank-dependent condition differs between ranks,
// even when each assignment is a constant.
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+7]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, {{.*}} (the branch at line [[#@LINE+6]] may go different ways on different ranks: go is set at line [[#@LINE+5]] only on some ranks: the branch at line [[#@LINE+4]] may go different ways on different ranks: {{.*}}))
static void assigned_under_rank(int rank, double a, double b) {
  double r1, r2;
  int go = 0;
  if (rank == 1)
    go = 1;
  if (go) {
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  keep2(r1, r2);
}

// Freeing a communicator is a force point: what is pending on it is
// delivered before MPI_Comm_free.
static double gc;
static void sumc(double x, MPI_Comm c) { MPI_Allreduce(&x, &gc, 1, MPI_DOUBLE, MPI_SUM, c); }
// REPORT-DAG: {{.*}}uniformity.c:[[#@LINE+10]]:3: lazy-deferral: force point: wait for gc (line [[#@LINE+10]] frees a communicator: what is pending must be delivered first)
// SRC:  sumc(a, c);
// SRC-NEXT:  mpiopt_lazy_wait_range(&ga, sizeof(ga));
// SRC-NEXT:  mpiopt_lazy_wait_range(&gb, sizeof(gb));
// SRC-NEXT:  mpiopt_lazy_wait_range(&gc, sizeof(gc));
// SRC-NEXT:  MPI_Comm_free(&c);
static void free_is_force_point(double a) {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  sumc(a, c);
  MPI_Comm_free(&c);
  keep2(gc, 0);
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double a = rank + 1, b = 2 * rank + 3;
  helper_in_both_arms(rank, a, b);
  reduce_arms(rank, a, b);
  early_return(rank, a, b);
  abort_path(rank, a, b);
  collective_loop(argc + 2, a, b);
  rank_bound_loop(rank, a, b);
  uniform_condition(a, b);
  assigned_under_rank(rank, a, b);
  free_is_force_point(a);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mine[65], all[8 * 65];
  mine[0] = nkept;
  for (int i = 0; i < 64; i++)
    mine[i + 1] = kept[i];
  MPI_Gather(mine, 65, MPI_DOUBLE, all, 65, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size && r < 8; r++) {
    printf("rank %d:", r);
    for (int i = 0; i < (int)all[r * 65]; i++)
      printf(" %g", all[r * 65 + 1 + i]);
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
