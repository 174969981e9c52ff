// communication-overlap's hint (analysis/HaloSplit.h): where a receive's
// wait stops at a loop that reads the received array only at small
// offsets of its counters (a stencil over a grid whose edge rows the
// receives fill), the report says which split of the loop would overlap
// the transfer. The loop is never split, and nothing moves. Negative cases
// say why the hint is not given.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=NONE %s
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: diff %s %t.c
#include <mpi.h>
#define N 64

static double u[N + 2][N], un[N + 2][N], row[N];

int main(int argc, char **argv) {
  int rank, size, up, down, it, i, j, k;
  MPI_Request req[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  for (it = 0; it < 10; it++) {
    // The halo rows arrive in u itself; the update reads u at offsets.
    MPI_Irecv(u[0], N, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(u[N + 1], N, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(u[1], N, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(u[N], N, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[3]);
    // REPORT: halo-split.c:[[#@LINE+1]]:5: communication-overlap: not done: MPI_Waitall stays where it is written (what follows needs the transfers it completes: line [[#@LINE+4]] reads u, which the receive at line [[#@LINE-4]] fills; the loop at line [[#@LINE+2]] reads u only at small offsets of its counters (u[i - 1][j], u[i + 1][j], u[i][j - 1]), as a stencil reads a halo: if the receive fills only u's edge, the iterations that read none of it could run before the wait and only the others after it, overlapping the transfer; split the loop so by hand (ompi-opt does not split loops: it cannot prove which iterations read the received part))
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (i = 1; i <= N; i++)
      for (j = 1; j < N - 1; j++)
        un[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    for (i = 1; i <= N; i++)
      for (j = 1; j < N - 1; j++)
        u[i][j] = un[i][j];

    // No hint: the loop reads the received row at one offset only (an
    // unpacking: every iteration reads what arrives). The write of row
    // keeps its receive where it is.
    row[0] = it;
    MPI_Irecv(row, N, MPI_DOUBLE, down, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(u[N], N, MPI_DOUBLE, up, 3, MPI_COMM_WORLD, &req[1]);
    // NONE: halo-split.c:[[#@LINE+1]]:5: communication-overlap: not done: MPI_Waitall stays where it is written (what follows needs the transfers it completes: line [[#@LINE+3]] reads row, which the receive at line [[#@LINE-2]] fills)
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (j = 0; j < N; j++)
      un[0][j] = row[j];

    // No hint: the loop writes the array the receive fills.
    MPI_Irecv(row, N, MPI_DOUBLE, down, 4, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(u[N], N, MPI_DOUBLE, up, 4, MPI_COMM_WORLD, &req[1]);
    // NONE: halo-split.c:[[#@LINE+1]]:5: communication-overlap: not done: MPI_Waitall stays where it is written (what follows needs the transfers it completes: line [[#@LINE+3]] writes row, which the receive at line {{[0-9]+}} fills)
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (j = 1; j < N - 1; j++)
      row[j] = row[j - 1] + row[j + 1];

    // No hint: an index that is no offset of a counter.
    MPI_Irecv(row, N, MPI_DOUBLE, down, 5, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(u[N], N, MPI_DOUBLE, up, 5, MPI_COMM_WORLD, &req[1]);
    // NONE: halo-split.c:[[#@LINE+1]]:5: communication-overlap: not done: MPI_Waitall stays where it is written (what follows needs the transfers it completes: line [[#@LINE+3]] reads row, which the receive at line {{[0-9]+}} fills)
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (k = 0, j = 1; j < N - 1; j++, k += 2)
      un[1][j] = row[j - 1] + row[k % N];
  }
  MPI_Finalize();
  return (int)un[1][1];
}
