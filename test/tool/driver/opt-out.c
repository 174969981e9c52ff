// Per-call opt-outs: "// ompi: off" on a call's line keeps it as written for
// every transformation; OMPI-NOOPT with a list of names for those it names. To
// every transformation an opted-out call is one another transformation
// already took, so a rewrite of several calls (a send and receive pair,
// nonblocking starts and their waits, fused reductions) is declined whole;
// the report says why. Without the comments (sed) the same calls change.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed -e 's#// ompi: off##' -e 's#// OMPI-NOOP[T]([a-z, -]*)##' %s > %t/plain.c
//
// sendrecv-pairing: the receive of a pair opted out: both calls stay.
// RUN: %ompi-opt --transforms=sendrecv-pairing --profile=%inputs/profile-peers.json %s -o %t/pair.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=PAIR %s < %t/pair.c
// RUN: %ompi-opt --transforms=sendrecv-pairing --profile=%inputs/profile-peers.json %t/plain.c -o %t/pair-plain.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=PAIRPLAIN %s < %t/pair-plain.c
// RUN: %ompi-opt --report --transforms=sendrecv-pairing --profile=%inputs/profile-peers.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
//
// nonblocking-persistent: a wait opted out: its starts stay as written too.
// RUN: %ompi-opt --transforms=nonblocking-persistent --profile=%inputs/profile-nonblocking.json %s -o %t/nb.c -- %mpich_cflags
// RUN: diff %s %t/nb.c
// RUN: FileCheck --check-prefix=NB %s < %t/nb.c
// RUN: %ompi-opt --transforms=nonblocking-persistent --profile=%inputs/profile-nonblocking.json %t/plain.c -o %t/nb-plain.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=NBPLAIN %s < %t/nb-plain.c
//
// reduction-fusion, whose plan does not ask which calls are taken: a fusion
// that would rewrite an opted-out call is undone (all of this file's), with
// a note; without the comment the reductions are fused.
// RUN: %ompi-opt --transforms=reduction-fusion %s -o %t/fuse.c -- %mpich_cflags
// RUN: diff %s %t/fuse.c
// RUN: %ompi-opt --report --transforms=reduction-fusion %s -- %mpich_cflags | FileCheck --check-prefix=FUSE %s
// A note only for the transformations that run:
// RUN: %ompi-opt --report --transforms=reduction-fusion %s -- %mpich_cflags | not grep 'sendrecv-pairing: not done'
// RUN: %ompi-opt --transforms=reduction-fusion %t/plain.c -o %t/fuse-plain.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=FUSEPLAIN %s < %t/fuse-plain.c
// An OMPI-NOOPT naming another transformation does not keep the call:
// RUN: sed 's#// ompi: off#// OMPI-NOOPT(lazy-deferral)#' %s > %t/other.c
// RUN: %ompi-opt --transforms=reduction-fusion %t/other.c -o %t/fuse-other.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=FUSEPLAIN %s < %t/fuse-other.c
// A name that is no transformation is a warning:
// RUN: sed -e 's#// ompi: off#// OMPI-NOOPT@reduction-fusoin)#' -e 's#NOOPT@#NOOPT(#' %s > %t/typo.c
// RUN: %ompi-opt --transforms=reduction-fusion %t/typo.c -o /dev/null -- %mpich_cflags 2>&1 | FileCheck --check-prefix=TYPO %s
// TYPO: typo.c:[[#FUSELINE:]]: warning: OMPI-NOOPT names 'reduction-fusoin', which is no transformation (see --list-transforms)
#include <mpi.h>

#define N 1024
static double a[N], b[N], c[N], d[N];

void pair_kept(int left, int right) {
  // PAIR: {{^}}  MPI_Send(a, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
  // PAIRPLAIN: {{^}}  MPI_Sendrecv(a, N, MPI_DOUBLE, right, 1, b,
  // REPORT: opt-out.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Recv (kept as written: // OMPI-NOOPT(sendrecv-pairing) at line [[#@LINE+2]])
  MPI_Send(a, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
  MPI_Recv(b, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // OMPI-NOOPT(sendrecv-pairing)
}

// Opted out for another transformation only: paired. A string that holds
// the words is no comment.
void pair_other(int left, int right) {
  // PAIR: {{^}}  MPI_Sendrecv(c, N, MPI_DOUBLE, right, 2 + 0 * sizeof "// ompi: off", d,
  MPI_Send(c, N, MPI_DOUBLE, right, 2 + 0 * sizeof "// ompi: off", MPI_COMM_WORLD);
  MPI_Recv(d, N, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // OMPI-NOOPT(peer-templates)
}

void halo(int up, int down, MPI_Comm comm) {
  MPI_Request r[2];
  // NB: {{^}}  MPI_Irecv(a, 512, MPI_DOUBLE, up, 0, comm, &r[0]);
  // NBPLAIN: {{^}}  mpiopt_irecv_nb(&mpiopt_nbc1_c, a, 512, MPI_DOUBLE, up, 0, comm, &r[0]);
  MPI_Irecv(a, 512, MPI_DOUBLE, up, 0, comm, &r[0]);
  MPI_Isend(b, 512, MPI_DOUBLE, down, 0, comm, &r[1]);
  // NB: {{^}}  MPI_Waitall(2, r,
  // NBPLAIN: {{^}}  mpiopt_waitall_nb(&mpiopt_nbc1_c, 2, r,
  MPI_Waitall(2, r,
              MPI_STATUSES_IGNORE); // OMPI-NOOPT(nonblocking-persistent, sendrecv-pairing)
}

double sums(double x, double y) {
  double sx, sy;
  // FUSE-DAG: opt-out.c:[[#@LINE+3]]:3: reduction-fusion: not done: every change in this file (it would rewrite MPI_Allreduce at line [[#@LINE+3]], kept as written: // ompi: off at line [[#@LINE+3]])
  // FUSE-DAG: opt-out.c:[[#@LINE+2]]:3: every transformation: not done: MPI_Allreduce (kept as written: // ompi: off at line [[#@LINE+2]])
  MPI_Allreduce(&x, &sx, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&y, &sy, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // ompi: off
  // FUSEPLAIN: fused into one
  return sx + sy;
}
