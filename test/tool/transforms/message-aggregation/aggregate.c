// message-aggregation (analysis/AggregationPlan.h): adjacent MPI_Send
// statements to one peer and the adjacent MPI_Recv statements that take
// them become one packed message, where every call of the program that
// could take a message of their tags is in such a group, the sizes are
// constant and small, and the machine profile measured the packed message
// faster. Negative cases say why the tool leaves the calls as they are.
// RUN: %ompi-opt --closed-world --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --closed-world --report --profile=%inputs/profile-aggregate-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags | FileCheck --check-prefix=OPEN %s
// RUN: %ompi-opt --closed-world --transforms=message-aggregation --profile=%inputs/profile-aggregate.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>
#include <stdlib.h>

#define TAG_N 5
enum { TAG_X = 6 };
static double x[8], y[8];
static int iv[2] = {2, 2};

int main(int argc, char **argv) {
  int rank, size, n = 8, m = 0, right, left, i;
  int *cnt = malloc(sizeof(int));
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  for (i = 0; i < 8; i++)
    x[i] = rank + i;
  // A count and its payload to one peer: one message.
  if (rank % 2 == 0) {
    // REPORT-DAG: aggregate.c:[[#@LINE+3]]:5: message-aggregation: 2 MPI_Send at lines [[#@LINE+3]]-[[#@LINE+4]] (tags 5, 6 of MPI_INT, MPI_DOUBLE) as one message (every call of the program that may take a message of tags 5, 6 is in a group of this shape in this file (4 in all): {{.*}}; 76 bytes with the header, sent eagerly as the separate ones were; the machine profile {{.*}}profile-aggregate.json (templates.aggregate) measured 0.90 us for one packed message against 1.20 us for two messages of its parts at 1024 bytes (the message: 76 bytes)); saves 1 of 2 messages per execution
    // SLOWER-DAG: aggregate.c:[[#@LINE+2]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+2]]-[[#@LINE+3]] (tags 5, 6 of MPI_INT, MPI_DOUBLE) stay separate (the machine profile {{.*}}profile-aggregate-slower.json (templates.aggregate) measured 1.19 us for one packed message against 1.20 us for two messages of its parts at 1024 bytes (the message: 76 bytes); the packed message must be 5% faster)
    // OPEN-DAG: aggregate.c:[[#@LINE+1]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+2]] (tags 5, 6 of MPI_INT, MPI_DOUBLE) stay separate (other files of the program may send or receive with these tags (decide it whole: ompi-cc's link, ompi-opt --whole-program, or --closed-world for a program of one file))
    MPI_Send(&n, 1, MPI_INT, right, TAG_N, MPI_COMM_WORLD);
    MPI_Send(x, 8, MPI_DOUBLE, right, TAG_X, MPI_COMM_WORLD);
    // SRC: {{ +}}mpiopt_agg_send(2, right, MPI_COMM_WORLD, (const void *)(&n), (int)(1), (MPI_Datatype)(MPI_INT), 5, (const void *)(x), (int)(8), (MPI_Datatype)(MPI_DOUBLE), 6);
    // REPORT-DAG: aggregate.c:[[#@LINE+1]]:5: message-aggregation: 2 MPI_Recv at lines [[#@LINE+1]]-[[#@LINE+2]] (tags 5, 6 of MPI_INT, MPI_DOUBLE) as one receive ({{.*}}the later receives' arguments read nothing the earlier ones write; {{.*}}
    MPI_Recv(&m, 1, MPI_INT, left, TAG_N, MPI_COMM_WORLD, &st);
    MPI_Recv(y, 8, MPI_DOUBLE, left, TAG_X, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // SRC: {{ +}}mpiopt_agg_recv(2, left, MPI_COMM_WORLD, (void *)(&m), (int)(1), (MPI_Datatype)(MPI_INT), 5, (MPI_Status *)(&st), (void *)(y), (int)(8), (MPI_Datatype)(MPI_DOUBLE), 6, (MPI_Status *)(MPI_STATUS_IGNORE));
  } else {
    MPI_Recv(&m, 1, MPI_INT, left, TAG_N, MPI_COMM_WORLD, &st);
    MPI_Recv(y, 8, MPI_DOUBLE, left, TAG_X, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&n, 1, MPI_INT, right, TAG_N, MPI_COMM_WORLD);
    MPI_Send(x, 8, MPI_DOUBLE, right, TAG_X, MPI_COMM_WORLD);
  }

  // Not done: the second receive's count is what the first receives (the
  // count-then-payload protocol): one receive evaluates it too early.
  // REPORT-DAG: aggregate.c:[[#@LINE+3]]:3: message-aggregation: not done: 2 MPI_Recv at lines [[#@LINE+3]]-[[#@LINE+4]] (tags 7, 8 of MPI_INT, MPI_DOUBLE) stay separate (the receive at line [[#@LINE+4]] reads m, which the receive at line [[#@LINE+3]] writes: one receive evaluates every argument before any part arrives)
  MPI_Send(&n, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
  MPI_Send(x, n, MPI_DOUBLE, right, 8, MPI_COMM_WORLD);
  MPI_Recv(&m, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &st);
  MPI_Recv(y, m, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &st);
  // ... and so its sends stay too: a receive of their tags is no group.
  // REPORT-DAG: aggregate.c:[[#@LINE-5]]:3: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE-5]]-[[#@LINE-4]] (tags 7, 8 of MPI_INT, MPI_DOUBLE) stay separate (the call at line [[#@LINE-3]] (tag 7) may take a message of these tags and is no group of this shape)

  // Not done: a receive of tag 9 stands alone elsewhere (with another count).
  // REPORT-DAG: aggregate.c:[[#@LINE+1]]:3: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+2]] (tags 9, 10 of MPI_INT, MPI_INT) stay separate (the call at line [[#@LINE+3]] (tag 10) may take a message of these tags and is no group of this shape)
  MPI_Send(&n, 1, MPI_INT, right, 9, MPI_COMM_WORLD);
  MPI_Send(&n, 1, MPI_INT, right, 10, MPI_COMM_WORLD);
  MPI_Recv(&m, 1, MPI_INT, left, 10, MPI_COMM_WORLD, &st);
  MPI_Recv(&m, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &st);
  if (size > 64)
    MPI_Recv(&m, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &st);

  // Not done: the payload's size is known only at run time.
  // REPORT-DAG: aggregate.c:[[#@LINE+4]]:3: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+4]]-[[#@LINE+5]] stay separate (the size of the message at line [[#@LINE+5]] is not known at compile time)
  // Its receives are a group (one status for both is no read: its address
  // is), but a call of their tags is not.
  // REPORT-DAG: aggregate.c:[[#@LINE+3]]:3: message-aggregation: not done: 2 MPI_Recv at lines [[#@LINE+3]]-[[#@LINE+4]] (tags 11, 12 of MPI_INT, MPI_DOUBLE) stay separate (the call at line [[#@LINE+1]] (tag 11) may take a message of these tags and is no group of this shape)
  MPI_Send(&n, 1, MPI_INT, right, 11, MPI_COMM_WORLD);
  MPI_Send(x, *cnt, MPI_DOUBLE, right, 12, MPI_COMM_WORLD);
  MPI_Recv(&m, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &st);
  MPI_Recv(y, 8, MPI_DOUBLE, left, 12, MPI_COMM_WORLD, &st);

  // An array named as a later buffer is its address, no read: a group.
  // REPORT-DAG: aggregate.c:[[#@LINE+3]]:3: message-aggregation: 2 MPI_Recv at lines [[#@LINE+3]]-[[#@LINE+4]] (tags 30, 31 of MPI_DOUBLE, MPI_DOUBLE) as one receive
  MPI_Send(x, 2, MPI_DOUBLE, right, 30, MPI_COMM_WORLD);
  MPI_Send(x, 4, MPI_DOUBLE, right, 31, MPI_COMM_WORLD);
  MPI_Recv(y, 2, MPI_DOUBLE, left, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(y, 4, MPI_DOUBLE, left, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // ... but an element of it, read as a count, is what the first receive wrote.
  // REPORT-DAG: aggregate.c:[[#@LINE+3]]:3: message-aggregation: not done: 2 MPI_Recv at lines [[#@LINE+3]]-[[#@LINE+4]] (tags 32, 33 of MPI_INT, MPI_DOUBLE) stay separate (the receive at line [[#@LINE+4]] reads iv, which the receive at line [[#@LINE+3]] writes: {{.*}})
  MPI_Send(iv, 2, MPI_INT, right, 32, MPI_COMM_WORLD);
  MPI_Send(x, 2, MPI_DOUBLE, right, 33, MPI_COMM_WORLD);
  MPI_Recv(iv, 2, MPI_INT, left, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(y, iv[0], MPI_DOUBLE, left, 33, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  free(cnt);
  MPI_Finalize();
  return m == 0;
}
