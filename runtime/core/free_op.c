/* MPI_Op_free through the MPI profiling interface: as core/free_type.c for
 * reduction operations (a pending deferred reduction may use it, and MPI
 * may give the handle to another op with other properties, such as
 * commutativity). */
#include <mpi.h>

#include "../ops/ops.h"

void mpiopt_lazy_handle_freed(void) __attribute__((weak));

#ifdef SMPI_H
/* Under SMPI the MPI functions are declared weak, so a program's call does
   not pull this member out of the archive: core/linked.c refers to this. */
const int mpiopt_smpi_wrap_op_free = 1;
#endif

int MPI_Op_free(MPI_Op *op) {
  if (op && *op != MPI_OP_NULL) {
    if (mpiopt_lazy_handle_freed) mpiopt_lazy_handle_freed();
    mpiopt_op_forget(*op);
  }
  return PMPI_Op_free(op);
}
