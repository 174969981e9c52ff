#!/usr/bin/env python3
"""bspbench-style measurement of the BSPlib layer (bsp_bench.c), medians of
several runs, all in one session:

  g and l    for put, hpput, get and send (and put with MPIOPT_BSP_SYNC=sparse):
             the time of a superstep in which
             every process moves h words of 8 bytes (h = 0..HMAX, spread over
             the processes), fitted T(h) = l + g h over h >= p (as bspbench);
             beside it the MPI floor measured in the same runs: MPI_Barrier,
             MPI_Alltoall of one word per pair, and MPI_Alltoallv moving the
             same h-relation
  bulk       one put (get) of n bytes per superstep, exchanged inside the
             streams, one-sided or alone (MPIOPT_BSP_EXCHANGE=msg|rma|bulk),
             the three alternating: the measurement behind the layer's
             one-sided window and bulk threshold (runtime/bsp/select.c)

Targets (issue 6): empty superstep within 3x one MPI_Alltoall; g for put at
most 70 ns per word at p = 2.

  bench.py [--reps 5] [--np 2] [--mpi mpich|openmpi|smpi] [--hmax 2048] [--iters 200]
           [--no-sparse] [--no-bulk] [--out DIR]
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, parser, report, run, runtime_link, setup  # noqa: E402


def fit(points, p):
    """Least-squares l + g h over h >= p: (g in us per word, l in us)."""
    pts = [(h, t) for h, t in points if h >= p]
    n = len(pts)
    sx = sum(h for h, _ in pts)
    sy = sum(t for _, t in pts)
    sxx = sum(h * h for h, _ in pts)
    sxy = sum(h * t for h, t in pts)
    g = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return g, (sy - g * sx) / n


def main():
    ap = parser(__doc__, "bsp")
    ap.add_argument("--hmax", type=int, default=2048)
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--no-sparse", action="store_true", help="leave out the sparse sync (under SMPI its polling "
                    "costs minutes of host time per run from 16 processes on)")
    ap.add_argument("--no-bulk", action="store_true", help="leave out the bulk table (one put or get of up to 16 MiB)")
    a = ap.parse_args()
    mpicc, launcher, base = setup(a)
    exe = os.path.join(a.out, "bsp_bench")
    build(a, [mpicc, "-O2", "-I" + os.path.join(REPO, "runtime", "include"), "-o", exe,
              os.path.join(HERE, "bsp_bench.c")] + runtime_link(a.mpi), base)
    if a.build_only:
        return 0

    def once(args, **env):
        out = run(launcher + ["-n", str(a.np), exe] + args, dict(base, **env)).stdout.split("\n")
        return dict((ln.split()[0], float(ln.split()[1])) for ln in out if ln.strip())

    def median_of(runs):
        return dict((k, statistics.median(r[k] for r in runs)) for k in runs[0])

    def med(args, **env):
        """Median over the runs of every value the program prints, by key."""
        return median_of([once(args, **env) for _ in range(a.reps)])

    lines = ["BSPlib layer, %s, p = %d, median of %d runs" % (a.mpi, a.np, a.reps), "",
             "| operation | g (ns/word) | l (us) | empty superstep (us) | T(h=%d) (us) |" % a.hmax,
             "|---|---:|---:|---:|---:|"]
    floors = {}
    res = {}
    ops = ("put", "hpput", "get", "send") + (() if a.no_sparse else ("put-sparse",)) + ("alltoallv",)
    for op in ops:
        env = {"MPIOPT_BSP_SYNC": "sparse"} if op.endswith("-sparse") else {}
        m = med([op.split("-")[0], str(a.hmax), str(a.iters)], **env)
        floors.setdefault("barrier", []).append(m.pop("barrier"))
        floors.setdefault("alltoall", []).append(m.pop("alltoall"))
        pts = sorted((int(h), t) for h, t in m.items())
        g, l = fit(pts, a.np)
        res[op] = (g, l, m["0"], m[str(pts[-1][0])])
        name = ("MPI_Alltoallv (floor)" if op == "alltoallv" else
                "bsp_put, sparse sync" if op == "put-sparse" else "bsp_" + op)
        lines.append("| %s | %.1f | %.2f | %.2f | %.1f |" % (name, g * 1000, l, m["0"], m[str(pts[-1][0])]))
    barrier = statistics.median(floors["barrier"])
    alltoall = statistics.median(floors["alltoall"])
    empty = statistics.median(res[op][2] for op in ("put", "hpput", "get", "send"))
    lines += ["", "MPI floor: MPI_Barrier %.2f us, MPI_Alltoall (one word per pair) %.2f us" % (barrier, alltoall),
              "Empty superstep (bsp_sync): %.2f us = %.2fx MPI_Alltoall (target: at most 3x)" % (empty,
                                                                                                 empty / alltoall),
              "g for put: %.1f ns per 8-byte word (target: at most 70 ns at p = 2); MPI_Alltoallv moves a word "
              "in %.1f ns" % (res["put"][0] * 1000, res["alltoallv"][0] * 1000),
              "Empty superstep / MPI_Barrier: %.2fx" % (empty / barrier)]
    if not a.no_sparse:
        lines.append("Sparse sync / all-to-all sync (bsp_put): empty superstep %.2fx, l %.2fx, g %.2fx" % (
            res["put-sparse"][2] / res["put"][2], res["put-sparse"][1] / res["put"][1],
            res["put-sparse"][0] / res["put"][0]))
    lines.append("")
    if a.no_bulk:
        report(a, "bsp", lines)
        return 0
    exs = ("msg", "rma", "bulk")
    lines += ["| bytes per superstep | " + " | ".join("%s, %s (us)" % (op, ex) for op in ("put", "get") for ex in exs)
              + " | put, bulk / msg | get, bulk / msg |", "|---:" + "|---:" * 8 + "|"]
    runs = {}
    for _ in range(a.reps):  # alternating, so that a slow spell of the machine hits every path alike
        for op in ("bulk", "bulkget"):
            for ex in exs:
                runs.setdefault((op, ex), []).append(once([op, str(16 << 20), "30"], MPIOPT_BSP_EXCHANGE=ex))
    bulk = dict((k, median_of(v)) for k, v in runs.items())
    for n in sorted(bulk["bulk", "msg"], key=int):
        lines.append("| %s | " % n + " | ".join("%.1f" % bulk[op, ex][n] for op in ("bulk", "bulkget") for ex in exs)
                     + " | %.2f | %.2f |" % tuple(bulk[op, "bulk"][n] / bulk[op, "msg"][n] for op in ("bulk", "bulkget")))
    lines.append("(one-sided falls back to messages where the MPI has no dynamic windows, as Open MPI's "
                 "shared-memory component)")
    report(a, "bsp", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
