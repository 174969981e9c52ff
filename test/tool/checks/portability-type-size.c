// portability-type-size: buffer types that differ from the datatype's but
// are the same size and representation on this target (LP64), reported as
// a remark apart from type-mismatch. The negatives match exactly, or differ
// in size (type-mismatch's, checked silent here by the second RUN's
// prefix), and type-mismatch stays silent on the positives.
// RUN: %ompi-opt --check --checks=portability-type-size %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: %s
// RUN: %ompi-opt --check --checks=portability-type-size %s -- %openmpi_cflags 2>&1 | FileCheck --match-full-lines --implicit-check-not=remark: %s
// RUN: %ompi-opt --check --checks=type-mismatch %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TYPE %s
#include <mpi.h>
#include <stdint.h>

void positives(void) {
  long l = 0;
  long long ll = 0;
  int64_t i64 = 0;
  unsigned long ul = 0;
  // CHECK: {{.*}}portability-type-size.c:[[#@LINE+1]]:13: remark: MPI_Bcast buffer '&l' has elements of type long, but its datatype MPI_LONG_LONG describes long long: the two are the same size here, but not on every platform (use the datatype of the element type) [ompi-portability-type-size]
  MPI_Bcast(&l, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}portability-type-size.c:[[#@LINE+1]]:13: remark: MPI_Bcast buffer '&ll' has elements of type long long, but its datatype MPI_LONG describes long: the two are the same size here, but not on every platform (use the datatype of the element type) [ompi-portability-type-size]
  MPI_Bcast(&ll, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}portability-type-size.c:[[#@LINE+1]]:13: remark: MPI_Bcast buffer '&i64' has elements of type int64_t (long), but its datatype MPI_LONG_LONG describes long long: the two are the same size here, but not on every platform (use the datatype of the element type) [ompi-portability-type-size]
  MPI_Bcast(&i64, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}portability-type-size.c:[[#@LINE+1]]:13: remark: MPI_Bcast buffer '&ul' has elements of type unsigned long, but its datatype MPI_UNSIGNED_LONG_LONG describes unsigned long long: the two are the same size here, but not on every platform (use the datatype of the element type) [ompi-portability-type-size]
  MPI_Bcast(&ul, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
}

void negatives(void) {
  long l = 0;
  int i = 0;
  int64_t i64 = 0;
  unsigned long ul = 0;
  MPI_Bcast(&l, 1, MPI_LONG, 0, MPI_COMM_WORLD);      // exact
  MPI_Bcast(&i64, 1, MPI_INT64_T, 0, MPI_COMM_WORLD); // exact
  // TYPE: {{.*}}portability-type-size.c:[[#@LINE+1]]:13: warning: MPI_Bcast buffer '&i' has elements of type int, but its datatype MPI_LONG describes long [ompi-type-mismatch]
  MPI_Bcast(&i, 1, MPI_LONG, 0, MPI_COMM_WORLD);      // 4 bytes read as 8: type-mismatch
  // TYPE: {{.*}}portability-type-size.c:[[#@LINE+1]]:13: warning: MPI_Bcast buffer '&ul' has elements of type unsigned long, but its datatype MPI_LONG describes long [ompi-type-mismatch]
  MPI_Bcast(&ul, 1, MPI_LONG, 0, MPI_COMM_WORLD);     // signedness differs: type-mismatch
}
