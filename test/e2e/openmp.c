/* A hybrid MPI + OpenMP file (built with -fopenmp, includes <omp.h>): it is
 * optimised, not skipped; the two reductions fuse. Exact integer data. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
  long local = 0, lmax = 0, sum = 0, max = 0;
  int rank, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel for reduction(+ : local) reduction(max : lmax)
  for (i = 0; i < 1000; i++) {
    local += i % 7 + rank;
    lmax = lmax > i * rank ? lmax : i * rank;
  }
  MPI_Allreduce(&local, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&lmax, &max, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("sum %ld max %ld threads>0 %d\n", sum, max, omp_get_max_threads() > 0);
  MPI_Finalize();
  return 0;
}
