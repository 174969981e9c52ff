#!/usr/bin/env python3
"""Micro-benchmarks of the lazy reduction runtime (lazy_bench.c), all in one
session, medians of several runs:

  queue cost      ns to queue one deferred reduction
  fusion          K single-double reductions: K MPI_Allreduce vs deferred + one flush
  mixed groups    G reductions of distinct (datatype, op): grouped vs composite
                  algorithm (MPIOPT_LAZY_FUSE), the measurement behind the
                  runtime's composite threshold
  solo            one reduction per flush: plain vs deferred with and without
                  the adaptive policy (it must not be slower than plain)
  curve           (--curve) the cost model's s(N): grouped minus composite for
                  a batch of two groups, one of N bytes, at each size, medians
                  of alternating runs, and the MPIOPT_LAZY_MODEL value it gives
                  (what scripts/tune measures, at any --np with --launcher)

  bench.py [--reps 5] [--np 2] [--mpi mpich|openmpi] [--curve] [--out DIR]
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, parser, report, run, runtime_link, setup  # noqa: E402


CURVE_SIZES = (8, 64, 512, 2048, 4096, 8192, 12288, 16384, 32768, 65536, 262144)


def curve(a, launcher, base, exe):
    """s(N) = grouped - composite (us) for two groups, one of N bytes: the
    median over alternating runs of the difference within one run pair."""
    saving = {n: [] for n in CURVE_SIZES}
    for rep in range(a.reps):
        for n in CURVE_SIZES:
            t = {}
            for alg in (("grouped", "composite") if rep % 2 == 0 else ("composite", "grouped")):
                iters = str(max(200, 400000 // (64 + n // 8)))
                out = run(launcher + ["-n", str(a.np), exe, "size", str(max(1, n // 8)), iters],
                          dict(base, MPIOPT_LAZY_FUSE=alg, MPIOPT_LAZY_ADAPT="0")).stdout.split()
                t[alg] = float(out[3])
            saving[n].append(t["grouped"] - t["composite"])
    med = [(n, statistics.median(saving[n])) for n in CURVE_SIZES]
    return (["| bytes N | s(N) = grouped - composite (us) |", "|---:|---:|"] +
            ["| %d | %.3g |" % (n, s) for n, s in med] +
            ["", "MPIOPT_LAZY_MODEL=%d@" % a.np + ",".join("%d:%.3g" % (n, s) for n, s in med)])


def main():
    ap = parser(__doc__, "lazy")
    ap.add_argument("--curve", action="store_true", help="also measure the grouped/composite curve")
    a = ap.parse_args()
    mpicc, launcher, base = setup(a)
    exe = os.path.join(a.out, "lazy_bench")
    build(a, [mpicc, "-O2", "-I" + os.path.join(REPO, "runtime", "include"), "-o", exe,
              os.path.join(HERE, "lazy_bench.c")] + runtime_link(a.mpi), base)
    if a.build_only:
        return 0

    def med(args, **env):
        vals = [run(launcher + ["-n", str(a.np), exe] + args, dict(base, **env)).stdout.split() for _ in range(a.reps)]
        return [statistics.median(float(v[i]) for v in vals) for i in (2, 3)]

    lines = ["Lazy runtime micro-benchmarks, %s, %d ranks, median of %d runs (microseconds per iteration)"
             % (a.mpi, a.np, a.reps), ""]
    q = med(["queue", "1", "2000"])[1]
    lines += ["Queueing one deferred reduction: %.1f ns" % q, ""]
    lines += ["| reductions K | K x MPI_Allreduce | deferred + 1 flush | ratio |", "|---:|---:|---:|---:|"]
    for k in (1, 2, 4, 8, 16, 32):
        p, l = med(["fuse", str(k), "3000"])
        lines.append("| %d | %.3f | %.3f | %.2f |" % (k, p, l, l / p))
    lines += ["", "| groups G | G x MPI_Allreduce | grouped (G collectives) | composite (1 collective) |",
              "|---:|---:|---:|---:|"]
    for g in (2, 3, 4, 8):
        p, gr = med(["mixed", str(g), "3000"], MPIOPT_LAZY_FUSE="grouped")
        _, co = med(["mixed", str(g), "3000"], MPIOPT_LAZY_FUSE="composite")
        lines.append("| %d | %.3f | %.3f | %.3f |" % (g, p, gr, co))
    p, l = med(["solo", "1", "200000"])
    _, l0 = med(["solo", "1", "200000"], MPIOPT_LAZY_ADAPT="0")
    lines += ["", "One reduction per flush: MPI_Allreduce %.3f, deferred (adaptive) %.3f (%.2f), "
              "deferred (MPIOPT_LAZY_ADAPT=0) %.3f (%.2f)" % (p, l, l / p, l0, l0 / p)]
    if a.curve:
        lines += [""] + curve(a, launcher, base, exe)
    report(a, "lazy", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
