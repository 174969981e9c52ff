/* params.c: five parameters (int, int, double, long, int[4]) broadcast
   from rank 0 by five adjacent MPI_Bcast, 200 times, as a program that
   re-reads its input each phase would; rank 0 prints the values and the
   time per phase (the slowest rank's). broadcast-fusion makes the five one
   (docs/transforms/broadcast-fusion.md, "Measured effect"):

     mpicc.mpich -O2 -o plain params.c
     OMPI_CC_MPICC=mpicc.mpich scripts/ompi-cc -O2 -o fused params.c
     mpiexec.mpich -n 2 ./plain; mpiexec.mpich -n 2 ./fused
     (simulated: smpicc, ompi-cc --ompi-mpicc=smpicc,
      SIMRUN_NO_COMPUTE=1 scripts/simrun --quiet -np 64 ./fused) */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, n = 0, iters = 0, arr[4] = {0, 0, 0, 0}, it;
  double tol = 0, t0, t;
  long len = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (it = 0; it < 200; it++) {
    if (rank == 0) {
      n = it;
      iters = 3 * it;
      tol = it * 1e-3;
      len = it + (1L << 33);
      arr[it % 4] = it;
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&tol, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(&len, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Bcast(arr, 4, MPI_INT, 0, MPI_COMM_WORLD);
    if (n + iters + arr[0] + arr[3] + (long)(tol * 1000) + len < 0)
      printf("impossible\n");
  }
  t = MPI_Wtime() - t0;
  MPI_Reduce(rank ? &t : MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d %d %g %ld %d %d; %.2f us per phase\n", n, iters, tol, len, arr[0], arr[3], t / 200 * 1e6);
  MPI_Finalize();
  return 0;
}
