// peer-templates (analysis/PeerPlan.h), self peers: an MPI_Sendrecv or
// MPI_Sendrecv_replace whose destination and source are both the caller's
// rank in the call's communicator (or 0 on MPI_COMM_SELF) becomes a copy
// (templates/mpiopt/peer.h; the replace: nothing to move), where the
// machine profile measured the template faster at the message's size. The
// template checks at run time that no earlier message from the caller to
// itself waits. Negative cases say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-peers.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-peers-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --transforms=peer-templates --profile=%inputs/profile-peers.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
// RUN: %clang -fsyntax-only -x c++ -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
#include <mpi.h>

#define N 512
static double a[N], b[N];
static int ia[N];

// SRC: #include <mpiopt/peer.h>

// A periodic halo on one process: the rank in the communicator it runs on.
void halo(double *u, int n, MPI_Comm comm) {
  int me;
  MPI_Comm_rank(comm, &me);
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with the caller itself as a copy (mpiopt_sendrecv_self) (its destination me (rank) and its source me (rank) are the caller's rank in comm: the receive takes the exchange's own message unless an earlier message from the caller to itself waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large enough (checked at run time too); both sides are MPI_DOUBLE, moved as bytes; the status is the source and tag of the message and its count, as MPI gives it; the machine profile {{.*}}profile-peers.json (templates.self_sendrecv) measured 0.100 us for the template against 0.150 us for the generic call at 0 bytes (the message: a size known only at run time)); saves the self-message's queueing, matching and copies through the MPI
  MPI_Sendrecv(u + 1, n, MPI_DOUBLE, me, 0, u + n + 1, n, MPI_DOUBLE, me, 0, comm, MPI_STATUS_IGNORE);
  // SLOWER-DAG: self.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Sendrecv with the caller itself stays generic (the machine profile {{.*}}profile-peers-slower.json (templates.self_sendrecv) measured 6.540 us for the template against 6.790 us for the generic call at 262144 bytes (the message: a size known only at run time); a template must be 5% faster)
// SRC:   mpiopt_sendrecv_self(u + 1, n, MPI_DOUBLE, me, 0, u + n + 1, n, MPI_DOUBLE, me, 0, comm, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  int rank, size, wrank;
  MPI_Status st;
  MPI_Comm sub, dup;
  MPI_Datatype pair;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with the caller itself as a copy (mpiopt_sendrecv_self) (its destination rank and its source rank are the caller's rank in MPI_COMM_WORLD: the receive takes the exchange's own message unless an earlier message from the caller to itself waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large enough (checked at run time too); both sides are MPI_DOUBLE, moved as bytes; the status is the source and tag of the message and its count, as MPI gives it; the machine profile {{.*}}profile-peers.json (templates.self_sendrecv) measured 0.100 us for the template against 0.150 us for the generic call at 0 bytes (the message: 512 bytes)); saves the self-message's queueing, matching and copies through the MPI
  MPI_Sendrecv(a, 64, MPI_DOUBLE, rank, 1, b, 64, MPI_DOUBLE, rank, 1, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: self.c:[[#@LINE-1]]:3: peer-templates: MPI_Sendrecv with the caller itself as a copy (mpiopt_sendrecv_self) (its destination rank and its source rank are the caller's rank in MPI_COMM_WORLD: the receive takes the exchange's own message unless an earlier message from the caller to itself waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large enough (checked at run time too); both sides are MPI_DOUBLE, moved as bytes; the status is the source and tag of the message and its count, as MPI gives it; the machine profile {{.*}}profile-peers-slower.json (templates.self_sendrecv) measured 0.100 us for the template against 0.150 us for the generic call at 0 bytes (the message: 512 bytes)); saves the self-message's queueing, matching and copies through the MPI
// SRC:   mpiopt_sendrecv_self(a, 64, MPI_DOUBLE, rank, 1, b, 64, MPI_DOUBLE, rank, 1, MPI_COMM_WORLD, &st);
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with the caller itself as a copy (mpiopt_sendrecv_self) (its destination (rank + size) % size ((rank+size)%size) and its source rank are the caller's rank in MPI_COMM_WORLD: the receive takes the exchange's own message unless an earlier message from the caller to itself waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large enough (checked at run time too); both sides are MPI_INT, moved as bytes; the status is the source and tag of the message and its count, as MPI gives it; the machine profile {{.*}}profile-peers.json (templates.self_sendrecv) measured 0.100 us for the template against 0.150 us for the generic call at 0 bytes (the message: 32 bytes)); saves the self-message's queueing, matching and copies through the MPI
  MPI_Sendrecv(ia, 8, MPI_INT, (rank + size) % size, 2, ia + 8, 8, MPI_INT, rank, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: self.c:[[#@LINE-1]]:3: peer-templates: MPI_Sendrecv with the caller itself as a copy (mpiopt_sendrecv_self) (its destination (rank + size) % size ((rank+size)%size) and its source rank are the caller's rank in MPI_COMM_WORLD: the receive takes the exchange's own message unless an earlier message from the caller to itself waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large enough (checked at run time too); both sides are MPI_INT, moved as bytes; the status is the source and tag of the message and its count, as MPI gives it; the machine profile {{.*}}profile-peers-slower.json (templates.self_sendrecv) measured 0.100 us for the template against 0.150 us for the generic call at 0 bytes (the message: 32 bytes)); saves the self-message's queueing, matching and copies through the MPI
// SRC:   mpiopt_sendrecv_self(ia, 8, MPI_INT, (rank + size) % size, 2, ia + 8, 8, MPI_INT, rank, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv_replace with the caller itself as nothing to move (mpiopt_sendrecv_replace_self) (its destination rank and its source rank are the caller's rank in MPI_COMM_WORLD: the receive takes the exchange's own message unless an earlier message from the caller to itself waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large enough (checked at run time too); the buffer keeps its contents; the status is the source and tag of the message and its count, as MPI gives it; the machine profile {{.*}}profile-peers.json (templates.self_replace) measured 0.070 us for the template against 0.110 us for the generic call at 0 bytes (the message: 4096 bytes)); saves the pack buffer and both copies of the exchange
  MPI_Sendrecv_replace(a, N, MPI_DOUBLE, rank, 3, rank, 3, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: self.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Sendrecv_replace with the caller itself stays generic (the machine profile {{.*}}profile-peers-slower.json has no measurement of templates.self_replace for 4096 bytes)
// SRC:   mpiopt_sendrecv_replace_self(a, N, MPI_DOUBLE, rank, 3, rank, 3, MPI_COMM_WORLD, &st);
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with the caller itself as a copy (mpiopt_sendrecv_self) (its destination 0 and its source 0 are the caller's rank in MPI_COMM_SELF: the receive takes the exchange's own message unless an earlier message from the caller to itself waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large enough (checked at run time too); both sides are MPI_DOUBLE, moved as bytes; the status is the source and tag of the message and its count, as MPI gives it; the machine profile {{.*}}profile-peers.json (templates.self_sendrecv) measured 0.100 us for the template against 0.150 us for the generic call at 0 bytes (the message: 32 bytes)); saves the self-message's queueing, matching and copies through the MPI
  MPI_Sendrecv(a, 4, MPI_DOUBLE, 0, 4, b, 4, MPI_DOUBLE, 0, 4, MPI_COMM_SELF, &st);
  // SLOWER-DAG: self.c:[[#@LINE-1]]:3: peer-templates: MPI_Sendrecv with the caller itself as a copy (mpiopt_sendrecv_self) (its destination 0 and its source 0 are the caller's rank in MPI_COMM_SELF: the receive takes the exchange's own message unless an earlier message from the caller to itself waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large enough (checked at run time too); both sides are MPI_DOUBLE, moved as bytes; the status is the source and tag of the message and its count, as MPI gives it; the machine profile {{.*}}profile-peers-slower.json (templates.self_sendrecv) measured 0.100 us for the template against 0.150 us for the generic call at 0 bytes (the message: 32 bytes)); saves the self-message's queueing, matching and copies through the MPI
// SRC:   mpiopt_sendrecv_self(a, 4, MPI_DOUBLE, 0, 4, b, 4, MPI_DOUBLE, 0, 4, MPI_COMM_SELF, &st);
  halo(a, 16, MPI_COMM_WORLD);
  // A duplicate of MPI_COMM_WORLD has its ranks.
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with the caller itself as a copy (mpiopt_sendrecv_self) (its destination rank and its source rank are the caller's rank in dup: {{.*}}
  MPI_Sendrecv(a, 8, MPI_DOUBLE, rank, 10, b, 8, MPI_DOUBLE, rank, 10, dup, &st);
// SRC:   mpiopt_sendrecv_self(a, 8, MPI_DOUBLE, rank, 10, b, 8, MPI_DOUBLE, rank, 10, dup, &st);
  MPI_Comm_free(&dup);

  // Different datatypes: MPI matches their signatures, not their bytes.
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: not done: MPI_Sendrecv with the caller itself stays generic (its send and receive datatypes differ (MPI_INT, MPI_FLOAT): MPI matches their signatures)
  MPI_Sendrecv(ia, 8, MPI_INT, rank, 5, b, 8, MPI_FLOAT, rank, 5, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: self.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Sendrecv with the caller itself stays generic (its send and receive datatypes differ (MPI_INT, MPI_FLOAT): MPI matches their signatures)
  // A pair type has a gap after its int: a copy of its bytes could differ.
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: not done: MPI_Sendrecv with the caller itself stays generic (its datatype MPI_DOUBLE_INT may have gaps between or inside its elements: a copy of its bytes could differ from MPI's)
  MPI_Sendrecv(a, 4, MPI_DOUBLE_INT, rank, 6, b, 4, MPI_DOUBLE_INT, rank, 6, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: self.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Sendrecv with the caller itself stays generic (its datatype MPI_DOUBLE_INT may have gaps between or inside its elements: a copy of its bytes could differ from MPI's)
  // A derived datatype: not a predefined one.
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: not done: MPI_Sendrecv_replace with the caller itself stays generic (its datatype pair is not a predefined one (a derived datatype may be uncommitted or freed, errors MPI reports))
  MPI_Sendrecv_replace(a, 4, pair, rank, 7, rank, 7, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: self.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Sendrecv_replace with the caller itself stays generic (its datatype pair is not a predefined one (a derived datatype may be uncommitted or freed, errors MPI reports))
  MPI_Type_free(&pair);
  // The rank in MPI_COMM_WORLD is not the rank in another communicator:
  // not proved the caller, so the template compares it at run time
  // (runtime-peers.c).
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub);
  wrank = rank;
  // REPORT-DAG: self.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with peers known only at run time as a copy where both are the caller (mpiopt_sendrecv_self) {{.*}}
  MPI_Sendrecv(a, 4, MPI_DOUBLE, wrank, 8, b, 4, MPI_DOUBLE, wrank, 8, sub, &st);
// SRC:   mpiopt_sendrecv_self(a, 4, MPI_DOUBLE, wrank, 8, b, 4, MPI_DOUBLE, wrank, 8, sub, &st);
  MPI_Comm_free(&sub);
  // Another process on one side: no candidate.
  MPI_Sendrecv(a, 4, MPI_DOUBLE, (rank + 1) % size, 9, b, 4, MPI_DOUBLE, rank, 9, MPI_COMM_WORLD, &st);
// SRC:   MPI_Sendrecv(a, 4, MPI_DOUBLE, (rank + 1) % size, 9, b, 4, MPI_DOUBLE, rank, 9, MPI_COMM_WORLD, &st);
  MPI_Finalize();
  return 0;
}
