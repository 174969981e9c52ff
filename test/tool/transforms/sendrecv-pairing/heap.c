// sendrecv-pairing (analysis/PairPlan.h) on buffers in allocated memory:
// two pointers that each hold one allocation of their own (malloc, calloc,
// aligned_alloc; a null initialiser aside) point to different objects, so
// the pair's buffers are disjoint. Negative cases say why the tool leaves
// the two calls as they are.
// RUN: %ompi-opt --report --profile=%inputs/profile-peers.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=sendrecv-pairing --profile=%inputs/profile-peers.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size, n = 4096;
  double *out = NULL, *in = (double *)calloc((size_t)n, sizeof *in), *other = in;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  out = (double *)malloc((size_t)n * sizeof *out);
  // REPORT-DAG: heap.c:[[#@LINE+1]]:3: sendrecv-pairing: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] as one MPI_Sendrecv (adjacent statements on MPI_COMM_WORLD: {{.*}} the buffers out + 1 and &in[1] are different objects{{.*}}
  MPI_Send(out + 1, n - 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);
  MPI_Recv(&in[1], n - 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // SRC:  MPI_Sendrecv(out + 1, n - 1, MPI_DOUBLE, (rank + 1) % size, 0, &in[1], n - 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  // A pointer that copies another may point into the same allocation.
  // REPORT-DAG: heap.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (the send buffer (other) and the receive buffer (in) are not known to be different objects (named variables, or pointers that each hold one allocation of their own): MPI_Sendrecv needs them disjoint)
  MPI_Send(other, n, MPI_DOUBLE, (rank + 1) % size, 1, MPI_COMM_WORLD);
  MPI_Recv(in, n, MPI_DOUBLE, (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  // The send's buffer is the status the receive writes (sent first, it is
  // still read while the exchange's receive writes it).
  MPI_Status st;
  // REPORT-DAG: heap.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (the send's buffer is the receive's status, which the receive writes)
  MPI_Send(&st, sizeof st, MPI_BYTE, (rank + 1) % size, 2, MPI_COMM_WORLD);
  MPI_Recv(in, n, MPI_DOUBLE, (rank + size - 1) % size, 2, MPI_COMM_WORLD, &st);
  MPI_Barrier(MPI_COMM_WORLD);
  // A derived datatype may reach past its buffer's object (here a struct
  // type of displacements from out to in would): predefined types only.
  MPI_Datatype two;
  MPI_Type_contiguous(2, MPI_DOUBLE, &two);
  MPI_Type_commit(&two);
  // REPORT-DAG: heap.c:[[#@LINE+1]]:3: sendrecv-pairing: not done: MPI_Send at line [[#@LINE+1]] and MPI_Recv at line [[#@LINE+2]] stay two calls (the datatype two is not a predefined one: a derived datatype may reach memory outside its buffer's object)
  MPI_Send(out, 2, two, (rank + 1) % size, 3, MPI_COMM_WORLD);
  MPI_Recv(in, 4, MPI_DOUBLE, (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&two);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
