/* A neighbour exchange through the global request arrays: receives from
 * n neighbours each way (ranks up and down the ring), completed by
 * MPI_Waitany here; the sends completed in util.c. */
#include "comm.h"
#include <stdio.h>

#define N 256
static double in[8][N], out[8][N];

long exchange(int it, int n) {
  int rank, size, i, k, which, peer[8];
  long sum = 0;
  MPI_Status status;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  grow_requests(2 * n);
  for (i = 0; i < n; i++) {
    peer[2 * i] = (rank + i + 1) % size;
    peer[2 * i + 1] = (rank + size * 4 - i - 1) % size;
  }
  for (i = 0; i < 2 * n; i++)
    MPI_Irecv(in[i], N, MPI_DOUBLE, peer[i ^ 1], i / 2, MPI_COMM_WORLD, &request[i]);
  for (i = 0; i < 2 * n; i++) {
    for (k = 0; k < N; k++)
      out[i][k] = rank * 1000 + it * 10 + i + k % 7;
    MPI_Isend(out[i], N, MPI_DOUBLE, peer[i], i / 2, MPI_COMM_WORLD, &s_req[i]);
  }
  for (i = 0; i < 2 * n; i++) {
    MPI_Waitany(2 * n, request, &which, &status);
    for (k = 0; k < N; k += 31)
      sum += (long)in[which][k] * (which + 1);
  }
  for (i = 0; i < 2 * n; i++)
    if (request[i] != MPI_REQUEST_NULL)
      printf("receive handle %d is not MPI_REQUEST_NULL after its completion\n", i);
  finish_sends(2 * n);
  return sum;
}
