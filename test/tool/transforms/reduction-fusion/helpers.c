// reduction-fusion of calls of helpers that return one reduction's result
// (analysis/ReductionHelpers.h): rr = norm2(r); rq = dot(r, q); run variants
// of the helpers that return this rank's contribution where the calls were,
// and one collective delivers both results where the last call was. Negative
// cases say why the tool leaves the calls alone. The program prints the same
// through ompi-cc (e2e fusion-helpers.*).
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=LATER %s
// RUN: %ompi-opt --transforms=reduction-fusion %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>

#define N 8
static int rank;
static double last;

static double dot(const double *x, const double *y, int n) {
  double s = 0, g;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}
// The variant follows its helper:
// SRC:/* ompi-opt: dot up to its reduction, returning this rank's contribution (the fused reductions deliver the result) */
// SRC-NEXT:static double mpiopt_part1_dot(const double *x, const double *y, int n) {
// SRC-NEXT:  double s = 0, g;
// SRC-NEXT:  for (int i = 0; i < n; i++)
// SRC-NEXT:    s += x[i] * y[i];
// SRC-NEXT:  (void)dot;
// SRC-NEXT:  (void)x;
// SRC-NEXT:  (void)y;
// SRC-NEXT:  (void)n;
// SRC-NEXT:  (void)g;
// SRC-NEXT:  return s;
// SRC-NEXT:}

static double norm2(const double *x, int n) {
  double s = 0, g;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

static long maxabs(const long *v, int n) {
  long m = 0, g;
  for (int i = 0; i < n; i++)
    m = v[i] > m ? v[i] : (-v[i] > m ? -v[i] : m);
  MPI_Allreduce(&m, &g, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  return g;
}

static long minv(const long *v, int n) {
  long m = v[0], g;
  for (int i = 1; i < n; i++)
    m = v[i] < m ? v[i] : m;
  MPI_Allreduce(&m, &g, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  return g;
}

// Not splittable: a static local (the variant would count apart).
static double counted(double x) {
  static int calls = 0;
  double g;
  x += ++calls;
  MPI_Allreduce(&x, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

// The input may be a parameter.
static double total(double x) {
  double g;
  MPI_Allreduce(&x, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

// Reads the global last, which a call before it may have to deliver.
static double reads_last(const double *x, int n) {
  double s = last, g;
  for (int i = 0; i < n; i++)
    s += x[i];
  MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

static double later(double x);
// SRC:static double later(double x);
// SRC-NEXT:static double mpiopt_part7_later(double x);

int main(int argc, char **argv) {
  double r[N], q[N], rr, rq, a, b;
  long v[N];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < N; i++) {
    r[i] = rank + i;
    q[i] = 1.0 / (i + 1);
    v[i] = (rank * 7 + i * 3) % 11 - 5;
  }
  for (int it = 0; it < 3; it++) {
    // REPORT: {{.*}}helpers.c:[[#@LINE+8]]:10: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+7]], [[#@LINE+8]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (norm2(...) -> rr, dot(...) -> rq); nothing in between); saves 1 collective per execution
    // SRC:    mpiopt_fuse1_buf[0] = mpiopt_part2_norm2(r, N);
    // SRC-NEXT:    { /* ompi-opt: 2 MPI_Allreduce calls (lines [[#@LINE+5]], [[#@LINE+6]]) fused into one */
    // SRC-NEXT:      mpiopt_fuse1_buf[1] = mpiopt_part1_dot(r, q, N);
    // SRC-NEXT:      MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // SRC-NEXT:      rr = mpiopt_fuse1_buf[0];
    // SRC-NEXT:      rq = mpiopt_fuse1_buf[1];
    rr = norm2(r, N);
    rq = dot(r, q, N);
    double both = rr + rq;
    // Declarations, and MIN with MAX in one MPI_MAX.
    // REPORT: {{.*}}helpers.c:[[#@LINE+9]]:15: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+8]], [[#@LINE+9]]) into one of 2 x MPI_LONG with MPI_MAX on MPI_COMM_WORLD {{.*}}
    // SRC:    long hi = (mpiopt_fuse2_buf[0] = mpiopt_part3_maxabs(v, N), 0);
    // SRC-NEXT:    long lo = (mpiopt_fuse2_buf[1] = (long)~(mpiopt_part4_minv(v, N)), 0);
    // SRC-NEXT:    { /* ompi-opt: 2 MPI_Allreduce calls (lines [[#@LINE+5]], [[#@LINE+6]]) fused into one */
    // SRC-NEXT:      MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse2_buf, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    // SRC-NEXT:      hi = mpiopt_fuse2_buf[0];
    // SRC-NEXT:      lo = (long)~mpiopt_fuse2_buf[1];
    // SRC-NEXT:    }
    long hi = maxabs(v, N);
    long lo = minv(v, N);
    if (rank == 0)
      printf("%d: %g %g %g %ld %ld\n", it, rr, rq, both, hi, lo);
    r[it] += 1;
  }
  // Negative: counted() keeps a static local.
  // REPORT: {{.*}}helpers.c:[[#@LINE+1]]:7: reduction-fusion: not done: counted() not fused (it cannot be split into a local part and the reduction whose result it returns: it has a static local, calls)
  a = counted(1.0);
  // Negative: the second call's argument is the first one's result.
  double e = dot(r, q, N);
  // REPORT: {{.*}}helpers.c:[[#@LINE+1]]:14: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-1]]: it uses e, the result of the call at line [[#@LINE-1]])
  double f = total(e);
  // Negative: reads_last() reads last, the first call's result.
  // REPORT: {{.*}}helpers.c:[[#@LINE+2]]:14: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+1]]: reads_last may use last, the result of the call at line [[#@LINE+1]])
  last = dot(r, r, N);
  double c = reads_last(q, N);
  // later() is defined after main: its variant is declared after its own
  // prototype. (It joins reads_last(), whose result it does not read.)
  // LATER: {{.*}}helpers.c:[[#@LINE+1]]:7: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-3]], [[#@LINE+1]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD {{.*}}
  b = later(a);
  if (rank == 0)
    printf("%g %g %g %g %g\n", a, b, c, e, f);
  MPI_Finalize();
  return 0;
}

static double later(double x) {
  double g;
  MPI_Allreduce(&x, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}
