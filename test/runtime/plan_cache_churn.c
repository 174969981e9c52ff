/* The plan cache at a call site whose counts change at every call (NPB
 * IS's key exchange): no rank ever meets its arrays twice, so no plan is
 * made (a plan is made at the second sighting of the same arrays), and
 * after 4 such calls in a row the site calls MPI_Alltoallv directly for 16,
 * then 32, 64 ... calls. 100 calls, each one's data checked; run with
 * MPIOPT_STATS=1 and pairwise forced, the stats must count 100 calls of
 * the MPI's own and no plan. Prints "ok: N checks, 0 failures". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "mpiopt/plan.h"

enum { CALLS = 100 };

/* Elements rank i sends rank j at call k: different at every call (the
 * period, 101, is longer than the run). */
static int count(int i, int j, int k) { return 1 + (i * 7 + j * 3 + k) % 101; }

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  int *sc = malloc(sizeof(int) * 4 * (size_t)size), *sd = sc + size, *rc = sd + size, *rd = rc + size;
  double *sb = malloc(sizeof(double) * 101 * (size_t)size), *rb = malloc(sizeof(double) * 101 * (size_t)size);
  for (int k = 0; k < CALLS; k++) {
    int st = 0, rt = 0;
    for (int j = 0; j < size; j++) {
      sc[j] = count(rank, j, k), sd[j] = st, st += sc[j];
      rc[j] = count(j, rank, k), rd[j] = rt, rt += rc[j];
      for (int e = 0; e < sc[j]; e++) sb[sd[j] + e] = rank * 1e6 + j * 1e3 + e + k * 0.5;
    }
    for (int e = 0; e < rt; e++) rb[e] = -1;
    mpiopt_alltoallv_cached(sb, sc, sd, MPI_DOUBLE, rb, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
    int bad = 0;
    for (int j = 0; j < size; j++)
      for (int e = 0; e < rc[j]; e++) bad += rb[rd[j] + e] != j * 1e6 + rank * 1e3 + e + k * 0.5;
    CHECK(bad == 0, "call %d: %d elements wrong", k, bad);
  }
  free(sc);
  free(sb);
  free(rb);
  printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
