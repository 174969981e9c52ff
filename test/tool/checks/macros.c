// Calls inside wrapper macros are checked, and reported as clang reports:
// a call written as a macro's argument (CHECK(MPI_Bcast(...))) where it is
// written, with its fix-it; one inside a macro's body (SYNC()) where the
// macro is used, with a note at the macro's definition.
// RUN: %ompi-opt --check %s -- %mpich_cflags | FileCheck --match-full-lines %s
// RUN: %ompi-opt --check %s -- %openmpi_cflags | FileCheck --match-full-lines %s
#include <mpi.h>

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    int rc_ = (call);                                                                                                  \
    if (rc_ != MPI_SUCCESS)                                                                                            \
      MPI_Abort(MPI_COMM_WORLD, rc_);                                                                                  \
  } while (0)
#define SYNC() MPI_Barrier(MPI_COMM_WORLD)

int main(int argc, char **argv) {
  int rank;
  double *p = 0, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
  // CHECK:{{.*}}macros.c:[[#@LINE-1]]:11: warning: with 2 processes, ranks 0 call MPI_Barrier (line [[#@LINE-1]]) as their 1st collective but ranks 1 call MPI_Bcast (line [[#@LINE+4]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
  // CHECK-NEXT:    CHECK(MPI_Barrier(MPI_COMM_WORLD));
  // CHECK-NEXT:          ^
  // CHECK-NEXT:{{.*}}macros.c:[[#@LINE+1]]:3: note: where ranks 1 call MPI_Bcast
  CHECK(MPI_Bcast(&p, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  // CHECK:{{.*}}macros.c:[[#@LINE-1]]:19: warning: MPI_Bcast buffer '&p' is a pointer to double *: the call would transfer the pointer, not the data it points to [ompi-pointer-to-pointer]
  // CHECK-NEXT:  CHECK(MPI_Bcast(&p, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  // CHECK-NEXT:                  ^
  // CHECK-NEXT:                  p
  if (rank == 1)
    SYNC();
  // CHECK:{{.*}}macros.c:[[#@LINE-1]]:5: warning: MPI_Barrier is reached only by the ranks for which 'rank == 1' (line [[#@LINE-2]]) holds, as 'rank' is the rank: every rank of MPI_COMM_WORLD must call the collective [ompi-rank-dependent-collective]
  // CHECK-NEXT:    SYNC();
  // CHECK-NEXT:    ^
  // CHECK-NEXT:{{.*}}macros.c:15:16: note: expanded from macro 'SYNC'
  // CHECK-NEXT:#define SYNC() MPI_Barrier(MPI_COMM_WORLD)
  // CHECK-NEXT:               ^
  MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: 3 warnings generated.
