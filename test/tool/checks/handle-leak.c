// handle-leak: handles a function creates, never frees and never lets out of
// it; the negative cases free them, return them, store them or free them on
// some path.
// RUN: %ompi-opt --check --checks=handle-leak %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=handle-leak %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>

static void positives(int *buf) {
  MPI_Comm row;
  // CHECK: {{.*}}handle-leak.c:[[#@LINE+1]]:3: warning: the communicator 'row' that MPI_Comm_split creates here is never freed and does not leave positives: it leaks (every handle a program creates should be freed when it is done with it) [ompi-handle-leak]
  MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &row); // never freed
  MPI_Barrier(row);
  MPI_Datatype t;
  // CHECK: {{.*}}handle-leak.c:[[#@LINE+1]]:3: warning: the datatype 't' that MPI_Type_vector creates here is never freed and does not leave positives: it leaks (every handle a program creates should be freed when it is done with it) [ompi-handle-leak]
  MPI_Type_vector(2, 1, 2, MPI_INT, &t); // never freed
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Request r;
  // CHECK: {{.*}}handle-leak.c:[[#@LINE+1]]:3: warning: the persistent request 'r' that MPI_Send_init creates here is never freed and does not leave positives: it leaks (every handle a program creates should be freed when it is done with it) [ompi-handle-leak]
  MPI_Send_init(buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r); // never freed
  MPI_Start(&r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static MPI_Comm kept;

static MPI_Comm negatives(int *buf, int n, MPI_Datatype *out) {
  // Freed before the function ends.
  MPI_Group g;
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  MPI_Group_free(&g);
  // Returned: the caller owns it.
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  // Stored where it outlives the function.
  MPI_Comm s;
  MPI_Comm_dup(MPI_COMM_WORLD, &s);
  kept = s;
  // Handed out through a parameter.
  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_INT, &t);
  *out = t;
  // Freed on one path only: not every path leaks it.
  MPI_Info info;
  MPI_Info_create(&info);
  if (n > 1)
    MPI_Info_free(&info);
  (void)buf;
  return c;
}

int main(int argc, char **argv) {
  int buf[16] = {0};
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  positives(buf);
  MPI_Comm c = negatives(buf, argc, &t);
  MPI_Comm_free(&c);
  MPI_Comm_free(&kept);
  MPI_Type_free(&t);
  MPI_Finalize();
  return 0;
}
// CHECK: 3 warnings generated.
