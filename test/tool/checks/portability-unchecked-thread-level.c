// portability-unchecked-thread-level: main asks MPI_Init_thread for more
// than MPI_THREAD_SINGLE, threads of an OpenMP region call MPI, and the
// 'provided' level is never read: a remark (the program works where MPI
// provides the level). Negatives (CHECKED): 'provided' compared with the
// level asked for; (QUERY) MPI_Query_thread asked instead; (ONE) a region
// of one thread; (SINGLE) only MPI_THREAD_SINGLE asked for.
// RUN: %ompi-opt --check --checks=portability-unchecked-thread-level %s -- %mpich_cflags -fopenmp | FileCheck --match-full-lines --implicit-check-not=remark: %s
// RUN: %ompi-opt --check --checks=portability-unchecked-thread-level %s -- %openmpi_cflags -fopenmp | FileCheck --match-full-lines --implicit-check-not=remark: %s
// RUN: %ompi-opt --check --checks=portability-unchecked-thread-level %s -- %mpich_cflags -fopenmp -DCHECKED | FileCheck --allow-empty --implicit-check-not=remark: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=portability-unchecked-thread-level %s -- %mpich_cflags -fopenmp -DQUERY | FileCheck --allow-empty --implicit-check-not=remark: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=portability-unchecked-thread-level %s -- %mpich_cflags -fopenmp -DTHREADS=1 | FileCheck --allow-empty --implicit-check-not=remark: --check-prefix=NONE %s
// RUN: %ompi-opt --check --checks=portability-unchecked-thread-level %s -- %mpich_cflags -fopenmp -DLEVEL=MPI_THREAD_SINGLE | FileCheck --allow-empty --implicit-check-not=remark: --check-prefix=NONE %s
// NONE-NOT: remark:
#include <mpi.h>
#include <stdlib.h>
#ifndef LEVEL
#define LEVEL MPI_THREAD_MULTIPLE
#endif
#ifndef THREADS
#define THREADS 4
#endif

int main(int argc, char **argv) {
  int provided, rank, x = 0;
  // CHECK: {{.*}}portability-unchecked-thread-level.c:[[#@LINE+2]]:3: remark: the program asks for MPI_THREAD_MULTIPLE but never reads 'provided': MPI may provide less, and threads of an OpenMP region call MPI (line [[#@LINE+16]]) as only MPI_THREAD_MULTIPLE allows (compare 'provided' with the level asked for, and stop or fall back when it is lower) [ompi-portability-unchecked-thread-level]
  // CHECK: {{.*}}portability-unchecked-thread-level.c:[[#@LINE+15]]:5: note: a call threads of a region make
  MPI_Init_thread(&argc, &argv, LEVEL, &provided);
#ifdef CHECKED
  if (provided < LEVEL)
    MPI_Abort(MPI_COMM_WORLD, 1);
#endif
#ifdef QUERY
  MPI_Query_thread(&x);
  if (x < LEVEL)
    MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(THREADS)
  {
    int y = rank;
    MPI_Send(&y, 1, MPI_INT, rank, 0, MPI_COMM_SELF);
    MPI_Recv(&y, 1, MPI_INT, rank, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return x;
}
