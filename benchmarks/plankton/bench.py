#!/usr/bin/env python3
"""Plankton benchmark (CFL paper, Section 5.2 / Table 3, in miniature):
original (27 collectives per step), hand-optimised (reductions packed by
type and op: 6 per step) and ompi-cc (deferred by ompi-opt, fused by the
runtime) builds of plankton.c, all in one session, medians of several runs.
Reports run time, the reduction relative to the original, and
synchronisations per step (for ompi-cc, as counted by the runtime,
MPIOPT_LAZY_STATS=1).

The three builds compile the same computation: the modules' loops are
written so that the compiler generates the same code whether or not a
local's address is passed to MPI (an address-taken running maximum once
kept a data-dependent branch in the original build only, which made its
diagnostics loop 2.5x slower than the hand-optimised build's and showed up
as a 17-31% "communication" gain).

  bench.py [--steps 1000] [--particles 20000] [--reps 11] [--np 2] [--mpi mpich|openmpi] [--out DIR]
"""
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, paired_ratio, parser, report, run, runtime_libdir, setup  # noqa: E402


def main():
    ap = parser(__doc__, "plankton", reps=11)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--particles", type=int, default=20000)
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    src = os.path.join(HERE, "plankton.c")
    exe = {v: os.path.join(a.out, "plankton-" + v) for v in ("original", "hand", "ompi")}
    build(a, [mpicc, "-O2", "-o", exe["original"], src, "-lm"], env)
    build(a, [mpicc, "-O2", "-DHAND", "-o", exe["hand"], src, "-lm"], env)
    r = build(a, [os.path.join(REPO, "scripts", "ompi-cc"), "--ompi-report", "-O2", "-o", exe["ompi"], src, "-lm"], env)
    if a.build_only:
        return 0
    if r:
        print("ompi-cc: %d reductions deferred" % sum("lazy-deferral: deferred" in l for l in r.stderr.splitlines()))

    times = {v: [] for v in exe}
    syncs, checks = {}, set()
    args = [str(a.steps), str(a.particles)]
    for rep in range(a.reps):
        for v in (exe if rep % 2 == 0 else list(reversed(list(exe)))):
            r = run(launcher + ["-n", str(a.np), exe[v]] + args, dict(env, MPIOPT_LAZY_STATS="1"))
            out = r.stdout.split()
            times[v].append(float(out[1]))
            checks.add(out[3])
            syncs[v] = float(out[2])
            m = re.search(r"(\d+) collectives", r.stderr)
            if v == "ompi" and m:
                syncs[v] = int(m.group(1)) / a.steps
    med = {v: statistics.median(t) for v, t in times.items()}
    o = med["original"]
    lines = ["Plankton benchmark, %s, %d ranks, %d steps, %d particles, median of %d runs" %
             (a.mpi, a.np, a.steps, a.particles, a.reps), "",
             "| build | seconds | vs original | / hand-optimised | synchronisations per step |",
             "|---|---:|---:|---:|---:|"]
    for v, name in (("original", "original"), ("hand", "hand-optimised"), ("ompi", "ompi-cc (deferred)")):
        lines.append("| %s | %.4f | %+.1f%% | %.3f | %.1f |" % (name, med[v], 100.0 * (o - med[v]) / o,
                                                             paired_ratio(times[v], times["hand"]), syncs[v]))
    lines.append("")
    lines.append("/ hand-optimised: the median over the repetitions of the ratio of the two builds' times in the "
                 "same repetition.")
    if len(checks) != 1:
        lines.append("")
        lines.append("checksums differ (floating-point sums in another order): %s" % sorted(checks))
    report(a, "plankton", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
