// message-aggregation: the profile's family follows the number of parts
// ("aggregate" two, "aggregate3" three, "aggregate4" four or more), and a
// profile without the family of a group's parts decides by the two
// parts' (fewer parts save less). Here two parts lose, three win, four
// are not measured: only the three-part groups change.
// RUN: %ompi-opt --closed-world --report --profile=%inputs/profile-aggregate-parts.json %s -- %mpich_cflags | FileCheck %s
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, a = 1, b = 2, c = 3, d = 4;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    // CHECK-DAG: parts.c:[[#@LINE+1]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+2]] (tags 1, 2 of MPI_INT, MPI_INT) stay separate (the machine profile {{.*}}profile-aggregate-parts.json (templates.aggregate) measured {{.*}} for two messages of its parts at {{.*}} (the message: 16 bytes); the packed message must be 5% faster)
    MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    // CHECK-DAG: parts.c:[[#@LINE+1]]:5: message-aggregation: 3 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+3]] (tags 3, 4, 5 of MPI_INT, MPI_INT, MPI_INT) as one message ({{.*}}; the machine profile {{.*}}profile-aggregate-parts.json (templates.aggregate3) measured 0.90 us for one packed message against 1.80 us for three messages of its parts at 1024 bytes (the message: 24 bytes)); saves 2 of 3 messages per execution
    MPI_Send(&a, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
    MPI_Send(&c, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    // CHECK-DAG: parts.c:[[#@LINE+1]]:5: message-aggregation: not done: 4 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+4]] (tags 6, 7, 8, 9 of MPI_INT, MPI_INT, MPI_INT, MPI_INT) stay separate (the machine profile {{.*}} (templates.aggregate) measured {{.*}} for two messages of its parts {{.*}}
    MPI_Send(&a, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    MPI_Send(&c, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
    MPI_Send(&d, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // Receives written next to each other are one run: a comment ends a group.
    // CHECK-DAG: parts.c:[[#@LINE+1]]:5: message-aggregation: 3 MPI_Recv at lines [[#@LINE+1]]-[[#@LINE+3]] (tags 3, 4, 5 of MPI_INT, MPI_INT, MPI_INT) as one receive
    MPI_Recv(&a, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&c, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // the four parts
    MPI_Recv(&a, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&c, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&d, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return a + b + c + d == 0;
}
