// Command-line behaviour: the transformed output of a file no
// transformation applies to is the input byte for byte; the input is never
// modified; on a parse error clang's diagnostics are printed, the exit code
// is non-zero and nothing is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %s %t/in.c
// RUN: %ompi-opt %t/in.c -o %t/out.c -- %mpich_cflags
// RUN: diff %s %t/out.c
// RUN: diff %s %t/in.c
// RUN: %ompi-opt %t/in.c -- %mpich_cflags > %t/stdout.c
// RUN: diff %s %t/stdout.c
//
// Refuses to overwrite its input (and leaves it as it was).
// RUN: not %ompi-opt %t/in.c -o %t/in.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=SAME %s
// RUN: diff %s %t/in.c
// SAME: ompi-opt: error: refusing to overwrite the input file {{.*}}in.c (-o names the input)
//
// A parse error: diagnostics name the file and line; nothing is written.
// RUN: not %ompi-opt %inputs/broken.c -o %t/broken-out.c -- %mpich_cflags 2> %t/err.txt
// RUN: FileCheck --check-prefix=BROKEN %s < %t/err.txt
// RUN: not test -e %t/broken-out.c
// BROKEN: {{.*}}broken.c:6:{{[0-9]+}}: error: {{.*}}
// BROKEN: ompi-opt: error: could not process {{.*}}broken.c; nothing was written
//
// Usage errors exit with 2 and say what is wrong.
// RUN: not %ompi-opt --report=xml %s -- 2>&1 | FileCheck --check-prefix=FORMAT %s
// FORMAT: ompi-opt: error: --report takes 'text', 'long' or 'json', not 'xml'
// RUN: not %ompi-opt %s %inputs/broken.c -o %t/x.c -- 2>&1 | FileCheck --check-prefix=TWO %s
// TWO: ompi-opt: error: -o takes one input file; 2 were given
// RUN: not %ompi-opt %t/does-not-exist.c -- 2>&1 | FileCheck --check-prefix=MISSING %s
// MISSING: ompi-opt: error: no such file: {{.*}}does-not-exist.c
// A machine profile that cannot be used is an error naming the file.
// RUN: not %ompi-opt --profile=%t/no-profile.json %s -- 2>&1 | FileCheck --check-prefix=NOPROFILE %s
// NOPROFILE: ompi-opt: error: {{.*}}no-profile.json: cannot read the machine profile: {{.*}}
// RUN: not %ompi-opt --profile=%s %s -- 2>&1 | FileCheck --check-prefix=BADPROFILE %s
// BADPROFILE: ompi-opt: error: {{.*}}cli.c: not valid JSON: {{.*}}
// RUN: not %ompi-opt --profile= %s -- 2>&1 | FileCheck --check-prefix=EMPTYPROFILE %s
// EMPTYPROFILE: ompi-opt: error: --profile: a file name (or 'none') is required
//
// Without include flags, mpi.h comes from the MPI found when the tool was
// configured (--mpi-include's default); --mpi-include= turns that off.
// RUN: %ompi-opt --report=long %s -- | FileCheck --check-prefix=DEFAULT %s
// DEFAULT: {{.*}}cli.c:[[@LINE+8]]:3: MPI_Allreduce(sendbuf=static(MPI_IN_PLACE), {{.*}}
// RUN: not %ompi-opt --report=long --mpi-include= %s -- 2>&1 | FileCheck --check-prefix=NOMPI %s
// NOMPI: {{.*}}cli.c:{{[0-9]+}}:10: fatal error: 'mpi.h' file not found
#include <mpi.h>

int main(int argc, char **argv) {
  int x = 1;
  MPI_Init(&argc, &argv);
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* a comment */
  MPI_Finalize();
  return 0;
}
