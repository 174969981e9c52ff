#!/usr/bin/env python3
"""Planned Allgatherv against MPI_Allgatherv:

  uniform   every rank contributes K doubles
  uneven    rank i contributes K * (i % 4) doubles (a quarter nothing)

K = 1, 5, 10, 20, 40, 80, 160, 320 (the Alltoallv report's sizes) and
4096, 32768, 131072 (32 KiB to 1 MiB per rank). Each case runs agv_bench.c
twice per repetition, MPI_Allgatherv and the plan (auto, or --algo),
alternately; the table gives medians over repetitions of each run's median
call (slowest rank), the median of the per-repetition ratios, the
algorithm the plan kept (with how many repetitions kept it when they
differ), and the plan's creation time.

  bench.py [--np 2] [--rpn 0] [--mpi mpich|openmpi] [--reps 7] [--algo auto] [--ks 1,5,...] [--uneven 40,4096] [--out DIR]
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, chosen, paired_ratio, parser, report, run, runtime_link, setup  # noqa: E402


def main():
    ap = parser(__doc__, "allgatherv", reps=7)
    ap.add_argument("--rpn", type=int, default=0, help="ranks per emulated node (0: the real nodes)")
    ap.add_argument("--algo", default="auto")
    ap.add_argument("--ks", default="1,5,10,20,40,80,160,320,4096,32768,131072")
    ap.add_argument("--uneven", default="40,4096")
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    exe = os.path.join(a.out, "agv_bench")
    build(a, [mpicc, "-O2", "-I" + os.path.join(REPO, "runtime", "include"), "-o", exe, os.path.join(HERE, "agv_bench.c"),
              *runtime_link(a.mpi)], env)
    if a.build_only:
        return 0
    env = dict(env, MPIOPT_RANKS_PER_NODE=str(a.rpn), MPIOPT_ALLGATHERV_ALGO=a.algo)
    cases = [("uniform", int(k)) for k in a.ks.split(",") if k] + \
            [("uneven", int(k)) for k in a.uneven.split(",") if k]
    nodes = "one node" if a.rpn == 0 or a.rpn >= a.np else "%d emulated nodes of %d" % (-(-a.np // a.rpn), a.rpn)
    lines = ["Planned Allgatherv, %s, %d ranks (%s), plan algorithm %s, median of %d runs (us per call)"
             % (a.mpi, a.np, nodes, a.algo, a.reps), "",
             "| case | bytes per rank | MPI_Allgatherv | planned | planned / MPI | algorithm | plan creation |",
             "|---|---:|---:|---:|---:|---|---:|"]
    for kind, k in cases:
        iters = str(2000 if k <= 320 else 400 if k <= 4096 else 60)
        t = {"mpi": [], "plan": []}
        info = {}
        for rep in range(a.reps):
            for impl in (("mpi", "plan") if rep % 2 == 0 else ("plan", "mpi")):
                r = run(launcher + ["-n", str(a.np), exe, kind, str(k), impl, iters], env)
                f = r.stdout.split()
                t[impl].append(float(f[0]))
                if impl == "plan":
                    info["create"] = float(f[1])
                    info.setdefault("algos", []).append(f[2])
        per_rank = "%d" % (k * 8) if kind == "uniform" else "0-%d" % (k * 8 * 3)
        lines.append("| %s %d | %s | %.2f | %.2f | %.2f | %s | %.0f |" % (
            kind, k, per_rank, statistics.median(t["mpi"]), statistics.median(t["plan"]),
            paired_ratio(t["plan"], t["mpi"]), chosen(info["algos"]), info["create"]))
    report(a, "allgatherv-rpn%d-%s" % (a.rpn, a.algo), lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
