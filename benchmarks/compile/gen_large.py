#!/usr/bin/env python3
"""gen_large.py [FUNCS] > big.c: a large MPI C file as solvers are written
(default 500 functions, about 22,000 lines and 2,000 MPI calls): each
function computes local sums in loops, reduces them (some fusable, some
deferrable, some read at once), exchanges a halo and branches on the
results. main() calls every function and prints a checksum, so the file is
also a runnable program (exact integer data)."""
import sys

FUNCS = int(sys.argv[1]) if len(sys.argv) > 1 else 500

print("""#include <mpi.h>
#include <stdio.h>

#define N 64
static double field[N + 2];
static double g_total[%d], g_peak[%d];
static long g_count[%d];
""" % (FUNCS, FUNCS, FUNCS))

for f in range(FUNCS):
    print("""
/* Step %(f)d of the solver: local work, reductions, a halo exchange. */
static double step_%(f)d(int rank, int size) {
  double local = 0.0, peak = 0.0, sum = 0.0, top = 0.0;
  long n = 0, total = 0;
  int i;
  for (i = 1; i <= N; i++) {
    double v = field[i] + (double)((i * %(m)d + rank) %% 7);
    local += v;
    if (v > peak)
      peak = v;
    n += (long)v %% 3;
  }
  for (i = 1; i <= N; i++)
    field[i] = (double)(((long)field[i] + i + %(f)d) %% 11);
  /* More local work, as real steps have: a smoothing pass and a clamp. */
  for (i = 2; i < N; i++) {
    double left = field[i - 1], right = field[i + 1];
    double mid = (left + right) / 2.0;
    if (mid > 9.0)
      mid = 9.0;
    else if (mid < 0.0)
      mid = 0.0;
    field[i] = (double)((long)(field[i] + mid) %% 13);
  }
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&n, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Sendrecv(&field[1], 1, MPI_DOUBLE, (rank + size - 1) %% size, %(f)d, &field[N + 1], 1, MPI_DOUBLE,
               (rank + 1) %% size, %(f)d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Allreduce(&peak, &g_peak[%(f)d], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  g_count[%(f)d] = total;
  if (sum > 1e12) {
    top = sum;
    field[0] = top;
  }
  for (i = 0; i < 3; i++) {
    field[i + 1] += (double)(total %% 5);
    field[i + 2] -= (double)(total %% 3);
  }
  g_total[%(f)d] = sum + (double)total;
  return sum;
}""" % {"f": f, "m": (f % 13) + 1})

print("""
int main(int argc, char **argv) {
  int rank, size, i;
  double check = 0.0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < N + 2; i++)
    field[i] = (double)(i % 5);""")
for f in range(FUNCS):
    print("  check += step_%d(rank, size);" % f)
print("""  for (i = 0; i < %d; i++)
    check += g_total[i] + g_peak[i] + (double)g_count[i];
  if (rank == 0)
    printf("checksum %%.1f\\n", check);
  MPI_Finalize();
  return 0;
}""" % FUNCS)
