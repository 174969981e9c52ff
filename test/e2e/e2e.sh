#!/usr/bin/env bash
# End-to-end tests of ompi-cc, run by ctest: e2e.sh CASE [ARGS...]
#
# Environment (set by CMake): E2E_OMPI_CC (scripts/ompi-cc), E2E_BUILD_DIR,
# E2E_SRC (this directory), E2E_WORK (a scratch directory for this case),
# E2E_SRC_ROOT, and MPI_MPICH_CC, MPI_MPICH_EXEC, MPI_OPENMPI_CC, MPI_OPENMPI_RUN (test/mpi.sh).
#
# Every case compares an ompi-cc build with a plain mpicc build of the same
# source, run the same way; outputs must be identical. The programs print
# only exact values (integers, or sums of small integers in double
# precision, which are exact in any reduction order).
set -euo pipefail

. "$(dirname "$0")/../mpi.sh"

rm -rf "$E2E_WORK"
mkdir -p "$E2E_WORK"
cd "$E2E_WORK"

# same_output IMPL NPROCS PLAIN OMPI: both programs print the same, and
# something, on NPROCS ranks of IMPL.
same_output() {
  local impl=$1 n=$2
  launch "$impl" "$n" "$3" > plain.out
  launch "$impl" "$n" "$4" > ompi.out
  [ -s plain.out ] || fail "the plain build printed nothing"
  diff -u plain.out ompi.out || fail "outputs differ ($impl, $n ranks)"
}

# build_pair IMPL SOURCE NAME: ./plain with the MPI's mpicc and ./NAME with
# ompi-cc (its report in report.txt, the transformed source kept), both
# with -O2 -Wall -Wextra -Werror.
build_pair() {
  local cc
  cc=$(mpicc_of "$1")
  "$cc" -O2 -Wall -Wextra -Werror -o plain "$2" -lm
  OMPI_CC_MPICC="$cc" "$E2E_OMPI_CC" --ompi-report --ompi-keep -O2 -Wall -Wextra -Werror -o "$3" "$2" -lm \
    2> report.txt || { cat report.txt; fail "$(basename "$2") did not compile with ompi-cc"; }
}

# compare IMPL NPROCS SOURCE: plain and ompi-cc builds print the same.
compare() {
  local impl=$1 n=$2 src=$3 cc
  cc=$(mpicc_of "$impl")
  "$cc" -O2 -Wall -Wextra -Werror -o plain "$src" -lm
  OMPI_CC_MPICC="$cc" "$E2E_OMPI_CC" -O2 -Wall -Wextra -Werror -o optimised "$src" -lm
  same_output "$impl" "$n" ./plain ./optimised
  ok "$src: same output with $impl on $n ranks ($(wc -l < plain.out) lines)"
}

case_name=$1
shift
case $case_name in
  compare)
    compare "$@"
    ;;

  heat)
    # The bundled heat.c: its three reductions per report (two SUMs and a
    # MAX) become one collective with a composite op, as the shipped
    # machine profile of each MPI measured it winning; same output.
    impl=$1 n=$2
    build_pair "$impl" "$E2E_SRC_ROOT/examples/heat.c" heat
    grep -q "fused 3 MPI_Allreduce calls (lines 59, 62, 63) into one of 24 bytes with a composite op" report.txt ||
      { cat report.txt; fail "expected the three reductions fused into one composite collective"; }
    nc=$(grep -c "MPI_Allreduce(" heat.c.ompi || true)
    [ "$nc" -eq 1 ] || { cat heat.c.ompi; fail "expected one MPI_Allreduce in the compiled source, found $nc"; }
    same_output "$impl" "$n" ./plain ./heat
    ok "one collective per report; same output with $impl on $n ranks"
    ;;

  tune-smpi)
    # scripts/tune --mpi=smpi (measurements in the simulator), one quick
    # round of the fusion and collectives sections: a profile ompi-opt
    # reads, named for SMPI, with both sections.
    echo '{}' > profile.json
    MPIOPT_BUILD_DIR="$E2E_BUILD_DIR" "$E2E_SRC_ROOT/scripts/tune" --mpi=smpi --only=fusion,collectives --rounds=1 \
      -o profile.json > tune.out 2> tune.err || { cat tune.err; fail "scripts/tune --mpi=smpi failed"; }
    python3 - profile.json <<'PY' || fail "the profile is not valid"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["schema"] == "ompi-profile/1" and p["mpi"].startswith("SMPI"), p.get("mpi")
assert p["fusion"]["composite"] and p["collectives"]["allreduce"] and p["collectives"]["alltoallv"]
assert [q["bytes"] for q in p["collectives"]["allgather"]] == [8, 320, 2560, 32768, 262144, 1048576]
PY
    echo 'int main(void) { return 0; }' > empty.c
    "$E2E_BUILD_DIR/bin/ompi-opt" --profile=profile.json empty.c -- > /dev/null 2> opt.err ||
      { cat opt.err; fail "ompi-opt could not read the SMPI profile"; }
    grep -q "MPIOPT_ALLREDUCE_MODEL=" tune.out || { cat tune.out; fail "no runtime models printed"; }
    ok "scripts/tune --mpi=smpi: a profile of the simulator"
    ;;

  tune)
    # scripts/tune, one quick round: a valid profile (every key once) that
    # ompi-opt reads, with each section the transformations and the
    # runtime use.
    MPIOPT_BUILD_DIR="$E2E_BUILD_DIR" "$E2E_SRC_ROOT/scripts/tune" --mpi=mpich --rounds=1 -o profile.json \
      > tune.out 2> tune.err || { cat tune.err; fail "scripts/tune failed"; }
    python3 - profile.json <<'PY' || fail "the profile is not valid"
import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "duplicate keys: %s" % keys
    return dict(pairs)
p = json.load(open(sys.argv[1]), object_pairs_hook=once)
assert p["schema"] == "ompi-profile/1"
assert p["fusion"]["composite"] and p["lazy"]["model"] and p["templates"]["vector"]
t = p["templates"]
assert t["persistent"] and t["persistent_ssend"] and t["persistent_sendrecv"]
assert [q["bytes"] for q in t["persistent"]][0] == 0 and all("block" not in q for q in t["persistent"])
assert t["null"] and t["null_sendrecv"] and t["self_sendrecv"] and t["self_replace"]
assert [q["bytes"] for q in t["aggregate"]] == [8, 16, 32, 48, 64, 128, 256, 512, 1024]
assert [q["bytes"] for q in t["aggregate3"]] == [q["bytes"] for q in t["aggregate4"]] == [16, 32, 48, 64, 128, 256, 512, 1024]
assert all([q["bytes"] for q in t[f]] == [4, 8, 16, 32, 64, 128, 256, 512, 1024]
           for f in ("aggregate_bcast", "aggregate_bcast3", "aggregate_bcast4"))
assert all(t[f + "_indexed"] and t[f] for f in ("bcast", "gather", "scatter", "alltoall")) and t["indexed"]
c = p["collectives"]
assert c["alltoallv"] and c["allgatherv"] and c["allgather"] and c["allreduce"] and c["reduce"] and set(c["models"]) == {"alltoallv", "allreduce", "reduce"}
PY
    for v in LAZY ALLTOALLV ALLREDUCE REDUCE; do
      grep -q "^export MPIOPT_${v}_MODEL=" tune.out || { cat tune.out; fail "no MPIOPT_${v}_MODEL line"; }
    done
    # The runtime accepts the models the tuner prints.
    eval "$(grep '^export MPIOPT_ALLTOALLV_MODEL=' tune.out)"
    eval "$(grep '^export MPIOPT_ALLREDUCE_MODEL=' tune.out)"
    eval "$(grep '^export MPIOPT_REDUCE_MODEL=' tune.out)"
    "$MPI_MPICH_CC" -I"$E2E_SRC_ROOT/runtime/include" -o models "$E2E_SRC_ROOT/test/runtime/coll_bad_args.c" \
      -L"$E2E_BUILD_DIR/lib" -lompi-rt -fopenmp
    launch mpich 2 ./models > models.txt 2>&1 || { cat models.txt; fail "the runtime rejected the tuned models"; }
    "$E2E_BUILD_DIR/bin/ompi-opt" --profile=profile.json --report "$E2E_SRC/dtype_templates.c" -- \
      > report.txt 2>&1 || { cat report.txt; fail "ompi-opt did not read the profile"; }
    ok "scripts/tune wrote a profile ompi-opt reads"
    ;;

  templates)
    # datatype-templates (dtype_templates.c): with a profile in which the
    # templates win, every call with a datatype of known shape goes through
    # a template (9 calls), and the one built from rank-dependent arguments
    # through the run-time form (its shape recorded when it is built); same
    # output, also where a template talks to an untransformed peer.
    impl=$1 n=$2
    MPIOPT_PROFILE="$E2E_SRC_ROOT/test/tool/Inputs/profile-templates.json" \
      build_pair "$impl" "$E2E_SRC/dtype_templates.c" templated
    nt=$(grep -c "datatype-templates: MPI_" report.txt || true)
    [ "$nt" -eq 10 ] || { cat report.txt; fail "expected 10 calls through templates, found $nt"; }
    grep -q "datatype-templates: MPI_Sendrecv with varying: .*known only at run time" report.txt ||
      { cat report.txt; fail "expected the rank-dependent datatype recorded at run time"; }
    same_output "$impl" "$n" ./plain ./templated
    ok "10 calls through datatype templates; same output with $impl on $n ranks"
    ;;

  dtype-cases)
    # datatype-templates on one of the datatype programs: dtype_shapes.c
    # (subarrays in C and Fortran order, resized columns and types built
    # from them: the _nd templates) or dtype_runtime.c (shapes known only at
    # run time, built and freed in a loop: the _rt templates and their
    # recording wrappers). With a profile in which the templates win up to
    # 4 KiB, COUNT calls go through templates; same output as MPI's own
    # datatype engine gives.
    src=$1 count=$2 impl=$3 n=$4
    MPIOPT_PROFILE="$E2E_SRC_ROOT/test/tool/Inputs/profile-templates.json" \
      build_pair "$impl" "$E2E_SRC/$src" templated
    nt=$(grep -c "datatype-templates: MPI_" report.txt || true)
    [ "$nt" -eq "$count" ] || { cat report.txt; fail "expected $count calls through templates, found $nt"; }
    same_output "$impl" "$n" ./plain ./templated
    ok "$src: $count calls through datatype templates; same output with $impl on $n ranks"
    ;;

  persistent)
    # persistent-requests on persistent_cases.c with a profile in which
    # persistent requests win at every size: 21 calls in loops go through
    # them (3 stay generic: a wildcard receive, a destination that follows
    # its loop's counter, a floating-point sum without --ompi-reassociate),
    # and 3 helpers' calls through per-site caches;
    # the same output as the blocking calls give.
    impl=$1 n=$2
    MPIOPT_PROFILE="$E2E_SRC/profile-persistent.json" build_pair "$impl" "$E2E_SRC/persistent_cases.c" persistent
    np=$(grep -c "persistent-requests: MPI_" report.txt || true)
    [ "$np" -eq 24 ] || { cat report.txt; fail "expected 24 calls through persistent requests, found $np"; }
    nc=$(grep -c "persistent-requests: MPI_.* through a per-site cache" report.txt || true)
    [ "$nc" -eq 3 ] || { cat report.txt; fail "expected 3 calls through per-site caches, found $nc"; }
    same_output "$impl" "$n" ./plain ./persistent
    ok "persistent_cases.c: $np calls through persistent requests; same output with $impl on $n ranks"
    ;;

  nonblocking)
    # nonblocking-persistent on nonblocking_cases.c with a profile in which
    # persistent requests win at every size: 12 nonblocking starts in five
    # helpers (a halo with MPI_PROC_NULL ends, a ring with scalar requests,
    # a neighbour loop, a program's own persistent request in the same
    # array, requests in malloc'd memory) go through their functions' caches, their waits and tests
    # through the completion templates; the same output (data, statuses,
    # which request variables are MPI_REQUEST_NULL) as MPI's nonblocking
    # calls give.
    impl=$1 n=$2
    MPIOPT_PROFILE="$E2E_SRC/profile-nonblocking.json" build_pair "$impl" "$E2E_SRC/nonblocking_cases.c" nonblocking
    nb=$(grep -c "nonblocking-persistent: MPI_.* through .*'s cache of persistent requests" report.txt || true)
    [ "$nb" -eq 12 ] || { cat report.txt; fail "expected 12 starts through persistent requests, found $nb"; }
    nw=$(grep -c "mpiopt_wait[a-z]*_nb\|mpiopt_test[a-z]*_nb" nonblocking_cases.c.ompi || true)
    [ "$nw" -ge 7 ] || { cat nonblocking_cases.c.ompi; fail "expected the waits and tests rewritten, found $nw"; }
    same_output "$impl" "$n" ./plain ./nonblocking
    ok "nonblocking_cases.c: $nb starts through persistent requests; same output with $impl on $n ranks"
    ;;

  overlap)
    # communication-overlap on overlap_cases.c under the shipped profile:
    # waits move down past computation that does not need their transfers
    # and a receive moves up past packing, calls in an if or with their
    # result kept moving with their statement, and send waits leaving their
    # ifs past the other direction of an exchange (the report names 10 moves); the
    # program prints checksums of every buffer, so a move that let code see
    # a message too early, or change a send buffer too early, shows.
    impl=$1 n=$2
    build_pair "$impl" "$E2E_SRC/overlap_cases.c" overlap
    nm=$(grep -c "communication-overlap: MPI_.* moved down\|communication-overlap: MPI_Irecv posted earlier" report.txt || true)
    [ "$nm" -eq 10 ] || { cat report.txt; fail "expected 10 calls moved, found $nm"; }
    same_output "$impl" "$n" ./plain ./overlap
    ok "overlap_cases.c: $nm calls moved; same output with $impl on $n ranks"
    ;;

  aggregate)
    # message-aggregation on aggregate_cases.c with a profile in which the
    # packed message wins: the ring's, the chain's and the time loop's
    # groups (10 of sends and receives) become one message each; the same
    # output (data and statuses) as the separate calls give.
    impl=$1 n=$2
    MPIOPT_PROFILE="$E2E_SRC_ROOT/test/tool/Inputs/profile-aggregate.json" \
      build_pair "$impl" "$E2E_SRC/aggregate_cases.c" aggregate
    na=$(grep -c "message-aggregation: [0-9] MPI_.* as one" report.txt || true)
    [ "$na" -eq 10 ] || { cat report.txt; fail "expected 10 groups as one message, found $na"; }
    same_output "$impl" "$n" ./plain ./aggregate
    ok "aggregate_cases.c: $na groups as one message; same output with $impl on $n ranks"
    ;;

  bcast-fusion)
    # broadcast-fusion on bcast_cases.c with a profile in which the fused
    # broadcast wins: 7 groups (parameters, overlapping buffers, counts known
    # only at run time, one over 1 KiB, a time loop, a split communicator,
    # an intercommunicator) become one call each; the same output.
    impl=$1 n=$2
    MPIOPT_PROFILE="$E2E_SRC_ROOT/test/tool/Inputs/profile-bcast.json" \
      build_pair "$impl" "$E2E_SRC/bcast_cases.c" broadcast
    nb=$(grep -c "broadcast-fusion: [0-9] MPI_Bcast at .* as one broadcast" report.txt || true)
    [ "$nb" -eq 7 ] || { cat report.txt; fail "expected 7 groups as one broadcast, found $nb"; }
    same_output "$impl" "$n" ./plain ./broadcast
    ok "bcast_cases.c: $nb groups as one broadcast; same output with $impl on $n ranks"
    ;;

  peers)
    # peer-templates and sendrecv-pairing on peer_cases.c with a profile in
    # which the templates win at every size: 6 calls with MPI_PROC_NULL
    # (no-ops and half exchanges), 4 exchanges of a process with itself and
    # 2 exchanges whose peers are known only at run time go through them, and 4 send/receive pairs (2 of them in allocated
    # buffers) become MPI_Sendrecv; the
    # same output (data and statuses) as the generic calls give.
    impl=$1 n=$2
    MPIOPT_PROFILE="$E2E_SRC_ROOT/test/tool/Inputs/profile-peers.json" \
      build_pair "$impl" "$E2E_SRC/peer_cases.c" peers
    np=$(grep -c "peer-templates: MPI_" report.txt || true)
    [ "$np" -eq 12 ] || { cat report.txt; fail "expected 12 calls through peer templates, found $np"; }
    ns=$(grep -c "peer-templates: MPI_.* with the caller itself as" report.txt || true)
    [ "$ns" -eq 4 ] || { cat report.txt; fail "expected 4 exchanges with the caller itself, found $ns"; }
    nr=$(grep -c "peer-templates: MPI_.* with peers known only at run time as a copy" report.txt || true)
    [ "$nr" -eq 2 ] || { cat report.txt; fail "expected 2 exchanges with peers known only at run time, found $nr"; }
    npair=$(grep -c "sendrecv-pairing: MPI_.* as one MPI_Sendrecv" report.txt || true)
    [ "$npair" -eq 4 ] || { cat report.txt; fail "expected 4 send/receive pairs as MPI_Sendrecv, found $npair"; }
    same_output "$impl" "$n" ./plain ./peers
    ok "peer_cases.c: $np calls through peer templates, $npair pairs as MPI_Sendrecv; same output with $impl on $n ranks"
    ;;

  planned)
    # planned-collectives and vector-reductions (planned_cases.c) with a
    # profile in which the runtime's forms win: 5 all-to-alls, 2
    # allgathervs and 2 allgathers planned per loop run, 2 all-to-alls and 1 allgatherv through
    # the plan cache, an all-to-all and an allgather through the scalar-keyed one, 5 reductions to the selector (6
    # with --ompi-reassociate; two of them twins in the arms of an if); the same output, with emulated nodes of
    # MPIOPT_RANKS_PER_NODE ranks where given.
    impl=$1 n=$2 rpn=${3:-0} extra=${4:-}
    # (MPIOPT_PLAN_AFTER=2: the caches plan a key at its second call, so the
    # short loops here run their plans)
    export MPIOPT_PROFILE="$E2E_SRC_ROOT/test/tool/Inputs/profile-collectives.json" MPIOPT_RANKS_PER_NODE=$rpn \
      MPIOPT_PLAN_AFTER=2
    # Across emulated nodes the selector keeps the MPI's own call unless its
    # model was measured across as many: say it was, so that the runtime's
    # algorithms run there too.
    [ "$rpn" = 0 ] || export MPIOPT_REDUCE_MODEL=nodes=64 MPIOPT_ALLREDUCE_MODEL=nodes=64
    cc=$(mpicc_of "$impl")
    "$cc" -O2 -Wall -Wextra -Werror -o plain "$E2E_SRC/planned_cases.c"
    # shellcheck disable=SC2086 # extra: an ompi-cc option or nothing
    OMPI_CC_MPICC="$cc" "$E2E_OMPI_CC" --ompi-report --ompi-keep $extra -O2 -Wall -Wextra -Werror -o planned \
      "$E2E_SRC/planned_cases.c" 2> report.txt || { cat report.txt; fail "planned_cases.c did not compile with ompi-cc"; }
    np=$(grep -c "planned-collectives: MPI_[A-Za-z]* planned once" report.txt || true)
    nc=$(grep -c "planned-collectives: MPI_[A-Za-z]* handed to the runtime's plan cache" report.txt || true)
    nv=$(grep -c "vector-reductions: MPI_[A-Za-z]* of" report.txt || true)
    want_v=5
    [ -n "$extra" ] && want_v=6
    [ "$np" -eq 9 ] && [ "$nc" -eq 5 ] && [ "$nv" -eq "$want_v" ] ||
      { cat report.txt; fail "expected 9 planned, 5 cached and $want_v reductions, found $np, $nc and $nv"; }
    same_output "$impl" "$n" ./plain ./planned
    MPIOPT_STATS=1 launch "$impl" "$n" ./planned > stats.txt 2>&1
    grep -q "mpiopt: stats: alltoallv" stats.txt && grep -q "mpiopt: stats: allgatherv" stats.txt ||
      { cat stats.txt; fail "the runtime's planned forms did not run"; }
    ok "$np planned, $nc cached, $nv reductions; same output with $impl on $n ranks (nodes of $rpn)"
    ;;

  fusion)
    # reduction-fusion on every positive case: the fusions happen, the code
    # compiles without warnings, and prints what the original prints.
    impl=$1 n=$2
    build_pair "$impl" "$E2E_SRC/fusion_cases.c" fused
    grep -q "warning" report.txt && { cat report.txt; fail "warnings"; }
    nf=$(grep -c "reduction-fusion: fused" report.txt || true)
    [ "$nf" -eq 6 ] || { cat report.txt; fail "expected 6 fusions, found $nf"; }
    same_output "$impl" "$n" ./plain ./fused
    ok "$nf fusions; same output with $impl on $n ranks"
    ;;

  lines)
    # Every line keeps its number in the optimised build: compiler warnings,
    # __LINE__, __FILE__ (the name as given: sub/line_numbers.c) and the
    # DWARF line table are those of the plain build; the code still changed.
    mkdir -p sub && cp "$E2E_SRC/line_numbers.c" sub/
    cc=$(mpicc_of mpich)
    "$cc" -Wall -g -O0 -o plain sub/line_numbers.c 2> plain.warn
    OMPI_CC_MPICC="$cc" "$E2E_OMPI_CC" --ompi-report -Wall -g -O0 -o optimised sub/line_numbers.c 2> report.txt
    grep -q "reduction-fusion: fused" report.txt && grep -q "lazy-deferral: deferred" report.txt ||
      { cat report.txt; fail "expected a fusion and a deferral"; }
    grep -Ev "line_numbers.c:[0-9]+:[0-9]+: (MPI_[A-Za-z_]+(\(|: )|reduction-fusion:|lazy-deferral:)" report.txt > optimised.warn || true
    grep -q "sub/line_numbers.c:27:7: warning: unused variable" plain.warn || { cat plain.warn; fail "no warning in the plain build"; }
    diff -u plain.warn optimised.warn || fail "the optimised build's warnings differ"
    for b in plain optimised; do
      objdump --dwarf=decodedline $b | awk '$1 == "line_numbers.c" && $2 ~ /^[0-9]+$/ { print $2 }' | sort -un > $b.lines
      [ -s $b.lines ] || fail "no line table for line_numbers.c in $b"
    done
    diff -u plain.lines optimised.lines || fail "the DWARF line tables name different lines"
    same_output mpich 2 ./plain ./optimised
    grep -q "line 22 of sub/line_numbers.c" plain.out || fail "unexpected output: $(cat plain.out)"
    ok "warnings, __LINE__, __FILE__ and $(wc -l < plain.lines) DWARF lines as in the plain build"
    ;;

  lazy)
    # lazy-deferral: the reductions are deferred and fused at run time (one
    # collective per variance iteration), with the same output; also with
    # the runtime's queue check on. The MIN/MAX pair of spread() fuses
    # statically (one MPI_MAX). No machine profile: with one, a composite
    # op could take the MAX/SUM pair of iterate() from the runtime.
    impl=$1 n=$2
    cc=$(mpicc_of "$impl")
    "$cc" -O2 -Wall -Wextra -Werror -o plain "$E2E_SRC/lazy_cases.c"
    MPIOPT_PROFILE=none OMPI_CC_MPICC="$cc" "$E2E_OMPI_CC" --ompi-report -O2 -Wall -Wextra -Werror -o lazy \
      "$E2E_SRC/lazy_cases.c" 2> report.txt || { cat report.txt; fail "the deferred program did not compile"; }
    nd=$(grep -c "lazy-deferral: deferred" report.txt || true)
    [ "$nd" -eq 5 ] || { cat report.txt; fail "expected 5 deferrals, found $nd"; }
    grep -q "fused 2 MPI_Allreduce calls (lines 50, 52) into one of 2 x MPI_DOUBLE with MPI_MAX" report.txt ||
      { cat report.txt; fail "expected the MIN/MAX pair fused into one MPI_MAX"; }
    same_output "$impl" "$n" ./plain ./lazy
    MPIOPT_LAZY_STATS=1 launch "$impl" "$n" ./lazy > /dev/null 2> stats.txt
    grep -Eq "at most [2-9][0-9]* fused" stats.txt || { cat stats.txt; fail "the runtime fused nothing"; }
    MPIOPT_CHECK=1 launch "$impl" "$n" ./lazy > checked.out
    diff -u plain.out checked.out || fail "output differs with MPIOPT_CHECK=1"
    ok "$nd deferrals; same output with $impl on $n ranks; $(grep -o '[0-9]* collectives' stats.txt)"
    ;;

  makefile)
    # ompi-cc as CC in an ordinary Makefile: -c with a header in include/,
    # then a link step.
    cp -r "$E2E_SRC/project" plain-build
    cp -r "$E2E_SRC/project" ompi-build
    make -s -C plain-build CC="$MPI_MPICH_CC" prog
    make -s -C ompi-build CC="$E2E_OMPI_CC" prog
    [ -f ompi-build/main.o ] && [ -f ompi-build/stats.o ] || fail "the objects were not built"
    same_output mpich 2 plain-build/prog ompi-build/prog
    # Nothing to do on a second run.
    out=$(make -C ompi-build CC="$E2E_OMPI_CC" prog)
    case $out in *"up to date"*) ;; *) fail "make rebuilt an up-to-date target: $out" ;; esac
    ok "Makefile project: same output, incremental build clean"
    ;;

  cmake)
    # ompi-cc as CMAKE_C_COMPILER (Ninja, with depfiles).
    cmake -G Ninja -S "$E2E_SRC/project" -B build -DCMAKE_C_COMPILER="$E2E_OMPI_CC" -DCMAKE_BUILD_TYPE=Release \
      > configure.log 2>&1 || { cat configure.log; fail "CMake could not configure with ompi-cc"; }
    cmake --build build > build.log 2>&1 || { cat build.log; fail "the CMake build failed"; }
    "$MPI_MPICH_CC" -O2 -I"$E2E_SRC/project/include" -o plain "$E2E_SRC/project/main.c" "$E2E_SRC/project/stats.c" -lm
    same_output mpich 2 ./plain build/prog
    again=$(cmake --build build)
    case $again in *"no work to do"*) ;; *) fail "ninja rebuilt an up-to-date project: $again" ;; esac
    ok "CMake project with CMAKE_C_COMPILER=ompi-cc: same output, no-op rebuild"
    ;;

  summary)
    # ompi-cc --ompi-summary in a parallel Makefile build: each -c keeps
    # its JSON report beside the object, the link prints the program's
    # summary of both objects; the program is the same.
    cp -r "$E2E_SRC/project" plain-build
    cp -r "$E2E_SRC/project" ompi-build
    make -s -C plain-build CC="$MPI_MPICH_CC" prog
    make -s -j2 -C ompi-build CC="$E2E_OMPI_CC --ompi-summary" prog 2> summary.txt
    [ -f ompi-build/main.o.ompi.json ] && [ -f ompi-build/stats.o.ompi.json ] || fail "no report beside the objects"
    grep -q "^ompi-opt summary: [0-9]* communication call sites in 2 files" summary.txt ||
      { cat summary.txt; fail "the link printed no summary of both files"; }
    # (main.c only sets up and calls stats.c's helper: its sites are stats.c's)
    grep -q "stats.c:[0-9]" summary.txt || { cat summary.txt; fail "the summary names no site"; }
    same_output mpich 2 plain-build/prog ompi-build/prog
    ok "$(head -1 summary.txt)"
    ;;

  whole-program)
    # make -j2 with CC=ompi-cc: each -c keeps OBJECT.ompi-facts; the link
    # solves the program's facts and compiles main.c again, into
    # main.o.KEY.ompi-whole (linked in main.o's place; main.o stays as make
    # built it), whose reductions under `if (verbose)` it may now defer
    # (setup.c writes verbose alike on every rank). Nothing changed: make
    # does nothing. setup.c edited so that verbose may differ between ranks
    # (to the analysis; at run time it is the same): the link finds main.c
    # decided as make compiled it, and links main.o itself. A link given
    # --ompi-summary (the objects compiled without it) keeps the report of
    # the object linked in main.o's place beside it and counts its changes.
    cp -r "$E2E_SRC/wholeprog" plain-build
    cp -r "$E2E_SRC/wholeprog" ompi-build
    cp -r "$E2E_SRC/wholeprog" summary-build
    make -s -C plain-build CC="$MPI_MPICH_CC" prog
    occ="$E2E_OMPI_CC --ompi-keep --ompi-verbose"
    make -s -j2 -C summary-build CC="$occ" main.o setup.o > build0.log 2>&1 || { cat build0.log; fail "the build failed"; }
    (cd summary-build && $occ --ompi-summary -O2 -o prog main.o setup.o) > link0.log 2>&1 ||
      { cat link0.log; fail "the link failed"; }
    ls summary-build/main.o.*.ompi-whole.ompi.json > /dev/null 2>&1 ||
      { cat link0.log; fail "no report beside the object compiled with the program's facts"; }
    grep -q "lazy-deferral" link0.log ||
      { cat link0.log; fail "the link's summary does not count the changes made with the program's facts"; }
    make -s -j2 -C ompi-build CC="$occ" prog > build.log 2>&1 || { cat build.log; fail "the build failed"; }
    for f in main.o.ompi-facts setup.o.ompi-facts prog.ompi-program.json; do
      [ -f "ompi-build/$f" ] || fail "no $f"
    done
    ls ompi-build/main.o.*.ompi-whole > /dev/null 2>&1 || fail "main.c was not compiled with the program's facts"
    [ ! -e ompi-build/setup.o.*.ompi-whole ] || fail "setup.c, which the facts do not change, was compiled again"
    grep -q "whole program: 2 objects, 2 re-decided, 1 recompiled" build.log ||
      { cat build.log; fail "the link did not recompile main.o with the program's facts"; }
    grep -q mpiopt_lazy_allreduce ompi-build/main.c.ompi || fail "main.c was not optimised with the program's facts"
    same_output mpich 2 plain-build/prog ompi-build/prog
    again=$(make -C ompi-build CC="$occ" prog 2>&1)
    case $again in *"up to date"*) ;; *) fail "make rebuilt an up-to-date program: $again" ;; esac
    sed -i 's/verbose = argc;/verbose = rank >= 0 ? argc : 0;/' plain-build/setup.c ompi-build/setup.c
    make -s -C plain-build CC="$MPI_MPICH_CC" prog
    make -s -j2 -C ompi-build CC="$occ" prog > build2.log 2>&1 || { cat build2.log; fail "the rebuild failed"; }
    grep -q "whole program: 2 objects, 2 re-decided, 0 recompiled" build2.log ||
      { cat build2.log; fail "the link did not re-decide main.c after setup.c changed"; }
    if grep -- "-o prog" build2.log | grep -q "ompi-whole"; then
      fail "the link kept main.o.ompi-whole, whose change setup.c's edit no longer allows"
    fi
    same_output mpich 2 plain-build/prog ompi-build/prog
    ok "whole program through make -j2: main.o recompiled with setup.c's facts, and back after setup.c changed"
    ;;

  wrappers)
    # Forwarding wrappers in comm.c (as CoMD's parallel.c): with the
    # program's facts the link writes the adjacent calls of add_real in
    # energy.c (which does not include mpi.h) and of my_allreduce in main.c
    # as MPI calls and fuses each pair; the output stays the same.
    cp -r "$E2E_SRC/wrappers" plain-build
    cp -r "$E2E_SRC/wrappers" ompi-build
    make -s -C plain-build CC="$MPI_MPICH_CC" prog
    occ="$E2E_OMPI_CC --ompi-keep --ompi-verbose"
    make -s -j2 -C ompi-build CC="$occ" prog > build.log 2>&1 || { cat build.log; fail "the build failed"; }
    grep -q "whole program: 3 objects, 3 re-decided, 2 recompiled" build.log ||
      { cat build.log; fail "the link did not recompile main.c and energy.c with the program's facts"; }
    if grep -q "did not compile" build.log; then
      cat build.log
      fail "a file's optimised code did not compile"
    fi
    same_output mpich 1 plain-build/prog ompi-build/prog
    same_output mpich 2 plain-build/prog ompi-build/prog
    ok "wrappers through make -j2: calls of comm.c's wrappers fused in two other files"
    ;;

  heap-requests)
    # Requests in heap memory from another file's allocator, freed by
    # another file's function (hypre's shape): with a profile in which
    # persistent requests win, the link knows mem.c's facts and runs
    # halo.c's two starts and its wait through the function's cache; the
    # output stays the same.
    cp -r "$E2E_SRC/heapreq" plain-build
    cp -r "$E2E_SRC/heapreq" ompi-build
    make -s -C plain-build CC="$MPI_MPICH_CC" prog
    occ="$E2E_OMPI_CC --ompi-keep --ompi-verbose"
    MPIOPT_PROFILE="$E2E_SRC/profile-nonblocking.json" make -s -j2 -C ompi-build CC="$occ" prog > build.log 2>&1 ||
      { cat build.log; fail "the build failed"; }
    grep -q "whole program: 3 objects, 3 re-decided, 1 recompiled" build.log ||
      { cat build.log; fail "the link did not recompile halo.c with the program's facts"; }
    nb=$(cat ompi-build/*halo* 2> /dev/null | grep -c "mpiopt_i[a-z]*_nb(\|mpiopt_waitall_nb(" || true)
    [ "$nb" -eq 3 ] || { cat build.log; ls ompi-build; fail "expected halo.c's 2 starts and its wait through the cache, found $nb"; }
    same_output mpich 1 plain-build/prog ompi-build/prog
    same_output mpich 2 plain-build/prog ompi-build/prog
    ok "heap requests through make -j2: halo.c's exchange through its cache with mem.c's facts"
    ;;

  global-requests)
    # Request arrays in globals every file names (miniAMR's shape): comm.c
    # starts and completes receives, util.c allocates the arrays and
    # completes the sends. With a profile in which persistent requests win,
    # the link's facts say every file uses them only through starts and
    # completions, so comm.c's starts and both files' completions go
    # through one weak cache per array; a completion in util.c that missed
    # the shared cache would leave a handle that is not MPI_REQUEST_NULL
    # (the program prints it). The output stays the same.
    cp -r "$E2E_SRC/globalreq" plain-build
    cp -r "$E2E_SRC/globalreq" ompi-build
    make -s -C plain-build CC="$MPI_MPICH_CC" prog
    occ="$E2E_OMPI_CC --ompi-keep --ompi-verbose"
    MPIOPT_PROFILE="$E2E_SRC/profile-nonblocking.json" make -s -j2 -C ompi-build CC="$occ" prog > build.log 2>&1 ||
      { cat build.log; fail "the build failed"; }
    grep -q "whole program: 3 objects, 3 re-decided, 2 recompiled" build.log ||
      { cat build.log; fail "the link did not recompile comm.c and util.c with the program's facts"; }
    nb=$(cat ompi-build/comm.c.ompi ompi-build/util.c.ompi 2> /dev/null | grep -c "mpiopt_i[a-z]*_nb(&mpiopt_nbg_\|mpiopt_waitany_nb(&mpiopt_nbg_" || true)
    [ "$nb" -eq 4 ] || { cat build.log; ls ompi-build; fail "expected comm.c's 2 starts and both files' waits through the global caches, found $nb"; }
    same_output mpich 1 plain-build/prog ompi-build/prog
    same_output mpich 2 plain-build/prog ompi-build/prog
    if [ -n "${MPI_OPENMPI_CC:-}" ]; then
      cp -r "$E2E_SRC/globalreq" plain-openmpi
      cp -r "$E2E_SRC/globalreq" ompi-openmpi
      make -s -C plain-openmpi CC="$MPI_OPENMPI_CC" prog
      OMPI_CC_MPICC="$MPI_OPENMPI_CC" MPIOPT_PROFILE="$E2E_SRC/profile-nonblocking.json" \
        make -s -j2 -C ompi-openmpi CC="$E2E_OMPI_CC" prog > build-openmpi.log 2>&1 ||
        { cat build-openmpi.log; fail "the Open MPI build failed"; }
      same_output openmpi 4 plain-openmpi/prog ompi-openmpi/prog
    fi
    ok "global request arrays through make -j2: one cache per array shared by comm.c and util.c"
    ;;

  whole-program-cmake)
    # The same program with CMAKE_C_COMPILER=ompi-cc (Ninja): the link
    # decides both files together; a second build does nothing.
    cmake -G Ninja -S "$E2E_SRC/wholeprog" -B build -DCMAKE_C_COMPILER="$E2E_OMPI_CC" -DCMAKE_BUILD_TYPE=Release \
      > configure.log 2>&1 || { cat configure.log; fail "CMake could not configure with ompi-cc"; }
    cmake --build build > build.log 2>&1 || { cat build.log; fail "the CMake build failed"; }
    [ -f build/CMakeFiles/prog.dir/main.c.o.ompi-facts ] || fail "no facts beside the CMake object"
    [ -f build/prog.ompi-program.json ] || fail "the link solved no program facts"
    grep -q '"program_key": "' build/CMakeFiles/prog.dir/main.c.o.ompi-facts || fail "main.c.o was not re-decided"
    ls build/CMakeFiles/prog.dir/main.c.o.*.ompi-whole > /dev/null 2>&1 ||
      fail "main.c was not compiled with the program's facts"
    "$MPI_MPICH_CC" -O2 -o plain "$E2E_SRC/wholeprog/main.c" "$E2E_SRC/wholeprog/setup.c"
    same_output mpich 2 ./plain build/prog
    again=$(cmake --build build)
    case $again in *"no work to do"*) ;; *) fail "ninja rebuilt an up-to-date project: $again" ;; esac
    ok "CMake: both files decided together, same output, no-op rebuild"
    ;;

  multi-source)
    # Several sources in one -c command, then a link of the objects.
    cp "$E2E_SRC"/project/*.c "$E2E_SRC"/project/*.h .
    "$E2E_OMPI_CC" -c -I"$E2E_SRC/project/include" main.c stats.c
    [ -f main.o ] && [ -f stats.o ] || fail "-c did not write main.o and stats.o"
    "$E2E_OMPI_CC" -o prog main.o stats.o -lm
    "$MPI_MPICH_CC" -I"$E2E_SRC/project/include" -o plain main.c stats.c -lm
    same_output mpich 1 ./plain ./prog
    ok "multi-source -c then link"
    ;;

  fallback-optimiser-fails)
    # An ompi-opt that fails: a warning, and the original is built.
    MPIOPT_OPT=/bin/false "$E2E_OMPI_CC" -o prog "$E2E_SRC_ROOT/examples/heat.c" 2> err.txt
    grep -q "ompi-cc: warning: ompi-opt failed on .*heat.c.*compiled the original" err.txt ||
      { cat err.txt; fail "no warning about the failed optimiser"; }
    "$MPI_MPICH_CC" -o plain "$E2E_SRC_ROOT/examples/heat.c"
    same_output mpich 1 ./plain ./prog
    ok "failing optimiser: warned and built the original"
    ;;

  fallback-clang-rejects)
    # GNU C that Clang cannot parse: a warning, and gcc builds the original.
    "$E2E_OMPI_CC" -o prog "$E2E_SRC/nested-function.c" 2> err.txt
    grep -q "ompi-cc: warning: ompi-opt failed on .*nested-function.c" err.txt ||
      { cat err.txt; fail "no warning about the unparsable file"; }
    [ "$(launch mpich 2 ./prog | sort -u)" = 3 ] || fail "wrong output"
    ok "unparsable for Clang: warned and built the original"
    ;;

  report-keep)
    # --ompi-report prints one line per MPI call to stderr; --ompi-keep keeps
    # the transformed source beside the output.
    mkdir out
    "$E2E_OMPI_CC" --ompi-report=long --ompi-keep -c "$E2E_SRC_ROOT/examples/heat.c" -o out/heat.o 2> report.txt
    [ -f out/heat.o ] || fail "no object"
    [ -f out/heat.c.ompi ] || fail "--ompi-keep did not keep out/heat.c.ompi"
    n=$(grep -c "heat.c:[0-9]*:[0-9]*: MPI_" report.txt || true)
    [ "$n" -eq 9 ] || { cat report.txt; fail "expected 9 report lines, got $n"; }
    grep -q "heat.c:[0-9]*:[0-9]*: reduction-fusion: fused 3 MPI_Allreduce calls" report.txt ||
      { cat report.txt; fail "the report does not show the fusion"; }
    grep -q "mpiopt_fuse1_buf" out/heat.c.ompi || fail "the kept source is not the fused one"
    grep -q "MPI_Sendrecv(sendbuf=static(&u\[1\]), .*dest=rank-relative((rank+size-1)%size" report.txt ||
      fail "the report lacks the rank-relative halo exchange"
    "$E2E_OMPI_CC" --ompi-report=json -c "$E2E_SRC_ROOT/examples/heat.c" -o out/heat2.o 2> report.json
    python3 -c "import json,sys; d=json.load(open('report.json')); assert len(d['files'][0]['calls']) == 9 and d['files'][0]['changes'][0]['applied']" ||
      fail "--ompi-report=json is not the expected JSON"
    "$E2E_OMPI_CC" --ompi-off -c "$E2E_SRC_ROOT/examples/heat.c" -o out/heat3.o 2> off.txt
    [ ! -s off.txt ] || fail "--ompi-off printed something: $(cat off.txt)"
    if "$E2E_OMPI_CC" --ompi-bogus -c "$E2E_SRC_ROOT/examples/heat.c" 2> bad.txt; then fail "accepted --ompi-bogus"; fi
    grep -q "unknown option --ompi-bogus" bad.txt || fail "no clear error for an unknown option"
    ok "report (text and JSON), keep, off, unknown option"
    ;;

  typesizes)
    # The tool's datatype sizes agree with MPI_Type_size of the real MPI.
    impl=$1
    cc=$(mpicc_of "$impl")
    "$cc" -o typesizes "$E2E_SRC/typesizes.c"
    launch "$impl" 1 ./typesizes > real.txt
    flags=$("$cc" -show 2>/dev/null || "$cc" --showme:compile)
    # shellcheck disable=SC2086
    "$E2E_BUILD_DIR/bin/ompi-opt" --list-datatypes "$E2E_SRC/typesizes.c" -- $(printf '%s\n' $flags | grep '^-I') \
      > tool.txt
    n=0
    while read -r name size; do
      real=$(awk -v n="$name" '$1 == n { print $2 }' real.txt)
      [ -n "$real" ] || fail "$name is not printed by the test program"
      [ "$real" = "$size" ] || fail "$name: the tool says $size bytes, $impl says $real"
      n=$((n + 1))
    done < tool.txt
    [ "$n" -ge 40 ] || fail "only $n datatypes compared"
    ok "$n datatype sizes agree with $impl"
    ;;

  install)
    # The installed layout: bin/ompi-cc finds bin/ompi-opt, lib/libompi-rt.a
    # and include/ beside it, and its driver in lib/ompi (nothing but
    # commands in bin/); the examples in share/ompi/examples.
    cmake --install "$E2E_BUILD_DIR" --prefix "$E2E_WORK/prefix" > install.log 2>&1 ||
      { cat install.log; fail "cmake --install failed"; }
    for f in bin/ompi-cc bin/ompi-opt lib/libompi-rt.a include/mpiopt/mpiopt.h include/mpiopt/templates.h \
      lib/ompi/ompi_cc.py lib/ompi/__pycache__ share/ompi/examples/heat.c share/ompi/examples/bsp_inprod.c; do
      [ -e "prefix/$f" ] || fail "the install has no $f"
    done
    for f in bin/ompi_cc.py bin/__pycache__; do
      [ ! -e "prefix/$f" ] || fail "the install has $f (expected in lib/ompi)"
    done
    # Man pages, made from each command's own --help: `man ompi-cc` with the
    # install's share/man on MANPATH.
    for m in ompi-opt ompi-cc ompi-tune bspcc bsprun; do
      [ -s "prefix/share/man/man1/$m.1" ] || fail "the install has no man page of $m"
      head -1 "prefix/share/man/man1/$m.1" | grep -q '^\.TH "'"$(echo $m | tr a-z A-Z)"'" 1' ||
        fail "the man page of $m does not begin with its .TH line"
      if grep -q "$E2E_SRC_ROOT" "prefix/share/man/man1/$m.1"; then fail "the man page of $m names the checkout"; fi
    done
    if command -v man > /dev/null; then
      MANPATH="$E2E_WORK/prefix/share/man" man -P cat ompi-cc 2> man.err > man.txt ||
        { cat man.err; fail "man ompi-cc failed"; }
      grep -q "drop-in" man.txt || { cat man.txt; fail "man ompi-cc does not show ompi-cc's help"; }
    fi
    prefix/bin/ompi-cc --version > version.txt
    grep -q "^ompi-cc (OMPI, the optimising MPI compiler) [0-9][0-9.]*; real compiler: .*; ompi-opt [0-9]" version.txt ||
      { cat version.txt; fail "installed ompi-cc --version"; }
    prefix/bin/ompi-tune --help > tune-help.txt
    head -1 tune-help.txt | grep -q "^usage: ompi-tune" || { cat tune-help.txt; fail "ompi-tune --help does not start with its usage"; }
    if grep -q "benchmarks/\|scripts/\|docs/" tune-help.txt; then cat tune-help.txt; fail "ompi-tune --help names source-tree paths"; fi
    grep -q "$E2E_WORK/prefix/share/ompi/tune" tune-help.txt || fail "ompi-tune --help does not name its programs' directory"
    grep -q 'set(OMPI_CC_EXECUTABLE "[^"]*/bin/ompi-cc")' prefix/lib/cmake/OMPI/OMPIConfig.cmake ||
      fail "OMPIConfig.cmake does not set OMPI_CC_EXECUTABLE"
    # find_package(OMPI): a target's C sources through ompi-cc, the C
    # compiler left as project() found it (gcc).
    mkdir launch && cp prefix/share/ompi/examples/heat.c launch/
    printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(app C)' 'find_package(OMPI 0.1 REQUIRED)' \
      'add_executable(heat heat.c)' 'ompi_target_sources_through_ompi_cc(heat OPTIONS --ompi-keep --ompi-report-file=%s.json)' \
      > launch/CMakeLists.txt
    cmake -G Ninja -S launch -B launch/build -DCMAKE_PREFIX_PATH="$E2E_WORK/prefix" -DMPI_C_COMPILER="$MPI_MPICH_CC" \
      > launch-configure.log 2>&1 || { cat launch-configure.log; fail "find_package(OMPI) failed"; }
    if grep -q "CMAKE_C_COMPILER:.*ompi-cc" launch/build/CMakeCache.txt; then fail "the C compiler was changed"; fi
    cmake --build launch/build -v > launch-build.log 2>&1 || { cat launch-build.log; fail "the launcher build failed"; }
    grep -q "$E2E_WORK/prefix/bin/ompi-cc --ompi-launcher --ompi-keep" launch-build.log ||
      { cat launch-build.log; fail "the compile did not go through ompi-cc"; }
    grep -q mpiopt_fuse launch/build/CMakeFiles/heat.dir/heat.c.c.ompi || fail "the launcher build was not optimised"
    python3 -c "import json; d = json.load(open('launch/build/heat.json')); assert d['files'][0]['calls']" ||
      fail "no report file"
    "$MPI_MPICH_CC" -o plain-launch "$E2E_SRC_ROOT/examples/heat.c"
    same_output mpich 2 ./plain-launch launch/build/heat
    prefix/bin/ompi-cc --ompi-verbose -o prog "$E2E_SRC_ROOT/examples/heat.c" 2> verbose.txt
    grep -q "^ompi-cc: $E2E_WORK/prefix/bin/ompi-opt " verbose.txt || { cat verbose.txt; fail "did not run the installed ompi-opt"; }
    grep -q -- "-L$E2E_WORK/prefix/lib -Wl,--undefined=mpiopt_runtime_linked -lompi-rt -fopenmp" verbose.txt || fail "did not link the installed runtime"
    "$MPI_MPICH_CC" -o plain "$E2E_SRC_ROOT/examples/heat.c"
    same_output mpich 2 ./plain ./prog
    ok "installed ompi-cc builds the example"
    ;;

  recursion-guard)
    # Open MPI's OMPI_CC naming ompi-cc would make the real mpicc call
    # ompi-cc again: a clear error, not an endless loop.
    if OMPI_CC="$E2E_OMPI_CC" OMPI_CC_MPICC="$MPI_OPENMPI_CC" timeout 60 "$E2E_OMPI_CC" \
      -o prog "$E2E_SRC_ROOT/examples/heat.c" 2> err.txt; then
      fail "built although the compiler calls itself"
    fi
    grep -q "ompi-cc was called by the MPI compiler it runs" err.txt || { cat err.txt; fail "no clear error"; }
    ok "recursive configuration detected"
    ;;

  strict)
    # Strict modes build the optimised code (no fallback): the runtime's
    # headers are system headers and valid C89, a wait among a block's
    # declarations is a declaration, and fusion declines where its buffer
    # would be a declaration after a statement. Same output.
    impl=$1 n=$2 flags=$3
    cc=$(mpicc_of "$impl")
    # shellcheck disable=SC2086
    "$cc" $flags -Wall -Wextra -Werror -o plain "$E2E_SRC/strict_c89.c"
    # shellcheck disable=SC2086
    OMPI_CC_MPICC="$cc" "$E2E_OMPI_CC" --ompi-report $flags -Wall -Wextra -Werror -o strict "$E2E_SRC/strict_c89.c" \
      2> report.txt || { cat report.txt; fail "the strict build failed"; }
    if grep -q "^ompi-cc: " report.txt; then cat report.txt; fail "ompi-cc fell back or warned"; fi
    grep -q "lazy-deferral: deferred MPI_Allreduce(&a -> &ga)" report.txt &&
      grep -q "datatype-templates: MPI_Sendrecv with col" report.txt || { cat report.txt; fail "expected a deferral and a template"; }
    same_output "$impl" "$n" ./plain ./strict
    ok "$flags: the optimised code compiled; same output with $impl on $n ranks"
    ;;

  openmp)
    # A file built with -fopenmp that includes <omp.h> is optimised (Clang's
    # omp.h, libomp-19-dev, parses where GCC's does not); same output.
    cc=$(mpicc_of mpich)
    "$cc" -fopenmp -O2 -Wall -Wextra -Werror -o plain "$E2E_SRC/openmp.c"
    "$E2E_OMPI_CC" --ompi-report -fopenmp -O2 -Wall -Wextra -Werror -o hybrid "$E2E_SRC/openmp.c" 2> report.txt ||
      { cat report.txt; fail "the -fopenmp build failed"; }
    if grep -q "^ompi-cc: " report.txt; then cat report.txt; fail "ompi-cc fell back"; fi
    grep -q "reduction-fusion: fused 2 MPI_Allreduce calls" report.txt || { cat report.txt; fail "not fused"; }
    OMP_NUM_THREADS=2 same_output mpich 2 ./plain ./hybrid
    ok "-fopenmp with <omp.h>: optimised; same output"
    ;;

  link-plain)
    # An object compiled by ompi-cc -c links with a plain mpicc and mpicxx
    # that do not name the runtime (automake links C objects with the C++
    # driver): the runtime's entry points are weak, each reduction then runs
    # as the MPI call it replaced. Linked by ompi-cc, it is deferred.
    cc=$(mpicc_of mpich)
    "$cc" -O2 -o plain "$E2E_SRC/lazy_cases.c"
    MPIOPT_PROFILE=none "$E2E_OMPI_CC" --ompi-report -O2 -Wall -Wextra -Werror -c "$E2E_SRC/lazy_cases.c" -o lazy.o \
      2> report.txt || { cat report.txt; fail "ompi-cc -c failed"; }
    grep -q "lazy-deferral: deferred" report.txt || { cat report.txt; fail "nothing was deferred"; }
    "$cc" -o c-link lazy.o
    "${cc/mpicc/mpicxx}" -o cxx-link lazy.o
    "$E2E_OMPI_CC" -o ompi-link lazy.o
    nm c-link > c-link.syms && nm ompi-link > ompi-link.syms
    grep -q " W mpiopt_lazy_allreduce_at" c-link.syms || fail "the plain link does not run the weak fallback"
    grep -q " T mpiopt_lazy_allreduce_at" ompi-link.syms || fail "ompi-cc did not link the runtime in"
    same_output mpich 2 ./plain ./c-link
    same_output mpich 2 ./plain ./cxx-link
    same_output mpich 2 ./plain ./ompi-link
    MPIOPT_LAZY_STATS=1 launch mpich 2 ./ompi-link > /dev/null 2> stats.txt
    grep -Eq "at most [2-9][0-9]* fused" stats.txt || { cat stats.txt; fail "the runtime fused nothing"; }
    ok "linked by mpicc, mpicxx and ompi-cc: same output; deferred only with the runtime"
    ;;

  packages)
    # The installed pkg-config files and CMake package: a program that uses
    # the runtime's API builds with either and runs.
    cmake --install "$E2E_BUILD_DIR" --prefix "$E2E_WORK/prefix" > install.log 2>&1 ||
      { cat install.log; fail "cmake --install failed"; }
    cat > app.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include <mpiopt/lazy.h>
int main(int argc, char **argv) {
  int rank, one = 1, n = 0, two = 2, m = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mpiopt_lazy_allreduce(&one, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  mpiopt_lazy_allreduce(&two, &m, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  mpiopt_lazy_wait_range(&n, sizeof n);
  mpiopt_lazy_wait_range(&m, sizeof m);
  if (rank == 0)
    printf("%d %d\n", n, m);
  MPI_Finalize();
  return 0;
}
C
    export PKG_CONFIG_PATH="$E2E_WORK/prefix/lib/pkgconfig"
    # shellcheck disable=SC2046
    "$MPI_MPICH_CC" -o pc-app app.c $(pkg-config --cflags --libs ompi-rt) || fail "pkg-config ompi-rt did not build"
    [ "$(launch mpich 2 ./pc-app)" = "2 4" ] || fail "the pkg-config build printed the wrong sums"
    mkdir proj && cp app.c proj/
    printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(app C)' 'find_package(OMPI 0.1 REQUIRED)' \
      'add_executable(app app.c)' 'target_link_libraries(app PRIVATE OMPI::rt)' > proj/CMakeLists.txt
    cmake -G Ninja -S proj -B proj/build -DCMAKE_PREFIX_PATH="$E2E_WORK/prefix" -DMPI_C_COMPILER="$MPI_MPICH_CC" \
      > configure.log 2>&1 || { cat configure.log; fail "find_package(OMPI) failed"; }
    cmake --build proj/build > build.log 2>&1 || { cat build.log; fail "the OMPI::rt build failed"; }
    [ "$(launch mpich 2 proj/build/app)" = "2 4" ] || fail "the CMake build printed the wrong sums"
    MPIOPT_LAZY_STATS=1 launch mpich 2 proj/build/app 2> stats.txt > /dev/null
    grep -q "2 deferred" stats.txt || { cat stats.txt; fail "OMPI::rt did not link the runtime"; }
    if [ -n "${MPI_OPENMPI_CC:-}" ]; then
      # shellcheck disable=SC2046
      "$MPI_OPENMPI_CC" -o pc-app-openmpi app.c $(pkg-config --cflags --libs ompi-rt-openmpi) ||
        fail "pkg-config ompi-rt-openmpi did not build"
      [ "$(launch openmpi 2 ./pc-app-openmpi)" = "2 4" ] || fail "the Open MPI build printed the wrong sums"
    fi
    ok "pkg-config (ompi-rt, ompi-rt-openmpi) and find_package(OMPI) with OMPI::rt"
    ;;

  cc-errors)
    # ompi-cc's failures are one line, never a traceback, and never cost an
    # optimisation or a build for a reason unrelated to the code.
    cc=$(mpicc_of mpich)
    src="$E2E_SRC_ROOT/examples/heat.c"
    cp "$src" heat.c
    notraceback() { if grep -q "Traceback" "$1"; then cat "$1"; fail "a Python traceback reached the user"; fi; }
    # An unwritable --ompi-diff directory: a warning, and still optimised.
    touch afile
    "$E2E_OMPI_CC" --ompi-diff=afile/html --ompi-keep -o heat heat.c 2> err.txt || { cat err.txt; fail "the build failed"; }
    grep -q "^ompi-cc: warning: cannot write the HTML diff to afile/html" err.txt || { cat err.txt; fail "no warning"; }
    grep -q mpiopt_fuse heat.c.ompi || fail "the build was not optimised"
    notraceback err.txt
    # --ompi-keep into a directory that does not exist, and an unwritable
    # output: one line from ompi-cc, the compiler's own error, its status.
    set +e
    "$cc" -o nodir/x heat.c 2> /dev/null; want=$?
    "$E2E_OMPI_CC" --ompi-keep -o nodir/x heat.c 2> err.txt; got=$?
    set -e
    [ "$want" -ne 0 ] && [ "$got" -eq "$want" ] || fail "exit status $got, mpicc's is $want"
    [ "$(grep -c '^ompi-cc: warning: cannot keep' err.txt)" -eq 1 ] || { cat err.txt; fail "no one-line warning"; }
    notraceback err.txt
    set +e
    "$E2E_OMPI_CC" --ompi-keep -c heat.c -o /proc/heat.o 2> err.txt; got=$?
    set -e
    [ "$got" -ne 0 ] || fail "wrote an object into /proc"
    notraceback err.txt
    # A bad MPIOPT_CC_TIMEOUT: one line; the build goes on, optimised.
    MPIOPT_CC_TIMEOUT=abc "$E2E_OMPI_CC" --ompi-keep -o heat2 heat.c 2> err.txt || fail "the build failed"
    grep -q "^ompi-cc: warning: MPIOPT_CC_TIMEOUT='abc' is not a positive number" err.txt || { cat err.txt; fail "no warning line"; }
    notraceback err.txt
    # A missing file and a syntax error: reported once, by the compiler.
    printf 'int main(void) { int x = ; return 0; }\n' > bad.c
    for f in missing.c bad.c; do
      set +e
      "$cc" -c "$f" -o x.o 2> plain.err; want=$?
      "$E2E_OMPI_CC" -c "$f" -o x.o 2> err.txt; got=$?
      set -e
      [ "$got" -eq "$want" ] || fail "$f: exit status $got, mpicc's is $want"
      if grep -q "^ompi-cc:" err.txt; then cat err.txt; fail "$f: ompi-cc added a message"; fi
      diff -u plain.err err.txt || fail "$f: the compiler's messages differ"
    done
    # The fallback warning quotes the compiler's error, not a line that
    # merely contains "error" (here the file's name).
    cp "$E2E_SRC/nested-function.c" my_error.c
    "$E2E_OMPI_CC" -o nested my_error.c 2> err.txt || { cat err.txt; fail "the fallback build failed"; }
    grep -q "^ompi-cc: warning: ompi-opt failed on my_error.c (.*my_error.c:[0-9]*:[0-9]*: error: function definition is not allowed here)" \
      err.txt || { cat err.txt; fail "the warning does not quote the compiler's error"; }
    # --version names OMPI and the real compiler; no arguments: as mpicc.
    "$E2E_OMPI_CC" --version > version.txt
    grep -q "^ompi-cc (OMPI, the optimising MPI compiler) [0-9.]*; real compiler: .*mpicc.mpich" version.txt &&
      grep -qi "gcc\|clang" version.txt || { cat version.txt; fail "--version"; }
    set +e
    "$cc" > plain.out 2>&1; want=$?
    "$E2E_OMPI_CC" > ompi.out 2>&1; got=$?
    set -e
    [ "$got" -eq "$want" ] && diff -u plain.out ompi.out || fail "no arguments: not as mpicc"
    # -show prints the real command with the runtime.
    "$E2E_OMPI_CC" -show -o prog heat.c > show.txt
    grep -q -- "-isystem .* heat.c .*-lompi-rt" show.txt || { cat show.txt; fail "-show lacks the runtime"; }
    ok "diff directory, keep, timeout, missing file, syntax error, quoted error, --version, no arguments, -show"
    ;;

  direct-compile)
    # A compile-only run of MPICH's script wrapper runs the compiler the
    # wrapper names, without the script: the same object as through it; an
    # argument the script acts on (-cc=, -show, ...) goes through it.
    cp "$E2E_SRC_ROOT/examples/heat.c" heat.c
    export XDG_CACHE_HOME=$PWD/cache
    "$E2E_OMPI_CC" --ompi-verbose -O2 -c heat.c -o direct.o 2> err.txt || { cat err.txt; fail "the build failed"; }
    grep -q "^ompi-cc: gcc .* -c .*heat.c -o direct.o" err.txt || { cat err.txt; fail "the compiler was not run directly"; }
    MPIOPT_CC_VIA_WRAPPER=1 "$E2E_OMPI_CC" --ompi-verbose -O2 -c heat.c -o wrapper.o 2> err.txt
    grep -q "^ompi-cc: mpicc.mpich .* -c .*heat.c -o wrapper.o" err.txt || { cat err.txt; fail "not through the wrapper"; }
    cmp direct.o wrapper.o || fail "the objects differ"
    "$E2E_OMPI_CC" --ompi-verbose -cc=gcc -O2 -c heat.c -o cc.o 2> err.txt || { cat err.txt; fail "-cc= build failed"; }
    grep -q "^ompi-cc: mpicc.mpich .*-cc=gcc" err.txt || { cat err.txt; fail "-cc= did not go through the wrapper"; }
    # A changed wrapper environment is a new cache entry, not a stale one.
    MPICH_CC=clang-19 "$E2E_OMPI_CC" --ompi-verbose -O2 -c heat.c -o clang.o 2> err.txt
    grep -q "^ompi-cc: clang-19 .* -c .*heat.c -o clang.o" err.txt || { cat err.txt; fail "MPICH_CC was not followed"; }
    ok "compile-only runs skip the wrapper script, with the same object"
    ;;
  keep-names)
    # --ompi-keep: same-named sources in different directories keep separate
    # copies, and no copy ends in .c (a Makefile's $(wildcard *.c) or a glob
    # would compile it).
    mkdir -p a b out
    cp "$E2E_SRC_ROOT/examples/heat.c" a/solver.c
    cp "$E2E_SRC/lazy_cases.c" b/solver.c
    printf 'int twice(int x) { return 2 * x; }\n' > a/part.c
    printf '#include <mpi.h>\nint twice(int);\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return twice(0); }\n' > b/part.c
    touch stamp
    "$E2E_OMPI_CC" --ompi-keep -c a/solver.c -o a/solver.o
    "$E2E_OMPI_CC" --ompi-keep -c b/solver.c -o b/solver.o
    grep -q mpiopt_fuse a/solver.c.ompi && grep -q mpiopt_lazy b/solver.c.ompi || fail "the copies were not kept apart"
    "$E2E_OMPI_CC" --ompi-keep -o out/prog a/part.c b/part.c
    grep -q twice out/part.c.ompi && grep -q main out/part.2.c.ompi || fail "one command's same-named sources share a copy"
    n=$(find . -name '*.c' -newer stamp | wc -l)
    [ "$n" -eq 0 ] || { find . -name '*.c' -newer stamp; fail "a kept copy ends in .c"; }
    ok "kept copies: one per object, none named *.c"
    ;;

  mpi-choice)
    # The MPI behind ompi-cc: --ompi-mpicc (CMake keeps it with the
    # compiler) or OMPI_CC_MPICC; a rebuild that names none does not switch
    # to the default MPI silently.
    src="$E2E_SRC_ROOT/examples/heat.c"
    mkdir obj
    "$E2E_OMPI_CC" --ompi-mpicc="$MPI_OPENMPI_CC" -c "$src" -o obj/heat.o
    set +e
    "$E2E_OMPI_CC" -c "$src" -o obj/heat.o 2> err.txt; rc=$?
    set -e
    [ "$rc" -ne 0 ] || fail "switched to the default MPI silently"
    grep -q "^ompi-cc: error: .*obj was built with $MPI_OPENMPI_CC" err.txt || { cat err.txt; fail "no clear error"; }
    OMPI_CC_MPICC="$MPI_OPENMPI_CC" "$E2E_OMPI_CC" -o obj/heat obj/heat.o
    # (ldd's output to a file first: with pipefail, grep -q leaving at the
    # first match can kill ldd with SIGPIPE and fail the pipeline)
    ldd obj/heat > ldd.txt
    grep -q "libmpi\.so" ldd.txt || fail "not linked with Open MPI"
    CC="$E2E_OMPI_CC --ompi-mpicc=$MPI_OPENMPI_CC" cmake -G Ninja -S "$E2E_SRC/project" -B build \
      -DCMAKE_BUILD_TYPE=Release > configure.log 2>&1 || { cat configure.log; fail "CMake could not configure"; }
    grep -q "CMAKE_C_COMPILER_ARG1.*--ompi-mpicc=$MPI_OPENMPI_CC" build/CMakeCache.txt || fail "CMake did not keep the option"
    cmake --build build > build.log 2>&1 || { cat build.log; fail "the CMake build failed"; }
    ldd build/prog > ldd.txt
    grep -q "libmpi\.so" ldd.txt || fail "the CMake build is not linked with Open MPI"
    ok "--ompi-mpicc kept by CMake; no silent switch"
    ;;

  *)
    fail "unknown case $case_name"
    ;;
esac
