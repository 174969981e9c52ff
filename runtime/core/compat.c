/* Work-arounds for bugs of the MPI libraries the runtime runs on: see
 * core.h. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

int mpiopt_reduce_in_place(void *buf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm) {
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40200000
  /* MPICH 4.0 and 4.1 read MPI_IN_PLACE as an address in the reduce-scatter
     algorithm of a root other than 0 (pmodels/mpich#6540, fixed in 4.2):
     give the root's data as a separate send buffer instead. */
  int inter = 0;
  MPI_Comm_test_inter(comm, &inter);
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(dt, &lb, &extent);
  if (root != 0 && !inter && lb == 0 && count > 0) {
    static unsigned char *copy;
    static size_t cap;
    size_t bytes = (size_t)count * (size_t)extent;
    if (bytes > cap) {
      free(copy);
      copy = malloc(bytes);
      cap = copy ? bytes : 0;
      if (!copy) mpiopt_die(comm, "out of memory (%zu bytes) for MPI_Reduce", bytes);
    }
    memcpy(copy, buf, bytes);
    return MPI_Reduce(copy, buf, count, dt, op, root, comm);
  }
#endif
  return MPI_Reduce(MPI_IN_PLACE, buf, count, dt, op, root, comm);
}
