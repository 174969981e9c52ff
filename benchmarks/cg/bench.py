#!/usr/bin/env python3
"""CG benchmark (issue 15, the OMPI paper's application core): conjugate
gradients on the 2-D Poisson matrix of a P x Q process grid, N x N points
per rank (cg.c), whose east and west halo columns travel as
MPI_Type_vector through MPI_Sendrecv, built with plain mpicc and with
ompi-cc (datatype-templates where the machine profile measured them
winning); time per iteration and of the halo exchange alone, medians of
alternating runs and the median of the per-repetition ratios. The residuals
the two builds print must agree.

  bench.py [--sizes 32,64,128,256,512] [--iters 2000] [--reps 7] [--np 2] [--mpi mpich|openmpi]
           [--out DIR] [--profile FILE] [--runtime]

--iters is the iterations at N = 128, scaled by 128^2 / N^2 (at least 20).
--runtime builds the programs with the size read from the command line
(-DRUNTIME_N), so the datatypes' shapes are known only at run time (the
templates' run-time form, its shape recorded when the type is built).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import sized_main  # noqa: E402


def main():
    return sized_main(__doc__, "cg", os.path.join(HERE, "cg.c"), "32,64,128,256,512", 2000,
                      lambda a, n: max(20, a.iters * 128 ** 2 // n ** 2), lambda n: n * 8,
                      "CG on the 2-D Poisson matrix, %s, %d ranks, median of %d runs (microseconds per iteration; "
                      "N: local N x N; message: one halo column)", link=["-lm"])


if __name__ == "__main__":
    sys.exit(main())
