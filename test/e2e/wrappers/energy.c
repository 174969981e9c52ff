/* No mpi.h here: the reductions go through comm.c's wrappers. With the
 * program's facts the link writes the two adjacent ones as one. */
#include "comm.h"
#include <stdio.h>

double energy(int step, int rank);

double energy(int step, int rank) {
  double local[2] = {step + rank, step * rank}, sum[2];
  double e = 0.5 * rank - step, esum;
  add_real(local, sum, 2);
  add_real(&e, &esum,
           1);
  return sum[0] + sum[1] + esum;
}
