/* MPI_Type_free through the MPI profiling interface. A deferred reduction
 * may still use the datatype, and MPI may give the handle to another
 * datatype: the lazy runtime delivers everything pending first (when it is
 * linked), and the runtime's record of the handle goes. Its own file, so
 * that a program defining MPI_Type_free itself (a tool) keeps its own. */
#include <mpi.h>

#include "../ops/ops.h"

void mpiopt_lazy_handle_freed(void) __attribute__((weak));

#ifdef SMPI_H
/* Under SMPI the MPI functions are declared weak, so a program's call does
   not pull this member out of the archive: core/linked.c refers to this. */
const int mpiopt_smpi_wrap_type_free = 1;
#endif

int MPI_Type_free(MPI_Datatype *datatype) {
  if (datatype && *datatype != MPI_DATATYPE_NULL) {
    if (mpiopt_lazy_handle_freed) mpiopt_lazy_handle_freed();
    mpiopt_type_forget(*datatype);
  }
  return PMPI_Type_free(datatype);
}
