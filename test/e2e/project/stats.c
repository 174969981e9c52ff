#include "stats.h"

void global_stats(const double *v, int n, MPI_Comm comm, double *mean, double *var) {
  double s = 0, sq = 0, gs, gsq;
  int i, nprocs;
  for (i = 0; i < n; i++) {
    s += v[i];
    sq += v[i] * v[i];
  }
  MPI_Comm_size(comm, &nprocs);
  MPI_Allreduce(&s, &gs, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(&sq, &gsq, 1, MPI_DOUBLE, MPI_SUM, comm);
  *mean = gs / (n * nprocs);
  *var = gsq / (n * nprocs) - *mean * *mean;
}
