// A file of the program that does not include mpi.h: its calls of the
// wrappers comm.c defines become MPI calls only with the program's facts,
// and then mpi.h is included in the blank line after its #includes.
#include <stdio.h>

void addReal(double *send, double *recv, int count);

double energy(double kinetic, double potential) {
  double local[2] = {kinetic, potential}, sum[2];
  double e = kinetic * potential, esum;
  addReal(local, sum, 2);
  addReal(&e, &esum,
          1);
  return sum[0] + sum[1] + esum;
}
