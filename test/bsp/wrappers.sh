#!/usr/bin/env bash
# bspcc and bsprun (and ompi-cc) on the bundled BSPlib example: build,
# run, compare with the known sum (1..1000 squares = 333833500); and the
# wrappers' own errors. Environment as rt.sh.
set -euo pipefail
. "$(dirname "$0")/../mpi.sh"
mkdir -p "$RT_WORK"
cd "$RT_WORK"
src=$RT_SRC_ROOT/examples/bsp_inprod.c
export MPIOPT_BUILD_DIR=$RT_BUILD_DIR
want="sum of squares 1..1000 = 333833500"
"$RT_SRC_ROOT/scripts/bspcc" -O2 -Wall -Werror -o inprod "$src"
for n in 1 2; do
  out=$(timeout 120 "$RT_SRC_ROOT/scripts/bsprun" -n $n ./inprod 1000)
  [ "$out" = "$want on $n processes" ] || fail "bsprun -n $n: '$out'"
done
ok "bspcc + bsprun (MPICH)"
# separate compilation and linking
"$RT_SRC_ROOT/scripts/bspcc" -O2 -c -o inprod.o "$src"
"$RT_SRC_ROOT/scripts/bspcc" -o inprod2 inprod.o
[ "$(timeout 120 "$RT_SRC_ROOT/scripts/bsprun" -n 2 ./inprod2)" = "$want on 2 processes" ] || fail "bspcc -c then link"
ok "bspcc -c, then link"
# ompi-cc links the same library
"$RT_SRC_ROOT/scripts/ompi-cc" -O2 -o inprod3 "$src"
[ "$(timeout 120 mpiexec.mpich -n 2 ./inprod3)" = "$want on 2 processes" ] || fail "ompi-cc build"
ok "ompi-cc builds a BSPlib program"
if [ -n "${MPI_OPENMPI_CC:-}" ]; then
  BSPCC_MPICC=$MPI_OPENMPI_CC "$RT_SRC_ROOT/scripts/bspcc" -O2 -o inprod_ompi "$src"
  out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none \
    BSPRUN_MPI=openmpi timeout 120 "$RT_SRC_ROOT/scripts/bsprun" -n 4 ./inprod_ompi)
  [ "$out" = "$want on 4 processes" ] || fail "bsprun -n 4 (Open MPI): '$out'"
  ok "bspcc + bsprun (Open MPI, 4 processes)"
  # Run as root, bsprun passes what Open MPI's launcher needs.
  if [ "$(id -u)" -eq 0 ]; then
    out=$(env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_btl_vader_single_copy_mechanism=none \
      BSPRUN_MPI=openmpi timeout 120 "$RT_SRC_ROOT/scripts/bsprun" -n 3 ./inprod_ompi)
    [ "$out" = "$want on 3 processes" ] || fail "bsprun as root (Open MPI): '$out'"
    ok "bsprun as root (Open MPI)"
  fi
  # A program started by the other MPI's launcher stops with a message
  # naming the launchers, instead of running as several "process 0".
  for pair in "inprod openmpi" "inprod_ompi mpich"; do
    set -- $pair
    set +e
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 BSPRUN_MPI=$2 timeout 120 \
      "$RT_SRC_ROOT/scripts/bsprun" -n 2 ./$1 > out.txt 2> err.txt
    rc=$?
    set -e
    [ "$rc" -ne 0 ] || fail "$1 under the $2 launcher ran: $(cat out.txt)"
    [ ! -s out.txt ] || fail "$1 under the $2 launcher printed: $(cat out.txt)"
    grep -q "bsp_begin: error: .* started 2 processes, but each runs alone" err.txt ||
      fail "$1 under the $2 launcher: $(cat err.txt)"
  done
  ok "the other MPI's launcher: a clear error"
fi
# errors
if "$RT_SRC_ROOT/scripts/bsprun" -n 0 ./inprod 2> err.txt; then fail "bsprun -n 0 accepted"; fi
grep -q "expected a positive number of processes" err.txt || fail "bsprun -n 0: $(cat err.txt)"
if BSPCC_MPICC=no-such-mpicc "$RT_SRC_ROOT/scripts/bspcc" -o x "$src" 2> err.txt; then fail "bspcc without a compiler"; fi
grep -q "no-such-mpicc' not found" err.txt || fail "bspcc error: $(cat err.txt)"
ok "wrapper errors"
