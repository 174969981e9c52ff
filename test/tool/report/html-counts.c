// The HTML page counts removed, fused and deferred calls apart (a deferred
// call still runs, at a flush; it is not removed), and lists every declined
// candidate with its reason; the text report has the same declined lines.
// RUN: %ompi-opt --diff=html %s -- %mpich_cflags > %t.html
// RUN: FileCheck --check-prefix=PAGE %s < %t.html
// PAGE:<p>3 changed blocks, 3 changes explained below; MPI calls 5 &rarr; 4 (1 removed by fusing 2 into 1, 2 deferred to the lazy runtime). Keys: {{.*}}
// PAGE:<section><h2>Declined (1)</h2><ul class=declined><li>line [[#@LINE+18]], lazy-deferral: defer MPI_Allreduce <span class=why>(r has external linkage: another file may read it {{.*}})</span></li></ul></section>
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=TEXT %s
// TEXT: html-counts.c:[[#@LINE+16]]:3: lazy-deferral: not done: defer MPI_Allreduce (r has external linkage: another file may read it {{.*}})
#include <mpi.h>

static double a, b, c, d, e, f, g, h;
double r;

void fuse(void) {
  MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&c, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  a = b + d;
}

void defer1(void) { MPI_Allreduce(&e, &f, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
void defer2(void) { MPI_Allreduce(&g, &h, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); }

double used(double x) {
  MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return r;
}
