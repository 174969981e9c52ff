// --summary: the whole program's communication call sites by what happened
// (changed, by transformation; declined, by reason class; not considered,
// by call), counted once each, with the first sites of each group. Nothing
// is written. Queries (MPI_Comm_rank) and the environment (MPI_Init) are
// not communication sites.
// RUN: %ompi-opt --summary --profile=%inputs/profile-peers.json %s %S/../analysis/broadcast.c -- %mpich_cflags | FileCheck --match-full-lines %s
// CHECK: ompi-opt summary: 36 communication call sites in 2 files
// CHECK-NEXT:      8   22%  changed
// CHECK-NEXT:     26   72%  declined (a transformation looked and said why not)
// CHECK-NEXT:      2    6%  not considered (no transformation handles the call)
// CHECK-EMPTY:
// CHECK-NEXT: Changed, by transformation:
// CHECK-NEXT:      6   17%  reduction-fusion
// CHECK-NEXT:                 broadcast.c:30, broadcast.c:31, broadcast.c:44, ...
// The two calls one MPI_Sendrecv replaces both count as changed:
// CHECK-NEXT:      2    6%  sendrecv-pairing
// CHECK-NEXT:                 summary.c:[[#@LINE+45]], summary.c:[[#@LINE+46]]
// CHECK:      Declined, by reason (a site declined by several transformations counts under each):
// The reason's details (which branch, which line) are left out of its class:
// CHECK:     16   44%  reduction-fusion: only some ranks may run it, so fusing it would change their sequence of collectives and not the others'
// CHECK-NEXT:                 broadcast.c:76, broadcast.c:77, broadcast.c:79, ...
// A broadcast alone is declined, and says what would let it change:
// CHECK:      6   17%  broadcast-fusion: no other MPI_Bcast from the same root on the same communicator is next to it
// CHECK:      2    6%  lazy-deferral: its result is used at line N before any other reduction could join it
// CHECK:      Not considered, by call:
// CHECK-NEXT:      1    3%  MPI_Barrier
//
// The same from JSON reports written earlier (what ompi-cc --ompi-summary
// reads at link), counting the fused and paired calls alike:
// RUN: %ompi-opt --report=json --profile=%inputs/profile-peers.json %s %S/../analysis/broadcast.c -- %mpich_cflags > %t.json
// RUN: %ompi-opt --summary-from=%t.json | FileCheck --match-full-lines --check-prefix=FROM %s
// FROM: ompi-opt summary: 36 communication call sites in 2 files
// FROM-NEXT:      8   22%  changed
// FROM:      2    6%  sendrecv-pairing
// RUN: not %ompi-opt --summary-from=%s 2>&1 | FileCheck --check-prefix=NOTJSON %s
// NOTJSON: ompi-opt: error: {{.*}}summary.c: not JSON {{.*}}
//
// A file that cannot be parsed is counted; the others are summarised; status 3.
// RUN: %python %S/../exit_status.py 3 %ompi-opt --summary --profile=%inputs/profile-peers.json %s %inputs/broken.c -- %mpich_cflags > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=BROKEN %s < %t.out
// RUN: FileCheck --check-prefix=BROKEN-ERR %s < %t.err
// BROKEN: ompi-opt summary: 7 communication call sites in 1 file (1 more file could not be processed)
// BROKEN-NEXT:      2   29%  changed
// BROKEN-ERR: ompi-opt: error: 1 of 2 files could not be processed
//
// It prints the summary alone.
// RUN: not %ompi-opt --summary --report %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=ALONE %s
// ALONE: {{.*}}--summary prints the summary alone{{.*}}
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size, right, left;
  double x, y = 0, s, t;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  x = rank;
  MPI_Send(&x, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
  MPI_Recv(&y, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Irecv(&s, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r);
  MPI_Send(&x, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Allreduce(&y, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", s, t);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
