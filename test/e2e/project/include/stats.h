#ifndef STATS_H
#define STATS_H
#include <mpi.h>

#define NVALUES 64

/* Global mean and variance of the values of every rank. */
void global_stats(const double *v, int n, MPI_Comm comm, double *mean, double *var);

#endif
