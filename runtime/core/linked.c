/* What every program that links libompi-rt through ompi-cc, pkg-config
 * ompi-rt or CMake's OMPI::rt gets: -Wl,--undefined=mpiopt_runtime_linked
 * pulls this member, and with it the strong definitions of every entry
 * point that code written by ompi-opt calls. That code defines those entry
 * points weakly (mpiopt/lazy_optional.h, mpiopt/coll_optional.h), so that
 * an object compiled by ompi-cc also links, and runs as the original, with
 * a plain mpicc that does not name the runtime; a weak definition alone
 * would pull no member out of a static library. */
#include "mpiopt/coll.h"
#include "mpiopt/lazy.h"
#include "mpiopt/plan.h"

const int mpiopt_runtime_linked = 1;

static const struct {
  int (*lazy_allreduce)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, const char *, int);
  int (*lazy_reduce)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm, const char *, int);
  int (*lazy_wait)(const void *, size_t, const char *, int);
  int (*planned)(mpiopt_plan *, const void *, const int *, const int *, MPI_Datatype, void *, const int *,
                 const int *, MPI_Datatype, MPI_Comm, const char *, int);
  int (*planned_all)(mpiopt_plan *, const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm,
                     const char *, int);
  int (*cached)(const void *, const int *, const int *, MPI_Datatype, void *, const int *, const int *, MPI_Datatype,
                MPI_Comm, const char *, int);
  int (*plan_free)(mpiopt_plan *);
  int (*allreduce)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, const char *, int);
  int (*reduce)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm, const char *, int);
} entry_points __attribute__((used)) = {
    mpiopt_lazy_allreduce_at, mpiopt_lazy_reduce_at, mpiopt_lazy_wait_range_at, mpiopt_alltoallv_planned_at,
    mpiopt_alltoall_planned_at, mpiopt_alltoallv_cached_at, mpiopt_plan_free, mpiopt_allreduce_at,
    mpiopt_reduce_at,
};
