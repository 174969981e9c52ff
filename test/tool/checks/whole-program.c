// unmatched-p2p over several files: a run over a.c b.c (or -p build/) is one
// program, so a send another file's receive may accept is not reported.
// Alone, this file's sends of tags 3 and 5 have no receive:
// RUN: %ompi-opt --check --checks=unmatched-p2p %s -- %mpich_cflags | FileCheck --check-prefix=ALONE %s
// ALONE: whole-program.c:[[#@LINE+21]]:3: warning: no receive or probe of this program on MPI_COMM_WORLD accepts tag 3 {{.*}}
// ALONE: whole-program.c:[[#@LINE+21]]:3: warning: no receive or probe of this program on MPI_COMM_WORLD accepts tag 5 {{.*}}
// ALONE: whole-program.c:[[#@LINE+21]]:3: warning: no receive or probe of this program on MPI_COMM_WORLD accepts tag 5 {{.*}}
// ALONE: whole-program.c:[[#@LINE+21]]:3: warning: no receive or probe of this program on MPI_COMM_WORLD accepts tag 7 {{.*}}
// ALONE: 4 warnings generated.
// With the file that receives tags 3 (any source) and 5 (from rank - 1):
// the send of tag 3 is matched, the send of tag 5 to rank + 1 too; the
// send of tag 5 to rank - 1 is not (the receive expects rank - 1's
// message), nor tag 7 (no receive anywhere).
// RUN: %ompi-opt --check --checks=unmatched-p2p %s %inputs/p2p-receiver.c -- %mpich_cflags | FileCheck --check-prefix=BOTH %s
// BOTH: whole-program.c:[[#@LINE+13]]:3: warning: this MPI_Send sends to '(rank + size - 1) % size' (rank - 1){{.*}}
// BOTH: whole-program.c:[[#@LINE+13]]:3: warning: no receive or probe of this program on MPI_COMM_WORLD accepts tag 7 {{.*}}
// BOTH: 2 warnings generated.
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, size;
  double x = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Send(&x, 1, MPI_DOUBLE, (rank + 1) % size, 3, MPI_COMM_WORLD);
  MPI_Send(&x, 1, MPI_DOUBLE, (rank + 1) % size, 5, MPI_COMM_WORLD);
  MPI_Send(&x, 1, MPI_DOUBLE, (rank + size - 1) % size, 5, MPI_COMM_WORLD);
  MPI_Send(&x, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
