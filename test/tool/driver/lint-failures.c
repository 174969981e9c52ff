// --check on files that cannot be processed: the output is always written
// (a valid SARIF log, never an earlier -o file left stale), each failed
// file is an invocation with executionSuccessful false and its error as a
// notification, and the status is 3 whether one file failed or several
// (1 is a --Werror finding, 2 a usage error).
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '#include "generated.h"\nint x;\n' > %t/missing.c
//
// One file that does not parse: SARIF on standard output, status 3.
// RUN: %python %S/../exit_status.py 3 %ompi-opt --check --format=sarif %inputs/broken.c -- %mpich_cflags > %t/one.sarif 2> %t/one.err
// RUN: %python %S/../sarif_validate.py %t/one.sarif 0 | FileCheck --check-prefix=VALID0 %s
// RUN: FileCheck --check-prefix=ONE %s < %t/one.sarif
// RUN: FileCheck --check-prefix=ONEERR %s < %t/one.err
// VALID0: valid SARIF 2.1.0: 0 results
// ONE: "invocations": [
// ONE-NEXT: {
// ONE-NEXT: "executionSuccessful": false,
// ONE-NEXT: "toolExecutionNotifications": [
// ONE-NEXT: {
// ONE-NEXT: "level": "error",
// ONE-NEXT: "locations": [
// ONE: "uri": "{{.*}}broken.c"
// ONE: "startLine": 6
// ONE: "text": "{{.*}}broken.c: expected expression"
// ONE: "results": []
// ONEERR: broken.c:6:{{[0-9]+}}: error: expected expression
// ONEERR: ompi-opt: error: could not process {{.*}}broken.c
//
// An earlier -o file is replaced, not left with its stale results.
// RUN: echo stale > %t/out.sarif
// RUN: %python %S/../exit_status.py 3 %ompi-opt --check --format=sarif -o %t/out.sarif %inputs/broken.c -- %mpich_cflags 2> /dev/null
// RUN: %python %S/../sarif_validate.py %t/out.sarif 0
// RUN: FileCheck --check-prefix=ONE %s < %t/out.sarif
//
// Several files, two failing: the findings of the one that parses, and an
// invocation naming each failed file; status 3.
// RUN: %python %S/../exit_status.py 3 %ompi-opt --check --format=sarif %t/missing.c %s %inputs/broken.c -- %mpich_cflags > %t/many.sarif 2> %t/many.err
// RUN: %python %S/../sarif_validate.py %t/many.sarif 1
// RUN: FileCheck --check-prefix=MANY %s < %t/many.sarif
// RUN: FileCheck --check-prefix=MANYERR %s < %t/many.err
// MANY: "invocations": [
// MANY: "executionSuccessful": false,
// MANY: "text": "{{.*}}missing.c: 'generated.h' file not found"
// MANY: "executionSuccessful": false,
// MANY: "text": "{{.*}}broken.c: expected expression"
// MANY: "results": [
// MANY: "ruleId": "ompi-pointer-to-pointer",
// MANYERR: ompi-opt: error: 2 of 3 files could not be processed
//
// Text: the same status; a --Werror finding in another file does not hide
// the failure (3, not 1).
// RUN: %python %S/../exit_status.py 3 %ompi-opt --check %inputs/broken.c -- %mpich_cflags > %t/one.txt 2> /dev/null
// RUN: count 0 < %t/one.txt
// RUN: %python %S/../exit_status.py 3 %ompi-opt --check --Werror %s %inputs/broken.c -- %mpich_cflags > %t/werror.txt 2> /dev/null
// RUN: FileCheck --check-prefix=WERROR %s < %t/werror.txt
// WERROR: error: {{.*}}[ompi-pointer-to-pointer]
// RUN: %python %S/../exit_status.py 1 %ompi-opt --check --Werror %s -- %mpich_cflags > /dev/null
//
// Nothing failed: one invocation that succeeded.
// RUN: %ompi-opt --check --format=sarif %s -- %mpich_cflags > %t/ok.sarif
// RUN: FileCheck --check-prefix=OK %s < %t/ok.sarif
// OK: "invocations": [
// OK-NEXT: {
// OK-NEXT: "executionSuccessful": true
#include <mpi.h>

double buf[4];

void f(void) {
  double *p = buf;
  MPI_Send(&p, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
}
