#!/usr/bin/env python3
"""An MPI_Alltoall in a helper the time loop calls (a2a_helper.c: NPB IS's
shape in a long run): the plain build against the ompi-cc build, whose
planned-collectives sends the call to the scalar-keyed plan cache
(mpiopt_alltoall_cached). Both builds run alternately --reps times per case;
the table gives the median time per step of each and the median of the
per-repetition ratios; the checksums of the two builds must agree.

  helper.py [--np 2] [--mpi mpich|openmpi|smpi] [--reps 5] [--steps 100000] [--per 1,4]
"""
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, paired_ratio, parser, report, run, setup  # noqa: E402


def main():
    ap = parser(__doc__, "a2a-helper", reps=5)
    ap.add_argument("--steps", type=int, default=100000, help="time steps per run (the cache plans a key at "
                    "its 16th call: short runs do not repay the plan)")
    ap.add_argument("--per", default="1,4", help="ints per pair, comma-separated")
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    src = os.path.join(HERE, "a2a_helper.c")
    exes = {"plain": os.path.join(a.out, "plain"), "ompi": os.path.join(a.out, "ompi")}
    build(a, [mpicc, "-O2", "-o", exes["plain"], src], env)
    build(a, [os.path.join(REPO, "scripts", "ompi-cc"), "--ompi-mpicc=" + mpicc, "-O2", "-o", exes["ompi"], src], env)
    if a.build_only:
        return 0
    lines = ["MPI_Alltoall in a helper, %s, %d ranks, %d steps, median of %d alternating runs (us per step)"
             % (a.mpi, a.np, a.steps, a.reps), "",
             "| ints per pair | plain | ompi-cc | ompi-cc / plain | checksums |", "|---:|---:|---:|---:|---|"]
    agree = True
    for per in [int(p) for p in a.per.split(",") if p]:
        t = {"plain": [], "ompi": []}
        sums = set()
        for rep in range(a.reps):
            for b in (("plain", "ompi") if rep % 2 == 0 else ("ompi", "plain")):
                out = run(launcher + ["-n", str(a.np), exes[b], str(a.steps), str(per)], env).stdout
                m = re.search(r"checksum (-?\d+), ([0-9.]+) us per step", out)
                if not m:
                    sys.exit("bench: unexpected output of %s:\n%s" % (b, out))
                sums.add(m.group(1))
                t[b].append(float(m.group(2)))
        agree &= len(sums) == 1
        lines.append("| %d | %.2f | %.2f | %.2fx | %s |" % (
            per, statistics.median(t["plain"]), statistics.median(t["ompi"]), paired_ratio(t["ompi"], t["plain"]),
            "agree" if len(sums) == 1 else "DIFFER"))
    report(a, "a2a-helper", lines)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
