// sendrecv-pairing (analysis/PairPlan.h): an MPI_Send and an MPI_Recv
// written as adjacent statements (either order) on the same communicator
// become one MPI_Sendrecv, whose transfers overlap, where the machine
// profile measured the exchange faster. Negative cases say why the tool
// leaves the two calls as they are.
// RUN: %ompi-opt --report --profile=%inputs/profile-peers.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-peers-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --transforms=sendrecv-pairing --profile=%inputs/profile-peers.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>

#define N 1024
#define SEND(b) MPI_Send(b, N, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD)
static double a[N], b[N];

// A helper's buffers are pointers: they may be the same memory.
void relay(double *in, double *out, int left, int right, MPI_Comm comm) {
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+2]] and MPI_Send at line [[#@LINE+3]] stay two calls (the send buffer (out) and the receive buffer (in) are not known to be different objects (named variables, or pointers that each hold one allocation of their own): MPI_Sendrecv needs them disjoint)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+1]] and MPI_Send at line [[#@LINE+2]] stay two calls (the send buffer (out) and the receive buffer (in) are not known to be different objects (named variables, or pointers that each hold one allocation of their own): MPI_Sendrecv needs them disjoint)
  MPI_Recv(in, N, MPI_DOUBLE, left, 0, comm, MPI_STATUS_IGNORE);
  MPI_Send(out, N, MPI_DOUBLE, right, 0, comm);
}

int main(int argc, char **argv) {
  int rank, size, left, right, n = N, tag = 0, dims[1] = {0}, periods[1] = {1};
  MPI_Status st;
  MPI_Comm cart;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  // The exchange of two neighbours: one sends first, the other receives first.
  if (rank % 2 == 0) {
    // REPORT-DAG: pairing.c:[[#@LINE+2]]:5: sendrecv-pairing: MPI_Send at line [[#@LINE+2]] and MPI_Recv at line [[#@LINE+3]] as one MPI_Sendrecv (adjacent statements on MPI_COMM_WORLD: MPI_Sendrecv runs the send and the receive as if in parallel, so every outcome is one the pair could have had; no argument has side effects; the buffers a and b are different objects; the receive names its source and tag; the machine profile {{.*}}profile-peers.json (templates.sendrecv_pair) measured 1.05 us for the exchange against 1.45 us for the pair at 4096 bytes (the message: 8192 bytes)); saves the wait between the two transfers: they overlap
    // SLOWER-DAG: pairing.c:[[#@LINE+1]]:5: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (the machine profile {{.*}}profile-peers-slower.json (templates.sendrecv_pair) measured 6800.00 us for the exchange against 6810.00 us for the pair at 16777216 bytes (the message: 8192 bytes); the exchange must be 5% faster)
    MPI_Send(a, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
    MPI_Recv(b, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
// SRC:     MPI_Sendrecv(a, N, MPI_DOUBLE, right, 1, b, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
// SRC-EMPTY:
  } else {
    // REPORT-DAG: pairing.c:[[#@LINE+2]]:5: sendrecv-pairing: MPI_Recv at line [[#@LINE+2]] and MPI_Send at line [[#@LINE+3]] as one MPI_Sendrecv (adjacent statements on MPI_COMM_WORLD: MPI_Sendrecv runs the send and the receive as if in parallel, so every outcome is one the pair could have had; no argument has side effects; the buffers a and b are different objects; the receive names its source and tag; the send's arguments read nothing the receive writes; the machine profile {{.*}}profile-peers.json (templates.sendrecv_pair) measured 1.05 us for the exchange against 1.45 us for the pair at 4096 bytes (the message: 8192 bytes)); saves the wait between the two transfers: they overlap
    // SLOWER-DAG: pairing.c:[[#@LINE+1]]:5: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+1]] and MPI_Send at line [[#@LINE+2]] stay two calls (the machine profile {{.*}}profile-peers-slower.json (templates.sendrecv_pair) measured 6800.00 us for the exchange against 6810.00 us for the pair at 16777216 bytes (the message: 8192 bytes); the exchange must be 5% faster)
    MPI_Recv(b, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
    MPI_Send(a, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
// SRC:     MPI_Sendrecv(a, N, MPI_DOUBLE, right, 1, b, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
// SRC-EMPTY:
  }
  // Peers known only at run time, in a loop.
  MPI_Dims_create(size, 1, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  MPI_Cart_shift(cart, 0, 1, &left, &right);
  for (int it = 0; it < 3; it++) {
    // REPORT-DAG: pairing.c:[[#@LINE+2]]:5: sendrecv-pairing: MPI_Send at line [[#@LINE+2]] and MPI_Recv at line [[#@LINE+3]] as one MPI_Sendrecv (adjacent statements on cart: MPI_Sendrecv runs the send and the receive as if in parallel, so every outcome is one the pair could have had; no argument has side effects; the buffers &a[8] and &b[8] are different objects; the receive names its source and tag; the machine profile {{.*}}profile-peers.json (templates.sendrecv_pair) measured 1.05 us for the exchange against 1.45 us for the pair at 4096 bytes (the message: 128 bytes)); saves the wait between the two transfers: they overlap
    // SLOWER-DAG: pairing.c:[[#@LINE+1]]:5: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (the machine profile {{.*}}profile-peers-slower.json (templates.sendrecv_pair) measured 6800.00 us for the exchange against 6810.00 us for the pair at 16777216 bytes (the message: 128 bytes); the exchange must be 5% faster)
    MPI_Send(&a[8], 16, MPI_DOUBLE, right, 2, cart);
    MPI_Recv(&b[8], 16, MPI_DOUBLE, left, 2, cart, MPI_STATUS_IGNORE);
// SRC:     MPI_Sendrecv(&a[8], 16, MPI_DOUBLE, right, 2, &b[8], 16, MPI_DOUBLE, left, 2, cart, MPI_STATUS_IGNORE);
// SRC-EMPTY:
  }

  // Something between the two calls.
  MPI_Send(a, N, MPI_DOUBLE, right, 3, cart);
  a[0] = 1;
  MPI_Recv(b, N, MPI_DOUBLE, left, 3, cart, MPI_STATUS_IGNORE);
  MPI_Barrier(cart);
  // A comment between the two calls would be lost.
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+2]] and MPI_Recv at line [[#@LINE+4]] stay two calls (something is written between the two calls)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+3]] stay two calls (something is written between the two calls)
  MPI_Send(a, N, MPI_DOUBLE, right, 3, cart);
  /* keep me */
  MPI_Recv(b, N, MPI_DOUBLE, left, 3, cart, MPI_STATUS_IGNORE);
  MPI_Barrier(cart);
  // The same buffer: a relay of what was received.
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+2]] and MPI_Send at line [[#@LINE+3]] stay two calls (the send buffer (a) and the receive buffer (a) are not known to be different objects (named variables, or pointers that each hold one allocation of their own): MPI_Sendrecv needs them disjoint)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+1]] and MPI_Send at line [[#@LINE+2]] stay two calls (the send buffer (a) and the receive buffer (a) are not known to be different objects (named variables, or pointers that each hold one allocation of their own): MPI_Sendrecv needs them disjoint)
  MPI_Recv(a, N, MPI_DOUBLE, left, 4, cart, MPI_STATUS_IGNORE);
  MPI_Send(a, N, MPI_DOUBLE, right, 4, cart);
  MPI_Barrier(cart);
  // The send's count is what the receive writes.
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+2]] and MPI_Send at line [[#@LINE+3]] stay two calls (the send's arguments read n, which the receive written first writes)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+1]] and MPI_Send at line [[#@LINE+2]] stay two calls (the send's arguments read n, which the receive written first writes)
  MPI_Recv(&n, 1, MPI_INT, left, 5, cart, MPI_STATUS_IGNORE);
  MPI_Send(a, n, MPI_DOUBLE, right, 5, cart);
  MPI_Barrier(cart);
  // The send goes back to where the message came from (the status).
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+2]] and MPI_Send at line [[#@LINE+3]] stay two calls (the send's arguments read st, which the receive written first writes)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Recv at line [[#@LINE+1]] and MPI_Send at line [[#@LINE+2]] stay two calls (the send's arguments read st, which the receive written first writes)
  MPI_Recv(b, N, MPI_DOUBLE, left, 6, cart, &st);
  MPI_Send(a, N, MPI_DOUBLE, st.MPI_SOURCE, 6, cart);
  MPI_Barrier(cart);
  // A wildcard receive, posted earlier, could more often match another message.
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+2]] and MPI_Recv at line [[#@LINE+3]] stay two calls (the receive takes MPI_ANY_SOURCE: posted earlier, it could more often match another message)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (the receive takes MPI_ANY_SOURCE: posted earlier, it could more often match another message)
  MPI_Send(a, N, MPI_DOUBLE, right, 7, cart);
  MPI_Recv(b, N, MPI_DOUBLE, MPI_ANY_SOURCE, 7, cart, MPI_STATUS_IGNORE);
  MPI_Barrier(cart);
  // Nothing to overlap with MPI_PROC_NULL.
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+2]] and MPI_Recv at line [[#@LINE+3]] stay two calls (a peer is MPI_PROC_NULL: nothing to overlap)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (a peer is MPI_PROC_NULL: nothing to overlap)
  MPI_Send(a, N, MPI_DOUBLE, MPI_PROC_NULL, 8, cart);
  MPI_Recv(b, N, MPI_DOUBLE, left, 8, cart, MPI_STATUS_IGNORE);
  MPI_Barrier(cart);
  // Two communicators.
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+2]] and MPI_Recv at line [[#@LINE+3]] stay two calls (the two calls may not run on the same communicator)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (the two calls may not run on the same communicator)
  MPI_Send(a, N, MPI_DOUBLE, right, 10, cart);
  MPI_Recv(b, N, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(cart);
  // An argument with a side effect.
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+2]] and MPI_Recv at line [[#@LINE+3]] stay two calls (an argument (tag++) has side effects or is written in a macro's body: the exchange evaluates every argument before either transfer)
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (an argument (tag++) has side effects or is written in a macro's body: the exchange evaluates every argument before either transfer)
  MPI_Send(a, N, MPI_DOUBLE, right, tag++, cart);
  MPI_Recv(b, N, MPI_DOUBLE, left, tag, cart, MPI_STATUS_IGNORE);
  MPI_Barrier(cart);
  // A use of a macro whose body is the call: judged as the call it spells
  // (analysis/MacroCalls.cpp), written out where it pairs.
  // REPORT-DAG: pairing.c:[[#@LINE+2]]:3: sendrecv-pairing: MPI_Send at line [[#@LINE+2]] and MPI_Recv at line [[#@LINE+3]] as one MPI_Sendrecv {{.*}}; a use of the macro SEND (pairing.c:15), written here as its MPI call); saves {{.*}}
  // SLOWER-DAG: pairing.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (the machine profile {{.*}}; a use of the macro SEND (pairing.c:15), judged as its MPI call and left as written)
  SEND(a);
  MPI_Recv(b, N, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(cart);
  // The return code is used: no statement of its own, no candidate.
  if (MPI_Send(a, N, MPI_DOUBLE, right, 11, cart) == MPI_SUCCESS)
    MPI_Recv(b, N, MPI_DOUBLE, left, 11, cart, MPI_STATUS_IGNORE);
  relay(a, b, left, right, cart);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
