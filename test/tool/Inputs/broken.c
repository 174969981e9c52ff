/* Not valid C: used to check that ompi-opt reports the error and writes
 * nothing. */
#include <mpi.h>

int main(void) {
  int x = ;
  return 0;
}
