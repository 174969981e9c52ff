# Shell helpers shared by the ctest drivers (sourced, not run).
# Needs: MPI_MPICH_CC MPI_MPICH_EXEC MPI_OPENMPI_CC MPI_OPENMPI_RUN (set by CMake).

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

# launch IMPL NPROCS PROGRAM...: run an MPI program, bounded in time. Open MPI
# oversubscribes (it yields when idle) and may run as root in containers.
launch() {
  local impl=$1 n=$2
  shift 2
  case $impl in
    mpich) timeout 300 "$MPI_MPICH_EXEC" -n "$n" "$@" ;;
    openmpi)
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1 \
        timeout 300 "$MPI_OPENMPI_RUN" --oversubscribe -n "$n" "$@" ;;
    smpi) timeout 300 "$(dirname "${BASH_SOURCE[0]}")/../scripts/simrun" --quiet -np "$n" "$@" ;; # SimGrid's simulator
    *) fail "unknown MPI $impl" ;;
  esac
}

# mpicc_of IMPL / mpicxx_of IMPL: the compiler wrappers of an implementation.
mpicc_of() { case $1 in mpich) echo "$MPI_MPICH_CC" ;; openmpi) echo "$MPI_OPENMPI_CC" ;; smpi) echo "$MPI_SMPI_CC" ;; esac; }
mpicxx_of() { mpicc_of "$1" | sed 's/mpicc\(\.[a-z]*\)$/mpicxx\1/'; }
