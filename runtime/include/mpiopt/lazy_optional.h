/* The lazy runtime's header as code written by ompi-opt includes it: the
 * runtime is optional. The three entry points that code calls have weak
 * definitions here that run the MPI call at once (a wait has nothing to
 * wait for); where libompi-rt is linked, its definitions replace them (see
 * mpiopt/lazy.h, "Linking"). Elsewhere than GCC or Clang on ELF the
 * runtime must be linked. */
#ifndef MPIOPT_LAZY_OPTIONAL_H
#define MPIOPT_LAZY_OPTIONAL_H

#include "mpiopt/lazy.h"

#if defined(__GNUC__) && defined(__ELF__)
#ifdef __cplusplus
extern "C" {
#endif

__attribute__((weak)) int mpiopt_lazy_allreduce_at(const void *sendbuf, void *recvbuf, int count,
                                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *file,
                                                   int line) {
  (void)file;
  (void)line;
  return MPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

__attribute__((weak)) int mpiopt_lazy_reduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                                MPI_Op op, int root, MPI_Comm comm, const char *file, int line) {
  (void)file;
  (void)line;
  return MPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

__attribute__((weak)) int mpiopt_lazy_wait_range_at(const void *p, size_t bytes, const char *file, int line) {
  (void)p;
  (void)bytes;
  (void)file;
  (void)line;
  return MPI_SUCCESS;
}

#ifdef __cplusplus
}
#endif
#endif

#endif /* MPIOPT_LAZY_OPTIONAL_H */
