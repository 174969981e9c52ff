// RUN: %ompi-opt --report %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt %s -o - -- %mpich_cflags | FileCheck --check-prefix=OUT %s
// RUN: %if openmpi %{ %ompi-opt --report %s -- %openmpi_cflags 2>&1 | FileCheck --check-prefix=REPORT %s %}
//
// A use of a function-like macro whose body is one MPI call (graph500's
// aml.h) is that call with the arguments put in (analysis/MacroCalls.cpp):
// judged as it, and written out where a transformation changes it.
#include <mpi.h>
#include <stdio.h>

#define ALLSUM(p) MPI_Allreduce(MPI_IN_PLACE,p,1,MPI_LONG_LONG,MPI_SUM,MPI_COMM_WORLD)
#define ALLMAX(p, n) MPI_Allreduce(MPI_IN_PLACE, p, n, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD)
// Not one call, or not only the call: left as written.
#define CHECKED_SUM(p) do { MPI_Allreduce(MPI_IN_PLACE, p, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD); } while (0)
#define NAMED_SUM(p) (printf("%s\n", #p), MPI_Allreduce(MPI_IN_PLACE, p, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD))
#define ANY_SUM(...) MPI_Allreduce(MPI_IN_PLACE, __VA_ARGS__, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD)
#define TWICE(x) (x)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long long a = rank, b = 2 * rank, c[2] = {rank, -rank}, d = 1, e = 2, f = 3, g = 4, h = 5;
  // REPORT-DAG: macro-calls.c:[[#@LINE+4]]:3: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}a use of the macro ALLSUM (macro-calls.c:11), written here as its MPI call){{.*}}
  // OUT: MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  // OUT-NOT: {{^}}  ALLSUM(&a);
  ALLSUM(&a);
  ALLSUM(
      &b);
  printf("%lld %lld\n", a, b);
  // Judged as MPI_Allreduce, nothing to change: the use stays.
  // REPORT-DAG: macro-calls.c:[[#@LINE+2]]:3: lazy-deferral: not done: {{.*}}a use of the macro ALLMAX (macro-calls.c:12), judged as its MPI call and left as written
  // OUT: {{^}}  ALLMAX(c, 2);
  ALLMAX(c, 2);
  printf("%lld %lld\n", c[0], c[1]);
  // REPORT-NOT: macro CHECKED_SUM
  // REPORT-NOT: macro NAMED_SUM
  // REPORT-NOT: macro ANY_SUM
  // REPORT-NOT: macro TWICE
  // OUT: {{^}}  CHECKED_SUM(&d);
  // OUT: {{^}}  NAMED_SUM(&e);
  // OUT: {{^}}  ANY_SUM(&f);
  CHECKED_SUM(&d);
  printf("%lld\n", d);
  NAMED_SUM(&e);
  printf("%lld\n", e);
  ANY_SUM(&f);
  printf("%lld\n", f);
  // Inside another macro's argument: the use of ALLSUM is not in the file.
  // REPORT-NOT: macro ALLSUM (macro-calls.c:11), {{.*}}
  TWICE(ALLSUM(&g));
  printf("%lld %lld\n", g, h);
  MPI_Finalize();
  return 0;
}
