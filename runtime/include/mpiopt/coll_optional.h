/* The planned collectives' and large-vector reductions' header as code
 * written by ompi-opt includes it: the runtime is optional. The entry points
 * that code calls have weak definitions here that run the MPI call itself
 * (a plan is never made, and freeing one does nothing); where libompi-rt is
 * linked, its definitions replace them (see mpiopt/lazy.h, "Linking": the
 * same -Wl,--undefined=mpiopt_runtime_linked pulls them in). Elsewhere than
 * GCC or Clang on ELF the runtime must be linked. */
#ifndef MPIOPT_COLL_OPTIONAL_H
#define MPIOPT_COLL_OPTIONAL_H

#include "mpiopt/coll.h"
#include "mpiopt/plan.h"

#if defined(__GNUC__) && defined(__ELF__)
#ifdef __cplusplus
extern "C" {
#endif

__attribute__((weak)) int mpiopt_alltoallv_planned_at(mpiopt_plan *plan, const void *sendbuf, const int *sendcounts,
                                                      const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                                                      const int *recvcounts, const int *rdispls,
                                                      MPI_Datatype recvtype, MPI_Comm comm, const char *file,
                                                      int line) {
  (void)plan;
  (void)file;
  (void)line;
  return MPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

__attribute__((weak)) int mpiopt_alltoall_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount,
                                                     MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                                     MPI_Datatype recvtype, MPI_Comm comm, const char *file,
                                                     int line) {
  (void)plan;
  (void)file;
  (void)line;
  return MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

__attribute__((weak)) int mpiopt_allgatherv_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount,
                                                       MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                                                       const int *displs, MPI_Datatype recvtype, MPI_Comm comm,
                                                       const char *file, int line) {
  (void)plan;
  (void)file;
  (void)line;
  return MPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

__attribute__((weak)) int mpiopt_allgather_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount,
                                                      MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                                      MPI_Datatype recvtype, MPI_Comm comm, const char *file,
                                                      int line) {
  (void)plan;
  (void)file;
  (void)line;
  return MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

__attribute__((weak)) int mpiopt_alltoallv_cached_at(const void *sendbuf, const int *sendcounts, const int *sdispls,
                                                     MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                                                     const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                                                     const char *file, int line) {
  (void)file;
  (void)line;
  return MPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

__attribute__((weak)) int mpiopt_allgatherv_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                                      void *recvbuf, const int *recvcounts, const int *displs,
                                                      MPI_Datatype recvtype, MPI_Comm comm, const char *file,
                                                      int line) {
  (void)file;
  (void)line;
  return MPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

__attribute__((weak)) int mpiopt_alltoall_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                                    void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                                    MPI_Comm comm, const char *file, int line) {
  (void)file;
  (void)line;
  return MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

__attribute__((weak)) int mpiopt_allgather_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                                     MPI_Comm comm, const char *file, int line) {
  (void)file;
  (void)line;
  return MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

__attribute__((weak)) int mpiopt_plan_free(mpiopt_plan *plan) {
  (void)plan;
  return MPI_SUCCESS;
}

__attribute__((weak)) int mpiopt_allreduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                              MPI_Op op, MPI_Comm comm, const char *file, int line) {
  (void)file;
  (void)line;
  return MPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

__attribute__((weak)) int mpiopt_reduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                           MPI_Op op, int root, MPI_Comm comm, const char *file, int line) {
  (void)file;
  (void)line;
  return MPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

#ifdef __cplusplus
}
#endif
#endif

#endif /* MPIOPT_COLL_OPTIONAL_H */
