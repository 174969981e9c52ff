// The default text report: one line per call, after its location at most
// 120 columns (whatever the path's length): how many
// arguments of each class, and what the rank-relative and dynamic ones are
// (--report=long has every argument, report/static.c and others).
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | grep ': MPI_[A-Za-z_]*: ' | sed 's/^[^ ]* //' | awk 'length > 120 { bad = 1 } END { exit bad }'
#include <mpi.h>

static double buf[8];

void f(int n, int a_rather_long_parameter_name_that_makes_the_reason_long_enough_to_be_cut) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // CHECK: {{.*}}short.c:[[#@LINE+1]]:3: MPI_Send: 5 static, 1 rank-relative (dest=(rank+1)%size)
  MPI_Send(buf, 4, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}short.c:[[#@LINE+1]]:3: MPI_Send: 4 static, 1 rank-relative, 1 dynamic (count=n; dest=(rank+1)%size)
  MPI_Send(buf, n, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}short.c:[[#@LINE+1]]:3: MPI_Send: 5 static, 1 dynamic (tag=a_rather_long_parameter_name_that_makes_the_reason_long_enough_to_be_cut)
  MPI_Send(buf, 4, MPI_DOUBLE, 0, a_rather_long_parameter_name_that_makes_the_reason_long_enough_to_be_cut,
           MPI_COMM_WORLD);
  // A description longer than 120 columns is cut:
  // CHECK: {{.*}}short.c:[[#@LINE+1]]:3: MPI_Send: 5 static, 1 dynamic (tag=n + a_rather_long_parameter_name_that_makes_the_reason_long_enough_to_be_cut{{.*}}...
  MPI_Send(buf, 4, MPI_DOUBLE, 0,
           n + a_rather_long_parameter_name_that_makes_the_reason_long_enough_to_be_cut * 2 +
               a_rather_long_parameter_name_that_makes_the_reason_long_enough_to_be_cut * 3,
           MPI_COMM_WORLD);
  // CHECK: {{.*}}short.c:[[#@LINE+1]]:3: MPI_Barrier: 1 static
  MPI_Barrier(MPI_COMM_WORLD);
}
