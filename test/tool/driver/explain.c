// ompi-opt --explain CHECK prints the check's page (docs/checks/CHECK.md,
// found beside the executable: <checkout>/docs in a build tree,
// share/doc/ompi installed), as rustc --explain does; the SARIF rules'
// helpUri points at the same pages (or at --docs-url=BASE), and --check
// ends its diagnostics with one line about --explain when it found something.
// RUN: %ompi-opt --explain pointer-to-pointer > %t.page
// RUN: diff %t.page %S/../../../docs/checks/pointer-to-pointer.md
// RUN: %ompi-opt --explain ompi-pointer-to-pointer | diff - %t.page
// An unknown check: one error line, status 2.
// RUN: %python %S/../exit_status.py 2 %ompi-opt --explain no-such-check 2> %t.err
// RUN: FileCheck --check-prefix=UNKNOWN --implicit-check-not=error: %s < %t.err
// UNKNOWN: ompi-opt: error: --explain: unknown check 'no-such-check' (see --list-checks)
//
// helpUri: the pages as file URIs by default, else under --docs-url.
// RUN: %ompi-opt --check --format=sarif %s -- %mpich_cflags > %t.sarif
// RUN: %python %S/../sarif_validate.py %t.sarif
// RUN: FileCheck --check-prefix=HELP %s < %t.sarif
// HELP: "helpUri": "file:///{{.*}}docs/checks/fusable-reductions.md",
// RUN: %ompi-opt --check --format=sarif --docs-url=https://example.org/ompi/docs/checks %s -- %mpich_cflags > %t.url.sarif
// RUN: %python %S/../sarif_validate.py %t.url.sarif
// RUN: FileCheck --check-prefix=URL %s < %t.url.sarif
// URL: "helpUri": "https://example.org/ompi/docs/checks/fusable-reductions.md",
// URL: "helpUri": "https://example.org/ompi/docs/checks/pointer-to-pointer.md",
// RUN: not %ompi-opt --docs-url=x %s -- 2>&1 | FileCheck --check-prefix=ALONE %s
// ALONE: ompi-opt: error: --docs-url goes with --check
//
// The diagnostics end with one line about --explain, naming the first check:
// RUN: %ompi-opt --check %s -- %mpich_cflags | FileCheck --check-prefix=TEXT %s
// TEXT: warning: {{.*}}[ompi-pointer-to-pointer]
// TEXT: warning{{s?}} generated.
// TEXT-NEXT: For more about a check (what it finds, why, how to silence it): ompi-opt --explain <check>, such as ompi-opt --explain pointer-to-pointer
// TEXT-NOT: {{.}}
// Without findings, nothing at all:
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %mpich_cflags | count 0
#include <mpi.h>

double buf[4];

void f(void) {
  double *p = buf;
  MPI_Send(&p, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
}
