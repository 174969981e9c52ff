// portability-unsafe-buffering: exchanges that complete only because MPI
// buffers standard sends. The positives send first on both sides (also with
// MPI_Isend waited before the receive), receive in the other order than
// the sends were made, send to a rank that first waits in a collective
// (MPI_Barrier; MPI_Reduce, which may wait for every rank too), or send
// around a ring of three ranks (each waits for the next). The negatives
// exchange with MPI_Sendrecv, order the calls by rank, post the receive
// first, use MPI_Bsend (buffered by definition), receive before a
// collective or let one rank of the ring receive first, or are another
// check's (a deadlock whatever the buffering, messages never received).
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering %s -- %mpich_cflags -DCASE=1 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering %s -- %openmpi_cflags -DCASE=1 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering %s -- %mpich_cflags -DCASE=2 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=TWO %s
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering %s -- %mpich_cflags -DCASE=3 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=THREE %s
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering %s -- %mpich_cflags -DCASE=4 2>&1 | FileCheck --allow-empty --implicit-check-not=remark: --check-prefix=FOUR %s
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering %s -- %mpich_cflags -DCASE=5 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=FIVE %s
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering %s -- %openmpi_cflags -DCASE=5 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=FIVE %s
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering --nprocs=3 %s -- %mpich_cflags -DCASE=6 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=SIX %s
// RUN: %ompi-opt --check --checks=portability-unsafe-buffering --nprocs=3 %s -- %mpich_cflags -DCASE=7 2>&1 | FileCheck --allow-empty --implicit-check-not=remark: --check-prefix=SEVEN %s
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, buf[8] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#if CASE == 1
  // Both send first.
  if (rank < 2) {
    // ONE: {{.*}}portability-unsafe-buffering.c:[[#@LINE+1]]:5: remark: with 2 processes, if MPI does not buffer the messages, rank 0 waits in MPI_Send (line {{[0-9]+}}) until rank 1 receives, while rank 1 waits in MPI_Send (line {{[0-9]+}}) until rank 0 receives: the exchange completes only because the library buffers a send (a standard send may wait for its receive; order the calls, or use MPI_Sendrecv or nonblocking calls) [ompi-portability-unsafe-buffering]
    MPI_Send(buf, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Recv(buf + 4, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#elif CASE == 2
  // Received in the other order: the first send must be buffered.
  if (rank == 0) {
    // TWO: {{.*}}portability-unsafe-buffering.c:[[#@LINE+1]]:5: remark: with 2 processes, if MPI does not buffer the messages, rank 0 waits in MPI_Send (line {{[0-9]+}}) until rank 1 receives, while rank 1 waits in MPI_Recv (line {{[0-9]+}}) for a message from rank 0: the exchange completes only because the library buffers a send (a standard send may wait for its receive; order the calls, or use MPI_Sendrecv or nonblocking calls) [ompi-portability-unsafe-buffering]
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#elif CASE == 3
  // A nonblocking send waited before the receive.
  MPI_Request r;
  if (rank < 2) {
    MPI_Isend(buf, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r);
    // THREE: {{.*}}portability-unsafe-buffering.c:[[#@LINE+1]]:5: remark: with 2 processes, if MPI does not buffer the messages, rank 0 waits in MPI_Wait (line {{[0-9]+}}) for the MPI_Isend of line {{[0-9]+}} until rank 1 receives, while rank 1 waits in MPI_Wait (line {{[0-9]+}}) for the MPI_Isend of line {{[0-9]+}} until rank 0 receives: the exchange completes only because the library buffers a send (a standard send may wait for its receive; order the calls, or use MPI_Sendrecv or nonblocking calls) [ompi-portability-unsafe-buffering]
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Recv(buf + 4, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#elif CASE == 5
  // A send to a rank that first waits in a collective: with buffering the
  // send returns and rank 0 joins the barrier; without, each waits for the
  // other. MPI_Reduce may wait for every rank as well (its root is rank 0).
  if (rank == 0) {
    // FIVE: {{.*}}portability-unsafe-buffering.c:[[#@LINE+1]]:5: remark: with 2 processes, if MPI does not buffer the messages, rank 0 waits in MPI_Send (line {{[0-9]+}}) until rank 1 receives, while rank 1 waits in MPI_Barrier (line [[#@LINE+5]]) for every rank to join it: the exchange completes only because the library buffers a send (a standard send may wait for its receive; order the calls, or use MPI_Sendrecv or nonblocking calls) [ompi-portability-unsafe-buffering]
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Reduce(buf, buf + 4, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
      MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Reduce(buf, buf + 4, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  // FIVE: {{.*}}portability-unsafe-buffering.c:[[#@LINE-5]]:5: note: rank 1 waits here
#elif CASE == 6
  // Around a ring of three: each rank sends to the next, then receives.
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // SIX: {{.*}}portability-unsafe-buffering.c:[[#@LINE+1]]:3: remark: with 3 processes, if MPI does not buffer the messages, rank 0 waits in MPI_Send (line [[#@LINE+1]]) until rank 1 receives, rank 1 waits in MPI_Send (line [[#@LINE+1]]) until rank 2 receives, and rank 2 waits in MPI_Send (line [[#@LINE+1]]) until rank 0 receives: the exchange completes only because the library buffers a send (a standard send may wait for its receive; order the calls, or use MPI_Sendrecv or nonblocking calls) [ompi-portability-unsafe-buffering]
  MPI_Send(buf, 4, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  // SIX: {{.*}}portability-unsafe-buffering.c:[[#@LINE-1]]:3: note: rank 1 waits here
  // SIX: {{.*}}portability-unsafe-buffering.c:[[#@LINE-2]]:3: note: rank 2 waits here
  MPI_Recv(buf + 4, 4, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif CASE == 7
  // SEVEN-NOT: remark:
  // Received before the collective; around the ring, rank 0 receives first.
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0)
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Recv(buf + 4, 4, MPI_INT, size - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
  } else {
    MPI_Send(buf, 4, MPI_INT, (rank + 1) % size, 1, MPI_COMM_WORLD);
    MPI_Recv(buf + 4, 4, MPI_INT, rank - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#else
  // FOUR-NOT: remark:
  MPI_Request r;
  if (rank < 2) {
    MPI_Sendrecv(buf, 4, MPI_INT, 1 - rank, 0, buf + 4, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) { // ordered by rank
      MPI_Send(buf, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf + 4, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf + 4, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Irecv(buf + 4, 4, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD, &r); // the receive posted first
    MPI_Send(buf, 4, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Bsend(buf, 4, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD); // buffered by definition
    MPI_Recv(buf + 4, 4, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#endif
  MPI_Finalize();
  return 0;
}
