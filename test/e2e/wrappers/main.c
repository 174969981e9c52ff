/* A program whose communication is all in comm.c's wrappers (main.c
 * includes mpi.h only for the handles it passes to my_allreduce). */
#include "comm.h"
#include <mpi.h>
#include <stdio.h>

double energy(int step, int rank);
my_int my_allreduce(void *send, void *recv, my_int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);

int main(int argc, char **argv) {
  comm_init(&argc, &argv);
  int rank = comm_rank();
  for (int s = 0; s < 4; s++) {
    double e = energy(s, rank);
    int n = rank + s, nmax;
    long one = 1;
    double lo = -e, hi = e, lo_max, hi_max;
    max_int(&n, &nmax, 1);
    my_allreduce(&lo, &lo_max, one, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    my_allreduce(&hi, &hi_max, one, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
      printf("step %d: %g %d %g %g\n", s, e, nmax, lo_max, hi_max);
  }
  comm_finalize();
  return 0;
}
