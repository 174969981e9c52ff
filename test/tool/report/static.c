// Every way an MPI argument is static: literals, enumerators, macros, const
// variables, sizeof, arithmetic, single reaching definitions, handles.
// The same classification is expected under MPICH's and Open MPI's mpi.h.
// RUN: %ompi-opt --report=long %s -- %mpich_cflags -DREQUIRE_MPICH | FileCheck --match-full-lines %s
// RUN: %ompi-opt --report=long %s -- %openmpi_cflags -DREQUIRE_OPENMPI | FileCheck --match-full-lines %s
// The whole report is the same byte for byte under both headers:
// RUN: %ompi-opt --report=long %s -- %mpich_cflags > %t.mpich
// RUN: %ompi-opt --report=long %s -- %openmpi_cflags > %t.openmpi
// RUN: diff %t.mpich %t.openmpi
#include <mpi.h>
#include <stddef.h>
#if defined(REQUIRE_MPICH) && !defined(MPICH_VERSION)
#error "expected MPICH's mpi.h"
#endif
#if defined(REQUIRE_OPENMPI) && !defined(OPEN_MPI)
#error "expected Open MPI's mpi.h"
#endif

#define N 16
#define COMM MPI_COMM_WORLD
#define DT MPI_DOUBLE
enum { TAG_A = 3, TAG_B };
static const int LEN = 2 * N;
static int never_written = 5;
struct pair { int a; double b; };

void f(void) {
  double buf[N];
  int ibuf[4];
  struct pair pr;
  const int k = 4;
  int n = 10;
  int m;
  MPI_Datatype t = MPI_INT;
  MPI_Comm c = COMM;

  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Send(buf=static(buf), count=static(16), datatype=static(MPI_DOUBLE), dest=static(1), tag=static(3), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=1 @ MPI_COMM_WORLD) CommSize=static(128 bytes) Buffer=static(buf=buf) Tag=static(tag=3)
  MPI_Send(buf, N, DT, 1, TAG_A, COMM);
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Send(buf=static(&buf[2]), count=static(32), datatype=static(MPI_DOUBLE), dest=static(0), tag=static(4), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=static(256 bytes) Buffer=static(buf=&buf[2]) Tag=static(tag=4)
  MPI_Send(&buf[2], LEN, MPI_DOUBLE, 0, TAG_B, MPI_COMM_WORLD);
  // sizeof, const local, arithmetic on statics, a local with one definition.
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Send(buf=static(ibuf), count=static(4), datatype=static(MPI_INT), dest=static(2), tag=static(20), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=2 @ MPI_COMM_WORLD) CommSize=static(16 bytes) Buffer=static(buf=ibuf) Tag=static(tag=20)
  MPI_Send(ibuf, sizeof ibuf / sizeof ibuf[0], t, k / 2, n * 2, c);
  // Reaching definitions: the later assignment wins; compound assignment and
  // increment of a static value stay static.
  n = 7;
  n += 3;
  n++;
  m = n << 1;
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Recv(buf=static(&pr.b), count=static(11), datatype=static(MPI_DOUBLE), source=static(22), tag=static(5), comm=static(MPI_COMM_WORLD), status=static(MPI_STATUS_IGNORE)) CommNode=static(source=22 @ MPI_COMM_WORLD) CommSize=static(88 bytes) Buffer=static(buf=&pr.b) Tag=static(tag=5)
  MPI_Recv(&pr.b, n, MPI_DOUBLE, m, never_written, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // The same value on both paths is still static; so is a static condition.
  if (m > 100) n = 1; else n = 1;
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Recv(buf=static(&pr.a), count=static(1), datatype=static(MPI_INT), source=static(MPI_ANY_SOURCE), tag=static(MPI_ANY_TAG), comm=static(MPI_COMM_SELF), status=static(MPI_STATUS_IGNORE)) CommNode=static(source=MPI_ANY_SOURCE @ MPI_COMM_SELF) CommSize=static(4 bytes) Buffer=static(buf=&pr.a) Tag=static(tag=MPI_ANY_TAG)
  MPI_Recv(&pr.a, n, MPI_INT, LEN > 8 ? MPI_ANY_SOURCE : 0, MPI_ANY_TAG, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  // Collectives: MPI_IN_PLACE, ops, roots.
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Allreduce(sendbuf=static(MPI_IN_PLACE), recvbuf=static(buf), count=static(16), datatype=static(MPI_DOUBLE), op=static(MPI_SUM), comm=static(MPI_COMM_WORLD)) CommNode=static(all @ MPI_COMM_WORLD) CommSize=static(128 bytes) Buffer=static(sendbuf=MPI_IN_PLACE, recvbuf=buf)
  MPI_Allreduce(MPI_IN_PLACE, buf, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Reduce(sendbuf=static(&pr.a), recvbuf=static(ibuf), count=static(1), datatype=static(MPI_2INT), op=static(MPI_MAXLOC), root=static(0), comm=static(MPI_COMM_WORLD)) CommNode=static(root=0 @ MPI_COMM_WORLD) CommSize=static(8 bytes) Buffer=static(sendbuf=&pr.a, recvbuf=ibuf)
  MPI_Reduce(&pr.a, ibuf, 1, MPI_2INT, MPI_MAXLOC, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Send(buf=static(NULL), count=static(0), datatype=static(MPI_BYTE), dest=static(MPI_PROC_NULL), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=MPI_PROC_NULL @ MPI_COMM_WORLD) CommSize=static(0 bytes) Buffer=static(buf=NULL) Tag=static(tag=0)
  MPI_Send(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  // The spelling the user wrote, even where one header defines the handle
  // through another (MPICH: MPI_LONG_LONG is MPI_LONG_LONG_INT).
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Bcast(buffer=static(buf), count=static(2), datatype=static(MPI_LONG_LONG), root=static(0), comm=static(MPI_COMM_WORLD)) CommNode=static(root=0 @ MPI_COMM_WORLD) CommSize=static(16 bytes) Buffer=static(buffer=buf)
  MPI_Bcast(buf, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}static.c:[[@LINE+1]]:3: MPI_Barrier(comm=static(MPI_COMM_WORLD)) CommNode=static(all @ MPI_COMM_WORLD)
  MPI_Barrier(MPI_COMM_WORLD);
}

// Loops: an assignment in the loop body that gives the same value on every
// iteration is static (it is the only definition reaching the call); one
// that changes per iteration is not (two definitions reach the call).
void loops(int iters) {
  int i, x, y = 0;
  for (i = 0; i < iters; i++) {
    x = 8;
    // CHECK: {{.*}}static.c:[[@LINE+1]]:5: MPI_Send(buf=static(NULL), count=static(8), datatype=static(MPI_INT), dest=dynamic(y: y has 2 reaching definitions (lines [[#@LINE-3]], [[#@LINE+2]])), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=y @ MPI_COMM_WORLD) CommSize=static(32 bytes) Buffer=static(buf=NULL) Tag=static(tag=0)
    MPI_Send(NULL, x, MPI_INT, y, 0, MPI_COMM_WORLD);
    y = i;
  }
}
