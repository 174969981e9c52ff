// A helper whose calls fuse is copied into a variant; a wait lazy-deferral
// put in the helper would be missing from the copy. So what the copy holds
// is code no other transformation may change: the reduction into g, which
// part() reads, is not deferred (difftest seed 35173: the variant read g
// before the runtime delivered it).
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
#include <mpi.h>
#include <stdio.h>

static int rank;
static long g;

static long part(int k) {
  long s = k + g, r;
  MPI_Allreduce(&s, &r, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return r;
}

static long other(int k) {
  long s = k * rank, r;
  MPI_Allreduce(&s, &r, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return r;
}

int main(int argc, char **argv) {
  long t, a, b;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  t = rank + 3;
  // REPORT-DAG: {{.*}}helpers-deferral.c:[[#@LINE+3]]:3: lazy-deferral: not done: defer MPI_Allreduce into g (g is used at line 16 in code another transformation changed)
  // REPORT-DAG: {{.*}}helpers-deferral.c:[[#@LINE+4]]:7: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+3]], [[#@LINE+4]]) into one of 2 x MPI_LONG with MPI_SUM on MPI_COMM_WORLD {{.*}}
  // (MIN and SUM would need a composite op, which takes no helper's result.)
  MPI_Allreduce(&t, &g, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  a = part(1);
  b = other(2);
  if (rank == 0)
    printf("%ld %ld %ld\n", a, b, g);
  MPI_Finalize();
  return 0;
}
