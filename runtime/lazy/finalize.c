/* MPI_Finalize through the MPI profiling interface: every deferred result
 * is delivered before MPI shuts down. Linked from libompi-rt whenever the
 * program calls MPI_Finalize (a program that defines its own MPI_Finalize
 * keeps it, and should call mpiopt_lazy_flush_all() there). */
#include <mpi.h>

void mpiopt_lazy_finalize(void);

int MPI_Finalize(void) {
  mpiopt_lazy_finalize();
  return PMPI_Finalize();
}
