#!/usr/bin/env python3
"""Column ping-pong (the OMPI paper's Fig. 5): a matrix column of N doubles
(MPI_Type_vector(N, 1, 64, MPI_DOUBLE)) between two ranks, plain mpicc
(the MPI's datatype engine) against ompi-cc (datatype-templates: compiled
pack loops where the machine profile measured them winning, else the same
generic call), both builds run alternately, medians, and the median of the
per-repetition ratios. The checksums of the two builds must agree.

  bench.py [--sizes 8,64,512,4096,32768] [--reps 9] [--np 2] [--mpi mpich|openmpi] [--out DIR]
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, paired_ratio, parser, report, run, setup  # noqa: E402


def main():
    ap = parser(__doc__, "pingpong", reps=9)
    ap.add_argument("--sizes", default="8,64,512,4096,32768")
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    src = os.path.join(HERE, "pingpong.c")
    occ = os.path.join(REPO, "scripts", "ompi-cc")
    sizes = [int(s) for s in a.sizes.split(",")]
    lines = ["Column ping-pong, %s, %d ranks, median of %d runs (microseconds per one-way message)"
             % (a.mpi, a.np, a.reps), "",
             "| N doubles | bytes | plain | ompi-cc | ompi-cc / plain | template used |", "|---:|---:|---:|---:|---:|---|"]
    ok = True
    for n in sizes:
        exe = {v: os.path.join(a.out, "pingpong-%s-%d" % (v, n)) for v in ("plain", "ompi")}
        run([mpicc, "-O2", "-DN=%d" % n, "-o", exe["plain"], src], env)
        r = run([occ, "--ompi-report", "-O2", "-DN=%d" % n, "-o", exe["ompi"], src], env)
        used = sum("datatype-templates: MPI_" in l for l in r.stderr.splitlines())
        iters = str(max(50, min(20000, 4000000 // (n * 8 + 200))))
        t = {v: [] for v in exe}
        checks = set()
        for rep in range(a.reps):
            for v in (("plain", "ompi") if rep % 2 == 0 else ("ompi", "plain")):
                out = run(launcher + ["-n", str(a.np), exe[v], iters], env).stdout.split()
                t[v].append(float(out[2]))
                checks.add(out[3])
        ok &= len(checks) == 1
        lines.append("| %d | %d | %.3f | %.3f | %.3f | %s |" % (
            n, n * 8, statistics.median(t["plain"]), statistics.median(t["ompi"]),
            paired_ratio(t["ompi"], t["plain"]), "%d of 4 calls" % used if used else "no (generic)"))
        if len(checks) != 1:
            lines.append("  checksums differ at N=%d: %s" % (n, sorted(checks)))
    report(a, "pingpong", lines)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
