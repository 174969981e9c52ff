// A check list that selects no check is an error, as clang-tidy's "no
// checks enabled" is: one line that names where the list came from, and
// status 2 (a glob with a typo, "-*", "none", or a .ompi-opt that does so).
// RUN: rm -rf %t && mkdir -p %t/sub && cp %s %t/sub/a.c
// RUN: %python %S/../exit_status.py 2 %ompi-opt --check --checks='corectness-*' %s -- %mpich_cflags 2> %t/glob.err
// RUN: FileCheck --check-prefix=GLOB --implicit-check-not=error: %s < %t/glob.err
// GLOB: ompi-opt: error: --checks: 'corectness-*' enables no check, so nothing would run (see --list-checks)
// RUN: %python %S/../exit_status.py 2 %ompi-opt --check --checks=-* %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=NONE %s
// NONE: ompi-opt: error: --checks: '-*' enables no check, so nothing would run (see --list-checks)
// RUN: %python %S/../exit_status.py 2 %ompi-opt --check --checks=none %s -- %mpich_cflags 2> /dev/null
// A .ompi-opt whose Checks select nothing names the file:
// RUN: printf 'Checks: "-*,corectness-*"\n' > %t/.ompi-opt
// RUN: %python %S/../exit_status.py 2 %ompi-opt --check %t/sub/a.c -- %mpich_cflags 2> %t/config.err
// RUN: FileCheck --check-prefix=CONFIG --implicit-check-not=error: %s < %t/config.err
// CONFIG: ompi-opt: error: {{.*}}.ompi-opt: Checks: '-*,corectness-*' enables no check, so nothing would run (see --list-checks)
// --checks on the command line wins over it:
// RUN: %ompi-opt --check --checks=pointer-to-pointer %t/sub/a.c -- %mpich_cflags | FileCheck --check-prefix=RUNS %s
// RUNS: warning: {{.*}}[ompi-pointer-to-pointer]
// A list that selects something, with a glob that matches nothing, runs:
// RUN: %ompi-opt --check --checks='pointer-*,corectness-*' %s -- %mpich_cflags | FileCheck --check-prefix=RUNS %s
#include <mpi.h>

double buf[4];

void f(void) {
  double *p = buf;
  MPI_Send(&p, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
}
