#!/usr/bin/env python3
"""Halo benchmark (issue 15): a 3-D 7-point Jacobi stencil whose six faces
travel as MPI_Type_vector / MPI_Type_contiguous datatypes through
MPI_Sendrecv (halo.c), built with plain mpicc and with ompi-cc
(datatype-templates: the faces packed and unpacked by compiled loops where
the machine profile measured them winning), for each local size N^3, both
builds run alternately; medians, and the median of the per-repetition
ratios (total time per iteration, and the exchange alone). The checksums of
the two builds must agree.

  bench.py [--sizes 16,32,48,64] [--iters 200] [--reps 7] [--np 2] [--mpi mpich|openmpi] [--out DIR]
           [--profile FILE] [--runtime] [--nonblocking | --subarray]

--iters is the iterations at N = 32, scaled by 32^3 / N^3 (at least 10).
--profile builds the ompi-cc programs with that machine profile
(ompi-cc --ompi-profile=FILE) instead of the one the build ships.
--runtime builds the programs with the size read from the command line
(-DRUNTIME_N), so the datatypes' shapes are known only at run time (the
templates' run-time form, its shape recorded when the type is built).
--nonblocking exchanges each dimension's faces through MPI_Irecv/MPI_Isend
and one MPI_Waitall (-DNONBLOCKING: the nonblocking templates).
--subarray describes each face as a 3-D subarray of the whole array, its
place in the starts (-DSUBARRAY: twelve types; with --runtime, the
subarrays' shapes recorded at run time).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import sized_main  # noqa: E402


def main():
    return sized_main(__doc__, "halo", os.path.join(HERE, "halo.c"), "16,32,48,64", 200,
                      lambda a, n: max(10, a.iters * 32 ** 3 // n ** 3), lambda n: (n + 2) * (n + 2) * 8,
                      "Halo exchange + 7-point stencil, %s, %d ranks, median of %d runs (microseconds per "
                      "iteration; N: local N^3; message: one face)", nonblocking=True, subarray=True)


if __name__ == "__main__":
    sys.exit(main())
