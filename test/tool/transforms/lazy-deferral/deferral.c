// lazy-deferral: reductions static fusion cannot take become
// mpiopt_lazy_allreduce / mpiopt_lazy_reduce, with a wait at every force
// point. Checks the report and the rewritten source.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// Same result under Open MPI's header; the output compiles cleanly with both:
// RUN: %ompi-opt %s -o %t.openmpi.c -- %openmpi_cflags
// RUN: diff %t.c %t.openmpi.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %openmpi_cflags %t.c
// The runtime's header goes right after mpi.h (macros defined before it,
// such as _GNU_SOURCE, still come first); #line keeps the line numbers.
// SRC:#include <mpi.h>
// SRC-NEXT:#include <mpiopt/lazy_optional.h>
// SRC-NEXT:#line [[#@LINE+3]]
// SRC-NEXT:#include <stdio.h>
#include <mpi.h>
#include <stdio.h>

#define N 8
static double s1, s2;
static long counts[4];
static int jmin, jmax;
void logmsg(const char *m);

// The CFL paper's Fig. 1: each reduction sits in its own function, so no
// static fusion can see them together; the runtime fuses them at the read.
static void sum(const double *d) {
  double s = 0.0;
  for (int j = jmin; j <= jmax; j++)
    s += d[j];
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+2]]:3: lazy-deferral: deferred MPI_Allreduce(&s -> &s1) to the lazy runtime (its result s1 is not used before the end of sum; s1 is a variable of this file whose address only MPI calls use, and 3 force points wait for it); saves one collective per reduction that joins it before the next force point
  // SRC: mpiopt_lazy_allreduce(&s, &s1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&s, &s1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void sumsq(const double *d) {
  double s = 0.0;
  for (int j = jmin; j <= jmax; j++)
    s += d[j] * d[j];
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+2]]:3: lazy-deferral: deferred MPI_Allreduce(&s -> &s2) to the lazy runtime (its result s2 is not used before the end of sumsq; s2 is a variable of this file whose address only MPI calls use, and 2 force points wait for it); saves one collective per reduction that joins it before the next force point
  // SRC: mpiopt_lazy_allreduce(&s, &s2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&s, &s2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void tally(long n, int k);
// Only rank 1 runs show(): a wait inside it would be a collective the other
// ranks never reach, so its caller waits before the condition instead.
// SRC: static void show(void) { printf("%g\n", s2); }
static void show(void) { printf("%g\n", s2); }

void variance(double a[N][N], double *var, int rank) {
  for (int i = 0; i < N; i++) {
    sum(a[i]);
    sumsq(a[i]);
    // One force point reads both: the first wait delivers both results.
    // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+5]]:20: lazy-deferral: force point: wait for s1 (line [[#@LINE+5]] uses s1)
    // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+4]]:15: lazy-deferral: force point: wait for s2 (line [[#@LINE+4]] uses s2)
    // SRC:    mpiopt_lazy_wait_range(&s1, sizeof(s1));
    // SRC-NEXT:    mpiopt_lazy_wait_range(&s2, sizeof(s2));
    // SRC-NEXT:    var[i] = (s2 - s1 * s1 / N) / (N - 1);
    var[i] = (s2 - s1 * s1 / N) / (N - 1);
  }
  // A wait is a collective: one under a condition that queues nothing moves
  // before the condition, so every rank waits at the same point.
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+4]]:20: lazy-deferral: force point: wait for s1 (line [[#@LINE+4]] uses s1)
  // SRC:  mpiopt_lazy_wait_range(&s1, sizeof(s1));
  // SRC-NEXT:  if (rank == 0)
  if (rank == 0)
    printf("%g\n", s1);
  // So does a call, under a condition, of a function that reads a result.
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+4]]:5: lazy-deferral: force point: wait for s2 (line [[#@LINE+4]] calls show, which uses s2, under a condition)
  // SRC:  mpiopt_lazy_wait_range(&s2, sizeof(s2));
  // SRC-NEXT:  if (rank == 1)
  if (rank == 1)
    show();
  // An unbraced loop body that queues a reduction keeps its wait inside,
  // in braces.
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+3]]:17: lazy-deferral: force point: wait for s1 (line [[#@LINE+3]] uses s1)
  // SRC:    { mpiopt_lazy_wait_range(&s1, sizeof(s1)); tally((long)s1, k); }
  for (int k = 0; k < 4; k++)
    tally((long)s1, k);
}

// MPI_Reduce into an element of a static array; nothing reads it here.
static void tally(long n, int k) {
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+2]]:3: lazy-deferral: deferred MPI_Reduce(&n -> &counts[k]) to the lazy runtime (its result counts is not used before the end of tally; counts is a variable of this file whose address only MPI calls use, and nothing uses it afterwards); saves one collective per reduction that joins it before the next force point
  // SRC: mpiopt_lazy_reduce(&n, &counts[k], 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&n, &counts[k], 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
}

// Two reductions with different ops and an external call between them
// (static fusion declines both); the loop condition reads the first result
// after every iteration, so it waits inside the condition; the locals are
// waited for before the function returns.
double iterate(double x) {
  double err, local, norm = 0, lnorm;
  do {
    local = x * 0.5;
    x = local;
    // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+2]]:5: lazy-deferral: deferred MPI_Allreduce(&local -> &err) to the lazy runtime (another reduction can join it before err is read at line [[#@LINE+9]]; err is a local variable whose address only MPI calls use, and 2 force points wait for it); saves one collective per reduction that joins it before the next force point
    // SRC: mpiopt_lazy_allreduce(&local, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&local, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    logmsg("step");
    lnorm = x * x;
    // SRC: mpiopt_lazy_allreduce(&lnorm, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&lnorm, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+2]]:12: lazy-deferral: force point: wait for err (line [[#@LINE+2]] uses err)
    // SRC:  } while ((mpiopt_lazy_wait_range(&err, sizeof(err)), err) > 1e-3);
  } while (err > 1e-3);
  tally(1, 0);
  tally(2, 1);
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+5]]:3: lazy-deferral: force point: wait for err (err dies when iterate returns)
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+4]]:10: lazy-deferral: force point: wait for norm (line [[#@LINE+4]] uses norm)
  // SRC:  mpiopt_lazy_wait_range(&err, sizeof(err));
  // SRC-NEXT:  mpiopt_lazy_wait_range(&norm, sizeof(norm));
  // SRC-NEXT:  return norm;
  return norm;
}

// The second reduction joins the first, still pending; both are read by
// the last statement, so no extra wait is needed at the closing brace.
void report_only(double x) {
  double lo, hi;
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+1]]:3: lazy-deferral: deferred MPI_Allreduce(&x -> &lo) to the lazy runtime (another reduction can join it before lo is read at line [[#@LINE+11]]; lo is a local variable whose address only MPI calls use, and 1 force point waits for it); saves one collective per reduction that joins it before the next force point
  MPI_Allreduce(&x, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  logmsg("between");
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+1]]:3: lazy-deferral: deferred MPI_Allreduce(&x -> &hi) to the lazy runtime (it joins the reduction of line [[#@LINE-2]], still pending here; hi is a local variable whose address only MPI calls use, and 1 force point waits for it); saves one collective per reduction that joins it before the next force point
  MPI_Allreduce(&x, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+6]]:10: lazy-deferral: force point: wait for lo (line [[#@LINE+6]] uses lo)
  // REPORT-DAG: {{.*}}deferral.c:[[#@LINE+5]]:15: lazy-deferral: force point: wait for hi (line [[#@LINE+5]] uses hi)
  // SRC:  mpiopt_lazy_wait_range(&lo, sizeof(lo));
  // SRC-NEXT:  mpiopt_lazy_wait_range(&hi, sizeof(hi));
  // SRC-NEXT:  logmsg(lo < hi ? "spread" : "flat");
  // SRC-NEXT:}
  logmsg(lo < hi ? "spread" : "flat");
}
