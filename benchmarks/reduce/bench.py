#!/usr/bin/env python3
"""Large-vector MPI_Reduce / MPI_Allreduce (Shan, Williams and Johnson's
experiments): floats summed, 1 Ki to 64 Mi elements, dense and 50/90/99%
zeros, the MPI's own call against the runtime's selector and each algorithm
forced (binomial, redscat, ring), and the selector on 2 and 4 threads
(MPIOPT_THREADS).

Every configuration runs reduce_bench.c once per repetition, in an order
that alternates between repetitions; the table gives the MPI's median time
and, for the runtime, the median of the per-repetition ratios to it (below
1: faster), with the algorithm the selector chose.

  bench.py [--np 2] [--mpi mpich|openmpi] [--reps 5] [--sizes 1024,...] [--zeros 0,50,90,99]
           [--colls allreduce,reduce] [--threads 2,4] [--out DIR]
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, build, parser, report, run, runtime_link, setup  # noqa: E402

ALGOS = ("binomial", "redscat", "ring")


def main():
    ap = parser(__doc__, "reduce", reps=5)
    ap.add_argument("--sizes", default=",".join(str(1024 * 4 ** i) for i in range(9)))
    ap.add_argument("--zeros", default="0,50,90,99")
    ap.add_argument("--colls", default="allreduce,reduce")
    ap.add_argument("--threads", default="2,4")
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    exe = os.path.join(a.out, "reduce_bench")
    build(a, [mpicc, "-O2", "-I" + os.path.join(REPO, "runtime", "include"), "-o", exe,
              os.path.join(HERE, "reduce_bench.c"), *runtime_link(a.mpi)], env)
    if a.build_only:
        return 0
    sizes = [int(s) for s in a.sizes.split(",")]
    threads = [int(t) for t in a.threads.split(",") if t]
    lines = ["Large-vector reductions, %s, %d ranks, floats summed, median of %d runs: the MPI's time (us) and "
             "the runtime's time as a ratio to it (below 1: faster)" % (a.mpi, a.np, a.reps), ""]
    for coll in a.colls.split(","):
        var = "MPIOPT_%s_ALGO" % coll.upper()
        configs = [("mpi", "mpi", {}), ("auto", "ours", {})] + [(al, "ours", {var: al}) for al in ALGOS] + \
                  [("auto %dT" % t, "ours", {"MPIOPT_THREADS": str(t)}) for t in threads]
        for zeros in a.zeros.split(","):
            t = {c[0]: {n: [] for n in sizes} for c in configs}
            chosen = {}
            for rep in range(a.reps):
                order = configs if rep % 2 == 0 else configs[::-1]
                for name, impl, extra in order:
                    out = run(launcher + ["-n", str(a.np), exe, coll, impl, zeros, a.sizes], dict(env, **extra))
                    for line in out.stdout.splitlines():
                        n, us, algo = line.split()
                        t[name][int(n)].append(float(us))
                        if name == "auto":
                            chosen[int(n)] = algo
            lines += ["%s, %s%% zeros:" % (coll, zeros), "",
                      "| floats | MPI us | selector | chose | " + " | ".join(ALGOS) + "".join(
                          " | selector %dT" % th for th in threads) + " |",
                      "|---:|---:|---:|---|" + "---:|" * (len(ALGOS) + len(threads))]
            for n in sizes:
                mpi = t["mpi"][n]
                ratio = lambda name: statistics.median(x / b for x, b in zip(t[name][n], mpi))  # noqa: E731
                cells = ["%.2f" % ratio(al) for al in ALGOS] + ["%.2f" % ratio("auto %dT" % th) for th in threads]
                lines.append("| %d | %.1f | %.2f | %s | %s |" % (n, statistics.median(mpi), ratio("auto"), chosen[n],
                                                                " | ".join(cells)))
            lines.append("")
    report(a, "reduce", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
