// The per-rank runs through OpenMP constructs (parsed with -fopenmp, the
// AST holds them): a parallel region's body runs once per thread, master,
// masked and single once, each section of a sections construct once. A
// root mismatch inside `#pragma omp master` is found; a correct program
// whose rank 1 calls the barrier inside master is not flagged (before,
// the region's calls were invisible: "ranks 1 call MPI_Finalize as their
// 1st collective"); a send inside one section is matched against the
// receives. Negatives (not
// followed, silent): calls that several threads of a region may make
// (directly in the region, in critical, in a worksharing loop), a team
// whose size is not known, sections of which more than one communicates,
// tasks.
// RUN: %ompi-opt --check --checks=collective-sequence,message-matching %s -- %mpich_cflags -fopenmp | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=collective-sequence,message-matching %s -- %openmpi_cflags -fopenmp | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -fopenmp -DSECTION | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=SECT %s
// RUN: %ompi-opt --check --checks=message-matching %s -- %mpich_cflags -fopenmp -DTWO_SECTIONS | FileCheck --match-full-lines --allow-empty --implicit-check-not=warning: --check-prefix=NONE %s
#include <mpi.h>

static int x;

void root_in_master(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
#pragma omp parallel num_threads(4)
    {
#pragma omp master
      // CHECK: {{.*}}openmp-regions.c:[[#@LINE+1]]:7: warning: with 2 processes, ranks 0 call MPI_Bcast (line [[#@LINE+1]]) (root=0 count=1 type=MPI_INT) as their 1st collective but ranks 1 call it (root=1 count=1 type=MPI_INT) (line [[#@LINE+4]]): every rank must pass the same root, op and count [ompi-collective-sequence]
      MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
  } else {
    MPI_Bcast(&x, 1, MPI_INT, 1, MPI_COMM_WORLD);
  }
}

// Correct: rank 1's barrier is made once, by the master thread.
void barrier_in_master(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
#pragma omp parallel
    {
#pragma omp master
      MPI_Barrier(MPI_COMM_WORLD);
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
}

// Correct: single, then a region of one thread.
void single_and_one_thread(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel
  {
#pragma omp single
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
#pragma omp parallel num_threads(1)
  MPI_Barrier(MPI_COMM_WORLD);
}

// Not followed: each of the team's threads calls the barrier (how many is
// not known), on rank 0 only -- a real mismatch the runs cannot count.
void barrier_per_thread(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
#pragma omp parallel
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Not followed: a critical section, a worksharing loop, a task.
void critical_loop_task(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(2)
  {
#pragma omp critical
    if (rank == 0)
      MPI_Barrier(MPI_COMM_WORLD);
#pragma omp for
    for (int i = 0; i < 4; i++)
      if (rank == 0)
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
#pragma omp single
    {
#pragma omp task
      if (rank == 1)
        MPI_Barrier(MPI_COMM_WORLD);
    }
  }
}

#ifdef SECTION
// Rank 0 sends once, in a section; rank 1 receives twice.
int main(int argc, char **argv) {
  int rank, provided, buf = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
#pragma omp parallel sections
    {
#pragma omp section
      buf = 1;
#pragma omp section
      MPI_Send(&buf, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    MPI_Recv(&buf, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // SECT: {{.*}}openmp-regions.c:[[#@LINE+1]]:5: warning: with 2 processes, rank 1 waits in MPI_Recv (line [[#@LINE+1]]) for a message from rank 0 with tag 3, but rank 0 goes on to MPI_Finalize (line [[#@LINE+3]]) without sending it: the receive never completes, and MPI_Finalize waits for it [ompi-message-matching]
    MPI_Recv(&buf, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
#endif

#ifdef TWO_SECTIONS
// Correct: rank 0 receives in one section and sends in another, which run
// concurrently; taken in the order written, the receive would wait for
// rank 1, which waits for the send. Not followed: silent.
int main(int argc, char **argv) {
  int rank, provided, a = 0, b = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
#pragma omp parallel sections num_threads(2)
    {
#pragma omp section
      MPI_Recv(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma omp section
      MPI_Send(&b, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    MPI_Recv(&b, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
  // NONE-NOT: warning:
  MPI_Finalize();
  return 0;
}
#endif
