#!/usr/bin/env bash
# Third-party check: build the classic BSPedupack programs (Bisseling,
# "Parallel Scientific Computation") unchanged with bspcc and compare their
# known outputs, under MPICH with 1 and 2 processes and Open MPI with 4.
# BSPedupack is GPL and not part of this repository: point BSPEDUPACK_DIR at
# an unpacked copy (1.0x or 2.0; every program found there is tried).
# Without it the test reports itself skipped (exit 77).
#   bspedupack.sh            (environment: BSPEDUPACK_DIR, RT_SRC_ROOT, RT_WORK, MPI_*)
set -euo pipefail
. "$(dirname "$0")/../mpi.sh"
dir=${BSPEDUPACK_DIR:-}
if [ -z "$dir" ] || [ ! -f "$dir/bspedupack.c" ]; then
  echo "skipped: set BSPEDUPACK_DIR to an unpacked BSPedupack to run this check"
  exit 77
fi
mkdir -p "$RT_WORK"
cd "$RT_WORK"
tried=0
# prog SOURCES... : build one program for each MPI
build() {
  local name=$1
  shift
  for f in "$@"; do [ -f "$dir/$f" ] || return 1; done
  for impl in mpich openmpi; do
    [ "$impl" = openmpi ] && [ -z "${MPI_OPENMPI_CC:-}" ] && continue
    (cd "$dir" && BSPCC_MPICC=$(mpicc_of $impl) MPIOPT_BUILD_DIR=$RT_BUILD_DIR \
      "$RT_SRC_ROOT/scripts/bspcc" -O2 -w -o "$RT_WORK/$name.$impl" "$@" -lm) || fail "BSPedupack $name did not build unchanged ($impl)"
  done
}
# run NAME INPUT REGEX: every run must exit 0 and print REGEX
check() {
  local name=$1 input=$2 regex=$3
  for run in mpich:1 mpich:2 openmpi:4; do
    local impl=${run%:*} n=${run#*:}
    [ -x "$name.$impl" ] || continue
    local in=${input//P/$n}
    printf "$in" | launch "$impl" "$n" "./$name.$impl" > "$name.$impl.$n.out" 2>&1 \
      || { cat "$name.$impl.$n.out"; fail "BSPedupack $name failed on $n processes ($impl)"; }
    ! grep -q "bsp error" "$name.$impl.$n.out" || { cat "$name.$impl.$n.out"; fail "$name: BSP error"; }
    grep -Eq "$regex" "$name.$impl.$n.out" || { cat "$name.$impl.$n.out"; fail "$name on $n processes ($impl): no /$regex/"; }
    ok "BSPedupack $name on $n processes ($impl)"
    tried=$((tried + 1))
  done
}
if build inprod bspinprod.c bspedupack.c; then
  check inprod 'P\n1000\n' "sum of squares up to 1000\*1000 is 333833500"
fi
if build bench bspbench.c bspedupack.c; then
  check bench 'P\n' "The bottom line for this BSP computer is"
fi
if build fft bspfft_test.c bspfft.c bspedupack.c; then
  check fft 'P\n1024\n' "Absolute error= [0-9.]+e-(0[6-9]|1[0-9])"
fi
if build lu bsplu_test.c bsplu.c bspedupack.c; then
  check lu '1\nP\n64\n' "."
fi
if build sort bspsort_test.c bspsort.c bspedupack.c; then
  check sort 'P\n4096\n' "."
fi
[ $tried -gt 0 ] || fail "no BSPedupack program found in $dir"
ok "$tried BSPedupack runs"
