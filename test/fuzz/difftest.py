#!/usr/bin/env python3
"""Differential testing of ompi-cc against plain mpicc (scripts/difftest).

difftest.py N [SEED] generates N programs (gen.py, seeds SEED..SEED+N-1),
builds each with the plain MPI compiler and with ompi-cc, runs both builds
at 1 and 2 ranks under MPICH and at 3 and 4 under Open MPI (every
--openmpi-every-th program), and reports every difference of output or exit
status, crash, hang, compile failure and fallback (ompi-cc compiling the
original because the optimised code failed), with the smallest program that
still shows it (lines deleted while the difference persists and the plain
build stays correct). It counts the transformations ompi-opt applied, so a
generator that only produces code the tool leaves alone shows up.

ompi-cc builds with each MPI's shipped machine profile (profiles/), to which
the tester adds persistent requests and the self and null peers' templates
winning at every size (peers known only at run time included), and message
aggregation and broadcast fusion winning at every size: the shipped profiles measured no win for some of
them, and a transformation no profile chooses must still never change a
result. Programs of odd seeds keep the shipped choice for nonblocking starts
(their waits stay MPI calls, which communication-overlap may move).

Exit status: 0 when every program behaved the same, 1 otherwise.
"""
import argparse
import atexit
import json
import os
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

MPI = {
    "mpich": {"cc": "mpicc.mpich", "run": ["mpiexec.mpich", "-n"]},
    "openmpi": {"cc": "mpicc.openmpi", "run": ["mpirun.openmpi", "--oversubscribe", "-n"]},
}
# MPIOPT_PLAN_AFTER=2: the scalar-keyed plan cache plans a key at its second
# call (16 by default), so the generated programs' short loops plan too.
RUN_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none", OMPI_MCA_rmaps_base_oversubscribe="1",
               MPIOPT_PLAN_AFTER="2")
CFLAGS = ["-O1", "-w"]


PERSISTENT_WINS = [{"bytes": 0, "generic_us": 2.0, "template_us": 1.0},
                   {"bytes": 1 << 24, "generic_us": 2.0, "template_us": 1.0}]
_profiles = {}


def profile_for(impl, nonblocking=True):
    """The machine profile ompi-cc builds with for impl: the shipped one,
    with persistent requests and the self and null peers' templates winning
    at every size (written once per run). Without nonblocking, nonblocking
    starts keep the shipped profile's choice (no cache on this machine), so
    that their waits stay MPI calls that communication-overlap may move."""
    key = impl if nonblocking else impl + "-nb"
    if key not in _profiles:
        with open(os.path.join(ROOT, "profiles", impl + ".json")) as f:
            profile = json.load(f)
        for family in ("persistent", "persistent_ssend", "persistent_sendrecv", "persistent_nonblocking",
                       "persistent_allreduce",
                       "persistent_reduce", "persistent_bcast", "persistent_allgather", "persistent_alltoall",
                       "persistent_barrier"):
            if nonblocking or family != "persistent_nonblocking":
                profile.setdefault("templates", {})[family] = PERSISTENT_WINS
        for family in ("null", "null_sendrecv", "self_sendrecv", "self_replace", "sendrecv_pair",
                       "self_sendrecv_miss", "aggregate", "aggregate3", "aggregate4", "aggregate_bcast",
                       "aggregate_bcast3", "aggregate_bcast4"):
            profile["templates"][family] = PERSISTENT_WINS
        # The self template's check where peers are known only at run time: free.
        profile["templates"]["self_sendrecv_check"] = [{"bytes": 0, "generic_us": 0.001, "template_us": 0.001}]
        d = tempfile.mkdtemp(prefix="difftest-profile.")
        atexit.register(shutil.rmtree, d, True)
        _profiles[key] = os.path.join(d, impl + ".json")
        with open(_profiles[key], "w") as f:
            json.dump(profile, f)
    return _profiles[key]


def sh(cmd, timeout, env=None, cwd=None):
    """(returncode, stdout, stderr); returncode None on a timeout."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env or RUN_ENV, cwd=cwd)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out, "timed out after %ss" % timeout


FUNC_DEF = re.compile(r"^(?:static\s+)?[A-Za-z_][\w\s*]*?\b(\w+)\((.*)\)\s*\{\s*$")


def split_program(text):
    """The program as two files of one program: b.c holds every function
    main's file defines in several lines (the generated helpers, with
    external linkage now), a.c main and the rest; every global has external
    linkage, defined in a.c and declared in b.c. None when nothing moves."""
    pre, a, b_decls, b_defs = [], [], [], []
    lines = text.split("\n")
    i, started = 0, False
    while i < len(lines):
        line = lines[i]
        if not started and (not line or line.startswith(("#", "/*"))):
            pre.append(line)
            i += 1
            continue
        started = True
        if not line or line[0] in " }\t":
            a.append(line)
            i += 1
            continue
        top = line[len("static "):] if line.startswith("static ") else line
        m = FUNC_DEF.match(top)
        if m and m.group(1) != "main":
            j = i
            while j < len(lines) and lines[j] != "}":
                j += 1
            b_decls.append(top[:top.rindex(")") + 1] + ";")
            b_defs += [top] + lines[i + 1:j + 1]
            i = j + 1
            continue
        if top.startswith("typedef "):  # a type both files need
            b_decls.append(top)
        elif "(" in top and "{" in top and top.rstrip().endswith("}"):  # a one-line function
            b_decls.append(top[:top.index("{")].rstrip() + ";")
        elif top.rstrip().endswith(");"):
            b_decls.append(top)
        elif top.rstrip().endswith(";") and "(" not in top:
            if "=" in top:
                return None
            b_decls.append("extern " + top)
        a.append(top)
        i += 1
    if not b_defs:
        return None
    return "\n".join(pre + a) + "\n", "\n".join(pre + b_decls + b_defs) + "\n"


class Tester:
    def __init__(self, args):
        self.a = args
        self.ompi_cc = args.ompi_cc
        self.counts = {"programs": 0, "transformed": 0, "fused": 0, "deferred": 0, "planned": 0, "templates": 0,
                       "persistent": 0, "nonblocking": 0, "peers": 0, "moved": 0, "aggregated": 0, "broadcasts": 0, "wrapped": 0, "runs": 0, "invalid": 0, "split": 0}
        self.failures = []
        self.split = False  # build the program as two files (every --split-every-th program)
        self.nonblocking = True  # nonblocking starts through caches (every other program)

    def build(self, src, impl, exe, optimised, extra=()):
        if self.split:
            return self.build_split(src, impl, exe, optimised, extra)
        cc = MPI[impl]["cc"]
        if not optimised:
            rc, out, err = sh([cc] + CFLAGS + list(extra) + ["-o", exe, src], self.a.timeout)
            return rc == 0, err
        env = dict(RUN_ENV, OMPI_CC_MPICC=cc, MPIOPT_PROFILE=profile_for(impl, self.nonblocking))
        rc, out, err = sh([self.ompi_cc, "--ompi-report"] + CFLAGS + ["-o", exe, src], self.a.timeout * 6, env=env)
        return rc == 0, err

    def build_split(self, src, impl, exe, optimised, extra=()):
        """Build the program as two files (split_program): each compiled with
        -c, then linked (ompi-cc decides the two together at the link)."""
        with open(src) as f:
            parts = split_program(f.read())
        if parts is None:
            return False, "the program cannot be split into two files"
        d = exe + ".split"
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for name, text in zip(("a.c", "b.c"), parts):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        if optimised:
            env = dict(RUN_ENV, OMPI_CC_MPICC=MPI[impl]["cc"], MPIOPT_PROFILE=profile_for(impl, self.nonblocking))
            cc, limit = [self.ompi_cc, "--ompi-report"], self.a.timeout * 6
        else:
            env, cc, limit = RUN_ENV, [MPI[impl]["cc"]], self.a.timeout
        errs = []
        for cmd in (["-c", "a.c", "-o", "a.o"], ["-c", "b.c", "-o", "b.o"], ["-o", os.path.abspath(exe), "a.o", "b.o"]):
            rc, out, err = sh(cc + CFLAGS + list(extra) + cmd, limit * 2, env=env, cwd=d)
            errs.append(err)
            if rc != 0:
                return False, "".join(errs)
        return True, "".join(errs)

    def run(self, impl, n, exe):
        rc, out, err = sh(MPI[impl]["run"] + [str(n), exe], self.a.timeout)
        return rc, out, err

    def configs(self, index):
        cfg = [("mpich", 1), ("mpich", 2)]
        if self.a.openmpi_every and index % self.a.openmpi_every == 0:
            cfg += [("openmpi", 3), ("openmpi", 4)]
        return cfg

    def check(self, src, work, configs, count=False, strict=False):
        """The first difference between the builds of src, or None. A program
        whose plain build fails is 'invalid' (the generator's fault). With
        strict (while reducing), a program whose plain output depends on
        what uninitialized locals hold is invalid too: a deleted line can
        leave a read of one, which differs between any two builds."""
        built = {}
        for impl in sorted({c[0] for c in configs}):
            plain, opt = os.path.join(work, "plain." + impl), os.path.join(work, "ompi." + impl)
            ok, err = self.build(src, impl, plain, False)
            if not ok:
                return ("invalid", "plain %s build failed: %s" % (impl, err.strip()[:400]))
            ok, err = self.build(src, impl, opt, True)
            if not ok:
                return ("compile", "ompi-cc (%s) failed: %s" % (impl, err.strip()[-800:]))
            if "ompi-cc: warning" in err or "ompi-cc: error" in err:
                return ("fallback", "ompi-cc (%s) fell back: %s" % (impl, err.strip()[-800:]))
            if count and impl == "mpich":
                fused = len(re.findall(r"reduction-fusion: fused", err))
                deferred = len(re.findall(r"lazy-deferral: deferred", err))
                planned = len(re.findall(r"planned-collectives: MPI_\w+ (?:planned once|handed to)", err))
                self.counts["fused"] += fused
                self.counts["deferred"] += deferred
                templates = len(re.findall(r"datatype-templates: MPI_\w+ with", err))
                persistent = len(re.findall(r"persistent-requests: MPI_\w+ through", err))
                nonblocking = len(re.findall(r"nonblocking-persistent: MPI_\w+ through", err))
                peers = len(re.findall(r"peer-templates: MPI_\w+ (?:to|from|with) ", err))
                peers += len(re.findall(r"sendrecv-pairing: MPI_\w+ at line \d+ and MPI_\w+ at line \d+ as one", err))
                moved = len(re.findall(r"communication-overlap: MPI_\w+ (?:moved down|posted earlier)", err))
                aggregated = len(re.findall(r"message-aggregation: \d+ MPI_\w+ at lines \d+-\d+ \([^)]*\) as one", err))
                self.counts["aggregated"] += aggregated
                broadcasts = len(re.findall(r"broadcast-fusion: \d+ MPI_Bcast at lines \d+-\d+ \([^)]*\) as one", err))
                self.counts["broadcasts"] += broadcasts
                self.counts["wrapped"] += len(re.findall(r"a (?:call of the wrapper|use of the macro) \w+ \([^)]*\), written here", err))
                self.counts["peers"] += peers
                self.counts["moved"] += moved
                self.counts["planned"] += planned
                self.counts["templates"] += templates
                self.counts["persistent"] += persistent
                self.counts["nonblocking"] += nonblocking
                self.counts["transformed"] += (1 if fused + deferred + planned + templates + persistent + peers +
                                               nonblocking + moved + aggregated + broadcasts else 0)
            built[impl] = (plain, opt)
        for impl, n in configs:
            plain, opt = built[impl]
            prc, pout, perr = self.run(impl, n, plain)
            if prc != 0 or not pout:
                return ("invalid", "plain build fails at %s/%d: %s" % (impl, n, (perr or "")[-400:]))
            if strict:
                other = plain + ".pattern"
                ok, _ = self.build(src, impl, other, False, ["-ftrivial-auto-var-init=pattern"])
                if not ok or self.run(impl, n, other)[1] != pout:
                    return ("invalid", "the plain output depends on uninitialized memory")
            orc, oout, oerr = self.run(impl, n, opt)
            if count:
                self.counts["runs"] += 2
            if orc is None:
                return ("hang", "%s/%d: the ompi-cc build hangs (%s)" % (impl, n, oerr))
            if orc != 0:
                return ("crash", "%s/%d: the ompi-cc build exits %d: %s" % (impl, n, orc, oerr[-600:]))
            if oout != pout:
                return ("divergence", "%s/%d: output differs:\n--- plain\n%s--- ompi-cc\n%s" % (impl, n, pout, oout))
        return None

    def reduce(self, text, kind, work, configs):
        """Delete lines (and braced blocks) while the same kind of difference
        persists and the plain build stays valid."""
        deadline = time.time() + self.a.reduce_seconds
        lines = text.split("\n")
        path = os.path.join(work, "reduce.c")

        def interesting(ls):
            with open(path, "w") as f:
                f.write("\n".join(ls))
            r = self.check(path, work, configs, strict=True)
            return r is not None and r[0] == kind

        def blocks(ls):
            """Ranges [i, j] of a line opening a brace and the line closing it."""
            out, stack = [], []
            for i, l in enumerate(ls):
                s = l.strip()
                if s.startswith("}") and stack:
                    b = stack.pop()
                    if not s.endswith("{"):
                        out.append((b, i))
                    else:
                        stack.append(b)  # "} else {": one unit with its if
                elif s.endswith("{"):
                    stack.append(i)
            return out

        def unused_declarations(ls):
            """Drop declarations of locals and globals that nothing names
            (no run needed: they change nothing)."""
            # (every word of a type like "unsigned long" before the name)
            decl = re.compile(r"^\s*(?:static\s+)?(?:(?:unsigned|signed|long|short)\s+)*"
                              r"(?:unsigned|int|long|double|MPI_Comm|MPI_Request|struct \{[^}]*\})"
                              r"\s*\**\s*([A-Za-z_]\w*)\b[^(]*;\s*$")
            text = "\n".join(ls)
            keep = []
            for l in ls:
                m = decl.match(l)
                if m and "," not in l and len(re.findall(r"\b%s\b" % m.group(1), text)) == 1:
                    continue
                keep.append(l)
            return keep

        changed = True
        while changed and time.time() < deadline:
            lines = unused_declarations(lines)
            changed = False
            for b, e in sorted(blocks(lines), key=lambda r: r[0] - r[1]):
                if time.time() > deadline:
                    break
                if b == 0 or lines[b].startswith("int main"):
                    continue
                cand = lines[:b] + lines[e + 1:]
                if interesting(cand):
                    lines, changed = cand, True
                    break
            if changed:
                continue
            chunk = max(1, len(lines) // 8)
            while chunk >= 1 and time.time() < deadline:
                i = 0
                while i < len(lines) and time.time() < deadline:
                    seg = lines[i:i + chunk]
                    # (a deleted return would read an undefined value: never)
                    if any(s.strip().endswith("{") or s.strip().startswith("}") or s.startswith("#") or
                           s.strip().startswith("return") for s in seg):
                        i += chunk
                        continue
                    cand = lines[:i] + lines[i + chunk:]
                    if interesting(cand):
                        lines, changed = cand, True
                    else:
                        i += chunk
                chunk //= 2
        small = "\n".join(unused_declarations(lines))
        if not self.interesting_text(small, kind, work, configs):
            small = "\n".join(lines)
        return self.cvise(small, kind, work, configs, deadline)

    def cvise(self, text, kind, work, configs, deadline):
        """Shrink further with C-Vise (Debian's cvise) when it is installed and
        time is left: its passes remove what line deletion cannot (arguments,
        parts of expressions, unused parameters). The interestingness test is
        this script's own check, run on each candidate."""
        left = deadline - time.time()
        if left < 30 or not shutil.which("cvise"):
            return text
        d = tempfile.mkdtemp(prefix="cvise-", dir=work)
        path = os.path.join(d, "small.c")
        with open(path, "w") as f:
            f.write(text)
        names = ",".join("%s:%d" % c for c in configs)
        test = os.path.join(d, "interesting.sh")
        with open(test, "w") as f:
            f.write("#!/bin/sh\nexec %s %s --interesting %s --configs %s --ompi-cc %s --timeout %s small.c\n" %
                    (sys.executable, os.path.abspath(__file__), kind, names, self.a.ompi_cc, self.a.timeout))
        os.chmod(test, 0o755)
        try:
            subprocess.run(["cvise", "--n", "1", "--timeout", str(int(self.a.timeout * 8)), "--tidy", test, path],
                           cwd=d, capture_output=True, timeout=left)
        except subprocess.TimeoutExpired:
            pass  # cvise keeps its best result in the file as it goes
        with open(path) as f:
            small = f.read()
        return small if self.interesting_text(small, kind, work, configs) else text

    def interesting_text(self, text, kind, work, configs):
        path = os.path.join(work, "final.c")
        with open(path, "w") as f:
            f.write(text)
        r = self.check(path, work, configs, strict=True)
        return r is not None and r[0] == kind

    def one(self, index, seed):
        work = tempfile.mkdtemp(prefix="difftest-", dir=self.a.work)
        try:
            text = gen.Gen(seed).program()
            src = os.path.join(work, "p%d.c" % seed)
            with open(src, "w") as f:
                f.write(text)
            configs = self.configs(index)
            self.nonblocking = seed % 2 == 0
            self.split = bool(self.a.split_every) and index % self.a.split_every == 1 and \
                split_program(text) is not None
            if self.split:
                self.counts["split"] += 1
            r = self.check(src, work, configs, count=True)
            self.counts["programs"] += 1
            if r is None:
                return
            kind, what = r
            if kind == "invalid":
                self.counts["invalid"] += 1
                print("difftest: seed %d: generator produced an invalid program: %s" % (seed, what), file=sys.stderr)
                return
            small = text
            if self.a.reduce_seconds > 0:
                small = self.reduce(text, kind, work, configs)
            os.makedirs(self.a.out, exist_ok=True)
            keep = os.path.join(self.a.out, "seed%d-%s%s.c" % (seed, kind, "-split" if self.split else ""))
            with open(keep, "w") as f:
                f.write(small)
            self.failures.append((seed, kind, what, keep))
            print("difftest: seed %d: %s: %s\n  smallest program (%d lines): %s" %
                  (seed, kind, what, small.count("\n") + 1, keep), file=sys.stderr)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def main(self):
        t0 = time.time()
        for i in range(self.a.count):
            self.one(i, self.a.seed + i)
            if self.a.progress and (i + 1) % self.a.progress == 0:
                c = self.counts
                print("difftest: %d programs, %d transformed, %d failures, %.0f s" %
                      (c["programs"], c["transformed"], len(self.failures), time.time() - t0), file=sys.stderr)
        c = self.counts
        kinds = {}
        for _, k, _, _ in self.failures:
            kinds[k] = kinds.get(k, 0) + 1
        print("difftest: %d programs (seeds %d..%d), %d transformed (%d fusions, %d deferrals, %d planned "
              "collectives, %d datatype templates, %d persistent requests, %d nonblocking starts through caches, "
              "%d peer templates and pairs, %d calls moved for overlap, %d groups of messages as one, %d groups of broadcasts as one, %d wrapper calls "
              "changed as MPI calls), %d built as two files, %d runs, %.0f s" %
              (c["programs"], self.a.seed, self.a.seed + self.a.count - 1, c["transformed"], c["fused"],
               c["deferred"], c["planned"], c["templates"], c["persistent"], c["nonblocking"], c["peers"],
               c["moved"], c["aggregated"], c["broadcasts"], c["wrapped"], c["split"], c["runs"], time.time() - t0))
        print("difftest: %d divergences, %d crashes, %d hangs, %d compile failures, %d fallbacks; "
              "%d invalid programs" % (kinds.get("divergence", 0), kinds.get("crash", 0), kinds.get("hang", 0),
                                       kinds.get("compile", 0), kinds.get("fallback", 0), c["invalid"]))
        if c["programs"] and not c["transformed"]:
            print("difftest: error: no program was transformed: the generator does not reach the optimiser")
            return 1
        return 1 if self.failures or c["invalid"] else 0


def interesting():
    """The interestingness test of the C-Vise stage: exit 0 when FILE still
    shows a difference of KIND under CONFIGS ("mpich:1,mpich:2")."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--interesting", required=True, metavar="KIND")
    ap.add_argument("--configs", default="mpich:1,mpich:2")
    ap.add_argument("--ompi-cc", required=True)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("file")
    a = ap.parse_args()
    a.work, a.out, a.reduce_seconds, a.openmpi_every, a.progress, a.count, a.seed = None, "", 0, 0, 0, 0, 0
    a.split_every = 0
    configs = [(c.split(":")[0], int(c.split(":")[1])) for c in a.configs.split(",")]
    work = tempfile.mkdtemp(prefix="interesting-")
    try:
        r = Tester(a).check(os.path.abspath(a.file), work, configs)
        return 0 if r is not None and r[0] == a.interesting else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    if "--interesting" in sys.argv:
        return interesting()
    ap = argparse.ArgumentParser(description="differential testing of ompi-cc against plain mpicc")
    ap.add_argument("count", type=int, help="how many programs")
    ap.add_argument("seed", type=int, nargs="?", default=1, help="the first seed (default 1)")
    ap.add_argument("--openmpi-every", type=int, default=4, metavar="K",
                    help="also run every K-th program at 3 and 4 ranks under Open MPI (0: never; default 4)")
    ap.add_argument("--timeout", type=float, default=20, help="seconds for one run (default 20)")
    ap.add_argument("--split-every", type=int, default=3, metavar="K",
                    help="build every K-th program as two files (its helpers in the second; ompi-cc decides them "
                         "together at the link); 0: never (default 3)")
    ap.add_argument("--reduce-seconds", type=float, default=600,
                    help="time to spend shrinking each failing program (default 600; 0: keep it whole)")
    ap.add_argument("--out", default=os.path.join(os.getcwd(), "difftest-failures"),
                    help="where failing programs are kept (default ./difftest-failures)")
    ap.add_argument("--work", default=None, help="scratch directory (default: the system's)")
    ap.add_argument("--ompi-cc", default=os.path.join(ROOT, "scripts", "ompi-cc"),
                    help="the ompi-cc to test (default: this checkout's)")
    ap.add_argument("--progress", type=int, default=0, metavar="K", help="print a progress line every K programs")
    a = ap.parse_args()
    if a.count < 0:
        ap.error("N must be at least 0")
    return Tester(a).main()


if __name__ == "__main__":
    sys.exit(main())
