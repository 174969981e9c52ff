#!/usr/bin/env python3
"""Coverage-guided fuzzing of ompi-opt's pipeline (scripts/fuzz-tool --libfuzzer).

libfuzz.py FUZZER SECONDS [SEED] runs ompi-opt-fuzzer (test/fuzz/opt_fuzzer.cpp,
built with -DOMPI_LIBFUZZER=ON) for SECONDS, starting from the C sources of
the test suites, the examples and generated programs, with a dictionary of
the MPI names and C keywords those sources use. The corpus libFuzzer grows is
kept in OUT/corpus, so a second run goes on from the first. Every crash,
UndefinedBehaviorSanitizer report, hang (-timeout) or transformed source
Clang rejects leaves an input in OUT (crash-*, timeout-*, oom-*); rerun one
with `ompi-opt-fuzzer FILE` (MPIOPT_FUZZ_VERBOSE=1 shows Clang's
diagnostics). Exit status 0 when nothing failed, 1 otherwise.
"""
import argparse
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
sys.path.insert(0, HERE)
import mutate  # noqa: E402

KEYWORDS = ["if", "else", "for", "while", "do", "return", "break", "continue", "goto", "switch", "case", "static",
            "const", "restrict", "volatile", "struct", "typedef", "sizeof", "int", "long", "double", "float", "char",
            "unsigned", "void", "#define", "#include <mpi.h>", "#if 0", "#endif", "#line 1", "MPI_IN_PLACE",
            "(", ")", "{", "}", "[", "]", ";", ",", "&", "*", "==", "!=", "%", "++", "+=", "->", "..."]


def dictionary(texts, path):
    """libFuzzer's -dict: the MPI names and a few C tokens, one a line."""
    names = set()
    for t in texts:
        names.update(re.findall(r"\bMPI_[A-Za-z_0-9]+|\bmpiopt_[A-Za-z_0-9]+", t))
    with open(path, "w") as f:
        for tok in sorted(names) + KEYWORDS:
            f.write('"%s"\n' % tok.replace("\\", "\\\\").replace('"', '\\"'))


def main():
    ap = argparse.ArgumentParser(description="coverage-guided fuzzing of ompi-opt (libFuzzer)")
    ap.add_argument("fuzzer", help="ompi-opt-fuzzer")
    ap.add_argument("seconds", type=int)
    ap.add_argument("seed", type=int, nargs="?", default=1)
    ap.add_argument("--out", default="fuzz-tool-failures")
    ap.add_argument("--timeout", type=int, default=60, help="seconds for one input before it counts as a hang")
    ap.add_argument("--runs", type=int, default=0,
                    help="stop after this many inputs (as well as after SECONDS): a repeatable run for CI")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    corpus = os.path.join(out, "corpus")
    seeds = os.path.join(out, "seeds")
    for d in (corpus, seeds):
        os.makedirs(d, exist_ok=True)
    texts = mutate.seeds(random.Random(a.seed))
    for i, t in enumerate(texts):
        with open(os.path.join(seeds, "seed%04d.c" % i), "w") as f:
            f.write(t)
    dictionary(texts, os.path.join(out, "mpi.dict"))
    before = set(glob.glob(os.path.join(out, "*-*")))
    cmd = [a.fuzzer, "-max_total_time=%d" % a.seconds, "-runs=%d" % (a.runs or -1), "-seed=%d" % a.seed,
           "-timeout=%d" % a.timeout, "-rss_limit_mb=4096", "-max_len=65536", "-print_final_stats=1",
           "-dict=" + os.path.join(out, "mpi.dict"), "-artifact_prefix=" + out + "/", corpus, seeds]
    print("fuzz-tool: " + " ".join(cmd))
    sys.stdout.flush()
    log = os.path.join(out, "libfuzzer.log")
    # The fuzzer's scratch file goes to a directory of its own (libFuzzer
    # may leave without running exit handlers), removed afterwards.
    scratch = tempfile.mkdtemp(prefix="scratch-", dir=out)
    env = dict(os.environ, TMPDIR=scratch)
    start = time.time()
    with open(log, "w") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env).returncode
    elapsed = time.time() - start
    shutil.rmtree(scratch, ignore_errors=True)
    text = open(log, errors="replace").read()
    stats = dict(re.findall(r"^stat::(\w+):\s+(\d+)", text, re.M))
    found = sorted(set(p for p in glob.glob(os.path.join(out, "*-*"))
                       if re.match(r"(crash|timeout|oom|leak)-", os.path.basename(p))) - before)
    print("fuzz-tool: %s inputs run in %.0f s (%s a second), %s new inputs kept, corpus %d inputs; %d failures"
          % (stats.get("number_of_executed_units", "?"), elapsed, stats.get("average_exec_per_sec", "?"),
             stats.get("new_units_added", "?"), len(os.listdir(corpus)), len(found)))
    for p in found:
        print("fuzz-tool: %s (%s %s)" % (p, a.fuzzer, p))
        # The input and why it failed, in the log itself: a CI machine's OUT
        # is gone once the run ends (the pipeline's own messages need
        # MPIOPT_FUZZ_VERBOSE).
        again = subprocess.run([a.fuzzer, p], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env=dict(os.environ, MPIOPT_FUZZ_VERBOSE="1"), errors="replace")
        why = [l for l in again.stdout.splitlines()
               if re.search(r"runtime error|SUMMARY|ERROR|deadly|Assertion|error:", l)]
        print("fuzz-tool: rerun with MPIOPT_FUZZ_VERBOSE=1 (status %d):" % again.returncode)
        print("\n".join(why[-20:]))
        print("fuzz-tool: the input (%s):" % os.path.basename(p))
        print("\n".join(open(p, errors="replace").read().splitlines()[:200]))
    if rc != 0:
        print("fuzz-tool: ompi-opt-fuzzer exited with status %d; the end of %s:" % (rc, log))
        print("\n".join(text.splitlines()[-60:]))
    return 1 if found or rc != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
