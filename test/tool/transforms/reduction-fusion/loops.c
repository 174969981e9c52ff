// reduction-fusion of element-wise reduction loops: a loop whose body is one
// reduction of element k (for (k = A; k < B; k++) MPI_Allreduce(&x[k], &y[k],
// 1, ...)) becomes one reduction of the range; the counter ends as the loop
// leaves it, and a range over 2^31 - 1 elements runs the original loop.
// Negative cases say why the tool leaves the loop alone. The program prints
// the same through ompi-cc (e2e fusion-loops.*).
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=reduction-fusion %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>

#define N 6
static int rank;
#define say(...) (void)(rank == 0 && printf(__VA_ARGS__))

// A counter declared outside the loop gets the value the loop leaves.
static void sums(int n) {
  double loc[N], glob[N];
  int k;
  for (k = 0; k < N; k++)
    loc[k] = rank + k;
  // REPORT: {{.*}}loops.c:[[#@LINE+13]]:5: reduction-fusion: fused the 1-element MPI_Allreduce of each iteration of the loop at line [[#@LINE+12]] into one MPI_Allreduce of the range (&loc[k] -> &glob[k] for k = 0; k < n) (the loop body is the call alone, and every rank runs the loop alike; the counter is a local only the loop's header sets, the bounds have no side effects and the reduction writes nothing they read; element k is k elements from each buffer's start, so the range is contiguous; the result is an object the input is not; over 2^31 - 1 elements the original loop runs; floating-point MPI_SUM: for the longer message the MPI library may combine the ranks in another order (last-bit differences from 3 ranks on)); saves all but one collective per execution of the loop
  // SRC:  { /* ompi-opt: the MPI_Allreduce of each iteration (line [[#@LINE+12]]) fused into one on the range */
  // SRC-NEXT:    long long mpiopt_loop1_first = (int)(0), mpiopt_loop1_end = (long long)(n);
  // SRC-NEXT:    if (mpiopt_loop1_end > mpiopt_loop1_first && (unsigned long long)mpiopt_loop1_end - (unsigned long long)mpiopt_loop1_first > 2147483647u) {
  // SRC-NEXT:      for (k = 0; k < n; k++)
  // SRC-NEXT:        MPI_Allreduce(&loc[k], &glob[k], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // SRC-NEXT:    } else if (mpiopt_loop1_first < mpiopt_loop1_end) {
  // SRC-NEXT:      MPI_Allreduce(&(loc)[mpiopt_loop1_first], &(glob)[mpiopt_loop1_first], (int)(mpiopt_loop1_end - mpiopt_loop1_first), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // SRC-NEXT:    }
  // SRC-NEXT:    if (!(mpiopt_loop1_end > mpiopt_loop1_first && (unsigned long long)mpiopt_loop1_end - (unsigned long long)mpiopt_loop1_first > 2147483647u))
  // SRC-NEXT:      k = (int)(mpiopt_loop1_first < mpiopt_loop1_end ? mpiopt_loop1_end : mpiopt_loop1_first);
  // SRC-NEXT:  }
  for (k = 0; k < n; k++)
    MPI_Allreduce(&loc[k], &glob[k], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  say("sums k=%d %g %g\n", k, glob[0], glob[n - 1]);
}

// MPI_IN_PLACE, x + k, <=, ++i, braces, a counter of the loop's own.
static void inplace(void) {
  long cnt[N];
  for (int i = 0; i < N; i++)
    cnt[i] = rank * i;
  // REPORT: {{.*}}loops.c:[[#@LINE+3]]:5: reduction-fusion: fused the 1-element MPI_Allreduce of each iteration of the loop at line [[#@LINE+2]] into one MPI_Allreduce of the range (MPI_IN_PLACE -> cnt + i for i = 1; i <= N - 1) {{.*}}
  // SRC:      MPI_Allreduce(MPI_IN_PLACE, &(cnt)[mpiopt_loop2_first], (int)(mpiopt_loop2_end - mpiopt_loop2_first), MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 1; i <= N - 1; ++i) {
    MPI_Allreduce(MPI_IN_PLACE, cnt + i, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  }
  say("inplace %ld %ld %ld\n", cnt[0], cnt[1], cnt[N - 1]);
}

// MPI_Reduce with a static root; j += 1; a bound from a parameter.
static void rooted(int first) {
  int a[N] = {1, 2, 3, 4, 5, 6}, r[N] = {0};
  int j;
  // REPORT: {{.*}}loops.c:[[#@LINE+3]]:5: reduction-fusion: fused the 1-element MPI_Reduce of each iteration of the loop at line [[#@LINE+2]] into one MPI_Reduce of the range (&a[j] -> &r[j] for j = first; j < N) {{.*}}
  // SRC:      MPI_Reduce(&(a)[mpiopt_loop3_first], &(r)[mpiopt_loop3_first], (int)(mpiopt_loop3_end - mpiopt_loop3_first), MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  for (j = first; j < N; j += 1)
    MPI_Reduce(&a[j], &r[j], 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  say("rooted j=%d %d %d\n", j, r[0], r[N - 1]);
}

// A restrict result: no element of the input can be one of its elements.
static void pointers(double *restrict out, const double *in, int n) {
  // REPORT: {{.*}}loops.c:[[#@LINE+2]]:5: reduction-fusion: fused the 1-element MPI_Allreduce of each iteration of the loop at line [[#@LINE+1]] into one MPI_Allreduce of the range (&in[k] -> &out[k] for k = 0; k < n) {{.*}}
  for (int k = 0; k < n; k++)
    MPI_Allreduce(&in[k], &out[k], 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
}

// A row of a two-dimensional array.
static void twodim(void) {
  int m[3][N], g[3][N];
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < N; k++)
      m[i][k] = i * k + rank;
  for (int i = 0; i < 3; i++)
    // REPORT: {{.*}}loops.c:[[#@LINE+2]]:7: reduction-fusion: fused the 1-element MPI_Allreduce of each iteration of the loop at line [[#@LINE+1]] into one MPI_Allreduce of the range (&m[i][k] -> &g[i][k] for k = 0; k < N) {{.*}}
    for (int k = 0; k < N; k++)
      MPI_Allreduce(&m[i][k], &g[i][k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  say("twodim %d %d\n", g[0][0], g[2][N - 1]);
}

// Negative: out may point into in (no restrict), so iteration k could read
// an element an earlier iteration wrote.
static void not_restrict(double *out, const double *in, int n) {
  // REPORT: {{.*}}loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused across the iterations of the loop at line [[#@LINE+1]] (the receive buffer out is neither an array of this file nor a restrict pointer, so its elements cannot be proved apart from the input's)
  for (int k = 0; k < n; k++)
    MPI_Allreduce(&in[k], &out[k], 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
}

// Negative: the elements are 16 bytes apart, not one MPI_DOUBLE.
static void strided(void) {
  struct {
    double v;
    int tag;
  } s[N];
  double g[N];
  for (int k = 0; k < N; k++)
    s[k].v = k, s[k].tag = 0;
  // REPORT: {{.*}}loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused across the iterations of the loop at line [[#@LINE+1]] (the buffers are not element k of an array of 8-byte elements (&x[k] or x + k))
  for (int k = 0; k < N; k++)
    MPI_Allreduce(&s[k].v, &g[k], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  say("strided %g\n", g[N - 1]);
}

// Negative: the body does more than the reduction (it is a block of two
// statements; static fusion of one call per iteration has nothing to join).
static void body_more(void) {
  int x[N], g[N];
  for (int k = 0; k < N; k++) {
    x[k] = k;
    MPI_Allreduce(&x[k], &g[k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  say("body_more %d\n", g[N - 1]);
}

// Negative: the bound reads the result, which the reduction changes.
static void bound_result(void) {
  int x[N] = {3, 3, 3, 3, 3, 3}, g[N] = {6, 6, 6, 6, 6, 6};
  // REPORT: {{.*}}loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused across the iterations of the loop at line [[#@LINE+1]] (the bound g[0] reads memory)
  for (int k = 0; k < g[0]; k++)
    MPI_Allreduce(&x[k], &g[k], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  say("bound_result %d\n", g[0]);
}

// Negative: iteration k reads x[k], which iteration k - 1 wrote.
static void overlap(void) {
  int x[N + 1] = {1, 2, 3, 4, 5, 6, 7};
  // REPORT: {{.*}}loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused across the iterations of the loop at line [[#@LINE+1]] (the buffers are not element k of an array of 4-byte elements (&x[k] or x + k))
  for (int k = 0; k < N; k++)
    MPI_Allreduce(&x[k], &x[k + 1], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  say("overlap %d\n", x[N]);
}

// Negative: only rank 0 runs the loop.
static void divergent(void) {
  int x[N] = {0}, g[N];
  if (rank == 0)
    // REPORT: {{.*}}loops.c:[[#@LINE+2]]:7: reduction-fusion: not done: MPI_Allreduce not fused across the iterations of the loop at line [[#@LINE+1]] (only some ranks may run the loop ({{.*}}))
    for (int k = 0; k < N; k++)
      MPI_Allreduce(&x[k], &g[k], 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
  say("divergent %d\n", g[0]);
}

// Negative: an unsigned counter.
static void unsigned_counter(void) {
  int x[N] = {0}, g[N];
  // REPORT: {{.*}}loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused across the iterations of the loop at line [[#@LINE+1]] (the counter k is not a local of a signed integer type)
  for (unsigned k = 0; k < N; k++)
    MPI_Allreduce(&x[k], &g[k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  say("unsigned_counter %d\n", g[0]);
}

int main(int argc, char **argv) {
  double in[N] = {1, 2, 3, 4, 5, 6}, out[N];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  sums(N - argc + 1);
  inplace();
  rooted(argc);
  in[2] = -rank;
  pointers(out, in, N);
  say("pointers %g %g\n", out[2], out[5]);
  not_restrict(out, in, N);
  say("not_restrict %g\n", out[2]);
  strided();
  twodim();
  body_more();
  bound_result();
  overlap();
  divergent();
  unsigned_counter();
  MPI_Finalize();
  return 0;
}
