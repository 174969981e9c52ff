#!/usr/bin/env python3
"""Counting helper for reach.sh.

  count.py row NAME SUMMARY_TXT JSON [SUMMARY_TXT JSON ...]
      Prints one tab-separated line: NAME sites safe changed notes
      sites/changed come from the first lines of `ompi-opt --summary-from`
      (summed over the programs given); safe = changed sites + the distinct
      communication call sites (file:line) that are not changed and have at
      least one declined change whose "why" contains "machine profile".
  count.py table ROWS.tsv
      Prints the table with per-app and total percentages.
"""
import json
import re
import sys


def summary_counts(path):
    text = open(path).read()
    m = re.search(r"summary:\s+(\d+) communication call sites", text)
    c = re.search(r"^\s*(\d+)\s+\d+%\s+changed\s*$", text, re.M)
    if not m or not c:
        sys.exit("count.py: cannot read the summary in " + path)
    return int(m.group(1)), int(c.group(1))


def json_sets(path):
    d = json.load(open(path))
    calls = {(c["file"], c["line"]) for f in d["files"] for c in f.get("calls", [])}
    changed, profile = set(), set()
    for f in d["files"]:
        for ch in f.get("changes", []):
            sites = [(ch["file"], ch["line"])]
            sites += [(ch["file"], a[0]) for a in ch.get("also", []) or []]
            sites = [s for s in sites if s in calls]  # force points etc. are not call sites
            if ch.get("applied"):
                changed.update(sites)
            elif "machine profile" in ch.get("why", ""):
                profile.update(sites)
    return changed, profile


def row(name, pairs):
    sites = changed = safe = 0
    notes = []
    for summ, js in pairs:
        s, c = summary_counts(summ)
        ch_set, prof_set = json_sets(js)
        if len(ch_set) != c:
            notes.append("%s: summary says %d changed, JSON applied changes cover %d sites"
                         % (js, c, len(ch_set)))
        sites += s
        changed += c
        safe += c + len(prof_set - ch_set)
    print("\t".join([name, str(sites), str(safe), str(changed), "; ".join(notes)]))


def pct(a, b):
    return "%5.1f%%" % (100.0 * a / b) if b else "   - "


def table(path):
    rows = [l.rstrip("\n").split("\t") for l in open(path) if l.strip()]
    hdr = "%-10s %7s %15s %15s" % ("app", "sites", "proved safe", "changed")
    print(hdr)
    print("-" * len(hdr))
    ts = tp = tc = 0
    for r in rows:
        n, s, p, c = r[0], int(r[1]), int(r[2]), int(r[3])
        ts, tp, tc = ts + s, tp + p, tc + c
        print("%-10s %7d %6d (%s) %6d (%s)" % (n, s, p, pct(p, s), c, pct(c, s)))
    print("-" * len(hdr))
    print("%-10s %7d %6d (%s) %6d (%s)" % ("TOTAL", ts, tp, pct(tp, ts), tc, pct(tc, ts)))
    for r in rows:
        if len(r) > 4 and r[4]:
            print("note %s: %s" % (r[0], r[4]))


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "row" and len(sys.argv[3:]) % 2 == 0:
        a = sys.argv[3:]
        row(sys.argv[2], list(zip(a[0::2], a[1::2])))
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.exit(__doc__)
