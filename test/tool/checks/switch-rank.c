// The per-rank runs follow switch statements as they follow if: the case
// label that matches the rank (or default), falling through labels, to the
// first break. A root mismatch, an order mismatch and a receive-receive
// deadlock written with switch (rank) are found as the same code written
// with if is. Negatives: a switch whose cases agree, a switch on a value
// no run knows (not followed: silent), a label nested in a loop of the body
// (Duff's device: not followed, silent).
// RUN: %ompi-opt --check --checks=collective-sequence,message-matching %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=collective-sequence,message-matching %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -DDEADLOCK | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=DEAD %s
#include <mpi.h>

static int x, y;

void root_mismatch(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  switch (rank) {
  case 0:
    // CHECK: {{.*}}switch-rank.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Bcast (line [[#@LINE+1]]) (root=0 count=1 type=MPI_INT) as their 1st collective but ranks 1 call it (root=1 count=1 type=MPI_INT) (line [[#@LINE+4]]): every rank must pass the same root, op and count [ompi-collective-sequence]
    MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  default:
    MPI_Bcast(&x, 1, MPI_INT, 1, MPI_COMM_WORLD);
    break;
  }
}

void order_mismatch(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  switch (rank % 2) {
  case 0:
    // CHECK: {{.*}}switch-rank.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Barrier (line [[#@LINE+1]]) as their 1st collective but ranks 1 call MPI_Allreduce (line [[#@LINE+5]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  case 1:
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    break;
  }
}

// Rank 0 falls through into case 1's barrier: two barriers against one.
void falls_through(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  switch (rank) {
  case 0:
    MPI_Barrier(MPI_COMM_WORLD);
    /* fall through */
  case 1 ... 7:
    // CHECK: {{.*}}switch-rank.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 0 call MPI_Barrier (line [[#@LINE+1]]) as their 2nd collective but ranks 1 call none (their path ends at line {{[0-9]+}}): every rank of a communicator must issue the same collectives [ompi-collective-sequence]
    MPI_Barrier(MPI_COMM_WORLD);
    break;
  }
}

// Every case makes the same collectives: silent.
void agree(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  switch (rank == size - 1) {
  case 1:
    x = 3;
    MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  default:
    MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// A value no run knows: not followed, so nothing is claimed.
void unknown(int mode) {
  switch (mode) {
  case 0:
    MPI_Barrier(MPI_COMM_WORLD);
    break;
  default:
    MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
}

// A label inside a loop of the body: not followed.
void duff(void) {
  int rank, n = 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  switch (rank) {
  case 0:
    do {
      MPI_Barrier(MPI_COMM_WORLD);
    case 1:
      MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } while (--n > 0);
  }
}

// (message-matching follows the runs of main)
#ifdef DEADLOCK
int main(int argc, char **argv) {
  int rank;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  switch (rank) {
  case 0:
    // DEAD: {{.*}}switch-rank.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 0 waits in MPI_Recv (line [[#@LINE+1]]) for a message from rank 1, while rank 1 waits in MPI_Recv (line [[#@LINE+5]]) for a message from rank 0: neither can go on, whatever the buffering (a blocking receive returns only once a matching message is sent) [ompi-message-matching]
    MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &st);
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    break;
  case 1:
    MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &st);
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    break;
  }
  MPI_Finalize();
  return 0;
}
#endif

