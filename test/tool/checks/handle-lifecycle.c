// handle-lifecycle: handles used after they are freed, datatypes that
// communicate uncommitted, handles used before any call created them, and
// live handles a constructor overwrites; the negative cases are the lives
// handles should have (or that no path proves wrong).
// RUN: %ompi-opt --check --checks=handle-lifecycle %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=handle-lifecycle %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>

static void positives(int *buf) {
  MPI_Datatype t, u;
  MPI_Comm c;
  MPI_Win w;
  MPI_Type_contiguous(4, MPI_INT, &t);
  // CHECK: {{.*}}handle-lifecycle.c:[[#@LINE+1]]:3: warning: MPI_Send communicates with datatype 't', built at line [[#@LINE-1]] but never committed: a datatype must be committed (MPI_Type_commit) before communication uses it [ompi-handle-lifecycle]
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD); // never committed
  MPI_Type_commit(&t);
  MPI_Type_free(&t);
  // CHECK: {{.*}}handle-lifecycle.c:[[#@LINE+1]]:3: warning: MPI_Send uses datatype 't' after the MPI_Type_free at line [[#@LINE-1]] freed it: a freed handle is no longer valid [ompi-handle-lifecycle]
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD); // used after free
  // CHECK: {{.*}}handle-lifecycle.c:[[#@LINE+1]]:3: warning: MPI_Type_free frees datatype 't' after the MPI_Type_free at line [[#@LINE-3]] freed it: a freed handle is no longer valid [ompi-handle-lifecycle]
  MPI_Type_free(&t);                         // freed twice
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  // CHECK: {{.*}}handle-lifecycle.c:[[#@LINE+1]]:3: warning: MPI_Comm_split overwrites the communicator 'c' created at line [[#@LINE-1]], which no MPI_Comm_free freed: that communicator is lost and leaks (free a handle before its variable takes a new one) [ompi-handle-lifecycle]
  MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c); // the dup is lost
  MPI_Comm_free(&c);
  // CHECK: {{.*}}handle-lifecycle.c:[[#@LINE+1]]:3: warning: MPI_Barrier uses communicator 'c' after the MPI_Comm_free at line [[#@LINE-1]] freed it: a freed handle is no longer valid [ompi-handle-lifecycle]
  MPI_Barrier(c);
  MPI_Win_create(buf, 16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  // CHECK: {{.*}}handle-lifecycle.c:[[#@LINE+1]]:3: warning: MPI_Win_create overwrites the window 'w' created at line [[#@LINE-1]], which no MPI_Win_free freed: that window is lost and leaks (free a handle before its variable takes a new one) [ompi-handle-lifecycle]
  MPI_Win_create(buf + 4, 16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w); // the first window is lost
  MPI_Win_free(&w);
  // CHECK: {{.*}}handle-lifecycle.c:[[#@LINE+1]]:3: warning: MPI_Type_commit uses datatype 'u', which no call created on any path to here: a handle must be created (or set to a predefined one) before it is used [ompi-handle-lifecycle]
  MPI_Type_commit(&u); // u was never built
}

static void negatives(int *buf, int n) {
  // Built, committed, used, freed: the life every handle should have.
  MPI_Datatype t, v;
  MPI_Type_contiguous(4, MPI_INT, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
  // An uncommitted type may build another one; only communication needs a commit.
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_vector(2, 1, 2, t, &v);
  MPI_Type_commit(&v);
  MPI_Type_free(&t);
  MPI_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&v);
  // Created and freed in each iteration: each creation finds the last one freed.
  for (int i = 0; i < n; ++i) {
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, i, 0, &c);
    MPI_Barrier(c);
    MPI_Comm_free(&c);
  }
  // Freed on one path only: not every path uses a freed handle.
  MPI_Comm d;
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  if (n > 1)
    MPI_Comm_free(&d);
  if (d != MPI_COMM_NULL)
    MPI_Barrier(d);
  // A handle set by other means (a predefined one) is not followed.
  MPI_Datatype p = MPI_INT;
  MPI_Send(buf, 1, p, 1, 0, MPI_COMM_WORLD);
  // A macro that evaluates its argument twice is one call.
#define CHECK(x) do { if ((x) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, (x)); } while (0)
  MPI_Datatype m;
  CHECK(MPI_Type_contiguous(2, MPI_INT, &m));
  CHECK(MPI_Type_commit(&m));
  CHECK(MPI_Type_free(&m));
}

int main(int argc, char **argv) {
  int buf[16] = {0};
  MPI_Init(&argc, &argv);
  positives(buf);
  negatives(buf, argc);
  MPI_Finalize();
  return 0;
}
// CHECK: 7 warnings generated.
