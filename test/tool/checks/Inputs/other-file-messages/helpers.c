// Helpers of other-file-messages.c, in a file of their own.
#include <mpi.h>

void send_int(int *v, int dest, int tag) { MPI_Send(v, 1, MPI_INT, dest, tag, MPI_COMM_WORLD); }

void recv_int(int *v, int src, int tag) { MPI_Recv(v, 1, MPI_INT, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }

void recv_any(int *v) { MPI_Recv(v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }

void exchange(double *out, double *in, int n, int peer) {
  MPI_Ssend(out, n, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD);
  MPI_Recv(in, n, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void maybe_send(int *v, int dest, int flag) {
  if (flag)
    MPI_Send(v, 1, MPI_INT, dest, 0, MPI_COMM_WORLD);
}
