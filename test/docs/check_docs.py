#!/usr/bin/env python3
"""Check that the documentation is complete and its links resolve.

Fails (exit status 1, one line per problem) when
  - a lint check registered in tool/lib/checks/Checks.cpp has no page
    docs/checks/<name>.md;
  - a transformation registered in tool/lib/transforms/Transforms.cpp has
    no page docs/transforms/<name>.md;
  - a variable docs/runtime.md documents is missing from the runtime's list
    of known variables (runtime/core/env.c), which warns of the others;
  - an MPIOPT_* environment variable that the sources read is missing from
    the table of docs/runtime.md ("Environment variables"); the sources
    scanned: runtime/ and templates/ (C and C++: every "MPIOPT_..." string
    literal, which is how getenv and the env parsing helpers of
    runtime/core/env.c are called), tool/ and test/fuzz/ (getenv / GetEnv
    of an "MPIOPT_..." literal), and scripts/ (os.environ.get("MPIOPT_...")
    and os.environ["MPIOPT_..."] in Python, ${MPIOPT_...} in shell);
  - a relative link in README.md or docs/**/*.md does not resolve to an
    existing file or directory (anchors are not checked; links inside code
    blocks and code spans are not links);
  - README.md has more than 250 lines.
On success it prints "docs: N pages, N variables, N links checked".

Usage: check_docs.py [SOURCE_ROOT]   (default: two directories above this file)
Python 3, standard library only.
"""
import os
import re
import sys

MAX_README_LINES = 250


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def registry_names(text, kinds=None):
    """The first string of each entry of the Registry array: {"name", ...}."""
    m = re.search(r"Registry\[\]\s*=\s*\{(.*?)\n\};", text, re.S)
    body = m.group(1) if m else text
    body = re.sub(r"//[^\n]*", "", body)
    if kinds:
        return re.findall(r'\{\s*"([a-z0-9-]+)",\s*"(?:%s)"' % "|".join(kinds), body)
    return re.findall(r'\{\s*"([a-z0-9-]+)",', body)


def source_files(root, exts):
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for f in files:
            if f.endswith(exts) or (not exts and "." not in f):
                yield os.path.join(d, f)


def strip_c_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def variables_read(root):
    """MPIOPT_* environment variables the sources read, with one place each."""
    found = {}
    c_exts = (".c", ".h", ".hpp", ".cpp", ".cc")
    for sub in ("runtime", "templates"):
        for path in source_files(os.path.join(root, sub), c_exts):
            for name in re.findall(r'"(MPIOPT_[A-Z0-9_]+)"', strip_c_comments(read(path))):
                found.setdefault(name, os.path.relpath(path, root))
    for sub in ("tool", os.path.join("test", "fuzz")):
        for path in source_files(os.path.join(root, sub), c_exts):
            text = strip_c_comments(read(path))
            for name in re.findall(r'(?:getenv|GetEnv)\(\s*"(MPIOPT_[A-Z0-9_]+)"', text):
                found.setdefault(name, os.path.relpath(path, root))
    scripts = os.path.join(root, "scripts")
    if os.path.isdir(scripts):
        for f in sorted(os.listdir(scripts)):
            path = os.path.join(scripts, f)
            if not os.path.isfile(path):
                continue
            text = read(path)
            pats = [r'os\.environ\.get\(\s*"(MPIOPT_[A-Z0-9_]+)"', r'os\.environ\[\s*"(MPIOPT_[A-Z0-9_]+)"\s*\]',
                    r'os\.getenv\(\s*"(MPIOPT_[A-Z0-9_]+)"', r"\$\{(MPIOPT_[A-Z0-9_]+)"]
            for line in text.split("\n"):
                if line.lstrip().startswith("#"):
                    continue
                for p in pats:
                    for name in re.findall(p, line):
                        found.setdefault(name, os.path.relpath(path, root))
    return found


def documented_variables(runtime_md):
    """Variables named in the first column of the tables of the
    'Environment variables' section of docs/runtime.md."""
    m = re.search(r"^## Environment variables\s*$(.*?)(?=^## |\Z)", runtime_md, re.S | re.M)
    section = m.group(1) if m else ""
    names = set()
    for line in section.split("\n"):
        cell = re.match(r"\|\s*([^|]*)\|", line)
        if cell:
            names.update(re.findall(r"MPIOPT_[A-Z0-9_]+", cell.group(1)))
    return names, bool(m)


def markdown_links(text):
    """Link targets outside code blocks and code spans: [text](target) and [ref]: target."""
    out = []
    in_fence = False
    for n, line in enumerate(text.split("\n"), 1):
        if re.match(r"\s*(```|~~~)", line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        line = re.sub(r"(`+).*?\1", "", line)
        for m in re.finditer(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            out.append((n, m.group(1)))
        m = re.match(r"\s*\[[^\]]+\]:\s*(\S+)", line)
        if m:
            out.append((n, m.group(1)))
    return out


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    problems = []
    docs = os.path.join(root, "docs")

    checks = registry_names(read(os.path.join(root, "tool/lib/checks/Checks.cpp")),
                            ["optimisation", "correctness", "portability"])
    transforms = registry_names(read(os.path.join(root, "tool/lib/transforms/Transforms.cpp")))
    if not checks:
        problems.append("tool/lib/checks/Checks.cpp: no registered check found (has the registry's form changed?)")
    if not transforms:
        problems.append("tool/lib/transforms/Transforms.cpp: no registered transformation found (has the registry's form changed?)")
    for name in checks:
        if not os.path.isfile(os.path.join(docs, "checks", name + ".md")):
            problems.append("docs/checks/%s.md: missing (the check %s is registered in tool/lib/checks/Checks.cpp)" % (name, name))
    for name in transforms:
        if not os.path.isfile(os.path.join(docs, "transforms", name + ".md")):
            problems.append("docs/transforms/%s.md: missing (the transformation %s is registered in "
                            "tool/lib/transforms/Transforms.cpp)" % (name, name))

    variables = variables_read(root)
    runtime_md = os.path.join(docs, "runtime.md")
    documented, has_section = documented_variables(read(runtime_md)) if os.path.isfile(runtime_md) else (set(), False)
    if not has_section:
        problems.append("docs/runtime.md: no '## Environment variables' section with the table of MPIOPT_* variables")
    for name in sorted(variables):
        if name not in documented:
            problems.append("docs/runtime.md: %s (read in %s) is not in the table of environment variables"
                            % (name, variables[name]))
    # The runtime warns of MPIOPT_ variables it does not know (a misspelling):
    # its list must hold every documented one.
    env_c = os.path.join(root, "runtime", "core", "env.c")
    known = set(re.findall(r'"(MPIOPT_[A-Z0-9_]+)"', read(env_c))) if os.path.isfile(env_c) else set()
    for name in sorted(documented - known):
        problems.append("runtime/core/env.c: %s is documented in docs/runtime.md but not in the runtime's list of "
                        "known variables (it would be warned of as a misspelling)" % name)

    pages = [os.path.join(root, "README.md")]
    for d, dirs, files in os.walk(docs):
        dirs.sort()
        pages += [os.path.join(d, f) for f in sorted(files) if f.endswith(".md")]
    links = 0
    for page in pages:
        if not os.path.isfile(page):
            problems.append("%s: missing" % os.path.relpath(page, root))
            continue
        for line, target in markdown_links(read(page)):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
                continue  # a URL (http:, mailto:) or an anchor in the same page
            links += 1
            path = target.split("#", 1)[0].split("?", 1)[0]
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path))
            if path.startswith("/") or not os.path.exists(resolved):
                problems.append("%s:%d: broken link %s" % (os.path.relpath(page, root), line, target))

    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme):
        n = len(read(readme).splitlines())
        if n > MAX_README_LINES:
            problems.append("README.md: %d lines, more than %d (move the detail to docs/)" % (n, MAX_README_LINES))

    for p in problems:
        print(p)
    if problems:
        return 1
    print("docs: %d pages, %d variables, %d links checked" % (len(pages), len(variables), links))
    return 0


if __name__ == "__main__":
    sys.exit(main())
