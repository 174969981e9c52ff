/* A time loop whose exchange of bucket counts (one or a few ints per pair)
 * sits in a helper the loop calls: the MPI_Alltoall is in no loop of its
 * own function (NPB IS's shape, with a long run), so ompi-opt hands it to
 * the scalar-keyed plan cache (mpiopt_alltoall_cached). Prints a checksum
 * (the same for every build) and the time per step.
 *
 *   mpicc.mpich -O2 -o plain a2a_helper.c
 *   scripts/ompi-cc --ompi-mpicc=mpicc.mpich -O2 -o ompi a2a_helper.c
 *   mpiexec.mpich -n 2 ./plain 100000 1; mpiexec.mpich -n 2 ./ompi 100000 1
 *
 * (STEPS and ints per pair as arguments; for the simulator build both with
 * smpicc / --ompi-mpicc=smpicc and run under scripts/simrun.) Results in
 * docs/transforms/planned-collectives.md and docs/simulation.md. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int *sendc, *recvc, size, rank;

static long exchange(int step, int per) {
  for (int j = 0; j < size * per; j++) sendc[j] = (rank * 7 + j + step) % 13;
  MPI_Alltoall(sendc, per, MPI_INT, recvc, per, MPI_INT, MPI_COMM_WORLD);
  long s = 0;
  for (int j = 0; j < size * per; j++) s += recvc[j];
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi(argv[1]) : 200, per = argc > 2 ? atoi(argv[2]) : 1;
  sendc = malloc(sizeof(int) * size * per);
  recvc = malloc(sizeof(int) * size * per);
  long sum = 0;
  double t0 = MPI_Wtime();
  for (int step = 0; step < steps; step++) sum += exchange(step, per);
  double t = MPI_Wtime() - t0, tmax;
  long all;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %ld, %.2f us per step\n", all, tmax / steps * 1e6);
  free(sendc);
  free(recvc);
  MPI_Finalize();
  return 0;
}
