#!/usr/bin/env python3
"""man.py: a man page (section 1) from a command's own --help and --version.

man.py NAME "ONE-LINE DESCRIPTION" OUT.1 [--replace OLD=NEW ...] -- COMMAND [ARGS...]

Runs COMMAND --help and COMMAND --version and writes OUT.1: NAME with its
description, the help text as DESCRIPTION (as the command prints it, in a
no-fill block, so its tables stay aligned), the version, and SEE ALSO. The
help text is the one source of each page: the man page never says other
than the command. --replace rewrites text of the build tree the help may
name (a checkout's path) as the installation has it. Build step of CMake's
`man` target; needs nothing but Python (no help2man, no pandoc)."""
import subprocess
import sys

SEE_ALSO = ["ompi-opt", "ompi-cc", "ompi-tune", "bspcc", "bsprun"]


def run(cmd, what):
    try:
        p = subprocess.run(cmd + [what], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        sys.exit("man.py: %s %s failed: %s" % (cmd[0], what, e))
    if p.returncode != 0:
        sys.exit("man.py: %s %s exited with %d:\n%s" % (cmd[0], what, p.returncode,
                                                        p.stdout.decode(errors="replace")))
    return p.stdout.decode(errors="replace")


def roff(text):
    """Text for a no-fill block: backslashes escaped, lines that begin with
    a dot or a quote protected."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        line = line.replace("\\", "\\e")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def main():
    args = sys.argv[4:]
    replace = []
    while len(args) >= 2 and args[0] == "--replace" and "=" in args[1]:
        replace.append(args[1].split("=", 1))
        args = args[2:]
    if len(sys.argv) < 6 or not args or args[0] != "--" or len(args) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    name, description, out, cmd = sys.argv[1], sys.argv[2], sys.argv[3], args[1:]
    help_text = run(cmd, "--help")
    for old, new in replace:
        help_text = help_text.replace(old, new)
    version = run(cmd, "--version").strip().split("\n")[0]
    page = [
        '.TH "%s" 1 "" "%s" "OMPI, the optimizing MPI compiler"' % (name.upper(), roff(version)),
        ".SH NAME",
        "%s \\- %s" % (name, roff(description)),
        ".SH DESCRIPTION",
        ".nf",
        roff(help_text),
        ".fi",
        ".SH VERSION",
        roff(version),
        ".SH SEE ALSO",
        ", ".join("\\fB%s\\fR(1)" % n for n in SEE_ALSO if n != name),
        "",
        "The full documentation is in the docs/ folder of OMPI's sources.",
    ]
    with open(out, "w") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
