/* Compiled as sub/line_numbers.c by ompi-cc and by mpicc (e2e "lines"):
 * ompi-opt fuses the two reductions in main (one call spans two lines) and
 * defers the two in suma/sumb, inserting lines; every original line must
 * keep its number: the warning on unused_here, __LINE__, __FILE__ and the
 * DWARF line table must be those of the plain build. */
#include <mpi.h>
#include <stdio.h>
static double ga, gb;
static void suma(double x) { MPI_Allreduce(&x, &ga, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
static void sumb(double x) { MPI_Allreduce(&x, &gb, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
int main(int argc, char **argv) {
  int rank;
  double a, b, r1, r2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  a = rank + 1;
  b = rank + 2;
  MPI_Allreduce(&a, &r1, 1, MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  MPI_Allreduce(&b, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("line %d of %s: %g %g\n", __LINE__, __FILE__, r1, r2);
  suma(a);
  sumb(b);
  if (rank == 0)
    printf("line %d: %g %g\n", __LINE__, ga, gb);
  int unused_here = 3;
  MPI_Finalize();
  if (rank == 0)
    printf("line %d\n", __LINE__);
  return 0;
}
