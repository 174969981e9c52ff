#!/usr/bin/env python3
"""Write the SMPI platform of a cluster of N 16-core nodes (platform b of
issue 48) on standard output: the nodes of node16.xml (its latency, bandwidth
and per-message overheads between two cores of a node) joined by a two-level
fat-tree of an InfiniBand-class network.

  cluster.py NODES > clusterNODES.xml

Every figure is an assumption, named in the file's comment."""
import os
import re
import sys

from fit import CONFIG

HERE = os.path.dirname(os.path.abspath(__file__))


def node_params():
    s = open(os.path.join(HERE, "node16.xml")).read()
    get = lambda pat: re.search(pat, s).group(1)
    return {"lat": get(r'link id="core" bandwidth="[^"]*" latency="([^"]*)"'),
            "bw": get(r'link id="core" bandwidth="([^"]*)"'),
            "os": get(r'smpi/os" value="([^"]*)"'), "or": get(r'smpi/or" value="([^"]*)"'),
            "ois": get(r'smpi/ois" value="([^"]*)"'), "sel": get(r'smpi/coll-selector" value="([^"]*)"')}


def fat_tree(n):
    """topo_parameters: one switch for up to 16 nodes; else leaf switches of
    8 (or 16) nodes, each with half as many uplinks to core switches (2:1)."""
    if n <= 16:
        return "1;%d;1;1" % n, "one switch"
    leaf = 8 if n <= 64 else 16
    leaves = (n + leaf - 1) // leaf
    return "2;%d,%d;1,%d;1,1" % (leaf, leaves, leaf // 2), \
        "%d leaf switches of %d nodes, each with %d uplinks to %d core switches (2:1 over-subscribed)" % (
            leaves, leaf, leaf // 2, leaf // 2)


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.stderr.write("usage: cluster.py NODES\n")
        return 2
    n = int(sys.argv[1])
    p = node_params()
    topo, shape = fat_tree(n)
    print("""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- {n} nodes of 16 cores (platform b of issue 48), written by benchmarks/platforms/cluster.py.
     Assumptions, none of them measured here:
       between two cores of a node: node16.xml's fit ({lat} latency, {bw} per transfer, the same
       per-message overheads), but the node's transfers together are not limited (a cluster's
       loopback link is not shared: on-node memory bandwidth is the model's known weak point);
       each node: one 100 Gb/s InfiniBand-class link (12.5 GB/s, 1 us) to its leaf switch;
       the fabric: a fat-tree, {shape}, links as the nodes'.
     MPI's collectives as SMPI's 'mpich' selector picks them (MPICH's choice of algorithm by
       message size and rank count; node16's fit keeps '{sel}', which matches one node better,
       but at 256 ranks 'default' changes algorithm with the element count and the op in ways
       no MPI does: a composite reduction of 8 bytes cost 430 us more than two builtin ones). -->
<platform version="4.1">
{config}  <zone id="world" routing="Full">
    <cluster id="cluster" prefix="node-" suffix="" radical="0-{last}" core="16" speed="1Gf"
             bw="12.5GBps" lat="1us" loopback_bw="{bw}" loopback_lat="{lat}"
             topology="FAT_TREE" topo_parameters="{topo}"/>
  </zone>
</platform>""".format(n=n, lat=p["lat"], bw=p["bw"], shape=shape, sel=p["sel"], last=n - 1, topo=topo,
                      config=CONFIG.format(os=p["os"], or_=p["or"], ois=p["ois"], sel="mpich")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
