#!/usr/bin/env python3
"""Variance benchmark (CFL paper, Fig. 1 / Table 1): original, hand-fused
and ompi-cc builds of variance.c, run in one session, medians of several
repetitions, with the reduction in run time relative to the original.

  bench.py [--sizes 500,1000,1500,3000] [--reps 5] [--np 2] [--mpi mpich|openmpi] [--out DIR]
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MPI = {
    "mpich": ("mpicc.mpich", ["mpiexec.mpich"]),
    "openmpi": ("mpicc.openmpi", ["mpirun.openmpi", "--oversubscribe"]),
}


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, **kw)
    if r.returncode != 0:
        sys.exit("bench: %s failed:\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="500,1000,1500,3000")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--mpi", choices=sorted(MPI), default="mpich")
    ap.add_argument("--out", default=os.path.join(REPO, "build", "bench", "variance"))
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    if a.mpi == "mpich" and a.np > 2:
        sys.exit("bench: MPICH busy-polls; use --mpi openmpi for more than 2 ranks")
    mpicc, launcher = MPI[a.mpi]
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none", OMPI_CC_MPICC=mpicc)
    src = os.path.join(HERE, "variance.c")
    exe = {v: os.path.join(a.out, "variance-" + v) for v in ("original", "hand", "ompi")}
    run([mpicc, "-O2", "-o", exe["original"], src])
    run([mpicc, "-O2", "-DHAND_FUSED", "-o", exe["hand"], src])
    r = run([os.path.join(REPO, "scripts", "ompi-cc"), "--ompi-report", "-O2", "-o", exe["ompi"], src], env=env)
    fused = [l for l in r.stderr.splitlines() if "reduction-fusion: fused" in l]
    print("ompi-cc: %d fusion(s): %s" % (len(fused), fused[0].split(": ", 2)[-1] if fused else "none"))

    times = {(v, n): [] for v in exe for n in sizes}
    checks = {}
    for n in sizes:
        repeat = max(3, int(2e8 / (n * n)))
        for rep in range(a.reps):
            order = list(exe) if rep % 2 == 0 else list(reversed(list(exe)))
            for v in order:
                out = run(launcher + ["-n", str(a.np), exe[v], str(n), str(repeat)], env=env).stdout.split()
                times[(v, n)].append(float(out[1]) / repeat)
                checks.setdefault(n, set()).add(out[2])

    lines = ["Variance benchmark, %s, %d ranks, median of %d runs (seconds per pass over the N x N data)"
             % (a.mpi, a.np, a.reps),
             "",
             "| N | original | hand-fused | ompi-cc | ompi-cc / hand-fused |",
             "|---:|---:|---:|---:|---:|"]
    ok = True
    for n in sizes:
        med = {v: statistics.median(times[(v, n)]) for v in exe}
        o = med["original"]
        cell = lambda v: "%.6f (%+.1f%%)" % (med[v], 100.0 * (o - med[v]) / o)
        lines.append("| %d | %.6f | %s | %s | %.3f |" % (n, o, cell("hand"), cell("ompi"), med["ompi"] / med["hand"]))
        if len(checks[n]) != 1:
            ok = False
            lines.append("  checksums differ at N=%d: %s" % (n, sorted(checks[n])))
    lines.append("")
    lines.append("(+x%) is the reduction in run time relative to the original, as in the CFL paper's Table 1.")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(a.out, "variance-%s-np%d.md" % (a.mpi, a.np)), "w") as f:
        f.write(text + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
