/* Per-communicator state cached in an MPI attribute: see core.h. */
#include "core.h"

int mpiopt_comm_watch(MPI_Comm comm, int *keyval, MPI_Comm_delete_attr_function *on_delete) {
  if (*keyval == MPI_KEYVAL_INVALID) {
    int rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_delete, keyval, NULL);
    if (rc != MPI_SUCCESS) {
      *keyval = MPI_KEYVAL_INVALID;
      return rc;
    }
  }
  return MPI_Comm_set_attr(comm, *keyval, NULL);
}

void mpiopt_comm_unwatch_all(int *keyval) {
  if (*keyval != MPI_KEYVAL_INVALID) MPI_Comm_free_keyval(keyval);
}
