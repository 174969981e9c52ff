#!/usr/bin/env python3
"""What ompi-cc costs at compile time (issue: a 22,000-line file with 2,000
MPI calls), against the real mpicc in the same run, medians of alternating
repetitions:

  large file (gen_large.py: ~22,000 lines, ~2,000 MPI calls, most deferred):
    mpicc -O2 -c                 the baseline
    ompi-cc -O2 -c               the whole drop-in run (ompi-opt + compile)
    mpicc -O2 -c of the output   compiling the transformed code alone
    ompi-opt -o, --diff, --diff=html   the transformation and its reports
  small file (examples/heat.c): mpicc -O2 -c against ompi-cc -O2 -c

and the size of the HTML page against the source's.

  scripts/bench compile [--reps 3] [--funcs 500]"""
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd, env, out=None):
    t = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=out or subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode not in (0, 1) or (r.returncode == 1 and "--diff" not in " ".join(cmd)):
        sys.exit("bench: %s failed:\n%s" % (" ".join(cmd), r.stderr.decode(errors="replace")))
    return dt


def main():
    ap = benchlib.parser(__doc__, "compile", reps=3)
    ap.add_argument("--funcs", type=int, default=500, help="functions in the generated file (4 MPI calls each)")
    a = ap.parse_args()
    mpicc, _, env = benchlib.setup(a)
    build = os.environ.get("MPIOPT_BUILD_DIR") or os.path.join(benchlib.REPO, "build")
    opt = os.path.join(build, "bin", "ompi-opt")
    ompicc = os.path.join(benchlib.REPO, "scripts", "ompi-cc")
    big = os.path.join(a.out, "big.c")
    with open(big, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_large.py"), str(a.funcs)], stdout=f, check=True)
    lines = sum(1 for _ in open(big))
    calls = len(re.findall(r"\bMPI_[A-Z][a-z_]+\(", open(big).read()))
    flags = subprocess.run([mpicc, "-show"], stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
    inc = [w for w in flags if w.startswith("-I")]
    out_c = os.path.join(a.out, "big.opt.c")
    rt = ["-isystem", os.path.join(benchlib.REPO, "runtime", "include"),
          "-isystem", os.path.join(benchlib.REPO, "templates")]
    obj = os.path.join(a.out, "x.o")
    heat = os.path.join(benchlib.REPO, "examples", "heat.c")
    steps = [
        ("mpicc -O2 -c (large)", lambda: timed([mpicc, "-O2", "-c", big, "-o", obj], env)),
        ("ompi-cc -O2 -c (large)", lambda: timed([ompicc, "-O2", "-c", big, "-o", obj], env)),
        ("ompi-opt -o (large)", lambda: timed([opt, "--line-directives", big, "-o", out_c, "--"] + inc, env)),
        ("mpicc -O2 -c of the output", lambda: timed([mpicc, "-O2", "-c", out_c, "-o", obj] + rt, env)),
        ("ompi-opt --diff (large)", lambda: timed([opt, "--diff", big, "--"] + inc, env)),
        ("ompi-opt --diff=html (large)",
         lambda: timed([opt, "--diff=html", big, "-o", os.path.join(a.out, "big.html"), "--"] + inc, env)),
        ("mpicc -O2 -c (small)", lambda: timed([mpicc, "-O2", "-c", heat, "-o", obj], env)),
        ("ompi-cc -O2 -c (small)", lambda: timed([ompicc, "-O2", "-c", heat, "-o", obj], env)),
    ]
    times = {name: [] for name, _ in steps}
    for rep in range(a.reps):
        for name, fn in (steps if rep % 2 == 0 else list(reversed(steps))):
            times[name].append(fn())
    med = {k: statistics.median(v) for k, v in times.items()}
    base = times["mpicc -O2 -c (large)"]
    rows = [
        "## Compile time: %s, %d lines, %d MPI calls (median of %d alternating runs)" % (
            os.path.basename(mpicc), lines, calls, a.reps),
        "",
        "| step | seconds | / mpicc -O2 -c (large) |",
        "|---|---|---|",
    ]
    for name, _ in steps:
        ref = base if "(small)" not in name else times["mpicc -O2 -c (small)"]
        rows.append("| %s | %.2f | %.2f |" % (name, med[name], benchlib.paired_ratio(times[name], ref)))
    html = os.path.getsize(os.path.join(a.out, "big.html"))
    src = os.path.getsize(big)
    rows += ["", "(small-file rows are ratios against mpicc on the small file; transform rows against mpicc on "
             "the large one.) HTML page: %.1f MB for a %.1f MB source (%.1fx)." % (html / 1e6, src / 1e6, html / src)]
    benchlib.report(a, "compile", rows)


if __name__ == "__main__":
    main()
