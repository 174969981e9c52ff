// communication-overlap posts a receive before the nonblocking sends
// written before it (and the computation before them): a receive and a
// send of one process match alike in either order. Negative cases say why
// the receive stays.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=communication-overlap %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>

#define N 64

// Initialise, pack, send, then receive: the receive goes first.
double pack_send_recv(int left, int right) {
  double out[N], in[N], grid[N];
  MPI_Request req[2];
  for (int i = 0; i < N; i++)
    grid[i] = i;
  // SRC:  MPI_Irecv(in, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[1]); for (int i = 0; i < N; i++)
  for (int i = 0; i < N; i++)
    out[i] = 2 * grid[i];
  MPI_Isend(out, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[0]);
  // REPORT-DAG: sends.c:[[#@LINE+1]]:3: communication-overlap: MPI_Irecv posted earlier, before line [[#@LINE-6]] (lines [[#@LINE-6]]-[[#@LINE-1]] touch no memory its buffer may lie in, {{.*}} call nothing that communicates but the nonblocking send at line [[#@LINE-1]], whose arguments and requests touch none of this memory {{.*}}
  MPI_Irecv(in, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  return in[0] + grid[1];
}

// Negative cases.
double negatives(int left, int right) {
  double out[N], grid[N];
  int n = N, m = 0;
  MPI_Request req[2], r, s;
  for (int i = 0; i < N; i++)
    out[i] = grid[i] = i;
  // The receive fills what the send's arguments read (its count): posted
  // first, the message could change the count the send reads.
  for (int i = 0; i < N; i++)
    grid[i] += 1;
  MPI_Isend(out, n, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[0]);
  // REPORT-DAG: sends.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Irecv stays where it is posted (what comes before it must run first: line [[#@LINE-1]] is not local: it calls MPI_Isend)
  MPI_Irecv(&n, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  // A blocking send: the receive stays after it.
  for (int i = 0; i < N; i++)
    out[i] += 3;
  MPI_Isend(&m, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &s);
  MPI_Send(out, N, MPI_DOUBLE, right, 4, MPI_COMM_WORLD);
  // REPORT-DAG: sends.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Irecv stays where it is posted (what comes before it must run first: line [[#@LINE-1]] is not local: it calls MPI_Send)
  MPI_Irecv(grid, N, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Recv(&n, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  return grid[3] + n;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double x = pack_send_recv(left, right) + negatives(left, right);
  printf("%d %g\n", rank, x);
  MPI_Finalize();
  return 0;
}
