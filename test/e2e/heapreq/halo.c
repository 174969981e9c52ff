/* A neighbour exchange whose requests are in memory from mem.c, freed by
 * mem.c's function and set to NULL (hypre's hypre_CTAlloc / hypre_TFree). */
#include "mem.h"
#include <mpi.h>

#define N 8

long halo(int it, int nn) {
  int rank, size, k, i, in[4][N], out[4][N];
  long sum = 0;
  MPI_Status sts[8];
  MPI_Request *requests = NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  requests = (MPI_Request *)mem_calloc((size_t)(2 * nn), sizeof(MPI_Request));
  for (k = 0; k < nn; k++) {
    for (i = 0; i < N; i++)
      out[k][i] = rank * 1000 + k * 10 + i + it;
    MPI_Irecv(in[k], N, MPI_INT, (rank + size - 1) % size, 40 + k, MPI_COMM_WORLD, &requests[2 * k]);
    MPI_Isend(out[k], N, MPI_INT, (rank + 1) % size, 40 + k, MPI_COMM_WORLD, requests + 2 * k + 1);
  }
  if (requests != NULL)
    MPI_Waitall(2 * nn, requests, sts);
  for (k = 0; k < nn; k++)
    for (i = 0; i < N; i++)
      sum += (long)in[k][i] * (k + 1);
  for (k = 0; k < 2 * nn; k++)
    sum += requests[k] == MPI_REQUEST_NULL;
  sum += sts[0].MPI_SOURCE + sts[2 * nn - 2].MPI_TAG;
  mem_free((char *)requests), requests = NULL;
  return sum;
}
