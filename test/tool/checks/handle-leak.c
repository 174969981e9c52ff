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

// Handles kept in the elements of a local array (MBI's Resleak codes),
// judged along each rank's run: an element never freed, and an element
// given a new handle in each iteration of a loop that frees only some.
void array_element(void) {
  MPI_Comm com[2];
  // CHECK: {{.*}}handle-leak.c:[[#@LINE+1]]:3: warning: with 2 processes, on rank 0, the communicator that MPI_Comm_dup creates here in 'com[1]' is never freed and does not leave array_element: it leaks (every handle a program creates should be freed when it is done with it) [ompi-handle-leak]
  MPI_Comm_dup(MPI_COMM_WORLD, &com[1]);
}

static void sum_op(void *in, void *inout, int *len, MPI_Datatype *type) {
  for (int i = 0; i < *len; i++)
    ((int *)inout)[i] += ((int *)in)[i];
  (void)type;
}

void array_in_loop(void) {
  MPI_Op op[3];
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 3; j++) {
      // CHECK: {{.*}}handle-leak.c:[[#@LINE+1]]:7: warning: with 2 processes, on rank 0, MPI_Op_create (line [[#@LINE+1]]) writes a new handle into 'op[2]', which still holds the op that MPI_Op_create created at line [[#@LINE+1]] and nothing freed: that one is lost and leaks (free a handle before its variable takes a new one) [ompi-handle-leak]
      MPI_Op_create(sum_op, 1, &op[j]);
      // CHECK: {{.*}}handle-leak.c:[[#@LINE-1]]:7: note: created here, in an earlier iteration
      if (j < 2)
        MPI_Op_free(&op[j]);
    }
}

// MPI_Comm_create of the world's own group, kept in an array element: every
// rank gets the communicator.
void created_of_world_group(void) {
  MPI_Group g[1];
  MPI_Comm c[1];
  MPI_Comm_group(MPI_COMM_WORLD, &g[0]);
  // CHECK: {{.*}}handle-leak.c:[[#@LINE+1]]:3: warning: with 2 processes, on rank 0, the communicator that MPI_Comm_create creates here in 'c[0]' is never freed and does not leave created_of_world_group: it leaks (every handle a program creates should be freed when it is done with it) [ompi-handle-leak]
  MPI_Comm_create(MPI_COMM_WORLD, g[0], &c[0]);
  MPI_Group_free(&g[0]);
}

// Negatives: every element freed where it holds a handle (a colour that
// gives some ranks MPI_COMM_NULL is compared first); MPI_Comm_create of a
// group the run does not know, which gives the ranks outside the group
// MPI_COMM_NULL, is not judged; an array handed to a function that is not
// MPI's may be freed there.
void release(MPI_Comm *c);
void array_freed(void) {
  int rank;
  MPI_Group world;
  MPI_Comm com[3], made[1];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int j = 0; j < 3; j++) {
    MPI_Comm_split(MPI_COMM_WORLD, rank == j ? MPI_UNDEFINED : 0, rank, &com[j]);
    if (com[j] != MPI_COMM_NULL)
      MPI_Comm_free(&com[j]);
  }
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Comm_create(MPI_COMM_WORLD, world, &made[0]);
  MPI_Group_free(&world);
}

void array_given(void) {
  MPI_Comm given[1];
  MPI_Comm_dup(MPI_COMM_WORLD, &given[0]);
  release(given);
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
// CHECK: 6 warnings generated.
