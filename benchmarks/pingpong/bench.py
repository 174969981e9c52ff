#!/usr/bin/env python3
"""Ping-pong between two ranks, both builds run alternately, medians, and the
median of the per-repetition ratios; the checksums of the builds must agree.

Column ping-pong (the OMPI paper's Fig. 5; the default): a matrix column of
N doubles (MPI_Type_vector(N, 1, 64, MPI_DOUBLE)), plain mpicc (the MPI's
datatype engine) against ompi-cc (datatype-templates: compiled pack loops
where the machine profile measured them winning, else the same generic
call).

--indexed: the same ping-pong of a run list, N single doubles at the
column's displacements moved on by 0, 1 or 2 doubles in turn
(MPI_Type_create_indexed_block: the _ix templates, where the profile's
templates.indexed points measured them winning).

--collective (with the column or --indexed): every rank's element gathered
to rank 0 and scattered back (MPI_Gather and MPI_Scatter with the datatype
on both sides: the collectives' templates), microseconds per pair.

--contiguous: latency and bandwidth of contiguous messages of 0 B to 16 MiB
(--sizes in bytes), plain mpicc against ompi-cc with the machine profile it
ships (persistent-requests where that profile measured them winning, else
the generic calls: the issue's "never slower", ratio <= 1.03 at every size)
and against ompi-cc with persistent requests forced (a profile in which
they win at every size): what the template itself costs or saves.

  bench.py [--contiguous | [--indexed] [--collective]] [--sizes ...] [--reps 9] [--np 2] [--mpi mpich|openmpi] [--out DIR]
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import REPO, paired_ratio, parser, report, run, setup  # noqa: E402

FORCED = {"schema": "ompi-profile/1", "mpi": "bench: persistent requests forced", "ranks": 2,
          "templates": {f: [{"bytes": 1 << 30, "generic_us": 2.0, "template_us": 1.0}]
                        for f in ("persistent", "persistent_ssend", "persistent_sendrecv")}}


def measure(a, launcher, env, exe, iters):
    """Alternating runs of every build in exe; {build: [us]} and the checksums."""
    t = {v: [] for v in exe}
    checks = set()
    names = list(exe)
    for rep in range(a.reps):
        for v in (names if rep % 2 == 0 else names[::-1]):
            out = run(launcher + ["-n", str(a.np), exe[v], iters], env).stdout.split()
            t[v].append(float(out[2]))
            checks.add(out[3])
    return t, checks


def columns(a, mpicc, launcher, env, occ, src):
    sizes = [int(s) for s in (a.sizes or ("8,64,512,4096" if a.indexed else "8,64,512,4096,32768")).split(",")]
    what, flags = ("Run-list", ["-DINDEXED"]) if a.indexed else ("Column", [])
    how, unit = ("gather and scatter", "per MPI_Gather and MPI_Scatter") if a.collective else \
        ("ping-pong", "per one-way message")
    flags += ["-DCOLLECTIVE"] if a.collective else []
    lines = ["%s %s, %s, %d ranks, median of %d runs (microseconds %s)"
             % (what, how, a.mpi, a.np, a.reps, unit), "",
             "| N doubles | bytes | plain | ompi-cc | ompi-cc / plain | template used |", "|---:|---:|---:|---:|---:|---|"]
    ok = True
    for n in sizes:
        exe = {v: os.path.join(a.out, "pingpong-%s%s%s-%d" % ("ix-" if a.indexed else "",
                                                              "coll-" if a.collective else "", v, n))
               for v in ("plain", "ompi")}
        run([mpicc, "-O2", "-DN=%d" % n] + flags + ["-o", exe["plain"], src], env)
        r = run([occ, "--ompi-report", "-O2", "-DN=%d" % n] + flags + ["-o", exe["ompi"], src], env)
        used = sum("datatype-templates: MPI_" in l for l in r.stderr.splitlines())
        iters = str(max(50, min(20000, 4000000 // (n * 8 + 200))))
        t, checks = measure(a, launcher, env, exe, iters)
        ok &= len(checks) == 1
        lines.append("| %d | %d | %.3f | %.3f | %.3f | %s |" % (
            n, n * 8, statistics.median(t["plain"]), statistics.median(t["ompi"]),
            paired_ratio(t["ompi"], t["plain"]), "%d of %d calls" % (used, 2 if a.collective else 4) if used else "no (generic)"))
        if len(checks) != 1:
            lines.append("  checksums differ at N=%d: %s" % (n, sorted(checks)))
    return lines, ok


def contiguous(a, mpicc, launcher, env, occ, src):
    sizes = [int(s) for s in (a.sizes or "0,8,64,512,4096,32768,262144,2097152,16777216").split(",")]
    forced = os.path.join(a.out, "profile-persistent-forced.json")
    with open(forced, "w") as f:
        json.dump(FORCED, f)
    lines = ["Contiguous ping-pong, %s, %d ranks, median of %d runs (microseconds per one-way message)"
             % (a.mpi, a.np, a.reps), "",
             "| bytes | plain | ompi-cc | ompi-cc / plain | persistent requests | forced / plain |",
             "|---:|---:|---:|---:|---:|---:|"]
    ok = True
    for b in sizes:
        n = b // 8
        exe = {v: os.path.join(a.out, "pingpong-contig-%s-%d" % (v, b)) for v in ("plain", "ompi", "forced")}
        flags = ["-O2", "-DCONTIGUOUS", "-DN=%d" % n]
        run([mpicc] + flags + ["-o", exe["plain"], src], env)
        r = run([occ, "--ompi-report"] + flags + ["-o", exe["ompi"], src], env)
        used = sum("persistent-requests: MPI_" in l for l in r.stderr.splitlines())
        r = run([occ, "--ompi-report"] + flags + ["-o", exe["forced"], src], dict(env, MPIOPT_PROFILE=forced))
        if sum("persistent-requests: MPI_" in l for l in r.stderr.splitlines()) != 4:
            sys.exit("bench: the forced build did not run the 4 calls through persistent requests:\n" + r.stderr)
        iters = str(max(20, min(20000, 40000000 // (b + 2000))))
        t, checks = measure(a, launcher, env, exe, iters)
        ok &= len(checks) == 1
        lines.append("| %d | %.3f | %.3f | %.3f%s | %.3f | %.3f |" % (
            b, statistics.median(t["plain"]), statistics.median(t["ompi"]), paired_ratio(t["ompi"], t["plain"]),
            " (%d of 4 persistent)" % used if used else "", statistics.median(t["forced"]),
            paired_ratio(t["forced"], t["plain"])))
        if len(checks) != 1:
            lines.append("  checksums differ at %d bytes: %s" % (b, sorted(checks)))
    return lines, ok


def main():
    ap = parser(__doc__, "pingpong", reps=9)
    ap.add_argument("--sizes", default=None, help="N doubles (columns) or bytes (--contiguous)")
    ap.add_argument("--contiguous", action="store_true", help="contiguous messages, persistent requests")
    ap.add_argument("--indexed", action="store_true", help="a run list (indexed blocks) instead of the column")
    ap.add_argument("--collective", action="store_true", help="MPI_Gather and MPI_Scatter instead of the ping-pong")
    a = ap.parse_args()
    mpicc, launcher, env = setup(a)
    src = os.path.join(HERE, "pingpong.c")
    occ = os.path.join(REPO, "scripts", "ompi-cc")
    lines, ok = (contiguous if a.contiguous else columns)(a, mpicc, launcher, env, occ, src)
    name = "pingpong-contiguous" if a.contiguous else \
        "pingpong" + ("-indexed" if a.indexed else "") + ("-collective" if a.collective else "")
    report(a, name, lines)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
