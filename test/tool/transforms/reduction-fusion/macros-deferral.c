// A fused call written inside CHECK(...) whose result variable also has a
// deferred reduction pending (found by scripts/difftest, seed 33754): the
// wait for it and the packed buffer's declaration both go before the CHECK
// statement, the wait first (ompi-opt used to fail with "the same insert
// location" and ompi-cc fell back to the original).
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
#include <mpi.h>
#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != MPI_SUCCESS)                                                                                         \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                                                    \
  } while (0)
static double g;

static void later(double t) { MPI_Allreduce(&t, &g, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD); }

double first(double a, double b) {
  double v;
  later(a);
  // CHECK:  mpiopt_lazy_wait_range(&g, sizeof(g));
  // CHECK-NEXT:  double mpiopt_fuse1_buf[2];
  // CHECK-NEXT:  CHECK((__builtin_memcpy(&mpiopt_fuse1_buf[0], &a, 1 * sizeof(double)), MPI_SUCCESS));
  CHECK(MPI_Allreduce(&a, &g, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  MPI_Allreduce(&b, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return v + g;
}
