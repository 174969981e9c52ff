// message-matching: main's point-to-point calls run rank by rank and
// matched as an MPI library would match them (standard sends buffered, so
// what is reported happens whatever the buffering). The positives wait for
// each other in receives, in synchronous sends, receive what is never sent,
// receive another type or less room than is sent (also through datatypes
// built in the file, read as their predefined type). The negatives exchange
// in a safe order, with MPI_Sendrecv, with MPI_ANY_SOURCE, through a
// helper, in a ring loop, with nonblocking calls and waits, or use calls
// the run does not follow (a test loop). Tags and peers computed by the
// file's helpers are run call by call (cases 16 and 17). Communicators the
// runs make (MPI_Comm_split, MPI_Comm_dup) are followed through the
// variables that hold them, their ranks translated to the world's, so that
// a message sent on one communicator and awaited on another is found (case
// 21); persistent requests are issued by their starts, MPI_Probe waits for
// a message (23, 24), and a message no rank receives before MPI_Finalize is
// a finding where a receive for it is in the program (25). Three ranks
// each receiving from the one before first wait in a cycle, described
// rank by rank (28).
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %openmpi_cflags -DCASE=1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=2 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TWO %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=3 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=THREE %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=4 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FOUR %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=5 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FIVE %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=6 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=SIX %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=7 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=SEVEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=8 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=EIGHT %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=9 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NINE %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=10 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %openmpi_cflags -DCASE=10 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=11 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=ELEVEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=12 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TWELVE %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=13 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=THIRTEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=14 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FOURTEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %openmpi_cflags -DCASE=14 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FOURTEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=15 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=FIFTEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=16 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=SIXTEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=17 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=SEVENTEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=18 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=EIGHTEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %openmpi_cflags -DCASE=18 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=EIGHTEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=19 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=NINETEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %openmpi_cflags -DCASE=19 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=NINETEEN %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=20 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=TWENTY %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=21 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=CASE21 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %openmpi_cflags -DCASE=21 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=CASE21 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=22 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=CASE22 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %openmpi_cflags -DCASE=22 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=CASE22 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=23 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=CASE23 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=24 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=CASE24 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=25 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=CASE25 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %openmpi_cflags -DCASE=25 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=CASE25 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=26 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=CASE26 %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DCASE=27 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=CASE27 %s
// RUN: %ompi-opt --check --checks=message-matching --nprocs=3 %s -- %mpich_cflags -DCASE=28 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=CASE28 %s
#include <mpi.h>
#include <stdio.h>

/* A tag computed by a helper that counts through a pointer (CorrBench's
   ArgMismatch-MPIRecv-Tag-2): the runs follow it call by call. */
static int next_tag(int i, int *evens) {
  if (i % 2 == 0)
    (*evens)++;
  if (*evens == 3)
    return i + 100;
  return i;
}

static int ring_right(int r, int s) { return (r + 1) % s; }

/* Helpers whose value the runs do not know: one counts its calls in a
   static variable (its value depends on the earlier calls), one loops on
   input. */
static int counted(void) {
  static int n = 0;
  return ++n;
}

static int scanned(int n) {
  int t = 0;
  while (scanf("%d", &n) == 1 && n > 0)
    t++;
  return t;
}

static void exchange(int *buf, int peer) {
  MPI_Sendrecv(buf, 4, MPI_INT, peer, 0, buf + 4, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  int rank, size, buf[8] = {0};
  double d[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#if CASE == 1
  // Both ranks receive first: a deadlock with any buffering.
  if (rank == 0) {
    // ONE: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0 waits in MPI_Recv (line {{[0-9]+}}) for a message from rank 1, while rank 1 waits in MPI_Recv (line {{[0-9]+}}) for a message from rank 0: neither can go on, whatever the buffering (a blocking receive returns only once a matching message is sent) [ompi-message-matching]
    MPI_Recv(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
#elif CASE == 2
  // Synchronous sends both ways: each waits for the other's receive.
  if (rank < 2) {
    // TWO: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0 waits in MPI_Ssend (line {{[0-9]+}}) until rank 1 receives, while rank 1 waits in MPI_Ssend (line {{[0-9]+}}) until rank 0 receives: neither can go on, whatever the buffering (a blocking receive returns only once a matching message is sent) [ompi-message-matching]
    MPI_Ssend(buf, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#elif CASE == 3
  // Rank 0 never sends what rank 1 waits for (the tag differs).
  if (rank == 0)
    MPI_Send(buf, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
  else if (rank == 1)
    // THREE: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 1 waits in MPI_Recv (line {{[0-9]+}}) for a message from rank 0 with tag 2, but rank 0 goes on to MPI_Finalize (line {{[0-9]+}}) without sending it: the receive never completes, and MPI_Finalize waits for it [ompi-message-matching]
    MPI_Recv(buf, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif CASE == 4
  // Sent as int, received as double; then more than the receive holds.
  if (rank == 0) {
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 8, MPI_INT, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    // FOUR: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, the message rank 0 sends with MPI_Send (line {{[0-9]+}}) and rank 1 receives here is sent as MPI_INT (int) but received as MPI_DOUBLE (double): the type signatures of a send and its receive must match [ompi-message-matching]
    MPI_Recv(d, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // FOUR: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, the message rank 0 sends with MPI_Send (line {{[0-9]+}}) and rank 1 receives here holds 8 x MPI_INT (32 bytes) but the receive has room for 4 x MPI_INT (16 bytes): a message longer than its receive buffer is an error (MPI_ERR_TRUNCATE) [ompi-message-matching]
    MPI_Recv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#elif CASE == 5
  // A receive that waits while its peer is already in MPI_Finalize.
  if (rank == 1)
    // FIVE: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 1 waits in MPI_Recv (line {{[0-9]+}}) for a message from rank 0 with tag 0, but rank 0 goes on to MPI_Finalize (line {{[0-9]+}}) without sending it: the receive never completes, and MPI_Finalize waits for it [ompi-message-matching]
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif CASE == 6
  // SIX-NOT: warning:
  // Negatives. A safe order: one side sends first.
  if (rank == 0) {
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  // Both send first: fine with buffering (standard sends are taken as
  // buffered: only what happens whatever the buffering is reported).
  if (rank < 2) {
    MPI_Send(buf, 4, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD);
    MPI_Recv(buf, 4, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  // MPI_Sendrecv through a helper, and a ring in a loop.
  if (rank < 2)
    exchange(buf, 1 - rank);
  for (int k = 0; k < 3; ++k)
    MPI_Sendrecv(buf, 1, MPI_INT, (rank + 1) % size, k, buf + 1, 1, MPI_INT, (rank + size - 1) % size, k,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // Any source, any tag; fewer elements received than the buffer holds.
  if (rank == 0) {
    for (int k = 1; k < size; ++k)
      MPI_Recv(buf, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(buf, 2, MPI_INT, 0, rank, MPI_COMM_WORLD);
  }
  // MPI_BYTE matches any type; MPI_PROC_NULL is never waited for.
  if (rank == 0)
    MPI_Send(d, 32, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(d, 4, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#if BUG
  MPI_Recv(buf, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
#elif CASE == 7
  // Nonblocking: rank 1 waits for an MPI_Irecv whose message rank 0 never
  // sends.
  MPI_Request r;
  if (rank == 1) {
    MPI_Irecv(buf, 4, MPI_INT, 0, 9, MPI_COMM_WORLD, &r);
    // SEVEN: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 1 waits in MPI_Wait (line {{[0-9]+}}) for the MPI_Irecv of line {{[0-9]+}}, a message from rank 0 with tag 9, but rank 0 goes on to MPI_Finalize (line {{[0-9]+}}) without sending it: the receive never completes, and MPI_Finalize waits for it [ompi-message-matching]
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
#elif CASE == 8
  // EIGHT-NOT: warning:
  // Nonblocking exchanges that complete: a ring with MPI_Waitall, an
  // MPI_Isend waited after the receive that matches the peer's.
  MPI_Request rs[2];
  MPI_Irecv(buf, 4, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &rs[0]);
  MPI_Isend(buf + 4, 4, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &rs[1]);
  MPI_Waitall(2, rs, MPI_STATUSES_IGNORE);
  if (rank < 2) {
    MPI_Request s;
    MPI_Issend(buf, 4, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD, &s);
    MPI_Recv(buf + 4, 4, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
  }
#elif CASE == 9
  // NINE-NOT: warning:
  // A test loop: the run is not followed, nothing is said (rank 1 waits
  // for a message rank 0 never sends).
  MPI_Request r;
  int done = 0;
  if (rank == 1) {
    MPI_Irecv(buf, 4, MPI_INT, 0, 9, MPI_COMM_WORLD, &r);
    while (!done)
      MPI_Test(&r, &done, MPI_STATUS_IGNORE);
  }
#elif CASE == 10
  // Every rank takes a branch on argc alike, so each outcome is followed in
  // turn: where 'argc == 1' holds, rank 1 waits for tag 1, and rank 0 sends
  // tag 0 only.
  int tag = 0;
  if (argc == 1)
    tag = 1;
  if (rank == 0)
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    // TEN: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, where 'argc == 1' holds, rank 1 waits in MPI_Recv (line [[#@LINE+1]]) for a message from rank 0 with tag 1, but rank 0 goes on to MPI_Finalize (line {{[0-9]+}}) without sending it: the receive never completes, and MPI_Finalize waits for it [ompi-message-matching]
    MPI_Recv(buf, 4, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif CASE == 11
  // ELEVEN-NOT: warning:
  // Negative: both outcomes of the branches on argc match every message
  // (the tag is the same on both sides; the order is swapped on both).
  int tag = 0;
  if (argc == 1)
    tag = 1;
  if (rank == 0)
    MPI_Send(buf, 4, MPI_INT, 1, tag, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(buf, 4, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (argc > 2) {
    if (rank == 0) {
      MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
  } else if (rank == 0) {
    MPI_Recv(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Send(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  // 'argc == 1' and 'argc > 2' never hold together: the runs that would
  // take both (and deadlock) are dropped.
  int first = 0, second = 0;
  if (argc == 1)
    first = 1;
  if (argc > 2)
    second = 1;
  if (first && second && rank < 2) {
    MPI_Recv(buf, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
  }
#elif CASE == 12
  // A destination beyond the size on one outcome of argc (CorrBench's
  // conflo ArgError-MPISend-Rank): rank 10 does not exist with 2 processes.
  int target = 1;
  if (argc == 1)
    target = 10;
  if (rank == 0)
    // TWELVE: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, where 'argc == 1' holds, rank 0 sends to rank 10 in MPI_Send (line [[#@LINE+1]]), which does not exist (the ranks are 0 to 1): a peer must be a rank of the communicator, MPI_PROC_NULL [ompi-message-matching]
    MPI_Send(buf, 4, MPI_INT, target, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif CASE == 13
  // THIRTEEN-NOT: warning:
  // Negative: a peer beyond 1 only where the size allows it (a program for
  // 11 processes or more that checks the size, aborting below it).
  if (size < 11)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0)
    MPI_Send(buf, 4, MPI_INT, 10, 0, MPI_COMM_WORLD);
  else if (rank == 10)
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif CASE == 14
  // Datatypes built in the file count as the elements of their predefined
  // type (CorrBench's usertypes ArgMismatch-MPIRecv-Type-4 and -5): two
  // ints received as doubles, as two doubles; three columns of 4 ints (12)
  // into a receive with room for 2 x two ints (4).
  MPI_Datatype two_ints, two_dbls, col;
  MPI_Type_contiguous(2, MPI_INT, &two_ints);
  MPI_Type_contiguous(2, MPI_DOUBLE, &two_dbls);
  MPI_Type_vector(4, 1, 2, MPI_INT, &col);
  MPI_Type_commit(&two_ints);
  MPI_Type_commit(&two_dbls);
  MPI_Type_commit(&col);
  if (rank == 0) {
    MPI_Send(buf, 1, two_ints, 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 1, two_ints, 1, 1, MPI_COMM_WORLD);
    MPI_Send(buf, 3, col, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    // FOURTEEN: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, the message rank 0 sends with MPI_Send (line {{[0-9]+}}) and rank 1 receives here is sent as two_ints (built from MPI_INT) (int) but received as MPI_DOUBLE (double): the type signatures of a send and its receive must match [ompi-message-matching]
    MPI_Recv(d, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // FOURTEEN: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, the message rank 0 sends with MPI_Send (line {{[0-9]+}}) and rank 1 receives here is sent as two_ints (built from MPI_INT) (int) but received as two_dbls (built from MPI_DOUBLE) (double): the type signatures of a send and its receive must match [ompi-message-matching]
    MPI_Recv(d, 1, two_dbls, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // FOURTEEN: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, the message rank 0 sends with MPI_Send (line {{[0-9]+}}) and rank 1 receives here holds 3 x col (built from MPI_INT) (48 bytes) but the receive has room for 2 x two_ints (built from MPI_INT) (16 bytes): a message longer than its receive buffer is an error (MPI_ERR_TRUNCATE) [ompi-message-matching]
    MPI_Recv(buf, 2, two_ints, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&two_ints);
  MPI_Type_free(&two_dbls);
  MPI_Type_free(&col);
#elif CASE == 15
  // FIFTEEN-NOT: warning:
  // Negatives: the same signature through a derived type on one side only
  // (CorrBench's ArgMismatch-MPIRecv-Type-2, correct MPI); a receive with
  // more room than the message (Type-3: a shorter message is legal); a
  // type built twice with different shapes (Type-6: its shape is not known,
  // and 16 floats into room for 32 would be legal anyway).
  MPI_Datatype two_ints, col;
  float f[64];
  MPI_Type_contiguous(2, MPI_INT, &two_ints);
  MPI_Type_commit(&two_ints);
  MPI_Type_vector(4, 1, 4, MPI_FLOAT, &col);
  MPI_Type_commit(&col);
  if (rank == 0) {
    MPI_Send(buf, 1, two_ints, 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 1, two_ints, 1, 1, MPI_COMM_WORLD);
    MPI_Send(f, 1, col, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(buf, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, 3, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&col);
    MPI_Type_vector(4, 2, 4, MPI_FLOAT, &col);
    MPI_Type_commit(&col);
    MPI_Recv(f, 1, col, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&two_ints);
  MPI_Type_free(&col);
#elif CASE == 16
  int evens = 0;
  for (int i = 0; i < 6; i++) {
    if (rank == 0) {
      MPI_Send(buf, 1, MPI_INT, ring_right(rank, size), i, MPI_COMM_WORLD);
    } else if (rank == 1) {
      int tag = next_tag(i, &evens);
      // SIXTEEN: {{.*}}message-matching.c:[[#@LINE+1]]:7: warning: with 2 processes, rank 1 waits in MPI_Recv (line {{[0-9]+}}) for a message from rank 0 with tag 104, but rank 0 goes on to MPI_Finalize (line {{[0-9]+}}) without sending it: the receive never completes, and MPI_Finalize waits for it [ompi-message-matching]
      MPI_Recv(buf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
#elif CASE == 17
  // SEVENTEEN-NOT: warning:
  // Negatives: the helper's counter agrees with the sender's; helpers that
  // keep a static count or read input give no value (their tags are
  // unknown, and an unknown tag is taken to match).
  int evens = 0;
  for (int i = 0; i < 6; i++) {
    if (rank == 0) {
      MPI_Send(buf, 1, MPI_INT, 1, i < 4 ? i : i + 100, MPI_COMM_WORLD);
    } else if (rank == 1) {
      int tag = next_tag(i, &evens);
      MPI_Recv(buf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (rank == 0) {
    MPI_Send(buf, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send(buf, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    MPI_Send(buf, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(buf, 1, MPI_INT, 0, counted(), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, 1, MPI_INT, 0, counted(), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, 1, MPI_INT, 0, scanned(argc), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#elif CASE == 18
  // A datatype variable set from another on each outcome of argc (CorrBench's
  // conflo ArgMismatch-MPIRecv-Type-3): two doubles received where two ints
  // are sent. Negatives: the outcome that picks two_ints; a variable set
  // from a type built twice (its shape is not known).
  MPI_Datatype two_ints, two_dbls, picked, rebuilt, either;
  MPI_Type_contiguous(2, MPI_INT, &two_ints);
  MPI_Type_commit(&two_ints);
  MPI_Type_contiguous(2, MPI_DOUBLE, &two_dbls);
  MPI_Type_commit(&two_dbls);
  if (argc == 1)
    picked = two_dbls;
  else
    picked = two_ints;
  MPI_Type_contiguous(2, MPI_DOUBLE, &rebuilt);
  MPI_Type_free(&rebuilt);
  MPI_Type_contiguous(4, MPI_DOUBLE, &rebuilt);
  MPI_Type_commit(&rebuilt);
  either = rebuilt;
  if (rank == 0) {
    MPI_Send(buf, 1, two_ints, 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 1, two_ints, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    // EIGHTEEN: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, where 'argc == 1' holds, the message rank 0 sends with MPI_Send (line {{[0-9]+}}) and rank 1 receives here is sent as two_ints (built from MPI_INT) (int) but received as picked (two_dbls on this path, built from MPI_DOUBLE) (double): the type signatures of a send and its receive must match [ompi-message-matching]
    MPI_Recv(d, 1, picked, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(d, 1, either, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&two_ints);
  MPI_Type_free(&two_dbls);
  MPI_Type_free(&rebuilt);
#elif CASE == 19
  // A communicator split from the world in which every rank is alone
  // (CorrBench's ArgMismatch-MPISend-Communicator-2): rank 1 of it does not
  // exist.
  MPI_Comm alone;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 1, rank, &alone);
  if (rank == 0)
    // NINETEEN: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0 sends to rank 1 of 'alone' in MPI_Send (line [[#@LINE+1]]), but MPI_Comm_split (line [[#@LINE-2]]) made 'alone' of 1 process there (colour 0: world rank 0): a peer must be a rank of the communicator, MPI_PROC_NULL [ompi-message-matching]
    MPI_Send(buf, 1, MPI_INT, 1, 0, alone);
  // NINETEEN: {{.*}}message-matching.c:[[#@LINE-4]]:3: note: rank 0 joins colour 0 here
  else if (rank == 1)
    MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Comm_free(&alone);
#elif CASE == 20
  // TWENTY-NOT: warning:
  // Negatives: a peer inside the caller's part (with 2 processes the even
  // and the odd ranks are each alone: rank 0 of it is the caller); a rank
  // outside every part (MPI_UNDEFINED) that makes no call on it; a
  // communicator made again by MPI_Comm_dup after the split (its size is
  // the world's).
  MPI_Comm half, some, again;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &some);
  MPI_Comm_split(MPI_COMM_WORLD, rank, rank, &again);
  MPI_Comm_free(&again);
  MPI_Comm_dup(MPI_COMM_WORLD, &again);
  MPI_Sendrecv(buf, 1, MPI_INT, 0, 0, buf + 1, 1, MPI_INT, 0, 0, half, MPI_STATUS_IGNORE);
  if (rank != 0)
    MPI_Sendrecv(buf, 1, MPI_INT, size - 2, 1, buf + 1, 1, MPI_INT, 0, 1, some, MPI_STATUS_IGNORE);
  if (rank == 0)
    MPI_Send(buf, 1, MPI_INT, 1, 2, again);
  else if (rank == 1)
    MPI_Recv(buf, 1, MPI_INT, 0, 2, again, MPI_STATUS_IGNORE);
  MPI_Comm_free(&half);
  if (rank != 0)
    MPI_Comm_free(&some);
  MPI_Comm_free(&again);
#elif CASE == 21
  // Rank 0's variable holds the world, rank 1's the communicator split of
  // it (MBI's P2PComMatching): the message goes on one, the receive waits
  // on the other.
  MPI_Comm newcom;
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &newcom);
  if (rank == 0)
    newcom = MPI_COMM_WORLD;
  if (rank == 0)
    MPI_Send(buf, 1, MPI_INT, 1, 0, newcom);
  else if (rank == 1)
    // CASE21: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 1 waits in MPI_Recv (line [[#@LINE+1]]) for a message on 'newcom' (the communicator MPI_Comm_split made at line [[#@LINE-6]]), but the message rank 0 sends it with MPI_Send (line [[#@LINE-2]]) goes on MPI_COMM_WORLD, which 'newcom' holds there: a message is received only on the communicator it was sent on [ompi-message-matching]
    MPI_Recv(buf, 1, MPI_INT, 0, 0, newcom, MPI_STATUS_IGNORE);
  // CASE21: {{.*}}message-matching.c:[[#@LINE-4]]:5: note: rank 0 sends here
  if (newcom != MPI_COMM_WORLD)
    MPI_Comm_free(&newcom);
#elif CASE == 22
  // CASE22-NOT: warning:
  // Negatives: a communicator split of the world with the ranks reversed
  // (rank 0 of 'rev' is the last world rank): each side names the other by
  // its rank in 'rev'; one MPI_Comm_dup made; a source held in a variable
  // (MPI_ANY_SOURCE is -2 in MPICH, where -1 is MPI_PROC_NULL); a request
  // compared with MPI_REQUEST_NULL after its wait; persistent requests
  // started in a loop; a probe after the send it waits for.
  MPI_Comm rev, dup;
  MPI_Request req = MPI_REQUEST_NULL, preq[2];
  int src = MPI_ANY_SOURCE;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank == 0)
    MPI_Send(buf, 1, MPI_INT, size - 2, 0, rev);
  else if (rank == 1)
    MPI_Recv(buf, 1, MPI_INT, size - 1, 0, rev, MPI_STATUS_IGNORE);
  if (rank == 0) {
    MPI_Isend(buf, 1, MPI_INT, 1, 1, dup, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buf, 1, MPI_INT, src, 1, dup, MPI_STATUS_IGNORE);
  }
  if (req != MPI_REQUEST_NULL)
    MPI_Request_free(&req);
  if (rank < 2) {
    MPI_Send_init(buf, 1, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD, &preq[0]);
    MPI_Recv_init(buf + 1, 1, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD, &preq[1]);
    for (int i = 0; i < 3; i++) {
      MPI_Startall(2, preq);
      MPI_Waitall(2, preq, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&preq[0]);
    MPI_Request_free(&preq[1]);
  }
  if (rank == 0) {
    MPI_Send(buf, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Probe(0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&rev);
  MPI_Comm_free(&dup);
#elif CASE == 23
  // Both ranks probe before they send (MBI's P2PCallMatching_Probe_*): a
  // probe returns only once a matching message is there.
  if (rank < 2) {
    // CASE23: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0 waits in MPI_Probe (line [[#@LINE+1]]) for a message from rank 1, while rank 1 waits in MPI_Probe (line [[#@LINE+1]]) for a message from rank 0: neither can go on, whatever the buffering (a blocking receive returns only once a matching message is sent) [ompi-message-matching]
    MPI_Probe(1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // CASE23: {{.*}}message-matching.c:[[#@LINE-1]]:5: note: rank 1 waits here
    MPI_Send(buf, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#elif CASE == 24
  // A persistent receive of doubles for a persistent send of ints.
  MPI_Request r;
  if (rank == 0) {
    MPI_Send_init(buf, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
  } else if (rank == 1) {
    // CASE24: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, the message rank 0 sends with MPI_Send_init (line [[#@LINE-2]]) and rank 1 receives here is sent as MPI_INT (int) but received as MPI_DOUBLE (double): the type signatures of a send and its receive must match [ompi-message-matching]
    MPI_Recv_init(d, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r);
  }
  if (rank < 2) {
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
  }
#elif CASE == 25
  // The receive is on a path no rank takes ('raining' is never set, MBI's
  // P2PCallMatching_Recv_Send): rank 0's message is left pending at
  // MPI_Finalize.
  int raining = 0;
  if (rank == 0)
    // CASE25: {{.*}}message-matching.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0 sends to rank 1 with tag 0 in MPI_Send (line [[#@LINE+1]]), but rank 1 ends without receiving it: every message must be received before MPI_Finalize (a communication left pending makes the program erroneous) [ompi-message-matching]
    MPI_Send(buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  else if (rank == 1 && raining)
    MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif CASE == 26
  // CASE26-NOT: warning:
  // The same, where errors return (MPI_ERRORS_RETURN): a send may fail and
  // send nothing, so a message left unreceived is not judged.
  int raining = 0;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0)
    MPI_Send(buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  else if (rank == 1 && raining)
    MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif CASE == 27
  // MPI_Sendrecv on a communicator in which every rank is alone: its
  // destination (itself) exists, its source, rank 1 of it, does not.
  MPI_Comm alone;
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &alone);
  // CASE27: {{.*}}message-matching.c:[[#@LINE+1]]:3: warning: with 2 processes, rank 0 receives from rank 1 of 'alone' in MPI_Sendrecv (line [[#@LINE+1]]), but MPI_Comm_split (line [[#@LINE-1]]) made 'alone' of 1 process there (colour 0: world rank 0): a peer must be a rank of the communicator, MPI_PROC_NULL or MPI_ANY_SOURCE [ompi-message-matching]
  MPI_Sendrecv(buf, 1, MPI_INT, 0, 0, buf + 1, 1, MPI_INT, 1, 0, alone, MPI_STATUS_IGNORE);
  // CASE27: {{.*}}message-matching.c:[[#@LINE-3]]:3: note: rank 0 joins colour 0 here
  MPI_Comm_free(&alone);
#elif CASE == 28
  // Around a ring of three, every rank receives first.
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // CASE28: {{.*}}message-matching.c:[[#@LINE+1]]:3: warning: with 3 processes, rank 0 waits in MPI_Recv (line [[#@LINE+1]]) for a message from rank 2, rank 2 waits in MPI_Recv (line [[#@LINE+1]]) for a message from rank 1, and rank 1 waits in MPI_Recv (line [[#@LINE+1]]) for a message from rank 0: none of them can go on, whatever the buffering (a blocking receive returns only once a matching message is sent) [ompi-message-matching]
  MPI_Recv(buf, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // CASE28: {{.*}}message-matching.c:[[#@LINE-1]]:3: note: rank 2 waits here
  // CASE28: {{.*}}message-matching.c:[[#@LINE-2]]:3: note: rank 1 waits here
  MPI_Send(buf, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
#endif
  MPI_Finalize();
  return 0;
}
