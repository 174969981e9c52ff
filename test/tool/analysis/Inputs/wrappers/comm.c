// The program's communication layer: forwarding wrappers (wrappers.c and
// Inputs/wrappers/caller.c call them).
#include <mpi.h>

typedef int my_int;
#define REAL_TYPE MPI_DOUBLE

void addReal(double *send, double *recv, int count) {
  MPI_Allreduce(send, recv, count, REAL_TYPE, MPI_SUM, MPI_COMM_WORLD);
}

my_int my_Allreduce(void *send, void *recv, my_int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return (my_int)MPI_Allreduce(send, recv, (int)count, type, op, comm);
}

// Not forwarders: two statements; a parameter used twice; a weak definition.
int twoSteps(double *send, double *recv) {
  MPI_Barrier(MPI_COMM_WORLD);
  return MPI_Allreduce(send, recv, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
void inPlace(double *buf, int n) { MPI_Allreduce(buf, buf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
__attribute__((weak)) void weakSum(double *s, double *r) {
  MPI_Allreduce(s, r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
