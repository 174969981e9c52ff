/* MPI_Finalize through the MPI profiling interface: every deferred result
 * is delivered before MPI shuts down, then the planned collectives (when
 * the program links them) print their statistics and free what they hold
 * in MPI. Linked from libompi-rt whenever the program calls MPI_Finalize (a
 * program that defines its own MPI_Finalize keeps it, and should call
 * mpiopt_lazy_flush_all() there). */
#include <mpi.h>

void mpiopt_lazy_finalize(void);
void mpiopt_coll_finalize(void) __attribute__((weak));

#ifdef SMPI_H
/* Under SMPI the MPI functions are declared weak, so a program's call does
   not pull this member out of the archive: core/linked.c refers to this. */
const int mpiopt_smpi_wrap_finalize = 1;
#endif

int MPI_Finalize(void) {
  mpiopt_lazy_finalize();
  if (mpiopt_coll_finalize) mpiopt_coll_finalize();
  return PMPI_Finalize();
}
