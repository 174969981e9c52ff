// RUN: %ompi-opt --whole-program --transforms=reduction-fusion --report %s %S/Inputs/root-broadcast-files/other.c -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// The root's pack-broadcast-unpack of globals with external linkage, in a
// program of two files (analysis/RootBroadcast.h). After the unpack the
// other ranks call report(), a function of the other file: code of another
// file cannot write level, since no other file writes it and no function of
// this file that writes it is called from there. Negative: the other file's
// report() calls check_bound, which writes bound, so the unpacked value
// may be overwritten on the other ranks only.
#include <mpi.h>
#include <stdlib.h>

int level, bound;
void report(void);

int check_level(void) {
  if (level > 9)
    level = 9;
  return level < 0;
}
int check_bound(void) {
  if (bound > 9)
    bound = 9;
  return bound < 0;
}

int main(int argc, char **argv) {
  int rank, buf[2];
  double a = 1, b = 2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    level = atoi(argv[1]);
    bound = argc;
    if (check_level() || check_bound())
      MPI_Abort(MPI_COMM_WORLD, 1);
    buf[0] = level;
    buf[1] = bound;
    MPI_Bcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
    level = buf[0];
    bound = buf[1];
    report();
  }
  // CHECK-DAG: {{.*}}root-broadcast-files.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (level) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  // CHECK-DAG: {{.*}}root-broadcast-files.c:[[#@LINE+3]]:5: reduction-fusion: not done: {{.*}}bound is written in check_bound, which only some ranks may run{{.*}}
  if (bound) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
