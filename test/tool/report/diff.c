// --diff, --dry-run and --in-place: the unified diff of what the
// transformations change, with the notes (what, why, saves) in a preamble
// patch tools skip and the transformation on each hunk's @@ line; it applies
// with git apply and gives the transformed source. --dry-run exits 1 when a
// change is pending; --in-place rewrites the sources, keeping backups.
// RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/diff.c && cp %inputs/unchanged.c %t.d/unchanged.c
// RUN: cd %t.d && %ompi-opt --diff diff.c unchanged.c -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=DIFF %s
// RUN: cd %t.d && not %ompi-opt --dry-run diff.c unchanged.c -- %mpich_cflags > %t.patch
// RUN: %ompi-opt %s -o %t.want.c -- %mpich_cflags
// The diff applies and yields the transformed source:
// RUN: rm -rf %t.apply && mkdir -p %t.apply && cp %s %t.apply/diff.c && cd %t.apply && git apply %t.patch
// RUN: diff %t.want.c %t.apply/diff.c
// In place: the file becomes the transformed source, the original is kept,
// and nothing is pending afterwards (the transformations are idempotent):
// RUN: cd %t.d && %ompi-opt --in-place diff.c unchanged.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=INPLACE %s
// RUN: diff %t.want.c %t.d/diff.c
// RUN: diff %s %t.d/diff.c.orig
// RUN: diff %inputs/unchanged.c %t.d/unchanged.c
// RUN: not ls %t.d/unchanged.c.orig
// RUN: cd %t.d && %ompi-opt --dry-run diff.c unchanged.c -- %mpich_cflags | count 0
// An existing backup is never overwritten: nothing is written.
// RUN: cp %s %t.d/diff.c
// RUN: cd %t.d && not %ompi-opt --in-place diff.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=BACKUP %s
// RUN: diff %s %t.d/diff.c
// RUN: cd %t.d && %ompi-opt --in-place --backup-suffix=.bak diff.c -- %mpich_cflags
// RUN: diff %s %t.d/diff.c.bak
// A file that cannot be parsed: exit 3 under --dry-run, nothing written.
// RUN: cd %t.d && echo 'int f( {' > broken.c && sh -c '%ompi-opt --dry-run broken.c -- %mpich_cflags 2>/dev/null; test $? = 3'
// Usage errors:
// RUN: not %ompi-opt --diff=xml %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=BADFMT %s
// RUN: not %ompi-opt --in-place -o %t.x.c %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=INPLACE-O %s
// DIFF:# ompi-opt: diff.c: 1 hunk
// DIFF-NEXT:#   line 66 [reduction-fusion] fused 2 MPI_Allreduce calls (lines 65, 66) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD
// DIFF-NEXT:#     why: same communicator, op and datatype; distinct buffers (&a -> &b, &c -> &d); nothing in between
// DIFF-NEXT:#     saves: 1 collective per execution
// DIFF-NEXT:--- a/diff.c
// DIFF-NEXT:+++ b/diff.c
// DIFF-NEXT:@@ -62,6 +62,12 @@ reduction-fusion: fused 2 MPI_Allreduce calls (lines 65, 66) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD
// DIFF-NEXT: double a, b, c, d;
// DIFF-NEXT:{{ }}
// DIFF-NEXT: void f(void) {
// DIFF-NEXT:-  MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// DIFF-NEXT:-  MPI_Allreduce(&c, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// DIFF-NEXT:+  double mpiopt_fuse1_buf[2];
// DIFF-NEXT:+  __builtin_memcpy(&mpiopt_fuse1_buf[0], &a, 1 * sizeof(double));
// DIFF-NEXT:+  { /* ompi-opt: 2 MPI_Allreduce calls (lines 65, 66) fused into one */
// DIFF-NEXT:+    __builtin_memcpy(&mpiopt_fuse1_buf[1], &c, 1 * sizeof(double));
// DIFF-NEXT:+    MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// DIFF-NEXT:+    __builtin_memcpy(&b, &mpiopt_fuse1_buf[0], 1 * sizeof(double));
// DIFF-NEXT:+    __builtin_memcpy(&d, &mpiopt_fuse1_buf[1], 1 * sizeof(double));
// DIFF-NEXT:+  }
// DIFF-NEXT: }
// DIFF-NOT:{{.}}
// INPLACE:ompi-opt: rewrote diff.c (original in diff.c.orig)
// INPLACE-NOT:unchanged.c
// BACKUP:ompi-opt: error: diff.c.orig exists: remove it or choose another --backup-suffix; nothing was written
// BADFMT:ompi-opt: error: --diff takes 'unified' or 'html', not 'xml'
// INPLACE-O:ompi-opt: error: --in-place writes over the inputs; it does not take -o

#include <mpi.h>

double a, b, c, d;

void f(void) {
  MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&c, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
