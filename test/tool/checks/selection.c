// --check as CI uses it: remarks for optimisation findings, warnings for
// correctness ones, --Werror (correctness only unless asked), clang-tidy
// style selection (globs, groups, the ompi- prefix), NOLINT comments, a
// .ompi-opt file, note: lines for related locations.
//
// Levels: the fusion hint is a remark, the rest warnings; status 0.
// RUN: %ompi-opt --check %s -- %mpich_cflags | FileCheck --check-prefix=LEVELS %s
// LEVELS: selection.c:[[#@LINE+46]]:3: remark: fuse 2 MPI_Allreduce calls {{.*}} [ompi-fusable-reductions]
// LEVELS: selection.c:[[#@LINE+48]]:3: warning: MPI_Isend overwrites request 'r' {{.*}} [ompi-request-overwritten]
// LEVELS: 3 warnings and 1 remark generated.
// --Werror: the correctness findings are errors (status 1), remarks stay;
// --Werror=all or a check's name makes remarks errors too.
// RUN: not %ompi-opt --check --Werror %s -- %mpich_cflags | FileCheck --check-prefix=WERROR %s
// WERROR: remark: fuse 2 MPI_Allreduce
// WERROR: error: MPI_Isend overwrites
// WERROR: 3 errors and 1 remark generated.
// RUN: %ompi-opt --check --Werror --checks=optimisation-* %s -- %mpich_cflags | FileCheck --check-prefix=REMARKS %s
// REMARKS: 1 remark generated.
// RUN: not %ompi-opt --check --Werror=ompi-fusable-reductions --checks=fusable-reductions %s -- %mpich_cflags | FileCheck --check-prefix=FERR %s
// FERR: error: fuse 2 MPI_Allreduce calls {{.*}} [ompi-fusable-reductions]
// RUN: not %ompi-opt --check --Werror=all --checks=-*,ompi-fusable-reductions %s -- %mpich_cflags | FileCheck --check-prefix=FERR %s
// Selection: groups and globs, with or without ompi-.
// RUN: %ompi-opt --check --checks=-*,correctness-* %s -- %mpich_cflags | FileCheck --check-prefix=CORR --implicit-check-not=remark: %s
// CORR: 3 warnings generated.
// RUN: %ompi-opt --check --checks=-optimisation-*,-ompi-request-* %s -- %mpich_cflags | FileCheck --check-prefix=GLOB %s
// GLOB: 2 warnings generated.
// RUN: %ompi-opt --check --checks=collective-* %s -- %mpich_cflags | FileCheck --check-prefix=ONE %s
// ONE: 1 warning generated.
// RUN: not %ompi-opt --check --checks=correctness-no-such %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: ompi-opt: error: --checks: unknown check 'correctness-no-such' (see --list-checks)
// Notes: where the overwritten request started, where the other ranks go.
// RUN: %ompi-opt --check --checks=request-overwritten,collective-sequence %s -- %mpich_cflags | FileCheck --check-prefix=NOTE %s
// NOTE: selection.c:[[#@LINE+23]]:3: note: the MPI_Isend that request 'r' still holds starts here
// NOTE: selection.c:[[#@LINE+43]]:3: note: where ranks 4-7 call MPI_Finalize
// .ompi-opt, found upwards from the source; the command line wins.
// RUN: rm -rf %t && mkdir -p %t/src/sub && cp %s %t/src/sub/s.c
// RUN: printf 'Checks: "-*,correctness-*"\nWarningsAsErrors: "request-*"\n' > %t/src/.ompi-opt
// RUN: not %ompi-opt --check %t/src/sub/s.c -- %mpich_cflags | FileCheck --check-prefix=CONFIG %s
// CONFIG: error: MPI_Isend overwrites
// CONFIG: 1 error and 2 warnings generated.
// RUN: %ompi-opt --check --checks=fusable-reductions --Werror=none %t/src/sub/s.c -- %mpich_cflags | FileCheck --check-prefix=REMARKS %s
// RUN: printf 'Checks: [1]\n' > %t/src/.ompi-opt
// RUN: not %ompi-opt --check %t/src/sub/s.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=BADCONFIG %s
// BADCONFIG: ompi-opt: error: {{.*}}.ompi-opt: Checks takes a string
#include <mpi.h>

static double a, b, c, d, x;

void f(void) {
  MPI_Request r;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&c, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  x = b + d;
  MPI_Isend(&a, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, &r);
  MPI_Isend(&c, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  // Rank 0 waits here for a message from itself (message-matching says so;
  // not this test's subject, so suppressed by name).
  MPI_Recv(&a, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // NOLINT(ompi-message-matching)
  MPI_Send(&a, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD); // NOLINT(ompi-type-mismatch): another check, still reported
  // Suppressed: bare NOLINT, NOLINT naming the check (a glob), NOLINTNEXTLINE.
  if (rank == 1)
    MPI_Barrier(MPI_COMM_WORLD); // NOLINT
  if (rank == 2)
    MPI_Barrier(MPI_COMM_WORLD); // NOLINT(ompi-rank-*)
  // NOLINTNEXTLINE(rank-dependent-collective)
  if (rank == 3) MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  f();
  MPI_Finalize();
  return 0;
}
