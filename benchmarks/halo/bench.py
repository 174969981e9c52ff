#!/usr/bin/env python3
"""Halo benchmark (issue 15): a 3-D 7-point Jacobi stencil whose six faces
travel as MPI_Type_vector / MPI_Type_contiguous datatypes through
MPI_Sendrecv (halo.c), built with plain mpicc and with ompi-cc
(datatype-templates: the faces packed and unpacked by compiled loops where
the machine profile measured them winning), for each local size N^3, both
builds run alternately; medians, and the median of the per-repetition
ratios (total time per iteration, and the exchange alone). The checksums of
the two builds must agree.

  bench.py [--sizes 16,32,48,64] [--iters 200] [--reps 7] [--np 2] [--mpi mpich|openmpi] [--out DIR]
           [--profile FILE]

--profile builds the ompi-cc programs with that machine profile
(ompi-cc --ompi-profile=FILE) instead of the one the build ships.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, paired_ratio, parser, report, run, setup  # noqa: E402


def main():
    ap = parser(__doc__, "halo", reps=7)
    ap.add_argument("--sizes", default="16,32,48,64")
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--profile", help="the machine profile ompi-cc selects templates with")
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    src = os.path.join(HERE, "halo.c")
    occ = os.path.join(REPO, "scripts", "ompi-cc")
    sizes = [int(s) for s in a.sizes.split(",")]
    exe = {(v, n): os.path.join(a.out, "halo-%s-%d" % (v, n)) for v in ("plain", "ompi") for n in sizes}
    used = {}
    profile = ["--ompi-profile=" + os.path.abspath(a.profile)] if a.profile else []
    for n in sizes:
        build(a, [mpicc, "-O2", "-DN=%d" % n, "-o", exe[("plain", n)], src], env)
        r = build(a, [occ, "--ompi-report"] + profile + ["-O2", "-DN=%d" % n, "-o", exe[("ompi", n)], src], env)
        used[n] = sum(": datatype-templates: MPI_" in l for l in r.stderr.splitlines()) if r else None
    # How many faces the templates took, kept beside the programs for a --prebuilt run elsewhere.
    kept = os.path.join(a.out, "halo-templates.json")
    if a.prebuilt:
        with open(kept) as f:
            used = {int(k): v for k, v in json.load(f).items()}
    else:
        with open(kept, "w") as f:
            json.dump(used, f)
    if a.build_only:
        return 0
    lines = ["Halo exchange + 7-point stencil, %s, %d ranks, median of %d runs (microseconds per iteration)"
             % (a.mpi, a.np, a.reps), "",
             "| N (local N^3) | face bytes | plain | ompi-cc | ompi-cc / plain | exchange: plain | ompi-cc "
             "| exchange ompi-cc / plain | templates |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    ok = True
    for n in sizes:
        t = {v: [] for v in ("plain", "ompi")}
        x = {v: [] for v in ("plain", "ompi")}
        checks = set()
        iters = str(max(10, a.iters * 32 ** 3 // n ** 3))
        for rep in range(a.reps):
            for v in (("plain", "ompi") if rep % 2 == 0 else ("ompi", "plain")):
                out = run(launcher + ["-n", str(a.np), exe[(v, n)], iters], env).stdout.split()
                t[v].append(float(out[1]) * 1e6)
                x[v].append(float(out[2]) * 1e6)
                checks.add(out[3])
        if len(checks) != 1:
            ok = False
        lines.append("| %d | %d | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f | %s |" % (
            n, (n + 2) * (n + 2) * 8, statistics.median(t["plain"]), statistics.median(t["ompi"]),
            paired_ratio(t["ompi"], t["plain"]), statistics.median(x["plain"]), statistics.median(x["ompi"]),
            paired_ratio(x["ompi"], x["plain"]), "?" if used.get(n) is None else "%d of 6" % used[n]))
    lines += ["", "x / plain: the median over the repetitions of the ratio of the two builds' times in the same "
              "repetition." + ("" if ok else " CHECKSUMS DIFFER.")]
    report(a, "halo", lines)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
