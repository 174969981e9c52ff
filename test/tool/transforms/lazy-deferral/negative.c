// lazy-deferral must leave every reduction below alone, and say why. The
// transformed source is the input, byte for byte.
// RUN: %ompi-opt --transforms=lazy-deferral %s -o %t.c -- %mpich_cflags
// RUN: diff %s %t.c
// RUN: %ompi-opt --transforms=lazy-deferral --report %s -- %mpich_cflags | FileCheck --match-full-lines %s
// RUN: %ompi-opt --transforms=lazy-deferral --report %s -- %openmpi_cflags | FileCheck --match-full-lines %s
#include <mpi.h>

void logmsg(const char *m);
double exported;             // external linkage: other files may read it
static double escaped, in_init, vol_target;
static double *alias = &in_init;
static volatile double vol;
#define ALLSUM(in, out) (void)MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) /* more than the call: not written out (MacroCalls.cpp) */

// The result goes through a pointer: any code may read it.
void through_pointer(double x, double *out) {
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (the receive buffer out is not a named variable: a pointer may be read anywhere)
  MPI_Allreduce(&x, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Other files may read an external global (unless --closed-world).
void external_global(double x) {
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (exported has external linkage: another file may read it (make it static, build the program from this one file: --closed-world, or give every file: --whole-program))
  MPI_Allreduce(&x, &exported, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Its address is taken: accesses through the pointer are invisible.
void address_taken(double x) {
  double *p = &escaped;
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce into escaped (escaped's address is taken at line [[#@LINE-1]]: the tool cannot see every access through it)
  MPI_Allreduce(&x, &escaped, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  logmsg(p ? "p" : "");
}

// Used by a global initializer: its address is known outside any function.
void in_initializer(double x) {
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce into in_init (in_init is used in an initializer at line 12)
  MPI_Allreduce(&x, &in_init, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  logmsg(alias ? "a" : "");
}

// volatile: every access must happen when written.
void volatile_result(double x) {
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (vol is volatile)
  MPI_Allreduce(&x, (void *)&vol, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// A goto that jumps from before a wait to a label after it would skip the
// wait: declined (forward gotos that jump over no wait are safe: goto.c).
static int skip;
double goto_over_wait(double x) {
  double r, q;
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce into r (the goto at line [[#@LINE+4]] jumps over the wait for r at line [[#@LINE+5]] (to line [[#@LINE+6]]))
  MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &q, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (skip)
    goto out;
  r += q;
out:
  return r;
}

// A goto that jumps back makes a loop the force points, placed in source
// order, do not follow: declined.
double goto_loop(double x) {
  double r = 0, s;
  int i = 0;
again:
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (the goto at line [[#@LINE+4]] jumps back to line [[#@LINE-1]]: a loop the force points do not follow)
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (++i < 3)
    goto again;
  return r + s;
}

// Declared in an inner block that control may leave other than through its
// end (a break): the wait at the block's end would not run on that path.
double inner_block(double x) {
  double sum = 0;
  for (int i = 0; i < 2; i++) {
    double r;
    // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:5: lazy-deferral: not done: defer MPI_Allreduce (r is declared in an inner block that control may leave before its end (line [[#@LINE+7]]): it may die before the result arrives)
    MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    logmsg("x");
    // (and the second, with the first declined, has nothing to join)
    // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:5: lazy-deferral: not done: defer MPI_Allreduce into vol_target (its result is used at line [[#@LINE+4]] before any other reduction could join it)
    MPI_Allreduce(&x, &vol_target, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (r > 1e9)
      break;
    sum += r + vol_target;
  }
  return sum;
}

// Declared in a for loop's header: no block holds it.
double loop_header(double x) {
  double sum = 0;
  for (double r = 0; sum < 1; sum += r) {
    // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:5: lazy-deferral: not done: defer MPI_Allreduce (r is declared in a loop's header: it may die before the result arrives)
    MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    logmsg("x");
  }
  return sum;
}

// Read at once, with nothing that could join it: deferring gains nothing.
double read_at_once(double x) {
  double r;
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce into r (its result is used at line [[#@LINE+2]] before any other reduction could join it)
  MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return r * 2;
}

// Written through a macro: the call cannot be renamed in place.
double through_macro(double x) {
  double r, q;
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (the call is written through a macro)
  ALLSUM(&x, &r);
  logmsg("x");
  // CHECK-DAG: {{.*}}negative.c:[[#@LINE+1]]:3: lazy-deferral: not done: defer MPI_Allreduce (the call is written through a macro)
  ALLSUM(&x, &q);
  return r + q;
}
