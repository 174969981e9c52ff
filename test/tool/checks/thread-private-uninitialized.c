// thread-private-uninitialized: an MPI call in an OpenMP construct that
// sends the private copy its private(x) clause makes before any statement
// gives the copy a value. Positives: the master thread sending it; also
// when the construct writes it only after the send; a broadcast of a
// private array; a reduction of an element (&a[1]) in a task. Negatives,
// with why the tool must stay silent: firstprivate (the value is copied
// in); a write in the construct before the send; a receive into it first;
// the copy filled by a function (its address escapes); a write later in a
// loop around the send (an earlier iteration wrote it); a count of
// literally 0 (nothing is sent); a receive into the copy; a persistent
// send's init (the data is read at MPI_Start); a construct in a function
// with a goto (a jump may come back); the copy's address kept in a pointer
// that writes it; and a local variable declared without an initializer
// outside any construct (test programs send such payloads on purpose).
// RUN: %ompi-opt --check --checks=thread-private-uninitialized %s -- %mpich_cflags -fopenmp | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=thread-private-uninitialized %s -- %openmpi_cflags -fopenmp | FileCheck --match-full-lines --implicit-check-not=warning: %s
// Without -fopenmp the compiler ignores the pragmas, and so there is no copy:
// RUN: %ompi-opt --check --checks=thread-private-uninitialized %s -- %mpich_cflags 2>&1 | FileCheck --allow-empty --check-prefix=NOOMP %s
// NOOMP-NOT: warning:
#include <mpi.h>

void fill(int *buf, int n);

void master_sends(int rank) {
  int data = rank;
#pragma omp parallel num_threads(2) private(data)
  {
#pragma omp master
    {
      // CHECK: {{.*}}thread-private-uninitialized.c:[[#@LINE+1]]:16: warning: MPI_Send sends the private copy of 'data' that the OpenMP parallel construct at line [[#@LINE-4]] makes, which starts uninitialized, before any statement gives it a value: the message carries indeterminate values (firstprivate(data) copies the value in) [ompi-thread-private-uninitialized]
      MPI_Send(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      data = rank; // too late
    }
  }
}

void broadcast(void) {
  double a[4] = {1, 2, 3, 4};
#pragma omp parallel num_threads(2) private(a)
#pragma omp single
  // CHECK: {{.*}}thread-private-uninitialized.c:[[#@LINE+1]]:13: warning: MPI_Bcast sends the private copy of 'a' that the OpenMP parallel construct at line [[#@LINE-2]] makes, which starts uninitialized, before any statement gives it a value: the message carries indeterminate values (firstprivate(a) copies the value in) [ompi-thread-private-uninitialized]
  MPI_Bcast(a, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

void task_element(void) {
  int a[2] = {1, 2}, s;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp task private(a)
  // CHECK: {{.*}}thread-private-uninitialized.c:[[#@LINE+1]]:17: warning: MPI_Allreduce sends the private copy of 'a' that the OpenMP task construct at line [[#@LINE-1]] makes, which starts uninitialized, before any statement gives it a value: the message carries indeterminate values (firstprivate(a) copies the value in) [ompi-thread-private-uninitialized]
  MPI_Allreduce(&a[1], &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

void first_private(int rank) {
  int data = rank;
#pragma omp parallel num_threads(2) firstprivate(data)
#pragma omp master
  MPI_Send(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
}

void written_first(int rank) {
  int data;
#pragma omp parallel num_threads(2) private(data)
  {
    data = rank;
#pragma omp master
    MPI_Send(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  }
}

void received_first(void) {
  int x;
#pragma omp parallel num_threads(2) private(x)
#pragma omp master
  {
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  }
}

void filled(void) {
  int b[8];
#pragma omp parallel num_threads(2) private(b)
#pragma omp master
  {
    fill(b, 8);
    MPI_Send(b, 8, MPI_INT, 1, 0, MPI_COMM_WORLD);
  }
}

void later_in_loop(int n) {
  int x;
#pragma omp parallel num_threads(2) private(x)
#pragma omp master
  for (int i = 0; i < n; i++) {
    if (i > 0)
      MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    x = i;
  }
}

void nothing_sent(void) {
  int x;
#pragma omp parallel num_threads(2) private(x)
#pragma omp master
  MPI_Send(&x, 0, MPI_INT, 1, 0, MPI_COMM_WORLD);
}

void receive_buffer(void) {
  int x;
#pragma omp parallel num_threads(2) private(x)
#pragma omp master
  MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void persistent(void) {
  int x;
  MPI_Request r;
#pragma omp parallel num_threads(2) private(x, r)
#pragma omp master
  {
    MPI_Send_init(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
    x = 4;
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
  }
}

void jumps(int n) {
  int x;
  int i = 0;
#pragma omp parallel num_threads(2) private(x) firstprivate(i)
#pragma omp master
  {
  again:
    if (i > 0)
      MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    x = i;
    if (++i < n)
      goto again;
  }
}

void through_pointer(void) {
  int x;
#pragma omp parallel num_threads(2) private(x)
#pragma omp master
  {
    int *p = &x;
    *p = 1;
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  }
}

void plain_local(void) {
  int x;
  MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
}
