// missing-finalize: main starts MPI but nothing it runs calls MPI_Finalize.
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %mpich_cflags -DCASE=1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %openmpi_cflags -DCASE=1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=ONE %s
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %mpich_cflags -DCASE=2 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %mpich_cflags -DCASE=3 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %mpich_cflags -DCASE=4 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %mpich_cflags -DCASE=5 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %mpich_cflags -DCASE=6 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=missing-finalize %s -- %openmpi_cflags -DCASE=6 | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
// NONE-NOT: warning:
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void done(void) { MPI_Finalize(); }
void finish(void); // another file's: it may finalize

int main(int argc, char **argv) {
  int rank;
#if CASE == 1
  // The program returns without finalizing.
  // ONE: {{.*}}missing-finalize.c:[[#@LINE+1]]:3: warning: MPI_Init starts MPI here, but neither main nor any function of the file it calls calls MPI_Finalize: every process must call MPI_Finalize before it exits [ompi-missing-finalize]
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("%d\n", rank);
  return 0;
#elif CASE == 2
  // Negative: a helper of the file finalizes.
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  done();
  return 0;
#elif CASE == 3
  // Negative: an atexit handler finalizes.
  MPI_Init(&argc, &argv);
  atexit(done);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return 0;
#elif CASE == 4
  // Negative: a function of another file may finalize.
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  finish();
  return 0;
#elif CASE == 5
  // Negative: the job ends in MPI_Abort.
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Abort(MPI_COMM_WORLD, rank);
  return 0;
#elif CASE == 6
  // Negative: the job ends in PMPI_Abort (a profiling layer's call).
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Abort(MPI_COMM_WORLD, rank);
  return 0;
#endif
}
