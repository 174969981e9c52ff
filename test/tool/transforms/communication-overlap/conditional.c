// communication-overlap moves a wait or a receive together with the
// statement it is written in: `rc = MPI_Wait(...)` (the variable is then
// guarded: nothing passed may read or write it) and `if (c) MPI_Wait(...)`
// without else (what c reads is guarded: nothing passed may write it).
// And a moved call finds everything its arguments read as it was: memory
// read through a pointer (`*pi`, `p->n`) as well as named variables.
// Negative cases say why the tool leaves the call where it is.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=communication-overlap %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>

#define N 64

struct msg {
  int n;
};

// Waits in an if (as NPB IS writes `if (my_rank > 0) MPI_Wait(...)`) and
// with their result kept (as HPL writes `ierr = MPI_Wait(...)`). The first
// passes the second (other requests; it touches nothing the first needs)
// and what reads the second's message.
double conditional(int rank, int peer) {
  double out[N], in[N], a[N];
  MPI_Request r, s;
  int ierr = MPI_SUCCESS;
  for (int i = 0; i < N; i++)
    out[i] = i;
  MPI_Irecv(in, N, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &r);
  MPI_Isend(out, N, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &s);
  // REPORT-DAG: conditional.c:[[#@LINE+2]]:5: communication-overlap: MPI_Wait moved down before line [[#@LINE+10]] (lines [[#@LINE+4]]-[[#@LINE+8]] do not depend on the transfers it completes: {{.*}}
  if (rank > 0)
    MPI_Wait(&s, MPI_STATUS_IGNORE);
  // REPORT-DAG: conditional.c:[[#@LINE+1]]:10: communication-overlap: MPI_Wait moved down before line [[#@LINE+5]] {{.*}}(it stops there: line [[#@LINE+5]] reads in, which the receive at line {{[0-9]+}} fills)); {{.*}}
  ierr = MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++)
    a[i] = 2.0 * i;
  // SRC:  ierr = MPI_Wait(&r, MPI_STATUS_IGNORE); a[0] += in[0] + ierr;
  a[0] += in[0] + ierr;
  // SRC:  if (rank > 0) MPI_Wait(&s, MPI_STATUS_IGNORE); out[1] = a[0];
  out[1] = a[0];
  return a[1] + out[1];
}

// A receive in an if goes up with it, past the computation before it.
double hoisted(int peer) {
  double out[N], in[N], a[N];
  MPI_Request q;
  // SRC:  if (peer >= 0) { MPI_Irecv(in, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &q); } for (int i = 0; i < N; i++)
  for (int i = 0; i < N; i++)
    a[i] = i;
  for (int i = 0; i < N; i++)
    out[i] = 2 * a[i];
  // REPORT-DAG: conditional.c:[[#@LINE+2]]:5: communication-overlap: MPI_Irecv posted earlier, before line [[#@LINE-4]] (lines [[#@LINE-4]]-[[#@LINE-1]] touch no memory {{.*}}
  if (peer >= 0) {
    MPI_Irecv(in, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &q);
  }
  MPI_Send(out, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  return a[1] + in[1];
}

// The receive's count is read through a pointer that what comes before it
// writes: posted earlier, it would receive another count.
double count_through(struct msg *p, int peer) {
  double out[N], in[N], a[N];
  MPI_Request r;
  for (int i = 0; i < N; i++)
    out[i] = a[i] = i;
  p->n = N / 2;
  // REPORT-DAG: conditional.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Irecv stays where it is posted (what comes before it must run first: line [[#@LINE-1]] writes memory through p, which the call's arguments read)
  MPI_Irecv(in, p->n, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD, &r);
  MPI_Send(out, N / 2, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return a[2] + in[2];
}

// Negative cases.
double negatives(int *pi, int peer) {
  double out[N], in[N], a[N];
  MPI_Request r, reqs[2];
  int ierr, flag = 1;
  for (int i = 0; i < N; i++)
    out[i] = i;
  // The condition's variable is written by what follows.
  MPI_Isend(out, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &r);
  // REPORT-DAG: conditional.c:[[#@LINE+2]]:5: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+3]] writes flag, which the condition of its if reads)
  if (flag)
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (flag = 0; flag < 2; flag++)
    a[flag] = 1;
  // The result's variable is read by what follows.
  MPI_Isend(out, N, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &r);
  // REPORT-DAG: conditional.c:[[#@LINE+1]]:10: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+3]] reads ierr, which the call's result is assigned to)
  ierr = MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++)
    a[i] = ierr;
  // An if with an else: the two branches are not one call's statement.
  MPI_Isend(out, N, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD, &r);
  // REPORT-DAG: conditional.c:[[#@LINE+3]]:5: communication-overlap: not done: MPI_Wait stays where it is written (it is a branch of an if with an else or an initialiser: the branches do not move apart)
  // REPORT-DAG: conditional.c:[[#@LINE+4]]:5: communication-overlap: not done: MPI_Wait stays where it is written (it is a branch of an if with an else or an initialiser: the branches do not move apart)
  if (peer > 0)
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  else
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++)
    a[i] += 2;
  // A wait per iteration of a loop: it would move only with the loop.
  MPI_Isend(out, N, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &reqs[0]);
  MPI_Irecv(in, N, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &reqs[1]);
  for (int k = 0; k < 2; k++)
    // REPORT-DAG: conditional.c:[[#@LINE+1]]:5: communication-overlap: not done: MPI_Wait stays where it is written (it is the body of a loop (a call per iteration): it would move only with the loop)
    MPI_Wait(&reqs[k], MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++)
    a[i] += in[i];
  // The request the wait completes is chosen by memory a pointer reads,
  // and what follows writes it: the wait would complete another request.
  MPI_Isend(out, N, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &reqs[0]);
  MPI_Irecv(in, N, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &reqs[1]);
  // REPORT-DAG: conditional.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] writes memory through pi, which the call's arguments read)
  MPI_Wait(&reqs[*pi], MPI_STATUS_IGNORE);
  *pi = 1;
  for (int i = 0; i < N; i++)
    a[i] += 3;
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  return a[2] + in[2];
}

int main(int argc, char **argv) {
  int rank, size, k = 0;
  struct msg m;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x = conditional(rank, (rank + 1) % size) + hoisted((rank + 1) % size) + negatives(&k, (rank + 1) % size) +
             count_through(&m, (rank + 1) % size);
  printf("%d %g\n", rank, x);
  MPI_Finalize();
  return 0;
}
