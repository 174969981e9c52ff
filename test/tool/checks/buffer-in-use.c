// send-buffer-in-use, and recv-buffer-in-use on scalars: a nonblocking
// send's buffer written before the send completes (an element, the whole
// scalar, a struct member, memset into it, MPI_Ibcast's buffer), and a
// scalar receive buffer (&x) read before its receive completes. The
// negatives read a send buffer (allowed), write it after the wait, write
// another variable, or write it where no completion follows (that is
// request-never-completed's finding).
// RUN: %ompi-opt --check --checks=send-buffer-in-use,recv-buffer-in-use %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=send-buffer-in-use,recv-buffer-in-use %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>
#include <string.h>

struct P {
  double x, y;
};

void positives(int peer) {
  int buf[4] = {0}, x = 1, y = 0;
  struct P p = {0, 0};
  MPI_Request r[5];
  MPI_Isend(buf, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &r[0]);
  // CHECK: {{.*}}buffer-in-use.c:[[#@LINE+1]]:3: warning: 'buf' is written before the MPI_Isend at line {{[0-9]+}} that sends it has completed (the completion on 'r' is at line {{[0-9]+}}): a send buffer must not change until its send completes [ompi-send-buffer-in-use]
  buf[0] = 10; // the send may not have read it yet
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Isend(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[1]);
  // CHECK: {{.*}}buffer-in-use.c:[[#@LINE+1]]:3: warning: 'x' is written before the MPI_Isend at line {{[0-9]+}} that sends it has completed (the completion on 'r' is at line {{[0-9]+}}): a send buffer must not change until its send completes [ompi-send-buffer-in-use]
  x++;
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  MPI_Issend(&p, 2, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &r[2]);
  // CHECK: {{.*}}buffer-in-use.c:[[#@LINE+1]]:3: warning: 'p' is written before the MPI_Issend at line {{[0-9]+}} that sends it has completed (the completion on 'r' is at line {{[0-9]+}}): a send buffer must not change until its send completes [ompi-send-buffer-in-use]
  p.y = 3.0;
  MPI_Wait(&r[2], MPI_STATUS_IGNORE);
  MPI_Ibcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &r[3]);
  // CHECK: {{.*}}buffer-in-use.c:[[#@LINE+1]]:10: warning: 'buf' is written before the MPI_Ibcast at line {{[0-9]+}} that sends it has completed (the completion on 'r' is at line {{[0-9]+}}): a send buffer must not change until its send completes [ompi-send-buffer-in-use]
  memset(buf, 0, sizeof buf);
  MPI_Wait(&r[3], MPI_STATUS_IGNORE);
  MPI_Irecv(&y, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &r[4]);
  // CHECK: {{.*}}buffer-in-use.c:[[#@LINE+1]]:7: warning: 'y' is used before the MPI_Irecv at line {{[0-9]+}} that writes it has completed (the completion on 'r' is at line {{[0-9]+}}) [ompi-recv-buffer-in-use]
  x = y + 1; // y is not received yet
  MPI_Wait(&r[4], MPI_STATUS_IGNORE);
}

int negatives(int peer) {
  int buf[4] = {0}, x = 1, other = 0;
  MPI_Request r, q;
  MPI_Isend(buf, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &r);
  other = buf[0] + x; // reading a send buffer is allowed
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  buf[0] = 10; // after the completion
  MPI_Isend(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &q);
  other++;
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  x = 2;
  return other + x;
}

// Persistent requests (MBI's P2PLocalConcurrency with _init calls): the
// buffer is in use from each MPI_Start to the completion, not before.
void persistent(int peer) {
  int out = 1, in = 0;
  MPI_Request s, r;
  MPI_Send_init(&out, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &s);
  MPI_Recv_init(&in, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &r);
  out = 2; // before the start: allowed
  in = 0;
  for (int i = 0; i < 2; i++) {
    MPI_Start(&s);
    MPI_Start(&r);
    // CHECK: {{.*}}buffer-in-use.c:[[#@LINE+1]]:5: warning: 'out' is written before the MPI_Send_init at line {{[0-9]+}} (started by MPI_Start at line [[#@LINE-2]]) that sends it has completed (the completion on 's' is at line [[#@LINE+4]]): a send buffer must not change until its send completes [ompi-send-buffer-in-use]
    out++;
    // CHECK: {{.*}}buffer-in-use.c:[[#@LINE+1]]:5: warning: 'in' is used before the MPI_Recv_init at line {{[0-9]+}} (started by MPI_Start at line [[#@LINE-3]]) that writes it has completed (the completion on 'r' is at line [[#@LINE+3]]) [ompi-recv-buffer-in-use]
    in++;
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    out = in; // after the completions
  }
  MPI_Request_free(&s);
  MPI_Request_free(&r);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  positives(0);
  negatives(0);
  persistent(0);
  MPI_Finalize();
  return 0;
}
// CHECK: 7 warnings generated.
