# The ompi-cc driver (scripts/ompi-cc starts it): a module, so that Python
# compiles it to bytecode once (__pycache__ beside it), not at every compile.
HELP = """ompi-cc: a drop-in replacement for mpicc that optimises MPI C sources.

Usage: ompi-cc [OMPI-CC OPTIONS] [MPICC ARGUMENTS]

For every C source on the command line it runs ompi-opt, compiles the result
with the real MPI compiler wrapper and links libompi-rt. It never breaks a
build: if ompi-opt fails on a file, or the transformed file does not compile,
it prints a warning and compiles the original.

Options of its own (removed before the real compiler sees the command):
  --ompi-report[=text|long|json]  print ompi-opt's per-call report to stderr
                             (text: a line per call; long: every argument)
  --ompi-report-file=PATTERN write the report to files, not stderr (JSON unless
                             --ompi-report names a format): PATTERN with %s
                             (the source's stem) gives one file per source
                             (--ompi-report-file=%s.ompi.json); a plain name
                             gives one file, a JSON array of the sources' reports
  --ompi-diff=DIR            write a side-by-side HTML page of every change (with
                             its reason) per source to DIR, and DIR/index.html
                             listing every page written there so far
  --ompi-profile=FILE        the machine profile that decides choices made on
                             performance grounds ('none': no profile; default:
                             $MPIOPT_PROFILE, else the shipped profile of the MPI)
  --ompi-reassociate         let ompi-opt reorder floating-point sums and products
                             (large MPI_Allreduce / MPI_Reduce of floating-point
                             data through the runtime's algorithms: the last bits
                             of a result may change)
  --ompi-summary             keep ompi-opt's JSON report beside each object
                             (OBJECT.ompi.json) and, when linking, print the
                             program's summary (ompi-opt --summary) of every
                             object that has one to standard error
  --ompi-no-whole-program    decide each file alone (by default, linking objects
                             compiled by ompi-cc decides their files together:
                             each object keeps OBJECT.ompi-facts, the link
                             solves the program's facts into
                             OUTPUT.ompi-program.json and compiles the files
                             whose code they change again, into
                             OBJECT.KEY.ompi-whole, linked in their place)
  --ompi-uniform-env         let ompi-opt take getenv's result as the same on every
                             rank (MPI does not promise one environment for all)
  --ompi-mpicc=MPICC         the real MPI compiler wrapper (as OMPI_CC_MPICC; an
                             option, so CMake keeps it with the compiler)
  --ompi-launcher            launcher mode: the first argument after ompi-cc's own
                             options is the compiler to run (CMake's
                             C_COMPILER_LAUNCHER; see ompi_target_sources_through_ompi_cc)
  --ompi-keep                keep each transformed source beside its object as
                             OBJECT-STEM.c.ompi (linking: beside the executable
                             as SOURCE-STEM.c.ompi, SOURCE-STEM.2.c.ompi, ...);
                             the name does not end in .c, so no build picks it up
  --ompi-off                 do not optimise: behave exactly as the real mpicc
  --ompi-verbose             print the commands that are run
  --ompi-help, --help        print this help
  --version                  print OMPI's version, ompi-opt's and the real compiler's

Environment:
  OMPI_CC_MPICC      the real MPI compiler wrapper (default: mpicc.mpich;
                     smpicc builds for SimGrid's simulator, scripts/simrun). A
                     build directory where it (or --ompi-mpicc) named another
                     MPI keeps that choice in .ompi-cc-mpi: a later run there
                     that names no MPI stops with an error instead of switching
                     MPI; a run that names one uses it (with a note).
  MPIOPT_OPT         the ompi-opt binary (default: found beside this script)
  MPIOPT_BUILD_DIR   build directory of a source checkout (default: build/)
  MPIOPT_OPT_FLAGS   extra ompi-opt options (for example --closed-world)
  MPIOPT_PROFILE     the machine profile (as --ompi-profile; a missing file is
                     an error)
  MPIOPT_CC_WHOLE_PROGRAM  0: as --ompi-no-whole-program
  MPIOPT_CC_TIMEOUT  seconds ompi-opt may take on one file (default: 300)
  MPIOPT_CC_FORCE_COPY  compile through the transformed copy even when it is
                     unchanged (tests the path every transformed file takes)
  MPIOPT_CC_VIA_WRAPPER  1: compile-only runs go through MPICH's wrapper script
                     too (by default they run the compiler it names directly)
  TMPDIR             where the transformed copies are written (/tmp, /var/tmp
                     or the current directory where it cannot be used)
(Open MPI's own OMPI_CC and MPICH's MPICH_CC choose the compiler behind the
real mpicc; they must not name ompi-cc.)

Queries: -show, -showme, --showme[:compile|:link], -compile_info and
-link_info print the real commands with what ompi-cc adds (the runtime's
headers and library); each is translated to the form the real wrapper knows
(MPICH: -show, -compile_info, -link_info; Open MPI: --showme...).

The real compiler's own help: ompi-cc --ompi-off --help (runs MPICC --help).
"""
# Only what every compile needs is imported here (subprocess, json,
# tempfile, hashlib and re cost about 25 ms a compile together); the rest
# where it is used.
import os
import select
import sys
import time
import zlib

PROG = "ompi-cc"

# Options whose value is the next argument.
TAKES_VALUE = {
    "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote", "-iprefix",
    "-iwithprefix", "-iwithprefixbefore", "-isysroot", "--sysroot", "-MF", "-MT", "-MQ", "-x", "-L", "-l",
    "-Xlinker", "-Xpreprocessor", "-Xassembler", "-T", "-e", "-u", "-z", "-aux-info", "--param",
    "-wrapper", "-specs", "-arch", "-target", "-B",
}
# Options with a separate value that matter to parsing (passed to ompi-opt).
PARSE_WITH_VALUE = {"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote",
                    "-isysroot", "--sysroot", "-target"}
# Single-word options that matter to parsing.
PARSE_EXACT = {"-ansi", "-pthread", "-fopenmp", "-m32", "-m64", "-funsigned-char", "-fsigned-char",
               "-fno-builtin", "-ffreestanding", "-fgnu89-inline", "-fcommon", "-fno-common", "-traditional"}
PARSE_PREFIX = ("-I", "-D", "-U", "-std=", "-O", "-isystem", "-idirafter", "-iquote", "--sysroot=",
                "-isysroot", "--target=",
                # warnings that decide the form of the code ompi-opt writes
                "-Wdeclaration-after-statement", "-Wno-declaration-after-statement",
                "-Werror=declaration-after-statement")
# Invocations that only ask the compiler something: hand them over untouched.
QUERY = {"-show", "-showme", "-compile_info", "-link_info", "--version", "-v", "-dumpversion",
         "-dumpmachine", "--help"}


# Code written by ompi-opt has weak fallback definitions of the runtime's
# entry points (mpiopt/lazy_optional.h, mpiopt/coll_optional.h): a symbol
# only the runtime defines pulls its strong ones out of the static library.
# The large-vector reductions' threads are OpenMP's (-fopenmp at the link).
FORCE_LINK = ["-Wl,--undefined=mpiopt_runtime_linked"]
DEFAULT_MPICC = "mpicc.mpich"
STAMP = ".ompi-cc-mpi"


class Failure(Exception):
    """A problem to report in one line; the build then goes on without it."""


def warn(msg):
    sys.stderr.write("%s: warning: %s\n" % (PROG, msg))


def note(msg):
    sys.stderr.write("%s: note: %s\n" % (PROG, msg))


def error(msg):
    sys.stderr.write("%s: error: %s\n" % (PROG, msg))


def die(msg, code=1):
    error(msg)
    sys.exit(code)


class Timeout(Exception):
    """A command ran past its time limit (and was killed)."""


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def spawn(argv, out=False, err=False, merge=False, timeout=None, cwd=None, env=None):
    """Run argv (found on PATH) with this process's stdin; capture its
    standard output (out), standard error (err) or both into stdout (merge)
    as text, else they are this process's. Past `timeout` seconds it is
    killed and Timeout raised; a missing program raises OSError. cwd: the
    directory it runs in; env: its environment (default: this one's)."""
    if cwd is not None:
        argv = ["sh", "-c", 'cd "$0" && exec "$@"', cwd] + list(argv)
    actions, readers, closers = [], {}, []
    for fd, want in ((1, out or merge), (2, err and not merge)):
        if want:
            r, w = os.pipe()
            actions += [(os.POSIX_SPAWN_DUP2, w, fd), (os.POSIX_SPAWN_CLOSE, r)]
            readers[r] = fd
            closers.append(w)
    if merge:
        actions.append((os.POSIX_SPAWN_DUP2, 1, 2))
    try:
        pid = os.posix_spawnp(argv[0], argv, os.environ if env is None else env, file_actions=actions)
    finally:
        for w in closers:
            os.close(w)
    data = {1: [], 2: []}
    deadline = time.monotonic() + timeout if timeout else None

    def expired():
        if deadline is None or time.monotonic() < deadline:
            return False
        os.kill(pid, 9)  # SIGKILL (the signal module costs 7 ms to import)
        os.waitpid(pid, 0)
        raise Timeout()

    try:
        while readers and not expired():
            left = deadline - time.monotonic() if deadline else None
            ready, _, _ = select.select(list(readers), [], [], left)
            for r in ready:
                chunk = os.read(r, 65536)
                if chunk:
                    data[readers[r]].append(chunk)
                else:
                    os.close(r)
                    del readers[r]
    finally:
        for r in readers:
            os.close(r)
    # A program that closed its output may still run: the limit holds there too.
    done, status = os.waitpid(pid, os.WNOHANG if deadline else 0)
    while not done and not expired():
        time.sleep(0.001)
        done, status = os.waitpid(pid, os.WNOHANG)
    status = os.waitstatus_to_exitcode(status)
    text = {fd: b"".join(chunks).decode(errors="replace") for fd, chunks in data.items()}
    return Result(status, text[1] if out or merge else None, text[2] if err and not merge else None)


def which(prog):
    """The path of prog as the shell would find it, or None."""
    if os.sep in prog:
        return prog if os.access(prog, os.X_OK) and not os.path.isdir(prog) else None
    for d in os.get_exec_path():
        path = os.path.join(d or ".", prog)
        if os.access(path, os.X_OK) and not os.path.isdir(path):
            return path
    return None


def remove_tree(path):
    """rm -rf path (ompi-cc's own temporary directory), errors ignored."""
    try:
        for entry in os.scandir(path):
            if entry.is_dir(follow_symlinks=False):
                remove_tree(entry.path)
            else:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass
        os.rmdir(path)
    except OSError:
        pass


def make_tmpdir():
    """A new private directory under $TMPDIR, else /tmp, /var/tmp or the
    current directory (one warning where $TMPDIR cannot be used); None where
    none can be written (the caller compiles the original)."""
    wanted = os.environ.get("TMPDIR")
    bases = ([wanted] if wanted else []) + [b for b in ("/tmp", "/var/tmp", ".") if b != wanted]
    for base in bases:
        for n in range(100):
            path = os.path.join(base, "ompi-cc-%d-%x-%d" % (os.getpid(), time.monotonic_ns() & 0xffffffff, n))
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                continue
            except OSError:
                break
            if wanted and base != wanted:
                warn("TMPDIR=%s cannot be used (not a writable directory); using %s" % (wanted, base))
            return path
    return None


def layout():
    """Where ompi-opt, libompi-rt and the headers are."""
    here = os.path.dirname(os.path.realpath(__file__))
    if os.path.basename(here) == "ompi" and os.path.basename(os.path.dirname(here)) == "lib":
        here = os.path.join(os.path.dirname(os.path.dirname(here)), "bin")  # installed: PREFIX/lib/ompi
    if os.path.exists(os.path.join(here, "ompi-opt")):  # installed, or build/bin
        prefix = os.path.dirname(here)
        opt = os.path.join(here, "ompi-opt")
        libdir = os.path.join(prefix, "lib")
        incdirs = [os.path.join(prefix, "include")]
    else:  # scripts/ of a source checkout
        repo = os.path.dirname(here)
        build = os.environ.get("MPIOPT_BUILD_DIR") or os.path.join(repo, "build")
        opt = os.path.join(build, "bin", "ompi-opt")
        libdir = os.path.join(build, "lib")
        incdirs = [os.path.join(repo, "templates"), os.path.join(repo, "runtime", "include")]
    return os.environ.get("MPIOPT_OPT") or opt, libdir, incdirs


FACTS_VERSION = "facts-4"  # what the cache holds and how it was learnt; a new value drops old entries


def project_version(incdirs):
    """OMPI's version, from the runtime's header (mpiopt/mpiopt.h: the
    project's version, as CMakeLists.txt's project() names it)."""
    for d in incdirs:
        try:
            with open(os.path.join(d, "mpiopt", "mpiopt.h")) as f:
                text = f.read()
        except OSError:
            continue
        parts = {}
        for line in text.splitlines():
            w = line.split()
            if len(w) == 3 and w[0] == "#define" and w[1].startswith("MPIOPT_VERSION_"):
                parts[w[1][len("MPIOPT_VERSION_"):]] = w[2]
        if all(k in parts for k in ("MAJOR", "MINOR", "PATCH")):
            return "%s.%s.%s" % (parts["MAJOR"], parts["MINOR"], parts["PATCH"])
    return "unknown"


def query_mpicc(mpicc):
    """What ompi-cc needs to know of the real wrapper (facts(): its include
    and define flags, whether it is Open MPI, and the compiler command a
    compile-only run is). Cached per wrapper (by path, time stamp and the
    variables that steer it) in ~/.cache/ompi-cc: asking costs processes."""
    path = which(mpicc) or mpicc
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
        steer = sorted("%s=%s" % kv for kv in os.environ.items()
                       if kv[0].startswith(("OMPI_", "MPICH_", "MPICC_", "OPAL_")) and kv[0] != "OMPI_CC_MPICC")
        key = "|".join([FACTS_VERSION, real, str(st.st_mtime_ns), str(st.st_size)] + steer)
    except OSError:
        key = None
    cache_dir = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ompi-cc")
    cache = os.path.join(cache_dir, "%08x.facts" % zlib.crc32((key or path).encode()))
    if key:
        facts = read_facts(cache, key)
        if facts:
            return facts
    facts = ask_mpicc(mpicc)
    if key:
        write_facts(cache, key, facts)
    return facts


class Facts:
    """flags: -I/-D/-pthread the wrapper adds; openmpi; smpi (SimGrid's
    smpicc: programs for its simulator); compile: None, or the
    words before and after the arguments of a compile-only run
    (MPICH's script: ["gcc"], ["-I..."]), to run the compiler without the
    script (which forks a process per argument: about 40 ms a compile)."""

    def __init__(self, flags, openmpi, compile=None, smpi=False):
        self.flags, self.openmpi, self.compile, self.smpi = flags, openmpi, compile, smpi


# The cache file: "key", then one line per word, tab-separated from its field.
def read_facts(cache, key):
    try:
        with open(cache) as f:
            lines = f.read().split("\n")
    except OSError:
        return None
    if not lines or lines[0] != "key\t" + key or "end" not in lines:
        return None
    fields = {"flag": [], "before": [], "after": []}
    openmpi = direct = smpi = False
    for line in lines[1:lines.index("end")]:
        name, _, word = line.partition("\t")
        if name == "openmpi":
            openmpi = word == "1"
        elif name == "smpi":
            smpi = word == "1"
        elif name == "direct":
            direct = word == "1"
        elif name in fields:
            fields[name].append(word)
        else:
            return None
    return Facts(fields["flag"], openmpi, (fields["before"], fields["after"]) if direct else None, smpi)


def write_facts(cache, key, facts):
    lines = ["key\t" + key, "openmpi\t%d" % facts.openmpi, "smpi\t%d" % facts.smpi,
             "direct\t%d" % (facts.compile is not None)]
    lines += ["flag\t" + w for w in facts.flags]
    if facts.compile:
        lines += ["before\t" + w for w in facts.compile[0]] + ["after\t" + w for w in facts.compile[1]]
    if any("\n" in l for l in lines):
        return
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        tmp = "%s.%d" % (cache, os.getpid())
        with open(tmp, "w") as f:
            f.write("\n".join(lines + ["end", ""]))
        os.replace(tmp, cache)
    except OSError:
        pass  # no cache: ask again next time


PROBE = ["-c", "ompi_cc_probe_in.c", "-o", "ompi_cc_probe_out.o"]


def ask_mpicc(mpicc):
    import shlex

    def ask(query):
        try:
            r = spawn([mpicc] + query, merge=True, timeout=60)
        except (OSError, Timeout):
            return None
        return r.stdout if r.returncode == 0 else None

    version = ask(["--showme:version"])
    openmpi = bool(version and "Open MPI" in version)
    out = ask(["--showme:compile"] if openmpi else ["-show"]) or ""
    words = shlex.split(out)
    # SimGrid's smpicc: its -show names libsimgrid and SMPI's headers. Its
    # -I/usr/include would put the system's headers before the compiler's
    # own in ompi-opt's parse: only SMPI's directory is kept.
    smpi = not openmpi and "-lsimgrid" in words
    flags = [w for w in words if (w.startswith(("-I", "-D")) or w == "-pthread") and
             not (smpi and w == "-I/usr/include")]
    return Facts(flags, openmpi, None if openmpi else direct_compile(mpicc, ask), smpi)


def direct_compile(mpicc, ask):
    """The words around the arguments of a compile-only run of MPICH's
    script wrapper, from its -show of a probe, where the probe's arguments
    come back whole and in order and the compiler is a program on PATH."""
    import shlex
    try:
        with open(which(mpicc) or mpicc, "rb") as f:
            head = f.read(65536)
    except OSError:
        return None
    # MPICH's script (whose compile-only command depends on no argument but
    # those WRAPPER_ARGS lists); a compiled wrapper is fast already, and
    # other scripts may add flags by arguments the probe does not show.
    if not head.startswith(b"#!") or b"MPICH_VERSION" not in head or b"linking=no" not in head:
        return None
    out = ask(["-show"] + PROBE)
    words = shlex.split(out) if out and out.count("\n") <= 1 else []
    for i in range(len(words) - len(PROBE) + 1):
        if words[i:i + len(PROBE)] == PROBE:
            before, after = words[:i], words[i + len(PROBE):]
            if before and which(before[0]) and PROBE[1] not in after and PROBE[3] not in after:
                return before, after
            break
    return None


# Arguments a wrapper script acts on itself (MPICH: -cc=, -show, -profile=,
# ...): a compile with one of them goes through the wrapper.
WRAPPER_ARGS = ("-cc=", "-config=", "-profile=", "-show", "-compile", "-link", "-static-mpi", "-nativelinking",
                "-echo", "-help", "--help", "-v", "--version", "-mpe=")


def compiler(mpicc, facts, cmd, args):
    """The command that compiles args as `mpicc args` would."""
    if (facts and facts.compile and cmd.compile_only and not os.environ.get("MPIOPT_CC_VIA_WRAPPER")
            and not any(a.startswith(WRAPPER_ARGS) for a in args)):
        return facts.compile[0] + args + facts.compile[1]
    return [mpicc] + args


def header_flags(incdirs):
    """The runtime's and templates' headers as system headers: strict warning
    modes of the user's build (-pedantic-errors, -Wdeclaration-after-statement)
    apply to the user's code, not to them."""
    return [a for d in incdirs for a in ("-isystem", d)]


def link_flags(facts, libdir):
    """What links the runtime: its library, and the symbol that pulls its
    entry points out of it (FORCE_LINK). For SMPI no OpenMP, and the
    program's calls bound to the runtime's MPI_Finalize and MPI_*_free
    (-Bsymbolic-functions: smpirun loads the program after SimGrid, whose
    functions would win; docs/simulation.md)."""
    if facts.smpi:
        return ["-L" + runtime_libdir(facts, libdir)] + FORCE_LINK + ["-Wl,-Bsymbolic-functions", "-lompi-rt"]
    return ["-L" + runtime_libdir(facts, libdir)] + FORCE_LINK + ["-lompi-rt", "-fopenmp"]


def runtime_libdir(facts, libdir):
    """The libompi-rt built for the MPI behind mpicc (MPI libraries are not
    ABI compatible): lib/ for MPICH, lib/openmpi/ for Open MPI, lib/smpi/
    for SimGrid's SMPI."""
    if not facts.openmpi and not facts.smpi:
        return libdir
    name, what = ("smpi", "SimGrid's SMPI (smpicc)") if facts.smpi else ("openmpi", "Open MPI")
    sub = os.path.join(libdir, name)
    if not os.path.exists(os.path.join(sub, "libompi-rt.a")):
        raise Failure("the MPI compiler is %s, but libompi-rt was not built for it (%s)" % (what, sub))
    return sub


class Command:
    """The mpicc command line, split into what ompi-cc needs to know."""

    def __init__(self, args):
        self.args = args
        self.sources = []        # indices of C sources in args
        self.other_inputs = 0    # objects, libraries, other-language sources
        self.parse_flags = []    # flags that change how a C file parses
        self.output = None
        self.compile_only = self.assemble_only = self.preprocess_only = self.deps_only = False
        self.depfile_wanted = False
        self.depfile = None
        self.query = False
        lang = None
        i = 0
        while i < len(args):
            a = args[i]
            nxt = args[i + 1] if i + 1 < len(args) else None
            if a in QUERY or a.startswith(("-showme", "--showme", "-print-")):
                self.query = True
            if a == "-c":
                self.compile_only = True
            elif a == "-S":
                self.assemble_only = True
            elif a == "-E":
                self.preprocess_only = True
            elif a in ("-M", "-MM"):
                self.deps_only = True
            elif a in ("-MD", "-MMD"):
                self.depfile_wanted = True
            if a in TAKES_VALUE and nxt is not None:
                if a == "-o":
                    self.output = nxt
                elif a == "-MF":
                    self.depfile = nxt
                elif a == "-x":
                    lang = nxt
                if a in PARSE_WITH_VALUE:
                    self.parse_flags += [a, nxt]
                i += 2
                continue
            if a.startswith("-x") and len(a) > 2:
                lang = a[2:]
            elif a.startswith("-o") and len(a) > 2:
                self.output = a[2:]
            elif a.startswith("-"):
                if a in PARSE_EXACT or a.startswith(PARSE_PREFIX):
                    self.parse_flags.append(a)
            elif a.endswith(".c") and lang in (None, "c", "none"):
                self.sources.append(i)
            else:
                self.other_inputs += 1
            i += 1

    @property
    def links(self):
        return not (self.compile_only or self.assemble_only or self.preprocess_only or self.deps_only)


def keep_path(cmd, src, taken):
    """Where --ompi-keep puts the transformed copy of src: beside its object
    (named after the object, so same-named sources in different directories
    never share a copy) or, linking, beside the executable. The name does not
    end in .c, so no Makefile wildcard or glob compiles it."""
    if cmd.compile_only and cmd.output and len(cmd.sources) == 1:
        # (a second compile at the link, into OBJECT.ompi-whole: the object's)
        out = cmd.output
        if out.endswith(".ompi-whole"):  # OBJECT.KEY.ompi-whole: OBJECT's
            out = out[:-len(".ompi-whole")].rsplit(".", 1)[0]
        stem = os.path.splitext(out)[0]
    else:
        where = os.path.dirname(cmd.output) if cmd.output and cmd.links else ""
        stem = os.path.join(where, os.path.splitext(os.path.basename(src))[0])
    path, n = stem + ".c.ompi", 1
    while path in taken:
        n += 1
        path = "%s.%d.c.ompi" % (stem, n)
    taken.add(path)
    return path


def default_depfile(cmd, src):
    if cmd.depfile:
        return cmd.depfile
    if cmd.compile_only and cmd.output:
        return os.path.splitext(cmd.output)[0] + ".d"
    return os.path.splitext(os.path.basename(src))[0] + ".d"


def run(argv, verbose, **kw):
    """spawn(argv, **kw), printed first where verbose; a missing program stops."""
    if verbose:
        import shlex
        sys.stderr.write("%s: %s\n" % (PROG, " ".join(shlex.quote(a) for a in argv)))
    try:
        return spawn(argv, **kw)
    except FileNotFoundError:
        die("'%s' was not found (set OMPI_CC_MPICC to the MPI compiler wrapper)" % argv[0], 127)


def first_error(stderr):
    """The compiler's own error message in ompi-opt's output (file:line:col:
    error: ...), not merely the first line that contains 'error'."""
    import re
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    for pattern in (r":\d+:\d+: (fatal )?error: ", r"^(fatal )?error: ", r"^ompi-opt: error: "):
        for l in lines:
            if re.search(pattern, l):
                return l
    return lines[0] if lines else "no output"


def parse_own(argv):
    """ompi-cc's own options, and the rest for the real compiler."""
    own = {"report": None, "keep": False, "off": False, "verbose": False, "diff": None, "profile": None,
           "mpicc": None, "help": False, "reassociate": False, "uniform-env": False, "summary": False, "report_file": None, "launcher": False,
           "no-whole-program": False,
           "report_form": None}
    args = []
    for a in argv:
        if a == "--ompi-report":
            own["report"] = own["report"] or "text"
        elif a.startswith("--ompi-report="):
            own["report"] = own["report_form"] = a.split("=", 1)[1]
            if own["report"] not in ("text", "long", "json"):
                die("--ompi-report takes 'text', 'long' or 'json', not '%s'" % own["report"], 2)
        elif a.startswith("--ompi-report-file="):
            own["report_file"] = a.split("=", 1)[1]
            if not own["report_file"]:
                die("--ompi-report-file takes a file name or a pattern with %s (the source's stem)", 2)
        elif a.startswith("--ompi-diff="):
            own["diff"] = a.split("=", 1)[1]
            if not own["diff"]:
                die("--ompi-diff takes a directory", 2)
        elif a.startswith("--ompi-profile="):
            own["profile"] = a.split("=", 1)[1]
            if own["profile"] != "none":
                if not os.path.isfile(own["profile"]):
                    die("--ompi-profile: '%s' is not a file" % own["profile"], 2)
                own["profile"] = os.path.abspath(own["profile"])
        elif a.startswith("--ompi-mpicc="):
            own["mpicc"] = a.split("=", 1)[1]
            if not own["mpicc"]:
                die("--ompi-mpicc takes the MPI compiler wrapper (for example mpicc.openmpi)", 2)
        elif a in ("--ompi-keep", "--ompi-off", "--ompi-verbose", "--ompi-help", "--ompi-reassociate", "--ompi-launcher",
                   "--ompi-uniform-env", "--ompi-summary", "--ompi-no-whole-program"):
            own[a[len("--ompi-"):]] = True
        elif a.startswith("--ompi-"):
            die("unknown option %s (see --ompi-help)" % a, 2)
        else:
            args.append(a)
    if own["report_file"] and not own["report_form"]:
        own["report"] = "json"  # the format meant for files, unless one is named
    if own["summary"] and own["report"] not in (None, "json"):
        die("--ompi-summary keeps JSON reports; it does not go with --ompi-report=%s" % own["report"], 2)
    return own, args


def choose_mpicc(own, cmd):
    """The real MPI compiler: --ompi-mpicc, else OMPI_CC_MPICC, else MPICH.
    An explicit choice is recorded in the output directory; the default
    there where another MPI was chosen is an error, not a silent switch."""
    explicit = own["mpicc"] or os.environ.get("OMPI_CC_MPICC")
    mpicc = explicit or DEFAULT_MPICC
    if which(mpicc) is None:
        die("the MPI compiler '%s' was not found (set OMPI_CC_MPICC or --ompi-mpicc)" % mpicc, 127)
    if cmd.query or not (cmd.sources or cmd.links):
        return mpicc
    where = os.path.dirname(cmd.output) if cmd.output else ""
    stamp = os.path.join(where, STAMP)
    try:
        with open(stamp) as f:
            recorded = f.read().strip()
    except OSError:
        recorded = None
    if explicit and recorded != mpicc:
        if recorded:
            note("%s was built with %s (recorded in %s); using %s, which %s names" %
                 (os.path.abspath(where or "."), recorded, stamp, mpicc,
                  "--ompi-mpicc" if own["mpicc"] else "OMPI_CC_MPICC"))
        try:
            with open(stamp, "w") as f:
                f.write(mpicc + "\n")
        except OSError:
            pass  # a read-only directory: the compiler reports what matters
    elif not explicit and recorded and recorded != mpicc:
        die("%s was built with %s (OMPI_CC_MPICC or --ompi-mpicc, recorded in %s); this run names no MPI and "
            "would use %s: set OMPI_CC_MPICC=%s again, or name the MPI to use (OMPI_CC_MPICC or --ompi-mpicc) "
            "to switch" % (os.path.abspath(where or "."), recorded, stamp, mpicc, recorded), 2)
    return mpicc


def query(mpicc, cmd, args, verbose):
    """Queries: the real compiler's answer, completed with what ompi-cc adds
    (the real wrapper is asked what MPI it is only where the link matters)."""
    opt, libdir, incdirs = layout()
    if "--version" in args:
        # One line before the real compiler's answer (build tools that read
        # it look for the compiler's own words): ompi-opt's version word only.
        try:
            v = spawn([opt, "--version"], out=True, err=True, timeout=60).stdout.split("\n")[0].split()
            opt_version = v[1] if len(v) > 1 and v[0] == "ompi-opt" else "unknown"
        except (OSError, Timeout):
            opt_version = "not found"
        sys.stdout.write("ompi-cc (OMPI, the optimising MPI compiler) %s; real compiler: %s; ompi-opt %s\n" %
                         (project_version(incdirs), which(mpicc) or mpicc, opt_version))
        sys.stdout.flush()
        return run([mpicc] + args, verbose).returncode
    extra = header_flags(incdirs)
    args = translate_queries(mpicc, args)

    def link():
        try:
            return link_flags(query_mpicc(mpicc), libdir)
        except Failure as e:
            die(str(e))

    if any(a in ("--showme:compile", "-compile_info", "-compile-info") for a in args):
        argv = [mpicc] + extra + args
    elif any(a in ("--showme:link", "-link_info", "-link-info") for a in args):
        argv = [mpicc] + args + link()
    elif any(a in ("-show", "-showme", "--showme") for a in args):
        argv = [mpicc] + extra + args + (link() if cmd.links else [])
    else:
        argv = [mpicc] + args
    return run(argv, verbose).returncode


# The queries each wrapper knows under another name (the other's), and
# Open MPI's others, which MPICH's script passes on to the compiler.
AS_MPICH = {"-showme": "-show", "--showme": "-show", "-showme:compile": "-compile_info",
            "--showme:compile": "-compile_info", "-showme:link": "-link_info", "--showme:link": "-link_info"}
AS_OPENMPI = {"-compile_info": "--showme:compile", "-compile-info": "--showme:compile",
              "-link_info": "--showme:link", "-link-info": "--showme:link"}


def translate_queries(mpicc, args):
    """-showme, --showme:link, -link_info, ... as the real wrapper spells them."""
    if not any(a in AS_MPICH or a in AS_OPENMPI or a.startswith(("-showme:", "--showme:")) for a in args):
        return args
    try:
        openmpi = query_mpicc(mpicc).openmpi
    except (OSError, Failure):
        return args
    out = []
    for a in args:
        if openmpi:
            out.append(AS_OPENMPI.get(a, a))
        elif a in AS_MPICH:
            out.append(AS_MPICH[a])
        elif a.startswith(("-showme:", "--showme:")):
            die("%s is a query of Open MPI's mpicc; %s (MPICH) knows -show, -compile_info and -link_info" %
                (a, mpicc), 2)
        else:
            out.append(a)
    return out


def diff_dir(path):
    """The --ompi-diff directory, created if needed; None (with a warning) if
    it cannot be written: the HTML pages are lost, never the optimisation."""
    try:
        os.makedirs(path, exist_ok=True)
        if not os.access(path, os.W_OK | os.X_OK):
            raise OSError("permission denied")
        return os.path.abspath(path)
    except OSError as e:
        warn("cannot write the HTML diff to %s (%s); optimising without it" %
             (path, e.strerror if getattr(e, "strerror", None) else e))
        return None


def timeout_seconds():
    text = os.environ.get("MPIOPT_CC_TIMEOUT", "300")
    try:
        t = float(text)
        if t > 0:
            return t
    except ValueError:
        pass
    warn("MPIOPT_CC_TIMEOUT='%s' is not a positive number of seconds; using 300" % text)
    return 300.0


def optimise(cmd, own, opt, mpi_flags, tmpdir, notes):
    """Run ompi-opt on every C source; the transformed copies (argument
    index -> (temp path, original)). Why a file stays as it was goes to notes, printed only if
    the build then succeeds (a file the compiler rejects is reported once,
    by the compiler)."""
    args = cmd.args
    closed = cmd.links and len(cmd.sources) == 1 and cmd.other_inputs == 0
    facts_wanted = cmd.compile_only and whole_program(own) and not os.environ.get("MPIOPT_CC_PROGRAM")
    program = os.environ.get("MPIOPT_CC_PROGRAM") if not closed else None
    opt_extra = []
    if os.environ.get("MPIOPT_OPT_FLAGS"):
        import shlex
        opt_extra = shlex.split(os.environ["MPIOPT_OPT_FLAGS"])
    timeout = timeout_seconds()
    html = diff_dir(own["diff"]) if own["diff"] else None
    replaced, kept = {}, set()
    for n, idx in enumerate(cmd.sources):
        src = args[idx]
        if not os.path.isfile(src):
            continue  # the compiler says so
        out_dir = os.path.join(tmpdir, str(n))
        os.mkdir(out_dir)
        out = os.path.join(out_dir, os.path.basename(src))
        argv = [opt, src, "-o", out, "--line-directives"]
        if closed:
            argv.append("--closed-world")
        if own["report"] or own["summary"]:
            argv.append("--report=" + (own["report"] or "json"))
        if html:
            argv.append("--html-dir=" + html)
        if own["profile"]:
            argv.append("--profile=" + own["profile"])
        if own["reassociate"]:
            argv.append("--reassociate")
        if own["uniform-env"]:
            argv.append("--uniform-env")
        facts_file = os.path.join(out_dir, "facts.json")
        if facts_wanted:
            argv.append("--facts-out=" + facts_file)
        if program:
            argv.append("--program-facts=" + program)
        argv += opt_extra + ["--mpi-include="] + ["--"] + mpi_flags + cmd.parse_flags
        try:
            r = run(argv, own["verbose"], out=True, err=True, timeout=timeout)
        except Timeout:
            notes.append("ompi-opt took more than %g s on %s; compiled the original" % (timeout, src))
            continue
        if own["summary"] and r.stdout and r.returncode == 0:
            own["summaries"].append((src, r.stdout))
        if own["report"] and r.stdout:
            if own["report_file"]:
                own["reports"].append((src, r.stdout))
            else:
                sys.stderr.write(r.stdout)
        if r.returncode != 0 or not os.path.exists(out):
            notes.append("ompi-opt failed on %s (%s); compiled the original" % (src, first_error(r.stderr)))
            if own["verbose"]:
                sys.stderr.write(r.stderr)
            if facts_wanted:
                own["facts"].append((src, None, mpi_flags + cmd.parse_flags, None))
            continue
        for line in r.stderr.splitlines():  # ompi-opt's own warnings (a fallback inside it)
            if line.startswith("ompi-opt: warning: "):
                warn(line[len("ompi-opt: warning: "):])
        with open(src, "rb") as f:
            original = f.read()
        with open(out, "rb") as f:
            transformed = f.read()
        if facts_wanted:
            import json
            import ompi_cc_program
            try:
                with open(facts_file) as f:
                    facts = json.load(f)
            except (OSError, ValueError):
                facts = None
            own["facts"].append((src, facts, mpi_flags + cmd.parse_flags, ompi_cc_program.digest(transformed)))
        if own["keep"]:
            keep = keep_path(cmd, src, kept)
            try:
                import shutil
                shutil.copyfile(out, keep)
            except OSError as e:
                warn("cannot keep the optimised source of %s as %s (%s)" % (src, keep, e.strerror or e))
        if transformed == original and not os.environ.get("MPIOPT_CC_FORCE_COPY"):
            continue  # nothing changed: compile the original itself
        # Compile the transformed copy as if it were the original: the
        # name as given (for __FILE__ and diagnostics, as mpicc names it),
        # every line at its number (ompi-opt --line-directives), and the
        # same directory for "includes".
        name = src.replace("\\", "\\\\").replace('"', '\\"')
        with open(out, "wb") as f:
            f.write(b'#line 1 "' + name.encode() + b'"\n' + transformed)
        replaced[idx] = (out, src)
    return replaced


def build(mpicc, cmd, own, tmpdir, notes):
    """Optimise, compile and link; the original wherever that fails."""
    args, verbose = cmd.args, own["verbose"]
    opt, libdir, incdirs = layout()
    extra = header_flags(incdirs)
    opt_ok = os.access(opt, os.X_OK)
    if cmd.sources and not opt_ok:
        warn("ompi-opt was not found at %s; compiling the original sources" % opt)
    facts = query_mpicc(mpicc) if (cmd.sources and opt_ok) or cmd.links else None
    link = link_flags(facts, libdir) if cmd.links else []
    chosen = {}
    if cmd.links and opt_ok and whole_program(own):
        import ompi_cc_program
        chosen = ompi_cc_program.decide_program(cmd, own, opt, tmpdir, spawn, notes)
        own["program_objects"] = chosen
    replaced = optimise(cmd, own, opt, facts.flags, tmpdir, notes) if opt_ok and cmd.sources else {}
    # An object compiled a second time with the program's facts is linked in
    # place of the build's own (which stays as the build made it).
    new_args = [chosen.get(a, a) for a in args]
    quote = []
    for idx, (out, src) in replaced.items():
        new_args[idx] = out
        quote += ["-iquote", os.path.dirname(os.path.abspath(src))]
    r = run(compiler(mpicc, facts, cmd, quote + extra + new_args + link), verbose, err=bool(replaced or chosen))
    if (replaced or chosen) and r.returncode != 0:
        # The transformed code did not compile: build from the originals,
        # and say why in one line (the compiler's first error).
        r2 = run(compiler(mpicc, facts, cmd, extra + args + link), verbose)
        if r2.returncode == 0:
            what = [s for _, s in replaced.values()] + sorted(chosen)
            notes.append("the optimised code of %s did not compile (%s); built from the original" %
                         (", ".join(what), first_error(r.stderr)))
            if verbose:
                sys.stderr.write(r.stderr)
        return r2.returncode
    if replaced or chosen:
        sys.stderr.write(r.stderr)
        if replaced and cmd.depfile_wanted:
            for out, src in replaced.values():
                fix_depfile(default_depfile(cmd, src), out, src)
    return r.returncode


def main():
    own, args = parse_own(sys.argv[1:])
    if own["help"] or ("--help" in args and not own["off"] and not own["launcher"]):
        sys.stdout.write(HELP)
        return 0
    # The real mpicc must not call us back (Open MPI's OMPI_CC or MPICH's
    # MPICH_CC naming ompi-cc would loop for ever).
    if os.environ.get("MPIOPT_CC_ACTIVE"):
        die("ompi-cc was called by the MPI compiler it runs: OMPI_CC or MPICH_CC must name a C compiler, "
            "not ompi-cc", 2)
    os.environ["MPIOPT_CC_ACTIVE"] = "1"
    if own["launcher"]:
        # CMake's C_COMPILER_LAUNCHER: ompi-cc --ompi-launcher COMPILER ARGS...
        if not args:
            die("--ompi-launcher: no compiler command follows", 2)
        mpicc, args = args[0], args[1:]
        if which(mpicc) is None:
            die("--ompi-launcher: the compiler '%s' was not found" % mpicc, 127)
        cmd = Command(args)
    else:
        cmd = Command(args)
        mpicc = choose_mpicc(own, cmd)
    verbose = own["verbose"]
    if not args or own["off"] or cmd.preprocess_only or cmd.deps_only:
        return run([mpicc] + args, verbose).returncode
    if cmd.query:
        return query(mpicc, cmd, args, verbose)
    if not (cmd.sources or cmd.links):
        return run([mpicc] + args, verbose).returncode
    env_profile = os.environ.get("MPIOPT_PROFILE")
    if cmd.sources and own["profile"] is None and env_profile and env_profile != "none" \
            and not os.path.isfile(env_profile):
        die("MPIOPT_PROFILE='%s' is not a file (name a machine profile, 'none', or unset it)" % env_profile, 2)
    tmpdir = make_tmpdir()
    if tmpdir is None:
        warn("no temporary directory can be written (TMPDIR, /tmp, /var/tmp, .); compiling the original")
        return run([mpicc] + args, verbose).returncode
    notes = []
    own["reports"] = []
    own["summaries"] = []
    own["facts"] = []
    own["raw_argv"] = sys.argv[1:]
    try:
        rc = build(mpicc, cmd, own, tmpdir, notes)
    except Failure as e:
        die(str(e))
    except (OSError, ValueError) as e:
        # Never a traceback, never a lost build: one line, then the plain
        # compiler's own answer.
        warn("%s; compiling the original" % e)
        return run([mpicc] + args, verbose).returncode
    finally:
        remove_tree(tmpdir)
    if own["report_file"] and cmd.sources:
        import ompi_cc_reports
        ompi_cc_reports.write_reports(own["report_file"], own["report"], own["reports"])
    if own["facts"] and rc == 0:
        import ompi_cc_program
        ompi_cc_program.record_compiles(cmd, own, own["facts"], object_path)
    if own["summary"] and rc == 0:
        import ompi_cc_reports
        ompi_cc_reports.summarise(cmd, own)
    if rc == 0 or verbose:
        for n in notes:
            warn(n)
    return rc


def whole_program(own):
    """Whether the files of a program are decided together (the default)."""
    return not own["no-whole-program"] and os.environ.get("MPIOPT_CC_WHOLE_PROGRAM", "1") != "0"


def object_path(cmd, src):
    """The object SRC compiled with -c goes to."""
    if cmd.output and len(cmd.sources) == 1:
        return cmd.output
    return os.path.splitext(os.path.basename(src))[0] + ".o"


def fix_depfile(path, tmp_src, src):
    """Make a dependency file name the original source, not the temporary copy."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return
    with open(path, "w") as f:
        f.write(text.replace(tmp_src, src))


if __name__ == "__main__":
    sys.exit(main())
