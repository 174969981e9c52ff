/* Runs comm.c's neighbour exchange with 1 to 4 neighbours each way; rank 0
 * prints what every rank received. */
#define MAIN
#include "comm.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size, it, r;
  long mine[5] = {0}, *all;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (it = 0; it < 30; it++) {
    long s = exchange(it, 1 + it % 4);
    mine[4] += s;
    if (it % 8 == 0)
      mine[it / 8] = s;
  }
  all = (long *)malloc((size_t)size * sizeof(mine));
  MPI_Gather(mine, 5, MPI_LONG, all, 5, MPI_LONG, 0, MPI_COMM_WORLD);
  for (r = 0; rank == 0 && r < size; r++)
    printf("rank %d: %ld %ld %ld %ld total %ld\n", r, all[5 * r], all[5 * r + 1], all[5 * r + 2], all[5 * r + 3],
           all[5 * r + 4]);
  free(all);
  free(request);
  free(s_req);
  MPI_Finalize();
  return 0;
}
