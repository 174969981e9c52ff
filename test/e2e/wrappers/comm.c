/* Forwarding wrappers: each is one MPI call whose buffers and count are
 * the caller's. */
#include "comm.h"
#include <mpi.h>

#define REAL_MPI_TYPE MPI_DOUBLE

void comm_init(int *argc, char ***argv) { MPI_Init(argc, argv); }
void comm_finalize(void) { MPI_Finalize(); }
int comm_rank(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
void add_real(double *send, double *recv, int count) {
  MPI_Allreduce(send, recv, count, REAL_MPI_TYPE, MPI_SUM, MPI_COMM_WORLD);
}
void max_int(int *send, int *recv, int count) { MPI_Allreduce(send, recv, count, MPI_INT, MPI_MAX, MPI_COMM_WORLD); }
my_int my_allreduce(void *send, void *recv, my_int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return (my_int)MPI_Allreduce(send, recv, (int)count, type, op, comm);
}
