// peer-templates (analysis/PeerPlan.h), peers known only at run time: an
// MPI_Sendrecv whose destination and source are not proved anything (from
// MPI_Cart_shift, an array, a helper's parameters) goes through the self
// template, which compares them with the caller's rank at run time and runs
// the generic call unless both are the caller; only where the machine
// profile measured the copy faster (templates.self_sendrecv) and the check
// that misses (templates.self_sendrecv_miss: its cost the median
// difference up to 4 KiB) at most 2% of the generic call. Negative
// cases say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-peers.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: sed '/self_sendrecv_miss/,/\]/d' %inputs/profile-peers.json > %t.unmeasured.json
// RUN: %ompi-opt --report --profile=%t.unmeasured.json %s -- %mpich_cflags | FileCheck --check-prefix=UNMEASURED %s
// RUN: sed 's/"template_us": 0.405/"template_us": 0.5/' %inputs/profile-peers.json > %t.json
// RUN: %ompi-opt --report --profile=%t.json %s -- %mpich_cflags | FileCheck --check-prefix=DEAR %s
// With the check measured alone (templates.self_sendrecv_check), its cost is that point's:
// RUN: sed 's/"self_sendrecv_miss": \[/"self_sendrecv_check": [{"bytes": 0, "generic_us": 0.001, "template_us": 0.003}], "self_sendrecv_miss": [/' %inputs/profile-peers.json > %t.alone.json
// RUN: %ompi-opt --report --profile=%t.alone.json %s -- %mpich_cflags | FileCheck --check-prefix=ALONE %s
// RUN: %ompi-opt --transforms=peer-templates --profile=%inputs/profile-peers.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

#define N 512
static double a[N], b[N];
static int ia[N];

// A helper that forwards its parameters to MPI_Sendrecv (CoMD's
// sendReceiveParallel): its peers are whatever the callers pass.
// REPORT-DAG: runtime-peers.c:[[#@LINE+7]]:3: peer-templates: MPI_Sendrecv with peers known only at run time as a copy where both are the caller (mpiopt_sendrecv_self) (its destination dest and its source source are known only at run time: the template compares them with the caller's rank in MPI_COMM_WORLD (MPI_Comm_rank) and runs the generic call unless both are the caller; then the receive takes {{.*}}; where the peers are another rank, the template's check costs 0.005 us (templates.self_sendrecv_miss: the median difference up to 4096 bytes) against 0.400 us for the generic call at 0 bytes); saves the self-message's queueing, matching and copies through the MPI on the calls whose peers are the caller
// UNMEASURED-DAG: runtime-peers.c:[[#@LINE+6]]:3: peer-templates: not done: MPI_Sendrecv with peers known only at run time stays generic (the machine profile {{.*}}.unmeasured.json has no measurement of templates.self_sendrecv_miss (the template's check where the peers are another rank) for a size known only at run time)
// DEAR-DAG: runtime-peers.c:[[#@LINE+5]]:3: peer-templates: not done: MPI_Sendrecv with peers known only at run time stays generic (the machine profile {{.*}}: where the peers are another rank, the template's check costs 0.100 us (templates.self_sendrecv_miss: the median difference up to 4096 bytes) against 0.400 us for the generic call at 0 bytes (the message: a size known only at run time); the check may cost at most 2% of the call where it misses)
// ALONE-DAG: runtime-peers.c:[[#@LINE+4]]:3: peer-templates: MPI_Sendrecv with peers known only at run time as a copy where both are the caller (mpiopt_sendrecv_self) ({{.*}}; where the peers are another rank, the template's check costs 0.002 us (templates.self_sendrecv_check: the check alone) against 0.400 us for the generic call at 0 bytes); saves {{.*}}
int exchange(void *s, int n, int dest, void *r, int cap, int source) {
  MPI_Status st;
  int got = 0;
  MPI_Sendrecv(s, n, MPI_BYTE, dest, 0, r, cap, MPI_BYTE, source, 0, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &got);
  return got;
}
// SRC:   mpiopt_sendrecv_self(s, n, MPI_BYTE, dest, 0, r, cap, MPI_BYTE, source, 0, MPI_COMM_WORLD, &st);

int main(int argc, char **argv) {
  int rank, size, dims[2] = {0, 0}, periods[2] = {1, 1}, lo, hi, nbr[2];
  MPI_Comm cart;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_shift(cart, 1, 1, &lo, &hi);
  nbr[0] = lo;
  nbr[1] = hi;
  // REPORT-DAG: runtime-peers.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with peers known only at run time as a copy where both are the caller (mpiopt_sendrecv_self) (its destination hi and its source lo are known only at run time: the template compares them with the caller's rank in cart (MPI_Comm_rank) {{.*}}
  MPI_Sendrecv(a, 8, MPI_DOUBLE, hi, 1, b, 8, MPI_DOUBLE, lo, 1, cart, &st);
// SRC:   mpiopt_sendrecv_self(a, 8, MPI_DOUBLE, hi, 1, b, 8, MPI_DOUBLE, lo, 1, cart, &st);
  // REPORT-DAG: runtime-peers.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with peers known only at run time as a copy where both are the caller (mpiopt_sendrecv_self) (its destination nbr[0] and its source nbr[1] are known only at run time: {{.*}}
  MPI_Sendrecv(b, 8, MPI_DOUBLE, nbr[0], 2, a, 8, MPI_DOUBLE, nbr[1], 2, cart, &st);
  exchange(a, 64, hi, b, 64, lo);

  // Different datatypes: MPI matches their signatures, not their bytes.
  // REPORT-DAG: runtime-peers.c:[[#@LINE+1]]:3: peer-templates: not done: MPI_Sendrecv with peers known only at run time stays generic (its send and receive datatypes differ (MPI_INT, MPI_FLOAT): MPI matches their signatures)
  MPI_Sendrecv(ia, 8, MPI_INT, hi, 5, b, 8, MPI_FLOAT, lo, 5, cart, &st);
  // Any source: never the caller by the check: no candidate.
  MPI_Sendrecv(a, 4, MPI_DOUBLE, hi, 6, b, 4, MPI_DOUBLE, MPI_ANY_SOURCE, 6, cart, &st);
// SRC:   MPI_Sendrecv(a, 4, MPI_DOUBLE, hi, 6, b, 4, MPI_DOUBLE, MPI_ANY_SOURCE, 6, cart, &st);
  // Two different offsets from the rank: the same process only when one
  // runs: no candidate.
  MPI_Sendrecv(a, 4, MPI_DOUBLE, (rank + 1) % size, 7, b, 4, MPI_DOUBLE, (rank + size - 1) % size, 7,
               MPI_COMM_WORLD, &st);
// SRC:   MPI_Sendrecv(a, 4, MPI_DOUBLE, (rank + 1) % size, 7, b, 4, MPI_DOUBLE, (rank + size - 1) % size, 7,
  // The replace has no measurement of its check: no candidate.
  MPI_Sendrecv_replace(a, 4, MPI_DOUBLE, hi, 8, lo, 8, cart, &st);
// SRC:   MPI_Sendrecv_replace(a, 4, MPI_DOUBLE, hi, 8, lo, 8, cart, &st);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
