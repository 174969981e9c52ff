/* What every program that links libompi-rt through ompi-cc, pkg-config
 * ompi-rt or CMake's OMPI::rt gets: -Wl,--undefined=mpiopt_runtime_linked
 * pulls this member, and with it the members that define the entry points
 * code written by ompi-opt calls. That code defines those entry points
 * weakly (mpiopt/lazy_optional.h, mpiopt/coll_optional.h), so that an object
 * compiled by ompi-cc also links, and runs as the original, with a plain
 * mpicc that does not name the runtime. A reference to an entry point would
 * not do: the program's own weak definition satisfies it, and the member
 * with the strong one would stay in the archive. So each of those members
 * defines a symbol of its own, which only this one refers to.
 *
 * Under SMPI (SMPI_H) the same holds for the runtime's MPI_Finalize,
 * MPI_Type_free and MPI_Op_free: SMPI declares MPI's functions weak, and a
 * weak reference pulls nothing out of an archive. Programs for SMPI are
 * also linked with -Wl,-Bsymbolic-functions (ompi-cc, test/runtime/rt.sh),
 * so that their calls reach these and not SimGrid's, which smpirun loads
 * first. */
#include <mpi.h>

extern const int mpiopt_lazy_runtime_linked, mpiopt_plan_linked, mpiopt_plan_cache_linked, mpiopt_allreduce_linked,
    mpiopt_reduce_linked, mpiopt_allgatherv_linked, mpiopt_scalar_cache_linked;

const int mpiopt_runtime_linked = 1;

static const int *const members[] __attribute__((used)) = {
    &mpiopt_lazy_runtime_linked, &mpiopt_plan_linked,  &mpiopt_plan_cache_linked,
    &mpiopt_allreduce_linked,    &mpiopt_reduce_linked, &mpiopt_allgatherv_linked,
    &mpiopt_scalar_cache_linked,
};

#ifdef SMPI_H
extern const int mpiopt_smpi_wrap_finalize, mpiopt_smpi_wrap_op_free, mpiopt_smpi_wrap_type_free;
static const int *const wrappers[] __attribute__((used)) = {&mpiopt_smpi_wrap_finalize, &mpiopt_smpi_wrap_op_free,
                                                             &mpiopt_smpi_wrap_type_free};
#endif
