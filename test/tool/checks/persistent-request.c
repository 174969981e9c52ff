// persistent-request: MPI_Start of a request every path left active, and a
// wait on a persistent request no MPI_Start of the function starts; the
// negative cases start and complete in turn, or leave it open on some path.
// RUN: %ompi-opt --check --checks=persistent-request %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=persistent-request %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>

static void positives(int *buf, int n) {
  MPI_Request r, q;
  MPI_Send_init(buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  // CHECK: {{.*}}persistent-request.c:[[#@LINE+1]]:3: warning: MPI_Start on persistent request 'r', which is still active (started at line [[#@LINE-1]] and not completed since): a request must be complete before it is started again [ompi-persistent-request]
  MPI_Start(&r); // still active
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Request_free(&r);
  MPI_Recv_init(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q);
  for (int i = 0; i < n; ++i)
    // CHECK: {{.*}}persistent-request.c:[[#@LINE+1]]:5: warning: MPI_Wait on persistent request 'q', which no MPI_Start of this function ever starts: an inactive request completes at once with an empty status (is a start missing?) [ompi-persistent-request]
    MPI_Wait(&q, MPI_STATUS_IGNORE); // no start anywhere
  MPI_Request_free(&q);
}

static void negatives(int *buf, int n) {
  MPI_Request r;
  MPI_Send_init(buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
  // Started and completed in each iteration.
  for (int i = 0; i < n; ++i) {
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  // A test may have completed it: the start is not proven wrong.
  int flag;
  MPI_Start(&r);
  MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  if (!flag)
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Start(&r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  // A wait on an inactive request that is started elsewhere in the function
  // (MPICH's inactivereq tests exactly that it returns at once).
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Request_free(&r);
}

// A request set to MPI_REQUEST_NULL first (MBI's MissingStart): the wait
// still finds it never started.
void null_first(int *buf) {
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Send_init(buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
  // CHECK: {{.*}}persistent-request.c:[[#@LINE+1]]:3: warning: MPI_Wait on persistent request 'r', which no MPI_Start of this function ever starts: an inactive request completes at once with an empty status (is a start missing?) [ompi-persistent-request]
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (r != MPI_REQUEST_NULL)
    MPI_Request_free(&r);
}

int main(int argc, char **argv) {
  int buf[4] = {0};
  MPI_Init(&argc, &argv);
  positives(buf, argc);
  negatives(buf, argc);
  MPI_Finalize();
  return 0;
}
// CHECK: 3 warnings generated.
