/* Nothing for the transformations to change: one reduction. */
#include <mpi.h>

double x, y;

void g(void) { MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
