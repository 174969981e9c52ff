// --check on the command line: SARIF 2.1.0 (validated against the schema's
// model by sarif_validate.py), --Werror, --checks selection, --list-checks,
// a whole project from a compilation database (-p DIR), and usage errors.
// RUN: %ompi-opt --check --format=sarif %s -- %mpich_cflags > %t.sarif
// RUN: %python %S/../sarif_validate.py %t.sarif 4 | FileCheck --check-prefix=VALID %s
// RUN: FileCheck --check-prefix=SARIF %s < %t.sarif
// VALID: valid SARIF 2.1.0: 4 results
// SARIF: "insertedContent": {
// SARIF-NEXT: "text": "p"
// SARIF: "name": "ompi-opt"
// SARIF: "id": "ompi-fusable-reductions"
// SARIF: "version": "2.1.0"
// Text, with the count line clang prints; without --Werror the status is 0:
// RUN: %ompi-opt --check %s -- %mpich_cflags | FileCheck --check-prefix=TEXT %s
// TEXT: cli.c:[[#LINE1:]]:12: warning: MPI_Send buf '&p' is a pointer to double *: the call would transfer the pointer, not the data it points to [ompi-pointer-to-pointer]
// TEXT-NEXT:  MPI_Send(&p, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
// TEXT-NEXT:           ^
// TEXT-NEXT:           p
// TEXT: 4 warnings generated.
// --Werror: errors, status 1; with every check that fires removed, status 0:
// RUN: not %ompi-opt --check --Werror %s -- %mpich_cflags | FileCheck --check-prefix=WERROR %s
// WERROR: error: {{.*}}[ompi-pointer-to-pointer]
// WERROR: 4 errors generated.
// RUN: %ompi-opt --check --Werror --checks=-pointer-to-pointer,-type-mismatch,-unmatched-p2p %s -- %mpich_cflags | count 0
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %mpich_cflags | count 0
// RUN: %ompi-opt --list-checks | FileCheck --check-prefix=LIST %s
// LIST: fusable-reductions (optimisation): independent reductions that static fusion merges into one collective
// LIST: type-mismatch (correctness): buffer element type differs from the MPI datatype
// LIST: unmatched-p2p (correctness): a send whose static tag no receive of the program accepts
// A project: every file of build/compile_commands.json.
// RUN: rm -rf %t.p && mkdir -p %t.p/build && cp %s %t.p/one.c && cp %inputs/unchanged.c %t.p/two.c
// RUN: echo '[{"directory": "%t.p", "file": "%t.p/one.c", "command": "cc -c %mpich_cflags one.c"}, {"directory": "%t.p", "file": "%t.p/two.c", "command": "cc -c %mpich_cflags two.c"}]' > %t.p/build/compile_commands.json
// RUN: cd %t.p && %ompi-opt --check --format=sarif -p build -o %t.p.sarif
// RUN: %python %S/../sarif_validate.py %t.p.sarif 4
// Usage errors:
// RUN: not %ompi-opt --check --checks=no-such-check %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=UNKNOWN %s
// UNKNOWN: ompi-opt: error: --checks: unknown check 'no-such-check' (see --list-checks)
// RUN: not %ompi-opt --check --format=xml %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=FORMAT %s
// FORMAT: ompi-opt: error: --format takes 'text' or 'sarif', not 'xml'
// RUN: not %ompi-opt --Werror %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=ALONE %s
// ALONE: ompi-opt: error: --Werror goes with --check
// Every usage error exits 2, an unknown option too:
// RUN: %python %S/../exit_status.py 2 %ompi-opt --bogus %s -- %mpich_cflags 2> /dev/null
// RUN: %python %S/../exit_status.py 2 %ompi-opt --check --checks=no-such-check %s -- %mpich_cflags 2> /dev/null
// Several files, one of which cannot be parsed (a missing generated header):
// the others are checked, and the status (3) says a file failed.
// RUN: printf '#include "generated.h"\nint x;\n' > %t.broken.c
// RUN: %python %S/../exit_status.py 3 %ompi-opt --check %t.broken.c %s -- %mpich_cflags > %t.multi.txt 2> %t.multi.err
// RUN: FileCheck --check-prefix=MULTI %s < %t.multi.txt
// RUN: FileCheck --check-prefix=MULTIERR %s < %t.multi.err
// MULTI: 4 warnings generated.
// MULTIERR: 'generated.h' file not found
// MULTIERR: ompi-opt: error: 1 of 2 files could not be processed
// A compilation database written by a build through ompi-cc: its --ompi-*
// options are not the compiler's, and are left out.
// RUN: rm -rf %t.q && mkdir -p %t.q/build && cp %s %t.q/one.c
// RUN: echo '[{"directory": "%t.q", "file": "%t.q/one.c", "command": "ompi-cc --ompi-report --ompi-mpicc=mpicc.mpich -c %mpich_cflags one.c"}]' > %t.q/build/compile_commands.json
// RUN: cd %t.q && %ompi-opt --check -p build | FileCheck --check-prefix=MULTI %s
// ompi-opt finds its own runtime headers: a file it already rewrote (which
// includes mpiopt/lazy_optional.h) parses without -I.
// RUN: %ompi-opt %inputs/../transforms/lazy-deferral/deferral.c -o %t.rewritten.c -- %mpich_cflags
// RUN: %ompi-opt --dry-run %t.rewritten.c -- %mpich_cflags
#include <mpi.h>

double buf[4];
int ibuf[4];

void f(void) {
  double *p = buf;
  MPI_Send(&p, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  MPI_Send(ibuf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  f();
  MPI_Finalize();
  return 0;
}
