// message-matching through another file's helpers: with the program's
// facts (--whole-program), a call of a function whose every MPI call is a
// blocking send or receive (or a collective) made in order on every path
// counts as those calls, with the peer, tag, count and datatype the caller
// passes. Positives: a tag that differs between send_int and recv_int
// (1); both ranks in exchange, whose MPI_Ssend waits for the other's
// receive (3); an int sent by send_int received as a double (5).
// Negatives: without the facts the runs stop at the other file's code (1
// again, silent); matching tags (2); rank 1's own receive and send answer
// rank 0's exchange (4); a wildcard receive in recv_any (6); maybe_send's
// send is under a branch, so its file gives no sequence and the runs stay
// silent although rank 1 waits for a message rank 0 never sends (7).
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=1 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching %s %S/Inputs/other-file-messages/helpers.c -- %mpich_cflags -DCASE=1 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching %s %S/Inputs/other-file-messages/helpers.c -- %mpich_cflags -DCASE=2 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching %s %S/Inputs/other-file-messages/helpers.c -- %openmpi_cflags -DCASE=3 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=THREE %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching %s %S/Inputs/other-file-messages/helpers.c -- %mpich_cflags -DCASE=4 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching %s %S/Inputs/other-file-messages/helpers.c -- %mpich_cflags -DCASE=5 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FIVE %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching %s %S/Inputs/other-file-messages/helpers.c -- %openmpi_cflags -DCASE=6 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --whole-program --checks=message-matching %s %S/Inputs/other-file-messages/helpers.c -- %mpich_cflags -DCASE=7 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// NONE-NOT: warning:
#include <mpi.h>

void send_int(int *v, int dest, int tag);
void recv_int(int *v, int src, int tag);
void recv_any(int *v);
void exchange(double *out, double *in, int n, int peer);
void maybe_send(int *v, int dest, int flag);

int main(int argc, char **argv) {
  int rank, size, v = 0;
  double a[4] = {0}, b[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2)
    MPI_Abort(MPI_COMM_WORLD, 1);
#if CASE == 1
  if (rank == 0)
    send_int(&v, 1, 5);
  else
    // ONE: {{.*}}other-file-messages.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 1 waits in MPI_Recv in recv_int (line [[#@LINE+1]]) for a message from rank 0 with tag 6, but rank 0 goes on to MPI_Finalize (line {{[0-9]+}}) without sending it: the receive never completes, and MPI_Finalize waits for it [ompi-message-matching]
    recv_int(&v, 0, 6);
  // ONE: {{.*}}note: rank 0 waits here
#elif CASE == 2
  if (rank == 0)
    send_int(&v, 1, 5);
  else
    recv_int(&v, 0, 5);
#elif CASE == 3
  // THREE: {{.*}}other-file-messages.c:[[#@LINE+2]]:3: warning: with 2 processes, rank 0 waits in MPI_Ssend in exchange (line [[#@LINE+2]]) until rank 1 receives, while rank 1 waits in MPI_Ssend in exchange (line [[#@LINE+2]]) until rank 0 receives: neither can go on, whatever the buffering (a blocking receive returns only once a matching message is sent) [ompi-message-matching]
  // THREE: {{.*}}other-file-messages.c:[[#@LINE+1]]:3: note: rank 1 waits here
  exchange(a, b, 4, 1 - rank);
#elif CASE == 4
  if (rank == 0) {
    exchange(a, b, 4, 1);
  } else {
    MPI_Recv(b, 4, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(a, 4, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
  }
#elif CASE == 5
  if (rank == 0)
    send_int(&v, 1, 3);
  else
    // FIVE: {{.*}}other-file-messages.c:[[#@LINE+1]]:5: warning: with 2 processes, the message rank 0 sends with MPI_Send in send_int (line [[#@LINE-2]]) and rank 1 receives here is sent as MPI_INT (int) but received as MPI_DOUBLE (double): the type signatures of a send and its receive must match [ompi-message-matching]
    MPI_Recv(a, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // FIVE: {{.*}}other-file-messages.c:[[#@LINE-4]]:5: note: the send
#elif CASE == 6
  if (rank == 0)
    send_int(&v, 1, 9);
  else
    recv_any(&v);
#elif CASE == 7
  if (rank == 0)
    maybe_send(&v, 1, 0);
  else
    recv_int(&v, 0, 0);
#endif
  MPI_Finalize();
  return 0;
}
