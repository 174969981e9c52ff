# Whole-program decisions for ompi-cc (imported only when an object is
# compiled or a program linked).
#
# Compiling (-c), ompi-cc keeps beside each object OBJECT.ompi-facts: the
# source, the command that made the object, what ompi-opt learnt of the file
# alone (its facts: ompi-opt --facts-out, with a digest of every text it was
# parsed from) and a digest of the text compiled. Linking objects that all
# have one, it solves the program's facts over every source (ompi-opt
# --whole-program: rounds until they settle), keeps them beside the output
# (OUTPUT.ompi-program.json, with the key of the files they came from),
# re-decides each file with them, and compiles each file whose text changes
# a second time, into OBJECT.KEY.ompi-whole (KEY: the program's), which the
# link takes in its place.
# The build's own objects are never touched (make and ninja see nothing
# change), and a rebuild with nothing changed reuses everything. Anything
# that goes wrong leaves the link as given (each file decided alone, which
# is always sound), with a note.
import os
import sys

SIDE = ".ompi-facts"
PROGRAM = ".ompi-program.json"


def digest(data):
    import hashlib
    return hashlib.sha256(data).hexdigest()


# What a sidecar holds, and the type of each.
FIELDS = {"source": str, "cwd": str, "argv": list, "opt_args": list}


def load(obj):
    """OBJECT.ompi-facts, or None where there is none or it is not one."""
    import json
    try:
        with open(obj + SIDE) as f:
            entry = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("version") != 1:
        return None
    if any(not isinstance(entry.get(k), t) for k, t in FIELDS.items()) or \
            not all(isinstance(a, str) for a in entry["argv"] + entry["opt_args"]):
        return None
    if entry.get("facts") is not None and not isinstance(entry["facts"], dict):
        return None
    return entry


def store(obj, entry):
    import json
    tmp = "%s%s.%d.tmp" % (obj, SIDE, os.getpid())
    try:
        with open(tmp, "w") as f:
            json.dump(entry, f, indent=1)
        os.replace(tmp, obj + SIDE)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def drop(obj):
    try:
        os.unlink(obj + SIDE)
    except OSError:
        pass


# Options of a compile command that name or make dependency files.
DEP_FLAGS = {"-MD", "-MMD", "-MP"}
DEP_WITH_VALUE = {"-MF", "-MT", "-MQ"}


def write_report(path, text):
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def compile_argv(raw, src, obj):
    """The ompi-cc command (its own options kept, dependency files not
    written) that compiles SRC alone into OBJ."""
    out, i = [], 0
    while i < len(raw):
        a = raw[i]
        if (a == "-o" or a in DEP_WITH_VALUE) and i + 1 < len(raw):
            i += 2
            continue
        if (a.startswith("-o") and len(a) > 2) or a in DEP_FLAGS or a.startswith(("-MF", "-MT", "-MQ")):
            i += 1
            continue
        if a.endswith(".c") and not a.startswith("-") and a != src:
            i += 1
            continue
        out.append(a)
        i += 1
    return out + ["-o", obj]


def record_compiles(cmd, own, entries, object_of):
    """After a successful compile (-c): the sidecar of each source's object
    (not for the second compile of a link, MPIOPT_CC_PROGRAM set)."""
    if os.environ.get("MPIOPT_CC_PROGRAM"):
        return
    for src, facts, opt_args, compiled in entries:
        obj = object_of(cmd, src)
        store(obj, {"version": 1, "source": os.path.abspath(src), "cwd": os.getcwd(),
                    "argv": compile_argv(own["raw_argv"], src, obj), "opt_args": opt_args,
                    "facts": facts, "compiled": compiled, "program_key": None, "program_object": None})


def program_inputs(cmd):
    """The objects of a link, each with its sidecar; or why the program
    cannot be decided as a whole."""
    objects = []
    args = cmd.args
    for i, a in enumerate(args):
        prev = args[i - 1] if i else ""
        if prev in ("-o", "-MF", "-MT", "-MQ", "-x", "-L", "-l", "-Xlinker", "-T"):
            continue
        if a.startswith("-L"):
            return None, "it links libraries from %s, whose code ompi-opt does not see" % (a[2:] or "-L")
        if a.endswith((".a", ".so")) or ".so." in a:
            return None, "it links %s, whose code ompi-opt does not see" % a
        if a.endswith(".o"):
            entry = load(a)
            if entry is None:
                return None, "%s has no facts (compiled without ompi-cc, or an older one)" % a
            if entry.get("facts") is None:
                return None, "%s has no facts (ompi-opt did not analyse %s)" % (a, entry.get("source"))
            objects.append((a, entry))
    if cmd.sources:
        return None, "sources are compiled in the link command itself"
    if len(objects) < 2:
        return None, None
    return objects, None


def program_key(objects, options):
    import json
    parts = sorted((e["source"], json.dumps(e["facts"], sort_keys=True), e["opt_args"]) for _, e in objects)
    return digest(json.dumps([parts, options]).encode())


def solve(opt, objects, options, out_path, tmpdir, run):
    """ompi-opt --whole-program over the objects' sources; True when the
    program's facts are written to out_path."""
    import json
    db = os.path.join(tmpdir, "db")
    os.mkdir(db)
    commands = [{"directory": e["cwd"], "file": e["source"],
                 "arguments": ["clang"] + e["opt_args"] + ["-c", e["source"]]} for _, e in objects]
    with open(os.path.join(db, "compile_commands.json"), "w") as f:
        json.dump(commands, f)
    argv = [opt, "-p", db, "--whole-program", "--facts-out=" + out_path, "--mpi-include="] + options
    argv += [e["source"] for _, e in objects]
    r = run(argv, out=True, err=True)
    lines = (r.stderr or "").strip().splitlines()
    if r.returncode != 0 or not os.path.isfile(out_path):
        return False, "ompi-opt --whole-program failed (%s)" % (lines[-1] if lines else "no reason given")
    warned = [ln for ln in lines if "--whole-program:" in ln]
    if warned:
        return False, warned[-1].split("--whole-program:", 1)[1].strip()
    return True, None


def redecide(opt, obj, entry, options, facts_path, tmpdir, n, run, report=False):
    """Whether OBJ's source, decided with the program's facts, compiles to
    another text than the object was made from; and, when asked, the JSON
    report of those decisions."""
    out = os.path.join(tmpdir, "%d.c" % n)
    argv = [opt, entry["source"], "-o", out, "--line-directives", "--program-facts=" + facts_path] + options
    argv += (["--report=json"] if report else []) + ["--mpi-include=", "--"] + entry["opt_args"]
    r = run(argv, out=True, err=True, cwd=entry["cwd"])
    if r.returncode != 0 or not os.path.isfile(out):
        return False, None
    with open(out, "rb") as f:
        text = f.read()
    return digest(text) != entry["compiled"], (r.stdout if report else None)


def recompile(self_path, entry, target, facts_path, run):
    """Compile the entry's source with the program's facts into target."""
    env = dict(os.environ)
    env.pop("MPIOPT_CC_ACTIVE", None)
    env["MPIOPT_CC_PROGRAM"] = facts_path
    argv = entry["argv"][:-2] + ["-o", target]
    return run([self_path] + argv, cwd=entry["cwd"], env=env).returncode == 0


def cached_facts(out, key):
    """The program's facts solved before for this key, if they are still there."""
    import json
    try:
        with open(out) as f:
            cached = json.load(f)
        facts = out + ".facts"
        if cached.get("key") == key and os.path.isfile(facts):
            return facts
    except (OSError, ValueError, AttributeError):
        pass
    return None


def decide_program(cmd, own, opt, tmpdir, spawn, notes):
    """Before a link: decide the program's files together. Returns, per
    object, the one to link in its place. Never fails the link: what goes
    wrong is a note, and each file stays decided alone."""
    try:
        return decide(cmd, own, opt, tmpdir, spawn, notes)
    except (OSError, ValueError) as e:
        notes.append("each file decided alone: %s" % (getattr(e, "strerror", None) or e))
        return {}


def decide(cmd, own, opt, tmpdir, spawn, notes):
    objects, why = program_inputs(cmd)
    if objects is None:
        if why and own["verbose"]:
            notes.append("each file decided alone: " + why)
        return {}
    options = ["--uniform-env"] if own["uniform-env"] else []
    options += ["--reassociate"] if own["reassociate"] else []
    if own["profile"]:
        options.append("--profile=" + own["profile"])
    key = program_key(objects, options)
    out = (cmd.output or "a.out") + PROGRAM

    def run(argv, **kw):
        if own["verbose"]:
            import shlex
            sys.stderr.write("ompi-cc: " + " ".join(shlex.quote(a) for a in argv) + "\n")
        return spawn(argv, **kw)

    facts = cached_facts(out, key)
    if facts is None:
        facts = out + ".facts"
        ok, why = solve(opt, objects, options, facts, tmpdir, run)
        if not ok:
            notes.append("each file decided alone: %s" % why)
            return {}
        import json
        with open(out, "w") as f:
            json.dump({"key": key, "facts": os.path.basename(facts)}, f)
    facts = os.path.abspath(facts)
    here = os.path.realpath(sys.argv[0])  # the ompi-cc that runs (scripts/ or PREFIX/bin)
    chosen, redecided, recompiled = {}, 0, 0
    for n, (obj, entry) in enumerate(objects):
        alt = entry.get("program_object")
        if entry.get("program_key") == key and (alt is None or os.path.isfile(alt)):
            if alt:
                chosen[obj] = alt
            continue
        redecided += 1
        alt = None
        changed, report = redecide(opt, obj, entry, options, facts, tmpdir, n, run, own["summary"])
        if report and not changed:
            # --ompi-summary: the object's report says what the program's
            # facts decided (the same changes; reasons that name other files).
            write_report(obj + ".ompi.json", report)
        if changed:
            # One per program: an object two programs link (each with its
            # own facts, perhaps at once under make -j) gets one for each.
            target = "%s.%s.ompi-whole" % (obj, key[:12])
            if recompile(here, entry, os.path.abspath(target), facts, run):
                alt = target
                recompiled += 1
                if report:
                    write_report(target + ".ompi.json", report)  # what the object linked was made with
            else:
                # Decisions of one file may rely on another's being made
                # with the same facts (a global request array's cache is
                # shared by every file that completes its requests): link
                # every object as it was compiled alone.
                notes.append("each file decided alone: %s could not be compiled with the program's facts" % obj)
                return {}
        entry["program_key"] = key
        entry["program_object"] = alt
        store(obj, entry)
        if alt:
            chosen[obj] = alt
    if own["verbose"]:
        notes.append("whole program: %d objects, %d re-decided, %d recompiled" %
                     (len(objects), redecided, recompiled))
    return chosen
