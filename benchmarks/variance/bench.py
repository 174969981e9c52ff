#!/usr/bin/env python3
"""Variance benchmark (CFL paper, Fig. 1, Table 1 and Fig. 2), all builds run
in one session, medians of several repetitions, times relative to the
original:

  original    variance.c, two MPI_Allreduce per batch, inline
  hand        -DHAND_FUSED: the two fused by hand into one
  ompi        ompi-cc variance.c: fused statically by ompi-opt
  deferred    ompi-cc -DFUNCTIONS: the paper's form (each reduction in its own
              function); ompi-opt defers them, the runtime fuses them
  shared      variance_shared.cpp: mpiopt::shared<double>, the CFL front end

Table 1: seconds per pass for each size. Fig. 2: EXTRA further reductions
per batch (0..16) for the -DFUNCTIONS program, plain and deferred, with the
cost of one extra reduction (least-squares slope).

  bench.py [--sizes 500,1000,1500,3000] [--reps 5] [--np 2] [--mpi mpich|openmpi|smpi]
           [--fig2-size 1000] [--fig2-extra 0,2,4,8,12,16] [--out DIR]
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, paired_ratio, parser, report, run, runtime_link, setup  # noqa: E402


def main():
    ap = parser(__doc__, "variance")
    ap.add_argument("--sizes", default="500,1000,1500,3000")
    ap.add_argument("--fig2-size", type=int, default=1000)
    ap.add_argument("--fig2-extra", default="0,2,4,8,12,16")
    ap.add_argument("--work", type=float, default=2e8,
                    help="values summed per run (passes = WORK / N^2; Fig. 2: WORK / 4 / N^2)")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    mpicc, launcher, env = setup(a)
    src = os.path.join(HERE, "variance.c")
    names = ("original", "hand", "ompi", "functions", "deferred", "shared")
    exe = {v: os.path.join(a.out, "variance-" + v) for v in names}
    occ = os.path.join(REPO, "scripts", "ompi-cc")
    build(a, [mpicc, "-O2", "-o", exe["original"], src])
    build(a, [mpicc, "-O2", "-DHAND_FUSED", "-o", exe["hand"], src])
    build(a, [mpicc, "-O2", "-DFUNCTIONS", "-o", exe["functions"], src])
    r = build(a, [occ, "--ompi-report", "-O2", "-o", exe["ompi"], src], env=env)
    if r:
        fused = [l for l in r.stderr.splitlines() if "reduction-fusion: fused" in l]
        print("ompi-cc: %d fusion(s): %s" % (len(fused), fused[0].split(": ", 2)[-1] if fused else "none"))
    r = build(a, [occ, "--ompi-report", "-O2", "-DFUNCTIONS", "-o", exe["deferred"], src], env=env)
    if r:
        print("ompi-cc -DFUNCTIONS: %d deferral(s)" % sum("lazy-deferral: deferred" in l for l in r.stderr.splitlines()))
    build(a, [mpicc.replace("mpicc", "mpicxx"), "-std=c++17", "-O2", "-DOMPI_SKIP_MPICXX", "-DMPICH_SKIP_MPICXX",
              "-I" + os.path.join(REPO, "runtime", "include"), "-o", exe["shared"],
              os.path.join(HERE, "variance_shared.cpp")] + runtime_link(a.mpi))
    if a.build_only:
        return 0

    times = {(v, n): [] for v in exe for n in sizes}
    checks = {}
    for n in sizes:
        repeat = max(3, int(a.work / (n * n)))
        for rep in range(a.reps):
            order = list(exe) if rep % 2 == 0 else list(reversed(list(exe)))
            for v in order:
                out = run(launcher + ["-n", str(a.np), exe[v], str(n), str(repeat)], env=env).stdout.split()
                times[(v, n)].append(float(out[1]) / repeat)
                checks.setdefault(n, set()).add(out[2])

    lines = ["Variance benchmark (Table 1), %s, %d ranks, median of %d runs (seconds per pass over the N x N data)"
             % (a.mpi, a.np, a.reps),
             "",
             "| N | original | hand-fused | ompi-cc (static) | ompi-cc (deferred) | shared<double> | static / hand "
             "| deferred / hand |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    ok = True
    for n in sizes:
        med = {v: statistics.median(times[(v, n)]) for v in exe}
        o = med["original"]
        cell = lambda v: "%.6f (%+.1f%%)" % (med[v], 100.0 * (o - med[v]) / o)
        hand = times[("hand", n)]
        lines.append("| %d | %.6f | %s | %s | %s | %s | %.3f | %.3f |" % (
            n, o, cell("hand"), cell("ompi"), cell("deferred"), cell("shared"),
            paired_ratio(times[("ompi", n)], hand), paired_ratio(times[("deferred", n)], hand)))
        if len(checks[n]) != 1:
            ok = False
            lines.append("  checksums differ at N=%d: %s" % (n, sorted(checks[n])))
    lines.append("")
    lines.append("(+x%) is the reduction in run time relative to the original, as in the CFL paper's Table 1; "
                 "x / hand is the median over the repetitions of the ratio of the two builds' times in the same "
                 "repetition.")
    # Fig. 2: EXTRA further reductions per batch, plain vs deferred.
    extras = [int(x) for x in a.fig2_extra.split(",")]
    n = a.fig2_size
    repeat = max(2, int(a.work / 4 / (n * n)))
    ft = {(v, e): [] for v in ("functions", "deferred", "shared") for e in extras}
    for rep in range(a.reps):
        for e in extras:
            for v in ("functions", "deferred", "shared"):
                out = run(launcher + ["-n", str(a.np), exe[v], str(n), str(repeat), str(e)], env=env).stdout.split()
                ft[(v, e)].append(float(out[1]) / repeat)
    lines += ["", "Fig. 2: N = %d, EXTRA further sum() reductions per batch (seconds per pass)" % n, "",
              "| EXTRA | original | deferred | deferred / original | shared<double> |", "|---:|---:|---:|---:|---:|"]
    fmed = {k: statistics.median(v) for k, v in ft.items()}
    for e in extras:
        lines.append("| %d | %.6f | %.6f | %.3f | %.6f |" % (e, fmed[("functions", e)], fmed[("deferred", e)],
                                                          fmed[("deferred", e)] / fmed[("functions", e)],
                                                          fmed[("shared", e)]))

    def slope(v):
        xs, ys = extras, [fmed[(v, e)] for e in extras]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        den = sum((x - mx) ** 2 for x in xs)
        return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0.0
    lines.append("")
    lines.append("Cost of one extra reduction per batch (slope / N): original %.2f us, deferred %.2f us, shared %.2f us"
                 % (1e6 * slope("functions") / n, 1e6 * slope("deferred") / n, 1e6 * slope("shared") / n))
    report(a, "variance", lines)
    if ok and any(fmed[("deferred", e)] > 1.05 * fmed[("functions", e)] for e in extras):
        print("note: the deferred build was slower than the original for some EXTRA (see the table)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
