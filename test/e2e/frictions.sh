#!/usr/bin/env bash
# Frictions a new user hit (issue 50), run by ctest: frictions.sh CASE
#
# Environment (set by CMake, as for e2e.sh): E2E_OMPI_CC (scripts/ompi-cc),
# E2E_SRC_ROOT, E2E_SRC, E2E_WORK (a scratch directory for this case),
# MPI_MPICH_CC, MPI_MPICH_EXEC and, where Open MPI is installed,
# MPI_OPENMPI_CC.
set -euo pipefail

. "$(dirname "$0")/../mpi.sh"

rm -rf "$E2E_WORK"
mkdir -p "$E2E_WORK"
cd "$E2E_WORK"
SCRIPTS="$E2E_SRC_ROOT/scripts"
# The scripts of the checkout find the build's ompi-opt and runtime here.
export MPIOPT_BUILD_DIR=${MPIOPT_BUILD_DIR:-$E2E_BUILD_DIR}
cp "$E2E_SRC_ROOT/examples/heat.c" heat.c
cp "$E2E_SRC/lazy_cases.c" lazy.c

notraceback() { if grep -q "Traceback" "$1"; then cat "$1"; fail "a Python traceback reached the user"; fi; }
# A run that exits 0 prints no "error:" line (CI log matchers take it for a failure).
noerror() { if grep -q "error:" "$1"; then cat "$1"; fail "an error line with exit status 0"; fi; }
# lines FILE PATTERN N: exactly N lines of FILE match PATTERN.
lines() {
  local n
  n=$(grep -c -- "$2" "$1" || true)
  [ "$n" -eq "$3" ] || { cat "$1"; fail "expected $3 line(s) matching '$2', got $n"; }
}

case $1 in
  tmpdir)
    # A TMPDIR that does not exist (or is a file): one warning, the build
    # still optimised, as mpicc succeeds.
    TMPDIR=/nonexistent-tmp "$MPI_MPICH_CC" -o plain heat.c
    TMPDIR=/nonexistent-tmp "$E2E_OMPI_CC" --ompi-keep -o heat heat.c 2> err.txt || { cat err.txt; fail "the build failed"; }
    notraceback err.txt
    noerror err.txt
    lines err.txt "^ompi-cc: warning: TMPDIR=/nonexistent-tmp cannot be used" 1
    [ "$(wc -l < err.txt)" -eq 1 ] || { cat err.txt; fail "more than one line"; }
    grep -q mpiopt_fuse heat.c.ompi || fail "not optimised"
    touch afile
    TMPDIR=$PWD/afile "$E2E_OMPI_CC" -c lazy.c -o lazy.o 2> err.txt || { cat err.txt; fail "the build failed (TMPDIR a file)"; }
    lines err.txt "^ompi-cc: warning: TMPDIR=.*afile cannot be used" 1
    same_out() { launch mpich 2 ./plain > plain.out; launch mpich 2 ./heat > heat.out; diff -u plain.out heat.out; }
    same_out || fail "outputs differ"
    ok "TMPDIR unusable: one warning, optimised build"
    ;;

  help-version)
    # Each command's --help is its own first, then says where the wrapped
    # tool's help is; --version gives OMPI's version and the wrapped tools'.
    version=$(sed -n 's/^project(OMPI VERSION \([0-9.]*\).*/\1/p' "$E2E_SRC_ROOT/CMakeLists.txt")
    [ -n "$version" ] || fail "no project version in CMakeLists.txt"
    "$E2E_OMPI_CC" --help > h.txt
    head -1 h.txt | grep -q "^ompi-cc: a drop-in replacement for mpicc" || { head -3 h.txt; fail "ompi-cc --help is not its own"; }
    grep -q "ompi-cc --ompi-off --help" h.txt || fail "ompi-cc --help does not say how to reach the compiler's help"
    if grep -q "^Usage: gcc" h.txt; then fail "ompi-cc --help printed gcc's help"; fi
    "$E2E_OMPI_CC" --ompi-off --help > gcc.txt
    grep -q "^Usage: gcc" gcc.txt || { head -3 gcc.txt; fail "--ompi-off --help is not the compiler's help"; }
    "$E2E_OMPI_CC" --version > v.txt
    head -1 v.txt | grep -q "^ompi-cc (OMPI, the optimising MPI compiler) $version; real compiler: .*; ompi-opt $version\$" &&
      sed -n 2p v.txt | grep -q "^gcc" || { cat v.txt; fail "ompi-cc --version"; }
    "$SCRIPTS/bspcc" --help > h.txt
    head -1 h.txt | grep -q "^bspcc: " && grep -q "mpicc.mpich --help" h.txt || { cat h.txt; fail "bspcc --help"; }
    if grep -q "^Usage: gcc" h.txt; then fail "bspcc --help printed gcc's help"; fi
    "$SCRIPTS/bspcc" --version > v.txt
    grep -q "^bspcc (OMPI, the optimising MPI compiler) $version; MPI compiler: " v.txt && grep -q "^gcc" v.txt ||
      { cat v.txt; fail "bspcc --version"; }
    "$SCRIPTS/bsprun" --help > h.txt
    head -1 h.txt | grep -q "^bsprun: " && grep -q "mpiexec.mpich --help" h.txt || { cat h.txt; fail "bsprun --help"; }
    "$SCRIPTS/bsprun" --version > v.txt
    grep -q "^bsprun (OMPI, the optimising MPI compiler) $version; launcher: mpiexec.mpich" v.txt &&
      grep -q "HYDRA" v.txt || { cat v.txt; fail "bsprun --version"; }
    "$SCRIPTS/tune" --help > h.txt
    head -1 h.txt | grep -q "^usage: scripts/tune " || { head -3 h.txt; fail "ompi-tune --help does not start with its usage"; }
    "$SCRIPTS/tune" --version > v.txt
    grep -q "^ompi-tune (OMPI, the optimising MPI compiler) $version" v.txt && grep -q "^MPICH [0-9]" v.txt ||
      { cat v.txt; fail "ompi-tune --version"; }
    ok "--help and --version of ompi-cc, bspcc, bsprun and ompi-tune"
    ;;

  report-file)
    # --ompi-report-file: %s gives one file per source, a plain name one
    # JSON array; nothing of the report on standard error.
    "$E2E_OMPI_CC" --ompi-report=json --ompi-report-file=%s.ompi.json -c heat.c lazy.c 2> err.txt ||
      { cat err.txt; fail "the build failed"; }
    [ ! -s err.txt ] || { cat err.txt; fail "something on standard error"; }
    python3 - <<'PY' || fail "per-source report files"
import json
for stem in ("heat", "lazy"):
    d = json.load(open(stem + ".ompi.json"))
    assert d["files"][0]["file"].endswith(stem + ".c") and d["files"][0]["calls"], stem
PY
    "$E2E_OMPI_CC" --ompi-report-file=all.json -c heat.c lazy.c 2> err.txt || { cat err.txt; fail "the build failed"; }
    [ ! -s err.txt ] || { cat err.txt; fail "something on standard error"; }
    python3 -c "
import json
d = json.load(open('all.json'))
assert isinstance(d, list) and [x['files'][0]['file'].split('/')[-1] for x in d] == ['heat.c', 'lazy.c'], d
" || fail "the plain name is not a JSON array of the two reports"
    "$E2E_OMPI_CC" --ompi-report=text --ompi-report-file=all.txt -c heat.c lazy.c
    grep -q "heat.c:[0-9]*:[0-9]*: MPI_" all.txt && grep -q "lazy.c:[0-9]*:[0-9]*: MPI_" all.txt || fail "text reports"
    "$E2E_OMPI_CC" --ompi-report-file=nodir/r.json -c heat.c 2> err.txt || { cat err.txt; fail "an unwritable report broke the build"; }
    lines err.txt "^ompi-cc: warning: cannot write the report to nodir/r.json" 1
    notraceback err.txt
    ok "report files: per source, one array, text; unwritable is a warning"
    ;;

  summary-archive)
    # --ompi-summary at a link with a static archive: the archive's objects
    # are not counted, and one warning says so (HPL, AMG).
    cat > part.c <<'EOF2'
#include <mpi.h>
double twice(double x) {
  double a = x, b = 2 * x;
  MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return a + b;
}
EOF2
    "$E2E_OMPI_CC" --ompi-summary -c part.c -o part.o
    ar rcs libpart.a part.o
    "$E2E_OMPI_CC" --ompi-summary -c lazy.c -o lazy.o
    "$E2E_OMPI_CC" --ompi-summary -o prog lazy.o libpart.a 2> err.txt || { cat err.txt; fail "the link failed"; }
    lines err.txt "^ompi-cc: warning: --ompi-summary: the objects of libpart.a are not counted" 1
    lines err.txt "ompi-opt summary: .* communication call sites in 1 file" 1
    notraceback err.txt
    noerror err.txt
    ok "--ompi-summary with a static archive: counted without it, one warning"
    ;;

  warnings)
    # Problems the build goes on past are warnings, not "error:" lines.
    mkdir -p out/heat.c.ompi  # the kept copy's name is taken by a directory
    MPIOPT_CC_TIMEOUT=abc "$E2E_OMPI_CC" --ompi-keep -c heat.c -o out/heat.o 2> err.txt ||
      { cat err.txt; fail "the build failed"; }
    [ -f out/heat.o ] || fail "no object"
    lines err.txt "^ompi-cc: warning: MPIOPT_CC_TIMEOUT='abc' is not a positive number of seconds; using 300" 1
    lines err.txt "^ompi-cc: warning: cannot keep the optimised source of heat.c as out/heat.c.ompi" 1
    noerror err.txt
    notraceback err.txt
    ok "a bad MPIOPT_CC_TIMEOUT and an unwritable kept copy: warnings, exit status 0"
    ;;

  profile-env)
    # A profile that does not exist is an error, by option or by variable,
    # naming which.
    for how in env option; do
      set +e
      if [ $how = env ]; then
        MPIOPT_PROFILE=/no/such.json "$E2E_OMPI_CC" -c heat.c -o heat.o 2> err.txt; rc=$?
      else
        "$E2E_OMPI_CC" --ompi-profile=/no/such.json -c heat.c -o heat.o 2> err.txt; rc=$?
      fi
      set -e
      [ "$rc" -eq 2 ] || { cat err.txt; fail "$how: exit status $rc, expected 2"; }
      [ "$(wc -l < err.txt)" -eq 1 ] || { cat err.txt; fail "$how: not one line"; }
      notraceback err.txt
    done
    MPIOPT_PROFILE=/no/such.json "$E2E_OMPI_CC" -c heat.c -o heat.o 2> err.txt || true
    lines err.txt "^ompi-cc: error: MPIOPT_PROFILE='/no/such.json' is not a file" 1
    MPIOPT_PROFILE=none "$E2E_OMPI_CC" -c heat.c -o heat.o 2> err.txt || { cat err.txt; fail "MPIOPT_PROFILE=none failed"; }
    [ ! -s err.txt ] || { cat err.txt; fail "MPIOPT_PROFILE=none printed something"; }
    ok "MPIOPT_PROFILE and --ompi-profile naming no file: one error line, status 2"
    ;;

  mpi-stamp)
    # .ompi-cc-mpi: a run naming no MPI where another was named stops; a
    # run naming one (option or variable) wins, with a note. Two names of
    # MPICH's wrapper stand for two MPIs.
    ln -s "$MPI_MPICH_CC" othermpicc
    other=$PWD/othermpicc
    mkdir obj
    "$E2E_OMPI_CC" --ompi-mpicc="$other" -c heat.c -o obj/heat.o
    [ "$(cat obj/.ompi-cc-mpi)" = "$other" ] || fail "the choice was not recorded"
    set +e
    "$E2E_OMPI_CC" -c heat.c -o obj/heat.o 2> err.txt; rc=$?
    set -e
    [ "$rc" -ne 0 ] || fail "a run naming no MPI switched MPI silently"
    lines err.txt "^ompi-cc: error: .*obj was built with $other" 1
    OMPI_CC_MPICC=mpicc.mpich "$E2E_OMPI_CC" -c heat.c -o obj/heat.o 2> err.txt || { cat err.txt; fail "OMPI_CC_MPICC did not win"; }
    lines err.txt "^ompi-cc: note: .*obj was built with $other .*; using mpicc.mpich, which OMPI_CC_MPICC names" 1
    [ "$(cat obj/.ompi-cc-mpi)" = mpicc.mpich ] || fail "the new choice was not recorded"
    "$E2E_OMPI_CC" --ompi-mpicc="$other" -c heat.c -o obj/heat.o 2> err.txt || { cat err.txt; fail "--ompi-mpicc did not win"; }
    lines err.txt "^ompi-cc: note: .*; using $other, which --ompi-mpicc names" 1
    noerror err.txt
    ok ".ompi-cc-mpi: protects a run naming no MPI; an explicit choice wins with a note"
    ;;

  queries)
    # The queries --ompi-help lists work under MPICH (translated to its
    # -show, -compile_info, -link_info) and under Open MPI.
    for q in -show -showme --showme --showme:compile --showme:link -compile_info -link_info; do
      "$E2E_OMPI_CC" "$q" > q.txt 2> err.txt || { cat err.txt; fail "MPICH: $q failed"; }
      grep -q "^gcc .*-I.*mpich" q.txt || { cat q.txt err.txt; fail "MPICH: $q printed no command"; }
    done
    "$E2E_OMPI_CC" --showme:link > q.txt
    grep -q -- "-lompi-rt .*-lmpich" q.txt || { cat q.txt; fail "MPICH: --showme:link lacks the runtime"; }
    set +e
    "$E2E_OMPI_CC" --showme:version > q.txt 2> err.txt; rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "MPICH: --showme:version exit status $rc"
    lines err.txt "^ompi-cc: error: --showme:version is a query of Open MPI's mpicc" 1
    if [ -n "${MPI_OPENMPI_CC:-}" ] && command -v "$MPI_OPENMPI_CC" > /dev/null; then
      for q in -showme --showme:compile --showme:link -compile_info -link_info; do
        "$E2E_OMPI_CC" --ompi-mpicc="$MPI_OPENMPI_CC" "$q" > q.txt 2> err.txt || { cat err.txt; fail "Open MPI: $q failed"; }
        grep -q -- "-I.*openmpi\|-lmpi" q.txt || { cat q.txt err.txt; fail "Open MPI: $q printed nothing useful"; }
      done
    fi
    ok "queries translated for each MPI"
    ;;

  help-docs)
    # ompi-cc --ompi-help and docs/user-guide.md list the same options and
    # variables (--ompi-report's forms included).
    "$E2E_OMPI_CC" --ompi-help > help.txt
    guide="$E2E_SRC_ROOT/docs/user-guide.md"
    grep -q -- "--ompi-report\[=text|long|json\]" help.txt || fail "--ompi-help: --ompi-report's forms"
    grep -q -- '`--ompi-report\[=text\\|long\\|json\]`' "$guide" || fail "user guide: --ompi-report's forms"
    if grep -rq -- "--ompi-report\[=text|json\]\|--ompi-report\[=text\\\\|json\]" "$guide" "$E2E_SRC_ROOT/README.md"; then
      fail "a page still says --ompi-report[=text|json]"
    fi
    for o in $(grep -o -- "--ompi-[a-z-]*" help.txt | sort -u); do
      grep -q -- "| \`$o" "$guide" || fail "$o is in --ompi-help, not in the user guide's option table"
    done
    for o in $(grep -o -- "^| \`--ompi-[a-z-]*" "$guide" | sed 's/^| `//' | sort -u); do
      grep -q -- "$o" help.txt || fail "$o is in the user guide's table, not in --ompi-help"
    done
    for v in OMPI_CC_MPICC MPIOPT_OPT MPIOPT_BUILD_DIR MPIOPT_OPT_FLAGS MPIOPT_PROFILE MPIOPT_CC_TIMEOUT \
      MPIOPT_CC_FORCE_COPY MPIOPT_CC_VIA_WRAPPER TMPDIR; do
      grep -q "^  $v " help.txt || fail "--ompi-help does not list $v"
      grep -q "^| \`$v\` |" "$guide" || fail "the user guide's table does not list $v"
    done
    ok "--ompi-help and the user guide agree"
    ;;

  *)
    fail "unknown case $1"
    ;;
esac
