/* The persistent collective templates (templates/mpiopt/persist.h) deliver
 * what the blocking collectives deliver when the buffers' contents change
 * between starts: MPI_Allreduce (and in place), MPI_Reduce to the last
 * rank, MPI_Bcast, MPI_Allgather, MPI_Alltoall, MPI_Barrier, each through
 * one request made at the first call and started five times, compared
 * with the blocking call on the same data. MPICH 4.0's own persistent
 * MPI_Allgather fails this (it delivers the other ranks' first
 * contributions again), which is why its template calls MPI_Allgather
 * there. */
#include <mpi.h>
#include <string.h>

#include "check.h"
#include "mpiopt/persist.h"

#define MAXN 1024
static double a[MAXN * 8], b[MAXN * 8], c[MAXN * 8];

static void fill(int rank, int step, int n) {
  for (int i = 0; i < n; i++)
    a[i] = 1000 * step + 10 * rank + i, b[i] = c[i] = -1;
}

static int differ(int n) {
  for (int i = 0; i < n; i++)
    if (b[i] != c[i])
      return i + 1;
  return 0;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Comm_rank(w, &check_rank);
  rank = check_rank;
  MPI_Comm_size(w, &size);
  if (size > 8)
    MPI_Abort(w, 2);
  static const int counts[] = {1, 3, 64, MAXN};
  for (int k = 0; k < 4; k++) {
    int n = counts[k], e = n / size ? n / size : 1;
    struct mpiopt_persist p[7];
    memset(p, 0, sizeof p);
    for (int s = 0; s < 5; s++) {
      fill(rank, s, n * size);
      mpiopt_allreduce_persistent(&p[0], a, b, n, MPI_DOUBLE, MPI_SUM, w);
      MPI_Allreduce(a, c, n, MPI_DOUBLE, MPI_SUM, w);
      CHECK(!differ(n), "allreduce of %d, start %d: element %d", n, s, differ(n) - 1);
      fill(rank, s, n);
      for (int i = 0; i < n; i++)
        b[i] = c[i] = a[i];
      mpiopt_allreduce_persistent(&p[1], MPI_IN_PLACE, b, n, MPI_DOUBLE, MPI_MAX, w);
      MPI_Allreduce(MPI_IN_PLACE, c, n, MPI_DOUBLE, MPI_MAX, w);
      CHECK(!differ(n), "allreduce in place of %d, start %d", n, s);
      fill(rank, s, n);
      mpiopt_reduce_persistent(&p[2], a, b, n, MPI_DOUBLE, MPI_MIN, size - 1, w);
      MPI_Reduce(a, c, n, MPI_DOUBLE, MPI_MIN, size - 1, w);
      CHECK(rank != size - 1 || !differ(n), "reduce of %d, start %d", n, s);
      fill(rank, s, n);
      for (int i = 0; i < n; i++)
        b[i] = c[i] = a[i];
      mpiopt_bcast_persistent(&p[3], b, n, MPI_DOUBLE, 0, w);
      MPI_Bcast(c, n, MPI_DOUBLE, 0, w);
      CHECK(!differ(n), "bcast of %d, start %d", n, s);
      fill(rank, s, n * size);
      mpiopt_allgather_persistent(&p[4], a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w);
      MPI_Allgather(a, n, MPI_DOUBLE, c, n, MPI_DOUBLE, w);
      CHECK(!differ(n * size), "allgather of %d, start %d: element %d", n, s, differ(n * size) - 1);
      fill(rank, s, e * size);
      mpiopt_alltoall_persistent(&p[5], a, e, MPI_DOUBLE, b, e, MPI_DOUBLE, w);
      MPI_Alltoall(a, e, MPI_DOUBLE, c, e, MPI_DOUBLE, w);
      CHECK(!differ(e * size), "alltoall of %d, start %d: element %d", e, s, differ(e * size) - 1);
      CHECK(mpiopt_barrier_persistent(&p[6], w) == MPI_SUCCESS, "barrier, start %d", s);
    }
    for (int i = 0; i < 7; i++) {
      CHECK(p[i].made == (MPIOPT_PCOLL && (i != 4 || MPIOPT_PCOLL_ALLGATHER)), "request %d made once", i);
      mpiopt_persist_free(&p[i]);
    }
  }
  printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
