// The HTML page's "Collectives per loop iteration" counts the collectives a
// loop runs through the file's functions: each call site in a loop adds the
// collectives of its callee (and of the callee's callees, as long as the
// calls are in no loop of their own); a fusion of helpers' reductions at the
// caller shows in the "after" column.
// RUN: %ompi-opt --diff=html %s -- %mpich_cflags | FileCheck --match-full-lines %s
// CHECK:<section><h2>Collectives per loop iteration</h2><table><tr><th>loop</th><th>before</th><th>after</th></tr>
// A loop in a helper counts its own collectives, once per iteration; the
// loop that calls the helper does not count them again:
// CHECK-NEXT:<tr><td>inner, line [[#@LINE+35]]</td><td>1</td><td>1</td></tr>
// The time loop: step() (a barrier through sync_all(), two reductions
// through norm2() and dot(), fused at the caller), sync_all() directly, and
// again() (it calls itself: the recursion is cut, its barrier counted once).
// CHECK-NEXT:<tr><td>main, line [[#@LINE+39]]</td><td>5</td><td class=better>4</td></tr>
// CHECK-NEXT:</table></section>
// Negative: setup() runs a barrier, but from no loop: no row for it.
#include <mpi.h>

static double v[4];

static double dot(const double *x, const double *y) {
  double s = x[0] * y[0] + x[1] * y[1], g;
  MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}
static double norm2(const double *x) {
  double s = x[0] * x[0] + x[1] * x[1], g;
  MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}
static void sync_all(void) { MPI_Barrier(MPI_COMM_WORLD); }
static void setup(void) { MPI_Barrier(MPI_COMM_WORLD); }
static void step(double *x) {
  sync_all();
  double a = norm2(x);
  double b = dot(x, v);
  x[0] += a + b;
}
static void again(int n) {
  if (n > 0)
    again(n - 1);
  MPI_Barrier(MPI_COMM_WORLD);
}
static void inner(int n) {
  for (int k = 0; k < n; k++)
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  double x[4] = {1, 2, 3, 4};
  MPI_Init(&argc, &argv);
  setup();
  for (int it = 0; it < 10; it++) {
    step(x);
    sync_all();
    inner(2);
    again(0);
  }
  MPI_Finalize();
  return 0;
}
