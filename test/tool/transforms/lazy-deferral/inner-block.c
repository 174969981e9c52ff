// lazy-deferral into locals of an inner block (a loop body, a bare block):
// the local dies at the block's end, so a wait goes before its closing
// brace, each time the block runs; reductions queued in the block still
// fuse with each other. A block control may leave another way (break,
// continue, return, goto) is declined (negative.c), as is a local of a for
// loop's header.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>

static long value(int i, int rank) { return (i * 7 + rank * 3) % 11; }

int main(int argc, char **argv) {
  int rank, i;
  long total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (i = 0; i < 5; i++) {
    long x = value(i, rank), mx, sum;
    double y = value(i + 1, rank), mn;
    // REPORT-DAG: {{.*}}inner-block.c:[[#@LINE+2]]:5: lazy-deferral: deferred MPI_Allreduce(&x -> &mx) to the lazy runtime (another reduction can join it before mx is read at line [[#@LINE+11]]; {{.*}}
    // SRC:    mpiopt_lazy_allreduce(&x, &mx, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &mx, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    x = x * 2;
    MPI_Allreduce(&y, &mn, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    // The sum is not read at all: its wait is the block's end.
    // REPORT-DAG: {{.*}}inner-block.c:[[#@LINE+1]]:5: lazy-deferral: deferred MPI_Allreduce(&x -> &sum) to the lazy runtime (it joins the reduction of line [[#@LINE-4]], still pending here; {{.*}}
    MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    // REPORT-DAG: {{.*}}inner-block.c:[[#@LINE+4]]:3: lazy-deferral: force point: wait for sum (sum dies at the end of its block (line [[#@LINE+4]]))
    // SRC:    mpiopt_lazy_wait_range(&sum, sizeof(sum));
    // SRC-NEXT:  }
    total += mx - (long)mn + x;
  }
  {
    long a = rank, b;
    MPI_Allreduce(&a, &b, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    total += 1;
    MPI_Allreduce(&a, &total, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    // SRC:    mpiopt_lazy_wait_range(&b, sizeof(b));
    // SRC-NEXT:  }
  }
  if (rank == 0)
    printf("%ld\n", total);
  MPI_Finalize();
  return 0;
}
