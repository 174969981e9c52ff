#!/usr/bin/env python3
"""PNG plots of the simulated benchmark tables (scripts/simulate --plot).

  plot.py SIMDIR OUTDIR

SIMDIR holds one folder per section with the tables scripts/simulate wrote
(SECTION-...-smpi-npP.md). For each section with tables at two or more rank
counts, OUTDIR/sim-SECTION.png plots time against ranks, the MPI's or the
original build against ours; every plot says "simulated" and names the
platform rule. Sections without data are skipped with a line saying so.
"""
import glob
import os
import re
import sys


def tables(path):
    """The Markdown tables of one file: lists of row dicts keyed by header."""
    out, head = [], None
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            head = None
            continue
        if head is None:
            head = cells
            out.append([])
        elif not set(line.strip()) <= set("|-: "):
            out[-1].append(dict(zip(head, cells)))
    return out


def number(text):
    m = re.match(r"[~]?(-?[0-9.]+(?:e[-+]?[0-9]+)?)", text or "")
    return float(m.group(1)) if m else None


def by_ranks(section_dir, pattern):
    """{ranks: path} for the tables of one section matching pattern."""
    res = {}
    for path in glob.glob(os.path.join(section_dir, pattern)):
        m = re.search(r"-np(\d+)\.md$", path)
        if m:
            res[int(m.group(1))] = path
    return dict(sorted(res.items()))


def series_alltoallv(d):
    runs = by_ranks(d, "alltoallv-rpn0-auto-smpi-np*.md")
    s = {}
    for p, path in runs.items():
        for row in tables(path)[0]:
            for col, name in (("MPI_Alltoallv", "MPI_Alltoallv"), ("planned", "planned")):
                s.setdefault("%s, %s" % (row["case"], name), {})[p] = number(row[col])
    return s, "us per call"


def series_bsp(d):
    s = {}
    for p, path in by_ranks(d, "bsp-smpi-np*.md").items():
        text = open(path).read()
        rows = {r["operation"]: r for r in tables(path)[0]}
        s.setdefault("empty superstep (bsp_sync)", {})[p] = number(rows["bsp_put"]["empty superstep (us)"])
        m = re.search(r"MPI_Barrier ([0-9.]+) us, MPI_Alltoall \(one word per pair\) ([0-9.]+) us", text)
        if m:
            s.setdefault("MPI_Barrier", {})[p] = float(m.group(1))
            s.setdefault("MPI_Alltoall, one word", {})[p] = float(m.group(2))
    return s, "us"


def series_plankton(d):
    s = {}
    for p, path in by_ranks(d, "plankton-smpi-np*.md").items():
        for row in tables(path)[0]:
            s.setdefault(row["build"], {})[p] = number(row["seconds"])
    return s, "seconds (whole run)"


def series_variance(d):
    s = {}
    for p, path in by_ranks(d, "variance-smpi-np*.md").items():
        rows = tables(path)[0]
        row = rows[-1]  # the largest N
        for col in ("original", "hand-fused", "ompi-cc (static)", "ompi-cc (deferred)"):
            s.setdefault("%s, N = %s" % (col, row["N"]), {})[p] = number(row[col])
    return s, "seconds per pass"


def series_stencil(name):
    """halo and cg: plain against ompi-cc per local size N."""
    def series(d):
        s = {}
        for p, path in by_ranks(d, "%s-smpi-np*.md" % name).items():
            for line in open(path):  # | N | bytes | plain | ompi-cc | ... (the exchange's columns repeat the names)
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if line.startswith("|") and len(cells) > 3 and re.match(r"^[0-9]+$", cells[0]):
                    for col, text in (("plain", cells[2]), ("ompi-cc", cells[3])):
                        s.setdefault("%s, N = %s" % (col, cells[0]), {})[p] = number(text)
        return s, "us per iteration (whole iteration)"
    return series


def series_reduce(d):
    """MPI's call against the selector (its ratio times the MPI's time), per
    collective and vector size."""
    s = {}
    for p, path in by_ranks(d, "reduce-smpi-np*.md").items():
        colls = re.findall(r"^(\w+), \d+% zeros:", open(path).read(), re.M)
        for coll, rows in zip(colls, tables(path)):
            for row in rows:
                mpi, ratio = number(row["MPI us"]), number(row["selector"])
                mib = "%g MiB" % (int(row["floats"]) * 4 / 2 ** 20)
                s.setdefault("MPI_%s, %s" % (coll.capitalize(), mib), {})[p] = mpi
                s.setdefault("ompi-cc selector (%s), %s" % (coll, mib), {})[p] = mpi * ratio
    return s, "us per call"


SECTIONS = {"alltoallv": series_alltoallv, "reduce": series_reduce, "bsp": series_bsp, "plankton": series_plankton,
            "variance": series_variance, "halo": series_stencil("halo"), "cg": series_stencil("cg")}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py SIMDIR OUTDIR")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot: matplotlib is not installed (pip install matplotlib)")
    simdir, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    for name, fn in SECTIONS.items():
        d = os.path.join(simdir, name)
        series, unit = fn(d) if os.path.isdir(d) else ({}, "")
        ranks = sorted({p for v in series.values() for p in v})
        if len(ranks) < 2:
            print("plot: %s: tables at fewer than two rank counts in %s; skipped" % (name, d))
            continue
        fig, ax = plt.subplots(figsize=(7, 4.5))
        colours = {}
        for label, pts in series.items():
            xs = [p for p in ranks if pts.get(p) is not None]
            if len(xs) < 2:
                continue  # a case run at one rank count only
            ours = any(k in label for k in ("planned", "ompi-cc", "bsp_sync"))
            case = label.rsplit(", ", 1)[0] if name == "alltoallv" else label  # one colour per case
            if name == "reduce":  # the MPI's call and the selector's of one collective and size
                case = re.sub(r"^MPI_|^ompi-cc selector \(|\)", "", label).lower()
            colour = colours.setdefault(case, "C%d" % len(colours))
            ax.plot(xs, [pts[p] for p in xs], marker="o", color=colour, linestyle="-" if ours else "--",
                    label=label)
        ax.set_xscale("log", base=2)
        if name == "reduce":  # sizes 16x apart
            ax.set_yscale("log")
        ax.set_xticks(ranks)
        ax.set_xticklabels([str(p) for p in ranks])
        ax.set_xlabel("ranks (simulated; 16 per node)")
        ax.set_ylabel(unit)
        ax.set_title("%s: simulated (SimGrid SMPI; node16 up to 16 ranks, clusterN above)" % name, fontsize=10)
        ax.legend(fontsize=7)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        out = os.path.join(outdir, "sim-%s.png" % name)
        fig.savefig(out, dpi=100)
        plt.close(fig)
        print("plot: %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
