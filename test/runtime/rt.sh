#!/usr/bin/env bash
# Runtime tests, run by ctest:
#   rt.sh IMPL NPROCS SOURCE [VAR=VALUE ...]            the program must print "ok: N checks, 0 failures"
#   rt.sh IMPL NPROCS SOURCE --abort REGEX [VAR=VALUE ...]  the program must fail, printing REGEX
#   rt.sh IMPL NPROCS SOURCE --abort-once REGEX [VAR=VALUE ...]  the same, REGEX on exactly one line
#   rt.sh IMPL NPROCS SOURCE --warn-once REGEX [VAR=VALUE ...]   it must pass, printing REGEX on exactly one line
# SOURCE (.c, or .cpp for the C++ front end) is compiled with the MPI's own
# wrapper against runtime/include and the libompi-rt built for that MPI.
# Environment (set by CMake): RT_SRC_ROOT RT_BUILD_DIR RT_WORK MPI_MPICH_CC
# MPI_MPICH_EXEC MPI_OPENMPI_CC MPI_OPENMPI_RUN.
set -euo pipefail
. "$(dirname "$0")/../mpi.sh"

impl=$1 n=$2 src=$3
shift 3
abort="" once="" warn=""
case "${1:-}" in
  --abort) abort=$2; shift 2 ;;
  --abort-once) abort=$2 once=1; shift 2 ;;
  --warn-once) warn=$2; shift 2 ;;
esac

# The plan caches plan a key at its second call here (16 by default), so
# that the tests' short loops exercise their plans; a test that gives
# MPIOPT_PLAN_AFTER runs with its own.
export MPIOPT_PLAN_AFTER=2

mkdir -p "$RT_WORK"
cd "$RT_WORK"
lib=$RT_BUILD_DIR/lib
omp=-fopenmp pre=""
[ "$impl" = openmpi ] && lib=$lib/openmpi
# SMPI: no OpenMP in its runtime; the runtime's MPI_Finalize, MPI_Type_free
# and MPI_Op_free must be pulled in and bound (runtime/core/linked.c)
[ "$impl" = smpi ] && lib=$lib/smpi omp="" pre="-Wl,--undefined=mpiopt_runtime_linked -Wl,-Bsymbolic-functions"
name=$(basename "${src%.*}")
case $src in
  *.cpp) cc=$(mpicxx_of "$impl"); std="-std=c++17 -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX" ;; # no deprecated C++ bindings
  *) cc=$(mpicc_of "$impl"); std=-std=c11 ;;
esac
# One build per program: many tests run the same program under other
# settings (an algorithm forced, another process count). The key covers
# everything the binary is made of: the compiler command, the source and
# the headers beside it, the runtime's and the templates' headers, and the
# library. Built under a temporary name and renamed (ctest -j).
flags="$std -O2 -Wall -Wextra -Werror ${RT_CFLAGS:-} -I$RT_SRC_ROOT/runtime/include -I$RT_SRC_ROOT/templates"
key=$({
  echo "$cc $flags -L$lib $pre -lompi-rt $omp -lm"
  cat "$src" "$(dirname "$src")"/*.h "$lib/libompi-rt.a"
  find "$RT_SRC_ROOT/runtime/include" "$RT_SRC_ROOT/templates" -type f -print0 | sort -z | xargs -0 cat
} 2> /dev/null | sha1sum | cut -c1-16)
bin=$RT_BUILD_DIR/test/rt-bin/$impl-$name-$key
if [ ! -x "$bin" ]; then
  mkdir -p "$(dirname "$bin")"
  # shellcheck disable=SC2086 # flags: several words (RT_CFLAGS: sanitizer flags)
  "$cc" $flags -o "$bin.$$" "$src" -L"$lib" $pre -lompi-rt $omp -lm || fail "$src did not compile"
  mv -f "$bin.$$" "$bin"
fi
cp -f "$bin" "$name"

set +e
env "$@" bash -c '. "$0"; launch "$1" "$2" "./$3"' "$(dirname "$0")/../mpi.sh" "$impl" "$n" "$name" > out.txt 2>&1
rc=$?
set -e
if [ -n "$abort" ]; then
  [ $rc -ne 0 ] || { cat out.txt; fail "$name exited 0; an abort was expected"; }
  grep -Eq "$abort" out.txt || { cat out.txt; fail "$name failed without the expected message /$abort/"; }
  if [ -n "$once" ]; then
    c=$(grep -Ec "$abort" out.txt)
    [ "$c" -eq 1 ] || { cat out.txt; fail "$name printed /$abort/ $c times; once was expected"; }
  fi
  ok "$name aborted with the expected message"
  exit 0
fi
cat out.txt
[ $rc -eq 0 ] || fail "$name exited with $rc"
grep -Eq "^ok: [1-9][0-9]* checks, 0 failures" out.txt || fail "$name did not report its checks"
! grep -q "^FAIL" out.txt || fail "$name printed a failure"
if [ -n "$warn" ]; then
  c=$(grep -Ec "$warn" out.txt || true)
  [ "$c" -eq 1 ] || fail "$name printed /$warn/ $c times; once was expected"
fi
