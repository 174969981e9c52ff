/* Variable-length arrays and pointers to them: sizes unknown at compile
 * time must make an argument dynamic, never crash the tool. */
#include <mpi.h>

void f(int n, int m) {
  double grid[n][m];
  double(*o)[m] = grid;
  MPI_Send(&grid[1][2], m, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  MPI_Send(grid[1], m, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  MPI_Send(o + 1, 1, MPI_BYTE, 0, sizeof(grid), MPI_COMM_WORLD);
}
