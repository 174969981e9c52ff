/* heat.c: 1-D heat diffusion on a ring of processes.
 *
 * Each rank owns NLOCAL cells and exchanges one halo cell with each
 * neighbour per step; every REPORT steps the ranks agree on the total heat,
 * the number of warm cells and the largest change: two SUMs and a MAX of
 * integers, which ompi-opt fuses into one collective with a composite op.
 * A small, typical MPI program: static counts, datatypes and tags,
 * rank-relative peers, reductions. Output: one line per report from rank 0,
 * identical for any process count (integer sums of scaled cells: exact). */
#include <mpi.h>
#include <stdio.h>

#define NLOCAL 1000
#define STEPS 200
#define REPORT 50
#define TAG_LEFT 1
#define TAG_RIGHT 2

static double u[NLOCAL + 2], unew[NLOCAL + 2];

static void exchange(int left, int right) {
  MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, TAG_LEFT, &u[NLOCAL + 1], 1, MPI_DOUBLE, right, TAG_LEFT,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[NLOCAL], 1, MPI_DOUBLE, right, TAG_RIGHT, &u[0], 1, MPI_DOUBLE, left, TAG_RIGHT,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  int rank, size, step, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank - 1 + size) % size;
  int right = (rank + 1) % size;

  /* A hot spot in the first cell of rank 0, relative to the global domain. */
  for (i = 0; i < NLOCAL + 2; i++)
    u[i] = 0.0;
  if (rank == 0)
    u[1] = 1.0e6;

  for (step = 1; step <= STEPS; step++) {
    exchange(left, right);
    long long change = 0;
    for (i = 1; i <= NLOCAL; i++) {
      unew[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
      long long d = (long long)(unew[i] - u[i]);
      if (d < 0)
        d = -d;
      if (d > change)
        change = d;
    }
    for (i = 1; i <= NLOCAL; i++)
      u[i] = unew[i];
    if (step % REPORT == 0) {
      long long local = 0, total = 0, warm = 0, allwarm = 0, maxchange = 0;
      for (i = 1; i <= NLOCAL; i++)
        local += (long long)(u[i] * 1000.0);
      MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      for (i = 1; i <= NLOCAL; i++)
        warm += u[i] > 1.0;
      MPI_Allreduce(&warm, &allwarm, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(&change, &maxchange, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
      if (rank == 0)
        printf("step %3d: heat %lld, warm cells %lld, largest change %lld\n", step, total, allwarm, maxchange);
    }
  }
  MPI_Finalize();
  return 0;
}
