/* What every program that links libompi-rt through ompi-cc, pkg-config
 * ompi-rt or CMake's OMPI::rt gets: -Wl,--undefined=mpiopt_runtime_linked
 * pulls this member, and with it the members that define the entry points
 * code written by ompi-opt calls. That code defines those entry points
 * weakly (mpiopt/lazy_optional.h, mpiopt/coll_optional.h), so that an object
 * compiled by ompi-cc also links, and runs as the original, with a plain
 * mpicc that does not name the runtime. A reference to an entry point would
 * not do: the program's own weak definition satisfies it, and the member
 * with the strong one would stay in the archive. So each of those members
 * defines a symbol of its own, which only this one refers to. */
extern const int mpiopt_lazy_runtime_linked, mpiopt_plan_linked, mpiopt_plan_cache_linked, mpiopt_allreduce_linked,
    mpiopt_reduce_linked, mpiopt_allgatherv_linked;

const int mpiopt_runtime_linked = 1;

static const int *const members[] __attribute__((used)) = {
    &mpiopt_lazy_runtime_linked, &mpiopt_plan_linked,  &mpiopt_plan_cache_linked,
    &mpiopt_allreduce_linked,    &mpiopt_reduce_linked, &mpiopt_allgatherv_linked,
};
