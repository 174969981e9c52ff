#!/usr/bin/env python3
"""Fit the one-node SMPI platform to a machine's calib.c measurements
(issue 48): a grid search over the loopback latency, the per-message send
and receive overheads (smpi/os, smpi/or), the loopback bandwidth and SMPI's
collective selector, each candidate simulated with calib.c at the measured
rank count; the score is the root mean square of log(simulated / measured)
over the fitted points (ping-pong latency and bandwidth, MPI_Barrier,
MPI_Alltoall of 8 bytes and MPI_Allreduce of 8 bytes, as the issue names
them). Writes the best platform (node16.xml's form) and prints every point
side by side.

  fit.py MEASURED.jsonl [--out node16.xml] [--calib PROG] [--quick]

PROG is calib.c built with smpicc (built into a temporary directory when
not given). --quick searches a smaller grid (for a test).
"""
import argparse
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FITTED = [("pingpong", 0), ("pingpong", 1048576), ("barrier", 0), ("alltoall", 8), ("allreduce", 8)]

# SMPI's options that every platform sets: the per-message overheads (send,
# nonblocking send, receive; piecewise "size:seconds:seconds-per-byte"), no
# correction factors on latency and bandwidth, the collective algorithms.
CONFIG = """  <config>
    <prop id="smpi/os" value="{os}"/>
    <prop id="smpi/or" value="{or_}"/>
    <prop id="smpi/ois" value="{ois}"/>
    <prop id="smpi/bw-factor" value="0:1"/>
    <prop id="smpi/lat-factor" value="0:1"/>
    <prop id="smpi/coll-selector" value="{sel}"/>
  </config>
"""

TEMPLATE = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- {title}
     Fitted by benchmarks/platforms/fit.py to {source}
     (calib.c on {ranks} ranks); rms log error {score:.3f} over the fitted points.
     Every figure here is an assumption of the model, not a property SMPI measures:
       {lat_us} us latency between two cores, and {bw_gbs} GB/s for one transfer (link "core",
       which every transfer crosses without sharing it);
       {mem_gbs} GB/s for all the node's transfers together (link "memory", shared by them:
       the aggregate of the measured 16-rank MPI_Alltoall of 64 KiB per pair);
       {os_us} us of a rank's time to send a message (blocking or not) and {or_us} us to receive one
       (smpi/os, smpi/ois, smpi/or);
       MPI's collectives as SMPI's '{selector}' algorithms.
     Computation is measured on the host that runs the simulation and taken at face value
     (scripts/simrun sets smpi/host-speed to the platform's speed). -->
<platform version="4.1">
{config}  <zone id="world" routing="Full">
    <host id="node-0" speed="1Gf" core="16"/>
    <link id="core" bandwidth="{bw_gbs}GBps" latency="{lat_us}us" sharing_policy="FATPIPE"/>
    <link id="memory" bandwidth="{mem_gbs}GBps" latency="0us"/>
    <route src="node-0" dst="node-0"><link_ctn id="core"/><link_ctn id="memory"/></route>
  </zone>
</platform>
"""

def points(lines):
    """calib.c's JSON lines: microseconds by (op, bytes); ping-pong between neighbouring cores only."""
    pts = {}
    for line in lines:
        line = line.strip()
        if line.startswith("{"):
            d = json.loads(line)
            if d["op"] == "pingpong" and d.get("pair") != "near":
                continue
            pts[(d["op"], d["bytes"])] = d["us"]
    return pts


def load(path):
    with open(path) as f:
        return points(f)


def platform(p, title="One 16-core node (platform a of issue 48).", source="", ranks=16, score=0.0):
    return TEMPLATE.format(title=title, source=source, ranks=ranks, score=score, lat_us=p["lat"], bw_gbs=p["bw"],
                           mem_gbs=p["mem"], os_us=p["os"], or_us=p["or"], selector=p["selector"],
                           config=CONFIG.format(os="0:%.3g:0" % (p["os"] * 1e-6), or_="0:%.3g:0" % (p["or"] * 1e-6),
                                                ois="0:%.3g:0" % (p["os"] * 1e-6), sel=p["selector"]))


def simulate(p, calib, ranks, tmp):
    xml = os.path.join(tmp, "cand.xml")
    with open(xml, "w") as f:
        f.write(platform(p))
    hosts = os.path.join(tmp, "hosts")
    with open(hosts, "w") as f:
        f.write("node-0\n" * ranks)
    out = subprocess.run(["smpirun", "-np", str(ranks), "-platform", xml, "-hostfile", hosts,
                          "--cfg=smpi/simulate-computation:no", "--log=root.thresh:error", calib, "1", "20"],
                         capture_output=True, text=True, timeout=300)
    return points(out.stdout.splitlines())


def score(sim, meas):
    errs = [math.log(sim[k] / meas[k]) for k in FITTED if k in sim and k in meas and sim[k] > 0 and meas[k] > 0]
    return math.sqrt(sum(e * e for e in errs) / len(errs)) if errs else float("inf")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("measured")
    ap.add_argument("--out", default=os.path.join(HERE, "node16.xml"))
    ap.add_argument("--calib")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    meas = load(a.measured)
    ranks = 16
    with tempfile.TemporaryDirectory() as tmp:
        calib = a.calib
        if not calib:
            calib = os.path.join(tmp, "calib")
            subprocess.run(["smpicc", "-O2", "-o", calib, os.path.join(HERE, "calib.c")], check=True,
                           capture_output=True)
        # one transfer's bandwidth: the ping-pong's best; the node's: the 16-rank all-to-all's
        bw = round(max(b / meas[("pingpong", b)] for b in (65536, 1048576, 4194304) if meas.get(("pingpong", b))) / 1e3)
        a2a = meas.get(("alltoall", 65536))
        mem = round(ranks * (ranks - 1) * 65536 / a2a / 1e3) if a2a else 4 * bw
        if a.quick:
            grid = {"lat": [0.1], "os": [0.15, 0.3], "selector": ["mpich"]}
        else:
            grid = {"lat": [0.05, 0.1, 0.2, 0.3], "os": [0.1, 0.2, 0.3, 0.45, 0.6, 0.9],
                    "selector": ["mpich", "ompi", "default"]}
        best = None
        for lat, o, sel in itertools.product(grid["lat"], grid["os"], grid["selector"]):
            p = {"lat": lat, "os": o, "or": o, "bw": bw, "mem": mem, "selector": sel}
            sim = simulate(p, calib, ranks, tmp)
            s = score(sim, meas)
            if best is None or s < best[0]:
                best = (s, p, sim)
        s, p, sim = best
    with open(a.out, "w") as f:
        f.write(platform(p, source=os.path.relpath(a.measured, HERE), ranks=ranks, score=s))
    print("fitted: %s (rms log error %.3f) -> %s" % (p, s, a.out))
    print("%-10s %9s %12s %12s %7s" % ("op", "bytes", "measured_us", "simulated_us", "ratio"))
    for k in sorted(meas):
        if k in sim:
            print("%-10s %9d %12.3f %12.3f %7.2f%s" % (k[0], k[1], meas[k], sim[k], sim[k] / meas[k],
                                                      "  (fitted)" if k in FITTED else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
