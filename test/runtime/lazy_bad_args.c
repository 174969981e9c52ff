/* Runtime test (expected to abort): a call of the lazy runtime with an
 * argument no MPI accepts stops the program with a message naming the call
 * site and the argument, before anything is queued. RT_BAD_CASE selects the
 * case (the ctest checks each message). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include "mpiopt/lazy.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const char *bad = getenv("RT_BAD_CASE");
  double a = 1, b = 0;
  if (!bad) bad = "";
  if (!strcmp(bad, "count"))
    mpiopt_lazy_allreduce(&a, &b, -2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(bad, "sendbuf"))
    mpiopt_lazy_allreduce(NULL, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(bad, "recvbuf"))
    mpiopt_lazy_reduce(&a, NULL, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else if (!strcmp(bad, "datatype"))
    mpiopt_lazy_allreduce(&a, &b, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(bad, "root"))
    mpiopt_lazy_reduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, 99, MPI_COMM_WORLD);
  else if (!strcmp(bad, "comm"))
    mpiopt_lazy_allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_NULL);
  mpiopt_lazy_wait(&b);
  printf("not reached unless RT_BAD_CASE is unset: %g\n", b);
  MPI_Finalize();
  return 0;
}
