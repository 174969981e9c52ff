// No wait after MPI_Finalize: the runtime delivers every deferred result in
// MPI_Finalize, so reads after it (on every path) need none, and a local's
// end after it needs none either. A read before it still waits.
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// REPORT: {{.*}}lazy-deferral: deferred MPI_Allreduce(&a -> &sa) {{.*}} and 1 force point waits for it (MPI_Finalize delivers it to the uses after it)); {{.*}}
// REPORT: {{.*}}lazy-deferral: deferred MPI_Allreduce(&b -> &sb) {{.*}} and MPI_Finalize delivers it to its uses, all after it); {{.*}}
// REPORT: {{.*}}finalize.c:[[#@LINE+34]]:{{[0-9]+}}: lazy-deferral: force point: wait for sa (line [[#@LINE+34]] uses sa)
// REPORT-NOT: force point
#include <mpi.h>
#include <stdio.h>

static double a = 1, b = 2, sa, sb;

static void s1(void) { MPI_Allreduce(&a, &sa, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
static void s2(void) { MPI_Allreduce(&b, &sb, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }

// SRC:int main(int argc, char **argv) {
// SRC-NEXT:  int rank;
// SRC-NEXT:  MPI_Init(&argc, &argv);
// SRC-NEXT:  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
// SRC-NEXT:  s1();
// SRC-NEXT:  s2();
// SRC-NEXT:  mpiopt_lazy_wait_range(&sa, sizeof(sa));
// SRC-NEXT:  if (argc > 5) {
// SRC-NEXT:    printf("early %g\n", sa);
// SRC-NEXT:  }
// SRC-NEXT:  MPI_Finalize();
// SRC-NEXT:  if (rank == 0)
// SRC-NEXT:    printf("%g %g\n", sa, sb);
// SRC-NEXT:  if (rank == 0 && sa > 0)
// SRC-NEXT:    printf("%g\n", sa + sb);
// SRC-NEXT:  return 0;
// SRC-NEXT:}
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  s1();
  s2();
  if (argc > 5) {
    printf("early %g\n", sa);
  }
  MPI_Finalize();
  if (rank == 0)
    printf("%g %g\n", sa, sb);
  if (rank == 0 && sa > 0)
    printf("%g\n", sa + sb);
  return 0;
}
