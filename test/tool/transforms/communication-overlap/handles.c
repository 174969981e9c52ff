// A predefined handle is no memory of the program's. Open MPI spells
// MPI_DOUBLE as the address of a global (&ompi_mpi_double), SMPI as
// &smpi_MPI_DOUBLE; MPICH as an integer constant. A wait moved past an
// MPI_Irecv naming MPI_DOUBLE therefore passes no write of a variable, and
// it moves as far under every MPI's header: the report is the same three
// times. (Before the fix, under Open MPI and SMPI the first wait stayed:
// "line N writes ompi_mpi_double, which may be memory through in".)
// REQUIRES: openmpi, smpi
// RUN: %ompi-opt --report %s -- %mpich_cflags 2>&1 | FileCheck %s
// RUN: %ompi-opt --report %s -- %openmpi_cflags 2>&1 | FileCheck %s
// RUN: %ompi-opt --report %s -- %smpi_cflags 2>&1 | FileCheck %s
#include <mpi.h>

void halo(double *out, double *in, int n, int up, int down, MPI_Comm comm) {
  MPI_Request r[2], q[2];
  double edge[8], ghost[8];
  MPI_Irecv(in, n, MPI_DOUBLE, up, 0, comm, &r[0]);
  MPI_Isend(out, n, MPI_DOUBLE, down, 0, comm, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  // CHECK: handles.c:[[@LINE-1]]:3: communication-overlap: MPI_Waitall moved down before line [[@LINE+6]] (lines [[@LINE+1]]-[[@LINE+5]] do not depend
  MPI_Irecv(ghost, 8, MPI_DOUBLE, down, 1, comm, &q[0]);
  for (int i = 0; i < 8; i++)
    edge[i] = 2 * i;
  MPI_Isend(edge, 8, MPI_DOUBLE, up, 1, comm, &q[1]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  in[0] += ghost[0];
}
