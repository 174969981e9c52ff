// thread-level: MPI calls in an OpenMP parallel region beyond the thread
// support the program asks for. SINGLE: no call in a region of more than
// one thread, even in master. FUNNELED: only the main thread (master)
// may call MPI, so a call in single is found; SERIALIZED: a call directly
// in the region (every thread at once) is found, one in single or critical
// is not, nor one in the only section of a sections construct that calls
// MPI, while calls in two sections (which run at once) are; MULTIPLE: a collective several threads may call at once is
// found, a send is not. Negatives: a region of one thread, master under
// FUNNELED, a call in a function called from a region (not followed).
// MPI_Finalize by another thread than the main one is found at any level.
// RUN: %ompi-opt --check --checks=thread-level %s -- %mpich_cflags -fopenmp -DLEVEL=MPI_THREAD_FUNNELED | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FUN %s
// RUN: %ompi-opt --check --checks=thread-level %s -- %openmpi_cflags -fopenmp -DLEVEL=MPI_THREAD_FUNNELED | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FUN %s
// RUN: %ompi-opt --check --checks=thread-level %s -- %mpich_cflags -fopenmp -DLEVEL=MPI_THREAD_SINGLE | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=SGL %s
// RUN: %ompi-opt --check --checks=thread-level %s -- %mpich_cflags -fopenmp -DLEVEL=MPI_THREAD_SERIALIZED | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=SER %s
// RUN: %ompi-opt --check --checks=thread-level %s -- %mpich_cflags -fopenmp -DLEVEL=MPI_THREAD_MULTIPLE | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=MUL %s
// RUN: %ompi-opt --check --checks=thread-level %s -- %mpich_cflags -fopenmp -DFINALIZE | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FIN %s
// RUN: %ompi-opt --check --checks=thread-level %s -- %openmpi_cflags -fopenmp -DFINALIZE | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=FIN %s
// Without -fopenmp the pragmas are ignored: nothing to judge.
// RUN: %ompi-opt --check --checks=thread-level %s -- %mpich_cflags -DLEVEL=MPI_THREAD_FUNNELED | FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
#include <mpi.h>
#include <stdio.h>

static void helper(int *x) { MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_WORLD); }

#ifndef FINALIZE
int main(int argc, char **argv) {
  int provided, x = 1, s = 0, buf = 0;
  MPI_Init_thread(&argc, &argv, LEVEL, &provided);
#pragma omp parallel
  {
#pragma omp master
    // SGL: {{.*}}thread-level.c:[[#@LINE+1]]:5: warning: MPI_Allreduce is called in the OpenMP parallel region at line [[#@LINE-3]], but the program asks for MPI_THREAD_SINGLE (line [[#@LINE-4]]): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to call MPI from '#pragma omp master', or a higher level) [ompi-thread-level]
    MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
#pragma omp single
    // FUN: {{.*}}thread-level.c:[[#@LINE+2]]:5: warning: MPI_Barrier may be called by any thread of the OpenMP parallel region at line [[#@LINE-6]], but the program asks for MPI_THREAD_FUNNELED (line [[#@LINE-7]]): only the main thread may call MPI (call it in '#pragma omp master', or ask for a higher level) [ompi-thread-level]
    // SGL: {{.*}}thread-level.c:[[#@LINE+1]]:5: warning: MPI_Barrier is called in the OpenMP parallel region at line [[#@LINE-7]], but the program asks for MPI_THREAD_SINGLE (line [[#@LINE-8]]): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to call MPI from '#pragma omp master', or a higher level) [ompi-thread-level]
    MPI_Barrier(MPI_COMM_WORLD);
#pragma omp critical
    // FUN: {{.*}}thread-level.c:[[#@LINE+2]]:5: warning: MPI_Send may be called by any thread of the OpenMP parallel region at line [[#@LINE-10]], but the program asks for MPI_THREAD_FUNNELED (line [[#@LINE-11]]): only the main thread may call MPI (call it in '#pragma omp master', or ask for a higher level) [ompi-thread-level]
    // SGL: {{.*}}thread-level.c:[[#@LINE+1]]:5: warning: MPI_Send is called in the OpenMP parallel region at line [[#@LINE-11]], but the program asks for MPI_THREAD_SINGLE (line [[#@LINE-12]]): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to call MPI from '#pragma omp master', or a higher level) [ompi-thread-level]
    MPI_Send(&buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    // FUN: {{.*}}thread-level.c:[[#@LINE+4]]:5: warning: MPI_Allreduce may be called by any thread of the OpenMP parallel region at line [[#@LINE-13]], but the program asks for MPI_THREAD_FUNNELED (line [[#@LINE-14]]): only the main thread may call MPI (call it in '#pragma omp master', or ask for a higher level) [ompi-thread-level]
    // SER: {{.*}}thread-level.c:[[#@LINE+3]]:5: warning: MPI_Allreduce may be called by several threads of the OpenMP parallel region at line [[#@LINE-14]] at once, but the program asks for MPI_THREAD_SERIALIZED (line [[#@LINE-15]]): no two threads may call MPI at the same time (call it in master, single or critical, or ask for MPI_THREAD_MULTIPLE) [ompi-thread-level]
    // MUL: {{.*}}thread-level.c:[[#@LINE+2]]:5: warning: MPI_Allreduce may be called by several threads of the OpenMP parallel region at line [[#@LINE-15]] at once: collectives on one communicator must be called in the same order on every process, which concurrent threads do not ensure (call it in master or single) [ompi-thread-level]
    // SGL: {{.*}}thread-level.c:[[#@LINE+1]]:5: warning: MPI_Allreduce is called in the OpenMP parallel region at line [[#@LINE-16]], but the program asks for MPI_THREAD_SINGLE (line [[#@LINE-17]]): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to call MPI from '#pragma omp master', or a higher level) [ompi-thread-level]
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    // FUN: {{.*}}thread-level.c:[[#@LINE+3]]:5: warning: MPI_Send may be called by any thread of the OpenMP parallel region at line [[#@LINE-18]], but the program asks for MPI_THREAD_FUNNELED (line [[#@LINE-19]]): only the main thread may call MPI (call it in '#pragma omp master', or ask for a higher level) [ompi-thread-level]
    // SER: {{.*}}thread-level.c:[[#@LINE+2]]:5: warning: MPI_Send may be called by several threads of the OpenMP parallel region at line [[#@LINE-19]] at once, but the program asks for MPI_THREAD_SERIALIZED (line [[#@LINE-20]]): no two threads may call MPI at the same time (call it in master, single or critical, or ask for MPI_THREAD_MULTIPLE) [ompi-thread-level]
    // SGL: {{.*}}thread-level.c:[[#@LINE+1]]:5: warning: MPI_Send is called in the OpenMP parallel region at line [[#@LINE-20]], but the program asks for MPI_THREAD_SINGLE (line [[#@LINE-21]]): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to call MPI from '#pragma omp master', or a higher level) [ompi-thread-level]
    MPI_Send(&buf, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
    helper(&x);
  }
#pragma omp parallel sections
  {
#pragma omp section
    // FUN: {{.*}}thread-level.c:[[#@LINE+3]]:5: warning: MPI_Send may be called by any thread of the OpenMP parallel region at line [[#@LINE-3]], but the program asks for MPI_THREAD_FUNNELED (line [[#@LINE-28]]): only the main thread may call MPI (call it in '#pragma omp master', or ask for a higher level) [ompi-thread-level]
    // SER: {{.*}}thread-level.c:[[#@LINE+2]]:5: warning: MPI_Send may be called by several threads of the OpenMP parallel region at line [[#@LINE-4]] at once, but the program asks for MPI_THREAD_SERIALIZED (line [[#@LINE-29]]): no two threads may call MPI at the same time (call it in master, single or critical, or ask for MPI_THREAD_MULTIPLE) [ompi-thread-level]
    // SGL: {{.*}}thread-level.c:[[#@LINE+1]]:5: warning: MPI_Send is called in the OpenMP parallel region at line [[#@LINE-5]], but the program asks for MPI_THREAD_SINGLE (line [[#@LINE-30]]): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to call MPI from '#pragma omp master', or a higher level) [ompi-thread-level]
    MPI_Send(&buf, 1, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD);
#pragma omp section
    // FUN: {{.*}}thread-level.c:[[#@LINE+3]]:5: warning: MPI_Recv may be called by any thread of the OpenMP parallel region at line [[#@LINE-8]], but the program asks for MPI_THREAD_FUNNELED (line [[#@LINE-33]]): only the main thread may call MPI (call it in '#pragma omp master', or ask for a higher level) [ompi-thread-level]
    // SER: {{.*}}thread-level.c:[[#@LINE+2]]:5: warning: MPI_Recv may be called by several threads of the OpenMP parallel region at line [[#@LINE-9]] at once, but the program asks for MPI_THREAD_SERIALIZED (line [[#@LINE-34]]): no two threads may call MPI at the same time (call it in master, single or critical, or ask for MPI_THREAD_MULTIPLE) [ompi-thread-level]
    // SGL: {{.*}}thread-level.c:[[#@LINE+1]]:5: warning: MPI_Recv is called in the OpenMP parallel region at line [[#@LINE-10]], but the program asks for MPI_THREAD_SINGLE (line [[#@LINE-35]]): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to call MPI from '#pragma omp master', or a higher level) [ompi-thread-level]
    MPI_Recv(&buf, 1, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#pragma omp parallel sections
  {
#pragma omp section
    x = 2;
#pragma omp section
    // FUN: {{.*}}thread-level.c:[[#@LINE+2]]:5: warning: MPI_Send may be called by any thread of the OpenMP parallel region at line [[#@LINE-5]], but the program asks for MPI_THREAD_FUNNELED (line [[#@LINE-43]]): only the main thread may call MPI (call it in '#pragma omp master', or ask for a higher level) [ompi-thread-level]
    // SGL: {{.*}}thread-level.c:[[#@LINE+1]]:5: warning: MPI_Send is called in the OpenMP parallel region at line [[#@LINE-6]], but the program asks for MPI_THREAD_SINGLE (line [[#@LINE-44]]): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to call MPI from '#pragma omp master', or a higher level) [ompi-thread-level]
    MPI_Send(&buf, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD);
  }
#pragma omp parallel num_threads(1)
  MPI_Barrier(MPI_COMM_WORLD);
  // NONE-NOT: warning:
  printf("%d %d\n", s, provided);
  MPI_Finalize();
  return 0;
}
#else
int omp_get_thread_num(void);

// MPI_Finalize by a thread other than the main one (at any level; the
// level read through a const variable).
int main(int argc, char **argv) {
  const int requested = MPI_THREAD_MULTIPLE;
  int provided;
  MPI_Init_thread(&argc, &argv, requested, &provided);
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1)
      // FIN: {{.*}}thread-level.c:[[#@LINE+1]]:7: warning: MPI_Finalize may be called by a thread of the OpenMP parallel region at line [[#@LINE-3]] other than the main one: MPI must be finalized by the thread that initialized it (line [[#@LINE-4]]), once (call it after the region, or in '#pragma omp master') [ompi-thread-level]
      MPI_Finalize();
  }
  return 0;
}
#endif
