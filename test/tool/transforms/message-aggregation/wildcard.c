// message-aggregation: what no group may share. A receive of any tag, a
// tag known only at run time, a receive from any source: each could take one part of a packed message, so the groups it
// could meet stay separate. Every case here must be left alone.
// RUN: %ompi-opt --closed-world --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags | FileCheck %s
// RUN: %ompi-opt --closed-world --transforms=message-aggregation --profile=%inputs/profile-aggregate.json %s -o %t.c -- %mpich_cflags
// RUN: diff %s %t.c
#include <mpi.h>


int main(int argc, char **argv) {
  int rank, size, n = 1, m = 0, right, left, t = argc;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;

  // A receive of any tag (on any communicator: another variable may hold
  // the same one) could take the first part alone.
  // CHECK-DAG: wildcard.c:[[#@LINE+1]]:3: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+2]] (tags 13, 14 of MPI_INT, MPI_INT) stay separate (the call at line [[#@LINE+5]] (any tag) may take a message of these tags and is no group of this shape)
  MPI_Send(&n, 1, MPI_INT, right, 13, MPI_COMM_WORLD);
  MPI_Send(&n, 1, MPI_INT, right, 14, MPI_COMM_WORLD);
  MPI_Recv(&m, 1, MPI_INT, left, 13, MPI_COMM_WORLD, &st);
  MPI_Recv(&m, 1, MPI_INT, left, 14, MPI_COMM_WORLD, &st);
  MPI_Recv(&m, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_SELF, &st);

  // A group whose tag is not a constant is none.
  // CHECK-DAG: wildcard.c:[[#@LINE+1]]:3: message-aggregation: not done: 2 MPI_Recv at lines [[#@LINE+1]]-[[#@LINE+2]] stay separate (the tag of the call at line [[#@LINE+2]] (t) is not a constant)
  MPI_Recv(&m, 1, MPI_INT, left, 15, MPI_COMM_WORLD, &st);
  MPI_Recv(&m, 1, MPI_INT, left, t, MPI_COMM_WORLD, &st);

  // Receives from any source: the parts could come from different processes.
  // CHECK-DAG: wildcard.c:[[#@LINE+1]]:3: message-aggregation: not done: 2 MPI_Recv at lines [[#@LINE+1]]-[[#@LINE+2]] stay separate (the receives take MPI_ANY_SOURCE: their parts could come from different processes)
  MPI_Recv(&m, 1, MPI_INT, MPI_ANY_SOURCE, 16, MPI_COMM_WORLD, &st);
  MPI_Recv(&m, 1, MPI_INT, MPI_ANY_SOURCE, 17, MPI_COMM_WORLD, &st);

  // Any of the three calls above could take these too.
  // CHECK-DAG: wildcard.c:[[#@LINE+1]]:3: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+2]] (tags 18, 19 of MPI_INT, MPI_INT) stay separate (the call at line {{[0-9]+}} (any tag) may take a message of these tags and is no group of this shape)
  MPI_Send(&n, 1, MPI_INT, right, 18, MPI_COMM_WORLD);
  MPI_Send(&n, 1, MPI_INT, right, 19, MPI_COMM_WORLD);
  MPI_Recv(&m, 1, MPI_INT, left, 18, MPI_COMM_WORLD, &st);
  MPI_Recv(&m, 1, MPI_INT, left, 19, MPI_COMM_WORLD, &st);
  MPI_Finalize();
  return m == 0;
}
