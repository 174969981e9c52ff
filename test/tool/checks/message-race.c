// message-race: a receive from MPI_ANY_SOURCE into one integer variable
// that takes, in turn, messages of two or more ranks carrying different
// values, with nothing reading the variable between one receive and the
// next and something reading it after the loop: the value it keeps depends
// on the order the messages arrive. The positives receive with MPI_Recv
// and with MPI_Irecv and MPI_Wait (the ranks' own numbers). The negatives
// read each value as it arrives (a sum: any order gives it), receive
// values every sender sends alike, name each source, never read the
// variable after the loop, or send values the runs do not know.
// RUN: %ompi-opt --check --checks=message-race %s -- %mpich_cflags -DCASE=1 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=message-race %s -- %openmpi_cflags -DCASE=1 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=message-race %s -- %mpich_cflags -DCASE=2 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TWO %s
// RUN: %ompi-opt --check --checks=message-race %s -- %mpich_cflags -DCASE=3 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=message-race %s -- %mpich_cflags -DCASE=4 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=message-race %s -- %mpich_cflags -DCASE=5 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=message-race %s -- %mpich_cflags -DCASE=6 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=message-race %s -- %mpich_cflags -DCASE=7 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// NONE-NOT: message-race
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size, i, got = -1, mine, sum = 0;
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mine = rank;
#if CASE == 1
  // The last value kept, tested after the loop.
  if (rank == 0) {
    for (i = 1; i < size; i++)
      // ONE: {{.*}}message-race.c:[[#@LINE+1]]:7: warning: with 3 processes, rank 0's MPI_Recv from MPI_ANY_SOURCE (line [[#@LINE+1]]) receives in turn the messages of ranks 1 and 2 into 'got', which nothing reads between them: the value 'got' holds after the loop depends on the order the messages arrive, which MPI does not fix between senders [ompi-message-race]
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (got != size - 1)
      abort();
  } else {
    // ONE: {{.*}}message-race.c:[[#@LINE+1]]:5: note: rank 1 sends 1 here, rank 2 sends 2
    MPI_Send(&mine, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
#elif CASE == 2
  // Nonblocking, the source in a variable.
  int src = MPI_ANY_SOURCE;
  if (rank == 0) {
    for (i = 1; i < size; i++) {
      // TWO: {{.*}}message-race.c:[[#@LINE+1]]:7: warning: with 3 processes, rank 0's MPI_Irecv from MPI_ANY_SOURCE (line [[#@LINE+1]]) receives in turn the messages of ranks 1 and 2 into 'got', {{.*}} [ompi-message-race]
      MPI_Irecv(&got, 1, MPI_INT, src, 0, MPI_COMM_WORLD, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    printf("last %d\n", got);
  } else {
    MPI_Isend(&mine, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
#elif CASE == 3
  // Negative: each value is read as it arrives.
  if (rank == 0) {
    for (i = 1; i < size; i++) {
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += got;
    }
    printf("%d\n", sum);
  } else {
    MPI_Send(&mine, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
#elif CASE == 4
  // Negative: every sender sends the same value.
  mine = 7;
  if (rank == 0) {
    for (i = 1; i < size; i++)
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("%d\n", got);
  } else {
    MPI_Send(&mine, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
#elif CASE == 5
  // Negative: each source named, in order.
  if (rank == 0) {
    for (i = 1; i < size; i++)
      MPI_Recv(&got, 1, MPI_INT, i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("%d\n", got);
  } else {
    MPI_Send(&mine, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
#elif CASE == 6
  // Negative: the value is never read after the loop (a token).
  if (rank == 0) {
    for (i = 1; i < size; i++)
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&mine, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
#elif CASE == 7
  // Negative: the values sent are not known to the runs.
  mine = atoi(argc > 1 ? argv[1] : "3");
  if (rank == 0) {
    for (i = 1; i < size; i++)
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("%d\n", got);
  } else {
    MPI_Send(&mine, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
#endif
  MPI_Finalize();
  return 0;
}
