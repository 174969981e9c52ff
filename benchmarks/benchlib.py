"""What every benchmark driver shares: the MPI implementations, running a
command (stopping with its output when it fails), the common options and
environment, and where libompi-rt for an MPI is."""
import argparse
import collections
import os
import shlex
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPI = {
    "mpich": ("mpicc.mpich", ["mpiexec.mpich"]),
    "openmpi": ("mpicc.openmpi", ["mpirun.openmpi", "--oversubscribe"]),
    # SimGrid's simulator: times are simulated (docs/simulation.md)
    "smpi": ("smpicc", [os.path.join(REPO, "scripts", "simrun"), "--quiet"]),
}


def run(cmd, env=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, env=env)
    if r.returncode != 0:
        sys.exit("bench: %s failed:\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    return r


def build(a, cmd, env=None):
    """Run a build command, unless the programs are prebuilt (then None)."""
    return None if a.prebuilt else run(cmd, env)


def parser(doc, name, reps=5):
    """An argument parser with --reps --np --mpi --out (build/bench/NAME)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=reps)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--mpi", choices=sorted(MPI), default="mpich")
    ap.add_argument("--out", default=os.path.join(REPO, "build", "bench", name))
    ap.add_argument("--launcher", help="launch command to use instead of the MPI's own (for example "
                    "'mpiexec.hydra' of a packed MPICH on another machine); any --np is then allowed")
    ap.add_argument("--prebuilt", action="store_true", help="the programs are already built in --out "
                    "(made here, run on a machine without compilers): run them, build nothing")
    ap.add_argument("--build-only", action="store_true", help="build the programs into --out and stop")
    return ap


def setup(a):
    """Check the options; make the output directory; return (mpicc, launcher, env)."""
    if a.mpi == "mpich" and a.np > 2 and not a.launcher:
        sys.exit("bench: MPICH busy-polls; use --mpi openmpi for more than 2 ranks (or --launcher on a machine "
                 "with the cores)")
    mpicc, launcher = MPI[a.mpi]
    if a.launcher:
        launcher = shlex.split(a.launcher)
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none", OMPI_CC_MPICC=mpicc)
    return mpicc, launcher, env


def runtime_libdir(mpi):
    """The libompi-rt built for this MPI (lib/ for MPICH, lib/openmpi/ for Open MPI, lib/smpi/ for SMPI)."""
    build = os.environ.get("MPIOPT_BUILD_DIR") or os.path.join(REPO, "build")
    return os.path.join(build, "lib", mpi) if mpi in ("openmpi", "smpi") else os.path.join(build, "lib")


def runtime_link(mpi):
    """The link flags of libompi-rt for this MPI (as ompi-cc links it: for
    SMPI without OpenMP, its MPI wrappers pulled in and bound)."""
    if mpi == "smpi":
        return ["-L" + runtime_libdir(mpi), "-Wl,--undefined=mpiopt_runtime_linked", "-Wl,-Bsymbolic-functions",
                "-lompi-rt"]
    return ["-L" + runtime_libdir(mpi), "-lompi-rt", "-fopenmp"]


def report(a, name, lines):
    """Print the table and write it to OUT/NAME-MPI-npN.md."""
    if a.mpi == "smpi" and lines:  # every heading says so
        lines = ["**Simulated** (SimGrid SMPI, platform %s; docs/simulation.md): %s" %
                 (os.environ.get("SIMRUN_PLATFORM") or "simrun's default for the rank count", lines[0])] + lines[1:]
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(a.out, "%s-%s-np%d.md" % (name, a.mpi, a.np)), "w") as f:
        f.write(text + "\n")


def paired_ratio(ts, base):
    """Median over the repetitions of ts[i] / base[i]: the two builds ran
    back to back in each repetition, so a slow phase of the machine (a noisy
    neighbour on a shared host) scales both and cancels in the ratio, which
    the ratio of two medians does not."""
    return statistics.median(t / b for t, b in zip(ts, base))


def chosen(algos):
    """The algorithm a plan kept in most repetitions, with how often when
    they differ (its trial's timings decide between near-equal candidates)."""
    name, n = collections.Counter(algos).most_common(1)[0]
    return name if n == len(algos) else "%s (%d/%d)" % (name, n, len(algos))


def sized_pair(a, name, src, sizes, iters_of, face_bytes, title, link=()):
    """Plain mpicc against ompi-cc on one source compiled with -DN=n for each
    size (--profile: the machine profile ompi-cc selects templates with),
    both builds run alternately --reps times with iters_of(n) iterations.
    The program prints "N seconds_per_iteration exchange_seconds checksum";
    the checksums of the two builds must agree. Returns the table's lines
    and whether they agreed. How many calls went through templates is kept
    beside the programs (NAME-templates.json) for a --prebuilt run."""
    import json
    mpicc, launcher, env = setup(a)
    occ = os.path.join(REPO, "scripts", "ompi-cc")
    # --runtime: the size from the command line (-DRUNTIME_N), so the
    # datatypes' shapes are known only at run time.
    rt = ("-rt" if a.runtime else "") + ("-nb" if getattr(a, "nonblocking", False) else "") + \
        ("-sa" if getattr(a, "subarray", False) else "")
    exe = {(v, n): os.path.join(a.out, "%s-%s%s-%d" % (name, v, rt, n)) for v in ("plain", "ompi") for n in sizes}
    profile = ["--ompi-profile=" + os.path.abspath(a.profile)] if a.profile else []
    variant = (["-DNONBLOCKING"] if getattr(a, "nonblocking", False) else []) + \
        (["-DSUBARRAY"] if getattr(a, "subarray", False) else [])
    size_flags = lambda n: (["-DRUNTIME_N"] if a.runtime else ["-DN=%d" % n]) + variant  # noqa: E731
    used = {}
    for n in sizes:
        build(a, [mpicc, "-O2"] + size_flags(n) + ["-o", exe[("plain", n)], src] + list(link), env)
        r = build(a, [occ, "--ompi-report"] + profile + ["-O2"] + size_flags(n) + ["-o", exe[("ompi", n)], src] +
                  list(link), env)
        used[n] = sum(": datatype-templates: MPI_" in l for l in r.stderr.splitlines()) if r else None
    kept = os.path.join(a.out, "%s%s-templates.json" % (name, rt))
    if a.prebuilt:
        with open(kept) as f:
            used = {int(k): v for k, v in json.load(f).items()}
    else:
        with open(kept, "w") as f:
            json.dump(used, f)
    if a.build_only:
        return None, True
    lines = [title % (a.mpi, a.np, a.reps) + (" (size given at run time)" if a.runtime else "") +
             (" (nonblocking exchange)" if getattr(a, "nonblocking", False) else "") +
             (" (subarray faces)" if getattr(a, "subarray", False) else ""), "",
             "| N | message bytes | plain | ompi-cc | ompi-cc / plain | exchange: plain | ompi-cc "
             "| exchange ompi-cc / plain | templates |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    ok = True
    for n in sizes:
        t = {v: [] for v in ("plain", "ompi")}
        x = {v: [] for v in ("plain", "ompi")}
        checks = set()
        for rep in range(a.reps):
            for v in (("plain", "ompi") if rep % 2 == 0 else ("ompi", "plain")):
                args = [str(iters_of(n))] + ([str(n)] if a.runtime else [])
                out = run(launcher + ["-n", str(a.np), exe[(v, n)]] + args, env).stdout.split()
                t[v].append(float(out[1]) * 1e6)
                x[v].append(float(out[2]) * 1e6)
                checks.add(out[3])
        ok &= len(checks) == 1
        lines.append("| %d | %d | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f | %s |" % (
            n, face_bytes(n), statistics.median(t["plain"]), statistics.median(t["ompi"]),
            paired_ratio(t["ompi"], t["plain"]), statistics.median(x["plain"]), statistics.median(x["ompi"]),
            paired_ratio(x["ompi"], x["plain"]), "?" if used.get(n) is None else used[n]))
    lines += ["", "x / plain: the median over the repetitions of the ratio of the two builds' times in the same "
              "repetition; templates: the calls ompi-cc sent through a template." +
              ("" if ok else " CHECKSUMS DIFFER.")]
    return lines, ok


def sized_main(doc, name, src, sizes, iters, iters_of, face_bytes, title, link=(), nonblocking=False,
               subarray=False):
    """The command line of a sized_pair benchmark (--sizes, --iters,
    --profile, --runtime, with nonblocking --nonblocking, with subarray
    --subarray, and the common
    options), its run and its table; iters_of(a, n): the iterations at size
    n. Returns the exit status."""
    ap = parser(doc, name, reps=7)
    ap.add_argument("--sizes", default=sizes)
    ap.add_argument("--iters", type=int, default=iters)
    ap.add_argument("--profile", help="the machine profile ompi-cc selects templates with")
    ap.add_argument("--runtime", action="store_true", help="the size from the command line: shapes known only at "
                    "run time")
    if nonblocking:
        ap.add_argument("--nonblocking", action="store_true", help="the exchange through MPI_Irecv/MPI_Isend and "
                        "MPI_Waitall (-DNONBLOCKING)")
    if subarray:
        ap.add_argument("--subarray", action="store_true", help="the faces as 3-D subarrays of the whole array "
                        "(-DSUBARRAY)")
    a = ap.parse_args()
    lines, ok = sized_pair(a, name, src, [int(n) for n in a.sizes.split(",")], lambda n: iters_of(a, n), face_bytes,
                           title, link)
    if lines:
        report(a, name, lines)
    return 0 if ok else 1
