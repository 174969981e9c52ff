// --check, the request checks: request-never-completed, request-overwritten,
// wait-without-start and recv-buffer-in-use. The negative cases are the
// idioms other tools flag wrongly: requests in arrays completed with
// MPI_Waitall, requests kept in a struct by wrapper code (RAII style), a
// request handed to a helper that completes it, MPI_REQUEST_NULL, a wait at
// the top of a loop for the request started further down, persistent
// requests.
// RUN: %ompi-opt --check --checks=request-never-completed,request-overwritten,wait-without-start %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=REQ %s
// RUN: %ompi-opt --check --checks=request-never-completed,request-overwritten,wait-without-start %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=REQ %s
// RUN: %ompi-opt --check --checks=recv-buffer-in-use %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=BUF %s
// Each check alone reports only its own findings:
// RUN: %ompi-opt --check --checks=wait-without-start %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=WAIT %s
#include <mpi.h>

double a, b, buf[8];

void positives(int n) {
  MPI_Request r, r2, r3;
  // REQ: {{.*}}requests.c:[[#@LINE+1]]:3: warning: the request 'r' of this MPI_Isend is never completed: no MPI_Wait, MPI_Test or MPI_Request_free on it follows in positives [ompi-request-never-completed]
  MPI_Isend(&a, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r);
  MPI_Irecv(buf, 8, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r2);
  // BUF: {{.*}}requests.c:[[#@LINE+1]]:14: warning: 'buf' is used before the MPI_Irecv at line [[#@LINE-1]] that writes it has completed (the completion on 'r2' is at line [[#@LINE+4]]) [ompi-recv-buffer-in-use]
  double x = buf[0] + n;
  // REQ: {{.*}}requests.c:[[#@LINE+1]]:3: warning: MPI_Irecv overwrites request 'r2' while the MPI_Irecv at line [[#@LINE-3]] that it holds has not completed (no MPI_Wait, MPI_Test or MPI_Request_free on it in between) [ompi-request-overwritten]
  MPI_Irecv(&b, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &r2);
  MPI_Wait(&r2, MPI_STATUS_IGNORE);
  // REQ: {{.*}}requests.c:[[#@LINE+2]]:3: warning: MPI_Wait on request 'r3', which no nonblocking call started (initialise it to MPI_REQUEST_NULL if that is intended) [ompi-wait-without-start]
  // WAIT: {{.*}}requests.c:[[#@LINE+1]]:3: warning: MPI_Wait on request 'r3', which no nonblocking call started (initialise it to MPI_REQUEST_NULL if that is intended) [ompi-wait-without-start]
  MPI_Wait(&r3, MPI_STATUS_IGNORE);
  a = x;
}

struct channel { MPI_Request req; double *data; };
void channel_start(struct channel *c) { MPI_Irecv(c->data, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &c->req); }
void channel_finish(struct channel *c) { MPI_Wait(&c->req, MPI_STATUS_IGNORE); }
void complete(MPI_Request *r) { MPI_Wait(r, MPI_STATUS_IGNORE); }

// Negative: all correct.
void negatives(int n) {
  MPI_Request reqs[4];
  for (int i = 0; i < 4; i++)
    MPI_Irecv(&buf[i], 1, MPI_DOUBLE, i, 0, MPI_COMM_WORLD, &reqs[i]); // an array, completed below
  MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
  double y = buf[0];                                                     // after the Waitall: complete

  struct channel ch = {MPI_REQUEST_NULL, &b};                            // a wrapper owns the request
  channel_start(&ch);
  channel_finish(&ch);

  MPI_Request h;
  MPI_Isend(&a, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &h);
  complete(&h);                                                          // a helper completes it

  MPI_Request idle = MPI_REQUEST_NULL;
  MPI_Wait(&idle, MPI_STATUS_IGNORE);                                    // waiting on MPI_REQUEST_NULL is fine

  MPI_Request prev;
  for (int i = 0; i < n; i++) {
    if (i > 0)
      MPI_Wait(&prev, MPI_STATUS_IGNORE);                                // waits for the previous iteration's
    MPI_Isend(&a, 1, MPI_DOUBLE, 1, i, MPI_COMM_WORLD, &prev);
  }
  if (n > 0)
    MPI_Wait(&prev, MPI_STATUS_IGNORE);

  MPI_Request p;
  MPI_Send_init(&a, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &p);             // persistent: started and freed below
  MPI_Start(&p);
  MPI_Wait(&p, MPI_STATUS_IGNORE);
  MPI_Request_free(&p);

  MPI_Request t;
  int done = 0;
  MPI_Irecv(&b, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &t);
  while (!done)
    MPI_Test(&t, &done, MPI_STATUS_IGNORE);                              // completed by a test
  a = y + b;
}

// The request flows along the CFG (it used to be read in source order): one
// request started in either arm of a branch and waited after it is fine.
void started_in_either_arm(int rank) {
  MPI_Request r;
  double v = 0;
  if (rank == 0)
    MPI_Isend(&v, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r);
  else
    MPI_Irecv(&v, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

// A start on every path after an earlier start, whichever arm ran: reported.
void overwritten_after_either_arm(int rank) {
  MPI_Request r;
  double v = 0;
  if (rank == 0)
    MPI_Isend(&v, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r);
  else
    MPI_Irecv(&v, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r);
  // REQ: {{.*}}requests.c:[[#@LINE+1]]:3: warning: MPI_Isend overwrites request 'r' while the {{MPI_Isend at line [0-9]+|MPI_Irecv at line [0-9]+}} that it holds has not completed (no MPI_Wait, MPI_Test or MPI_Request_free on it in between) [ompi-request-overwritten]
  MPI_Isend(&v, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

// An active receive freed (on the path where this rank received): nothing
// can tell when the buffer holds the message. Freeing an active send, a
// cancelled receive is fine.
void freed_receive(int rank) {
  MPI_Request r, s, c;
  double v = 0, w = 0, x = 0;
  if (rank == 0)
    MPI_Isend(&v, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r);
  else if (rank == 1)
    MPI_Irecv(&v, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r);
  // REQ: {{.*}}requests.c:[[#@LINE+1]]:3: warning: MPI_Request_free frees 'r' while the MPI_Irecv at line [[#@LINE-1]] may still be receiving into its buffer: nothing can tell when that receive completes (the standard: an active receive request should never be freed); wait for it instead [ompi-request-never-completed]
  MPI_Request_free(&r);
  MPI_Isend(&w, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &s);
  MPI_Request_free(&s);
  MPI_Irecv(&x, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &c);
  MPI_Cancel(&c);
  MPI_Request_free(&c);
}

// Two pending receives into overlapping bytes of one array: reported. Two
// receives into its two halves are fine.
void overlapping_receives(void) {
  int a[8], b[8];
  MPI_Request r[2], s[2];
  MPI_Irecv(a, 8, MPI_INT, 0, 0, MPI_COMM_WORLD, &r[0]);
  // BUF: {{.*}}requests.c:[[#@LINE+1]]:3: warning: this MPI_Irecv receives into bytes 16 to 32 of 'a', which the MPI_Irecv at line [[#@LINE-1]] (bytes 0 to 32) may still be writing: the completion on 'r' is at line [[#@LINE+2]] [ompi-recv-buffer-in-use]
  MPI_Irecv(&a[4], 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Irecv(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &s[0]);
  MPI_Irecv(b + 4, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &s[1]);
  MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
}

// A pointer one path points into the pending receive's array; another
// pointer whose paths all point elsewhere is fine, and a receive under an
// if (another block, which may not run) is not compared.
void overlapping_through_pointer(int argc) {
  int a[8], other[4];
  MPI_Request r[2];
  int *p = other, *q = other, *g = other;
  if (argc == 1)
    p = &a[4];
  else
    p = other;
  if (argc > 5)
    g = &a[2];
  MPI_Irecv(a, 8, MPI_INT, 0, 0, MPI_COMM_WORLD, &r[0]);
  // BUF: {{.*}}requests.c:[[#@LINE+1]]:3: warning: this MPI_Irecv receives into bytes 16 to 32 of 'a' (as set at line [[#@LINE-6]], one of the values reaching the call), which the MPI_Irecv at line [[#@LINE-1]] (bytes 0 to 32) may still be writing: the completion on 'r' is at line [[#@LINE+5]] [ompi-recv-buffer-in-use]
  MPI_Irecv(p, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[1]);
  MPI_Irecv(q, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, &r[1]);
  if (g != other)
    MPI_Irecv(g, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
}
