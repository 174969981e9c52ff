// A file that makes MPI_COMM_WORLD its own communicator: sum_app's
// MPI_COMM_WORLD is not MPI's, so sum_app is no wrapper another file may
// write out (there the name would mean MPI's world).
#include <mpi.h>

MPI_Comm app;
#undef MPI_COMM_WORLD
#define MPI_COMM_WORLD app

void sum_app(double *s, double *r) { MPI_Allreduce(s, r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
