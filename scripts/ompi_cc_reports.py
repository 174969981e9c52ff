# ompi-cc's reports (--ompi-report-file) and summaries (--ompi-summary);
# imported only when one is asked for.
import os
import sys

from ompi_cc import first_error, layout, make_tmpdir, object_path, remove_tree, run, warn


def summary_path(cmd, src):
    """Where --ompi-summary keeps the report of SRC compiled with -c: beside
    its object (OBJECT.ompi.json)."""
    return object_path(cmd, src) + ".ompi.json"


def summarise(cmd, own):
    """--ompi-summary: compiling, keep each source's JSON report beside its
    object; linking, print the summary of every object that has one and of
    the sources compiled in this command. Never fails the build."""
    if cmd.compile_only:
        write_files({summary_path(cmd, src): text for src, text in own["summaries"]})
        return
    if not cmd.links:
        return
    alt = own.get("program_objects", {})
    paths = [alt.get(a, a) + ".ompi.json" for a in cmd.args
             if a.endswith(".o") and os.path.isfile(alt.get(a, a) + ".ompi.json")]
    # An archive holds copies of objects whose reports stay beside the
    # originals, which the link cannot find: say so rather than count less.
    for a in cmd.args:
        if a.endswith(".a") and os.path.isfile(a):
            warn("--ompi-summary: the objects of %s are not counted (their reports are beside the objects "
                 "the archive was made from: ompi-opt --summary-from=OBJECT.ompi.json,...)" % a)
    tmpdir = make_tmpdir()
    if tmpdir is None:
        warn("no temporary directory can be written; no summary")
        return
    try:
        for n, (src, text) in enumerate(own["summaries"]):
            path = os.path.join(tmpdir, "%d.json" % n)
            with open(path, "w") as f:
                f.write(text)
            paths.append(path)
        if not paths:
            warn("--ompi-summary: no object of this link has a report (compile them with --ompi-summary)")
            return
        r = run([layout()[0], "--summary-from=" + ",".join(paths)], own["verbose"], out=True, err=True)
        if r.returncode == 0:
            sys.stderr.write(r.stdout)
        else:
            warn("no summary (%s)" % first_error(r.stderr))
    except OSError as e:
        warn("no summary (%s)" % (e.strerror or e))
    finally:
        remove_tree(tmpdir)


def write_reports(pattern, form, reports):
    """--ompi-report-file: PATTERN with %s, one file per source (%s its
    stem, as -MF names a dependency file); else one file, for JSON an array
    of the sources' reports, for text the reports one after another. A file
    that cannot be written is a warning: the build stands."""
    import json
    files = {}
    if "%s" in pattern:
        for src, text in reports:
            files[pattern.replace("%s", os.path.splitext(os.path.basename(src))[0])] = text
    elif form == "json":
        docs = []
        for src, text in reports:
            try:
                docs.append(json.loads(text))
            except ValueError:
                warn("the report of %s is not JSON; left out of %s" % (src, pattern))
        files[pattern] = json.dumps(docs, indent=1) + "\n"
    else:
        files[pattern] = "".join(text for _, text in reports)
    write_files(files)


def write_files(files):
    """Write each report (path -> text) whole or not at all; a file that
    cannot be written is a warning."""
    for path, text in files.items():
        tmp = "%s.%d.tmp" % (path, os.getpid())
        try:
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, path)
        except OSError as e:
            warn("cannot write the report to %s (%s)" % (path, e.strerror or e))
            try:
                os.unlink(tmp)
            except OSError:
                pass
