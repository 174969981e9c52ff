// reduction-fusion of results reached through pointer parameters (a
// helper's out-parameters, as in stats(..., double *mn, double *mx)): such a
// pointer points to an object that existed when the helper was entered, so
// never to one of its automatic locals; with the inputs such locals and the
// calls consecutive statements, the fused call writes the results in call
// order, which leaves memory as the calls did even when two pointers alias.
// Negative cases say why the tool leaves the calls alone. The program prints
// the same through ompi-cc (e2e fusion-out-parameters.*).
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=reduction-fusion %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>

static int rank;

// The minimum and the maximum: one MPI_MAX, results through mn and mx. The
// double sum and the long count cannot share a collective exactly.
static void stats(const double *v, int n, double *hist, long *count, double *mn, double *mx) {
  double lh = 0, lmn = v[0], lmx = v[0];
  long lc = n;
  for (int i = 0; i < n; i++) {
    lh += v[i];
    lmn = v[i] < lmn ? v[i] : lmn;
    lmx = v[i] > lmx ? v[i] : lmx;
  }
  MPI_Allreduce(&lh, hist, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&lc, count, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  // REPORT: {{.*}}out-parameters.c:[[#@LINE+5]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+4]], [[#@LINE+5]]) into one of 2 x MPI_DOUBLE with MPI_MAX on MPI_COMM_WORLD (same communicator; MPI_MIN as MPI_MAX of the negation: min(x, y) = -max(-x, -y), exact for every IEEE value; distinct buffers (&lmn -> mn, &lmx -> mx); nothing in between); saves 1 collective per execution
  // SRC:    MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  // SRC-NEXT:    *(double *)(mn) = -mpiopt_fuse1_buf[0];
  // SRC-NEXT:    __builtin_memcpy(mx, &mpiopt_fuse1_buf[1], 1 * sizeof(double));
  MPI_Allreduce(&lmn, mn, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&lmx, mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

// Called with a == b: the second result wins, as with the calls.
static void aliased(double *a, double *b) {
  double x = rank + 1, y = 10 * (rank + 1);
  // REPORT: {{.*}}out-parameters.c:[[#@LINE+4]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+3]], [[#@LINE+4]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD {{.*}}
  // SRC:    __builtin_memcpy(a, &mpiopt_fuse2_buf[0], 1 * sizeof(double));
  // SRC-NEXT:    __builtin_memcpy(b, &mpiopt_fuse2_buf[1], 1 * sizeof(double));
  MPI_Allreduce(&x, a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&y, b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Rows of out-parameter arrays: &p[c] and p + c.
static void rows(long *p, long *q) {
  long x[2] = {rank, 2 * rank}, y = 7;
  // REPORT: {{.*}}out-parameters.c:[[#@LINE+2]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+1]], [[#@LINE+2]]) into one of 3 x MPI_LONG with MPI_SUM on MPI_COMM_WORLD {{.*}}
  MPI_Allreduce(x, &p[1], 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&y, q + 2, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
}

// Negative: a statement between the calls could read a result through
// another pointer (c may be a).
static void between(double *a, double *b, double *c) {
  double x = rank + 1, y = 2;
  MPI_Allreduce(&x, a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  y += *c;
  // REPORT: {{.*}}out-parameters.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: the result of the call at line [[#@LINE+1]] is reached through a pointer, so no statement may come between the calls)
  MPI_Allreduce(&y, b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Negative: the input is a global, which a may point to.
static double g;
static void global_in(double *a, double *b) {
  double y = 1;
  // REPORT: {{.*}}out-parameters.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (the result a is reached through a pointer, and the input &g is not an automatic local of this function (the pointer may point to it))
  MPI_Allreduce(&g, a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&y, b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Negative: MPI_IN_PLACE reads *b where b may be a, the result of the first.
static void in_place(double *a, double *b) {
  double x = 3;
  MPI_Allreduce(&x, a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // REPORT: {{.*}}out-parameters.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (MPI_IN_PLACE on b, a pointer: it may point to the result of another call of the group, read too early)
  MPI_Allreduce(MPI_IN_PLACE, b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Negative: the pointer is moved, so it is not the caller's object.
static void moved(double *a, double *b) {
  double x = 1, y = 2;
  a = b;
  // REPORT: {{.*}}out-parameters.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (buffer a is not visible where the fused call goes)
  MPI_Allreduce(&x, a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&y, b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  double v[4], h, mn, mx, s = 0, t = 0, u = 0;
  long c, r[4] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 4; i++)
    v[i] = rank * 4 + i;
  stats(v, 4, &h, &c, &mn, &mx);
  aliased(&s, &s);
  rows(r, r);
  between(&t, &u, &t);
  global_in(&t, &u);
  in_place(&u, &u);
  moved(&s, &t);
  if (rank == 0)
    printf("%g %ld %g %g | %g | %ld %ld %ld %ld | %g %g\n", h, c, mn, mx, s, r[0], r[1], r[2], r[3], t, u);
  MPI_Finalize();
  return 0;
}
