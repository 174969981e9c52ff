#!/usr/bin/env python3
"""Planned Alltoallv against MPI_Alltoallv (Jackson and Booth's benchmarks):

  uniform   every pair exchanges K doubles, K = 1, 5, 10, 20, 40, 80, 160, 320
  fft       the transpose of an N^3 grid of complex doubles from x-slabs to
            y-slabs, N = 64 and 128 (uneven slabs; empty pairs when N < P)

Each case runs a2av_bench.c twice per repetition, MPI_Alltoallv and the plan
(auto, or --algo), alternately; the table gives medians over repetitions of
each run's median call (slowest rank), the median of the per-repetition
ratios, the algorithm the plan kept (with how many repetitions kept it
when they differ), the plan's creation time, and the messages of one call
over all ranks between emulated nodes (MPIOPT_RANKS_PER_NODE --rpn; MPI's
as its pairwise exchange sends them, the plan's counted by MPIOPT_STATS).

  bench.py [--np 2] [--rpn 0] [--mpi mpich|openmpi] [--reps 7] [--algo auto] [--ks 1,5,...] [--ffts 64,128] [--out DIR]
"""
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, chosen, paired_ratio, parser, report, run, runtime_link, setup  # noqa: E402


def main():
    ap = parser(__doc__, "alltoallv", reps=7)
    ap.add_argument("--rpn", type=int, default=0, help="ranks per emulated node (0: the real nodes)")
    ap.add_argument("--algo", default="auto")
    ap.add_argument("--ks", default="1,5,10,20,40,80,160,320")
    ap.add_argument("--ffts", default="64,128")
    ap.add_argument("--iters", type=int, default=0, help="timed calls per run (default: 2000 for small uniform "
                    "cases, fewer for larger ones; scripts/simulate runs 200, 20 from 256 ranks)")
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    exe = os.path.join(a.out, "a2av_bench")
    build(a, [mpicc, "-O2", "-I" + os.path.join(REPO, "runtime", "include"), "-o", exe, os.path.join(HERE, "a2av_bench.c"),
              *runtime_link(a.mpi)], env)
    if a.build_only:
        return 0
    env = dict(env, MPIOPT_RANKS_PER_NODE=str(a.rpn), MPIOPT_STATS="1", MPIOPT_ALLTOALLV_ALGO=a.algo)
    cases = [("uniform", int(k)) for k in a.ks.split(",") if k] + [("fft", int(n)) for n in a.ffts.split(",") if n]
    nodes = ("%d simulated nodes of 16" % -(-a.np // 16) if a.mpi == "smpi" and a.rpn == 0 else
             "one node" if a.rpn == 0 or a.rpn >= a.np else "%d emulated nodes of %d" % (-(-a.np // a.rpn), a.rpn))
    lines = ["Planned Alltoallv, %s, %d ranks (%s), plan algorithm %s, median of %d runs (us per call)"
             % (a.mpi, a.np, nodes, a.algo, a.reps), "",
             "| case | bytes per pair | MPI_Alltoallv | planned | planned / MPI | algorithm | plan creation | "
             "inter-node msgs MPI / planned |", "|---|---:|---:|---:|---:|---|---:|---|"]
    for kind, k in cases:
        iters = str(a.iters or (2000 if kind == "uniform" and k <= 80 else 400 if kind == "uniform" else
                                60 if k <= 64 else 20))
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
                    m = re.search(r"stats: alltoallv \w+ +(\d+) +\d+ +(\d+)", r.stderr)
                    info["plan_inter"] = int(m.group(2)) // max(1, int(m.group(1))) if m else 0
                else:
                    info["mpi_inter"] = int(f[3])
                    info["sum"] = f[5]
        per_pair = "%d" % (k * 8) if kind == "uniform" else "~%d" % (16 * k * k * k // (a.np * a.np))
        lines.append("| %s %d | %s | %.2f | %.2f | %.2f | %s | %.0f | %d / %d |" % (
            kind, k, per_pair, statistics.median(t["mpi"]), statistics.median(t["plan"]),
            paired_ratio(t["plan"], t["mpi"]), chosen(info["algos"]), info["create"], info["mpi_inter"], info["plan_inter"]))
    report(a, "alltoallv-rpn%d-%s" % (a.rpn, a.algo), lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
