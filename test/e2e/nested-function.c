/* Valid GNU C that Clang rejects (a nested function): ompi-opt cannot parse
 * it, so ompi-cc must warn and compile the original with the real mpicc. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int add(int a, int b) { return a + b; }
  int x, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  x = add(1, 2);
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("%d\n", x / size);
  MPI_Finalize();
  return 0;
}
