/* Legacy C that GCC compiles with warnings and Clang 19 rejects by default:
 * an implicitly declared function and an int/pointer conversion. */
#include <mpi.h>

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  char *p = 0x10;
  MPI_Init(&argc, &argv);
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
