// message-aggregation across files: the program's facts list every file's
// point-to-point calls and their tags. Another file's receive of one of a
// group's tags could take a part alone: declined, naming it; with other
// tags only there, the groups change. Facts of an older ompi-opt, which
// did not list the calls, count as any file using any tag; so does a
// function no file of the program defines (drain, built alone), and
// facts of another compilation of this very file (with -DTWICE).
// RUN: %ompi-opt --whole-program --report --profile=%inputs/profile-aggregate.json %s %S/Inputs/other.c -- %mpich_cflags | FileCheck --check-prefix=OTHER %s
// RUN: %ompi-opt --whole-program --report --profile=%inputs/profile-aggregate.json %s %S/Inputs/quiet.c -- %mpich_cflags | FileCheck --check-prefix=QUIET %s
// RUN: %ompi-opt --whole-program --facts-out=%t.facts.json %s %S/Inputs/quiet.c -- %mpich_cflags
// RUN: %ompi-opt --program-facts=%t.facts.json --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags | FileCheck --check-prefix=QUIET %s
// RUN: %ompi-opt --whole-program --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags | FileCheck --check-prefix=ALONE %s
// RUN: %ompi-opt --whole-program --facts-out=%t.twice.json %s %S/Inputs/quiet.c -- %mpich_cflags -DTWICE
// RUN: %ompi-opt --program-facts=%t.twice.json --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags | FileCheck --check-prefix=TWICE %s
// RUN: sed 's/"messages"/"messages_unknown"/' %t.facts.json > %t.old.json
// RUN: %ompi-opt --program-facts=%t.old.json --report --profile=%inputs/profile-aggregate.json %s -- %mpich_cflags | FileCheck --check-prefix=OLD %s
#include <mpi.h>

void drain(int from);

int main(int argc, char **argv) {
  int rank, size, a = 1, b = 2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0 && size > 1) {
    // OTHER: whole.c:[[#@LINE+5]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+5]]-[[#@LINE+6]] (tags 21, 22 of MPI_INT, MPI_INT) stay separate (a call in another file of the program (other.c:6, tag 21) may take a message of these tags)
    // QUIET: whole.c:[[#@LINE+4]]:5: message-aggregation: 2 MPI_Send at lines [[#@LINE+4]]-[[#@LINE+5]] (tags 21, 22 of MPI_INT, MPI_INT) as one message
    // ALONE: whole.c:[[#@LINE+3]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+3]]-[[#@LINE+4]] (tags 21, 22 of MPI_INT, MPI_INT) stay separate (drain (called at whole.c:{{[0-9]+}}) is defined in no file of the program (a library's code, or an object the program's facts do not cover), which may send or receive with these tags)
    // TWICE: whole.c:[[#@LINE+2]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+2]]-[[#@LINE+3]] (tags 21, 22 of MPI_INT, MPI_INT) stay separate (the program's facts list a call at line {{[0-9]+}} of this file (tag 21) that this compilation of it lacks: the file is compiled more than once, differently)
    // OLD: whole.c:[[#@LINE+1]]:5: message-aggregation: not done: 2 MPI_Send at lines [[#@LINE+1]]-[[#@LINE+2]] (tags 21, 22 of MPI_INT, MPI_INT) stay separate (the program's facts do not list some file's point-to-point calls (facts of an older ompi-opt: build the program again))
    MPI_Send(&a, 1, MPI_INT, 1, 21, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 1, 22, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&a, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b, 1, MPI_INT, 0, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (size > 2)
    drain(0);
  MPI_Finalize();
  return a + b == 0;
}

#ifdef TWICE
void extra(void) {
  int v;
  MPI_Recv(&v, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
#endif
