#!/usr/bin/env python3
"""Message aggregation benchmark (issue 47 item 4): ring.c, a periodic
chain whose every step sends each neighbour three small messages (a header,
K boundary values, a flux) as adjacent MPI_Send / MPI_Recv statements,
built three ways: plain, hand-optimised (-DHAND: the parts in one struct,
one message) and with ompi-cc (message-aggregation, only: where the machine
profile measured the packed message faster). The three builds run one
after the other in each repetition; medians of the seconds per step, and
the medians of the per-repetition ratios to the plain build. The checksums
must agree.

  bench.py [--np 2] [--mpi mpich|openmpi|smpi] [--steps 20000] [--reps 5] [--k 4] [--w 2000]
           [--profile FILE] [--no-compute] [--out DIR]

--profile builds the ompi-cc program with that machine profile (default:
the one the build ships; for --mpi smpi, benchmarks/aggregate/
profile-smpi-node16.json, measured in the simulator by aggregate_tune.c).
Under SMPI the times are simulated; the computation between the calls is
this host's, timed (repetitions differ by up to a quarter), unless
--no-compute leaves it out (communication alone, with --w 2: runs repeat
exactly); SIMRUN_PLATFORM chooses the platform.
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, paired_ratio, parser, report, run, setup  # noqa: E402


def main():
    ap = parser(__doc__, "aggregate")
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--w", type=int, default=2000)
    ap.add_argument("--profile")
    ap.add_argument("--no-compute", action="store_true")
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    if a.no_compute:
        env["SIMRUN_NO_COMPUTE"] = "1"
    src = os.path.join(HERE, "ring.c")
    flags = ["-O2", "-DK=%d" % a.k, "-DW=%d" % a.w]
    profile = a.profile or (os.path.join(HERE, "profile-smpi-node16.json") if a.mpi == "smpi" else None)
    progs = {b: os.path.join(a.out, "ring-" + b) for b in ("plain", "hand", "ompi")}
    build(a, [mpicc] + flags + ["-o", progs["plain"], src])
    build(a, [mpicc] + flags + ["-DHAND", "-o", progs["hand"], src])
    cenv = dict(env, MPIOPT_OPT_FLAGS="--transforms=message-aggregation")
    if profile:
        cenv["MPIOPT_PROFILE"] = profile
    r = build(a, [os.path.join(REPO, "scripts", "ompi-cc"), "--ompi-report"] + flags + ["-o", progs["ompi"], src],
              cenv)
    groups = r.stderr.count("message-aggregation: ") - r.stderr.count("message-aggregation: not done") if r else -1
    if a.build_only:
        return 0
    steps = a.steps if a.mpi != "smpi" else min(a.steps, 200)
    times = {b: [] for b in progs}
    sums = set()
    for _ in range(a.reps):
        for b, p in progs.items():
            out = run(launcher + ["-n" if a.mpi != "smpi" else "-np", str(a.np), p, str(steps)], env).stdout.split()
            times[b].append(float(out[3]))
            sums.add(out[4])
    if len(sums) != 1:
        sys.exit("bench: the builds' checksums differ: %s" % sorted(sums))
    lines = ["Message aggregation (ring.c), %s, %d ranks, K = %d, W = %d, median of %d runs (microseconds per step; "
             "ompi-cc aggregated %s groups)" % (a.mpi, a.np, a.k, a.w, a.reps, groups if groups >= 0 else "?"),
             "", "| build | us per step | / plain |", "|---|---:|---:|"]
    for b in ("plain", "hand", "ompi"):
        lines.append("| %s | %.2f | %.2f |" % (b, statistics.median(times[b]) * 1e6,
                                              paired_ratio(times[b], times["plain"])))
    report(a, "aggregate", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
