#!/usr/bin/env python3
"""Robustness fuzzing of ompi-opt on mutated sources (scripts/fuzz-tool).

mutate.py SECONDS [SEED] [--count N] takes the C sources of the test suites and the
examples (and generated programs), applies random mutations (delete,
duplicate, swap or truncate lines; replace, drop or repeat a token; insert
stray characters), and runs ompi-opt on each mutant, the way ompi-cc does.
A mutant fails the tool when ompi-opt

  - dies of a signal, or prints an LLVM crash or assertion (a crash),
  - runs past the time limit (a hang),
  - exits 0 on a mutant Clang accepts but writes a transformed source Clang
    rejects (a rewrite that breaks code), or
  - changes the mutant when Clang rejects it (it must decline bad input).

Each failing mutant is kept (--out) with the command that shows it. Exit
status 0 when nothing failed, 1 otherwise.
"""
import argparse
import concurrent.futures
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|\S")
JUNK = ["{", "}", "(", ")", ";", ",", "*", "&", "#", "\"", "'", "/*", "*/", "[", "]", "MPI_COMM_WORLD", "0", "-1"]


def mpich_cflags():
    out = subprocess.run(["mpicc.mpich", "-show"], capture_output=True, text=True).stdout.split()
    return [f for f in out if f.startswith("-I")]


def seeds(rng, n_generated=40):
    files = sorted(glob.glob(os.path.join(ROOT, "test", "tool", "**", "*.c"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "examples", "*.c")))
    texts = [open(f, errors="replace").read() for f in files]
    texts += [gen.Gen(rng.randrange(1 << 30)).program() for _ in range(n_generated)]
    return texts


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        if not lines:
            break
        i = rng.randrange(len(lines))
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            lines = lines[: max(1, i)]
        else:
            toks = list(TOKEN.finditer(lines[i]))
            if not toks:
                continue
            t = rng.choice(toks)
            pool = TOKEN.findall(text) or JUNK
            rep = {4: rng.choice(pool), 5: "", 6: t.group() * 2, 7: rng.choice(JUNK)}[op]
            lines[i] = lines[i][: t.start()] + rep + lines[i][t.end():]
    return "\n".join(lines)


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, errors="replace")
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return None, "timed out after %ss" % timeout


# What ompi-opt (like GCC's mpicc) accepts: legacy C is a warning, not an error.
LENIENT = ["-Wno-error=" + w for w in ("implicit-function-declaration", "implicit-int", "int-conversion",
                                       "incompatible-pointer-types", "incompatible-function-pointer-types",
                                       "return-type")]


def check(a, cflags, work, i, text):
    """Runs ompi-opt on mutant i: (why it failed or None, whether it parsed, whether it changed)."""
    src, dst = os.path.join(work, "m%d.c" % i), os.path.join(work, "out%d.c" % i)
    with open(src, "w") as f:
        f.write(text)
    syntax = [a.clang, "-fsyntax-only", "-w", "-std=gnu11"] + LENIENT + cflags + [
        "-I" + os.path.join(ROOT, "runtime", "include"), "-I" + os.path.join(ROOT, "templates")]
    valid = run(syntax + [src], a.timeout)[0] == 0
    rc, err = run([a.ompi_opt, "--line-directives", src, "-o", dst, "--"] + cflags, a.timeout)
    why, changed = None, False
    if rc is None:
        why = "hang"
    elif rc < 0 or "Stack dump" in err or "LLVM ERROR" in err or "Assertion" in err:
        why = "crash (%s)" % (rc if rc < 0 else err.strip().splitlines()[-1][:100])
    elif rc == 0:
        changed = open(dst).read() != text
        if changed and not valid:
            why = "changed a source Clang rejects"
        elif changed and run(syntax + [dst], a.timeout)[0] != 0:
            why = "the transformed source does not compile"
    for f in (src, dst):
        if os.path.exists(f):
            os.remove(f)
    return why, rc == 0, changed


def main():
    ap = argparse.ArgumentParser(description="robustness fuzzing of ompi-opt on mutated sources")
    ap.add_argument("seconds", type=float)
    ap.add_argument("seed", type=int, nargs="?", default=1)
    ap.add_argument("--ompi-opt", default=os.path.join(os.environ.get("MPIOPT_BUILD_DIR", os.path.join(ROOT, "build")),
                                                       "bin", "ompi-opt"))
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--out", default="fuzz-tool-failures")
    ap.add_argument("--count", type=int, default=0, help="stop after this many mutants (0: only the time limit)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="mutants checked at once (default: one per core); the mutants and the report are the same "
                         "for any value")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cflags = mpich_cflags()
    corpus = seeds(rng)
    work = tempfile.mkdtemp(prefix="fuzz-tool-")
    counts = {"mutants": 0, "accepted": 0, "transformed": 0, "failures": 0}
    end = time.time() + a.seconds
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        while time.time() < end and (not a.count or counts["mutants"] < a.count):
            batch = 4 * max(1, a.jobs)
            if a.count:
                batch = min(batch, a.count - counts["mutants"])
            texts = [mutate(rng.choice(corpus), rng) for _ in range(batch)]
            first = counts["mutants"]
            results = pool.map(lambda it: check(a, cflags, work, first + it[0], it[1]), enumerate(texts))
            for text, (why, accepted, changed) in zip(texts, results):
                counts["mutants"] += 1
                counts["accepted"] += accepted
                counts["transformed"] += changed
                if why:
                    counts["failures"] += 1
                    os.makedirs(a.out, exist_ok=True)
                    keep = os.path.join(a.out, "mutant%d.c" % counts["failures"])
                    with open(keep, "w") as f:
                        f.write(text)
                    print("fuzz-tool: %s: %s (ompi-opt %s -o out.c -- %s)" % (keep, why, keep, " ".join(cflags)))
                    sys.stdout.flush()
                if counts["mutants"] % 500 == 0:
                    print("fuzz-tool: %(mutants)d mutants, %(accepted)d parsed, %(transformed)d transformed, "
                          "%(failures)d failures" % counts)
                    sys.stdout.flush()
    shutil.rmtree(work, ignore_errors=True)
    print("fuzz-tool: %(mutants)d mutants, %(accepted)d parsed, %(transformed)d transformed, %(failures)d failures"
          % counts)
    return 1 if counts["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
