// Negative cases: each argument below must be reported dynamic, with the
// reason, because assuming a value would be wrong on some execution.
// RUN: %ompi-opt --report=long %s -- %mpich_cflags | FileCheck --match-full-lines %s
// RUN: %ompi-opt --report=long %s -- %openmpi_cflags | FileCheck --match-full-lines %s
// The whole report is the same byte for byte under both headers:
// RUN: %ompi-opt --report=long %s -- %mpich_cflags > %t.mpich
// RUN: %ompi-opt --report=long %s -- %openmpi_cflags > %t.openmpi
// RUN: diff %t.mpich %t.openmpi
#include <mpi.h>
#include <stdlib.h>

int global_count = 8; // external linkage: another file may write it
static int modified = 1;
int get(void);
void touch(int *p);

void g(double *buf, int argc) {
  int i, n = 10, a = 1, b, c = 4, d = 5, k2 = 0;
  volatile int v = 3;
  int arr[2] = {1, 2};
  struct { int n; } s = {2};
  double *p = malloc(64);
  int *q = &d;
  MPI_Datatype derived;
  modified = 2;
  MPI_Type_contiguous(2, MPI_DOUBLE, &derived);
  // A variable assigned in a loop: its value changes per iteration.
  for (i = 0; i < 4; i++) {
    // CHECK: {{.*}}:[[@LINE+1]]:5: MPI_Send(buf=static(NULL), count=dynamic(n: n has 2 reaching definitions (lines 18, 31)), datatype=static(MPI_INT), dest=dynamic(i: i has 2 reaching definitions (line 28)), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=i @ MPI_COMM_WORLD) CommSize=dynamic(n x MPI_INT) Buffer=static(buf=NULL) Tag=static(tag=0)
    MPI_Send(NULL, n, MPI_INT, i, 0, MPI_COMM_WORLD);
    n = n * 2;
  }
  // Different reaching definitions on two paths.
  if (argc > 1)
    b = 2;
  else
    b = 3;
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=static(NULL), count=dynamic(b: b has 2 reaching definitions (lines 35, 37)), datatype=static(MPI_INT), dest=static(0), tag=static(4), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=dynamic(b x MPI_INT) Buffer=static(buf=NULL) Tag=static(tag=4)
  MPI_Send(NULL, b, MPI_INT, 0, c, MPI_COMM_WORLD);
  // Address taken: an unknown function may write it from there on (before,
  // c was 4 on every path), in the loop's later iterations too.
  touch(&c);
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=static(NULL), count=static(1), datatype=static(MPI_INT), dest=static(0), tag=dynamic(c: address of c is taken at line [[@LINE-1]]), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=static(4 bytes) Buffer=static(buf=NULL) Tag=dynamic(tag=c)
  MPI_Send(NULL, 1, MPI_INT, 0, c, MPI_COMM_WORLD);
  for (int k = 0; k < 2; k++) {
    // CHECK: {{.*}}:[[@LINE+1]]:5: MPI_Send(buf=static(NULL), count=static(1), datatype=static(MPI_INT), dest=static(0), tag=dynamic(k2: address of k2 is taken at line [[@LINE+1]]), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=static(4 bytes) Buffer=static(buf=NULL) Tag=dynamic(tag=k2)
    MPI_Send(NULL, 1, MPI_INT, 0, k2, MPI_COMM_WORLD); touch(&k2);
  }
  // Written through a pointer: q points to d.
  *q = 7;
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(p: result of a call to malloc), count=dynamic(d: address of d is taken at line 23), datatype=static(MPI_INT), dest=dynamic(v: v is volatile), tag=dynamic(a + get(): result of a call to get), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=v @ MPI_COMM_WORLD) CommSize=dynamic(d x MPI_INT) Buffer=dynamic(buf=p) Tag=dynamic(tag=a + get())
  MPI_Send(p, d, MPI_INT, v, a + get(), MPI_COMM_WORLD);
  // Globals: external linkage, or modified in this file.
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(buf: buf is a parameter of g, which other files may call), count=dynamic(global_count: global_count is a global variable that other files may modify), datatype=dynamic(derived: derived is set by MPI_Type_contiguous at line 26), dest=dynamic(modified: modified is modified at line 25), tag=dynamic(argc: argc is a parameter of g, which other files may call), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=modified @ MPI_COMM_WORLD) CommSize=dynamic(global_count x derived) Buffer=dynamic(buf=buf) Tag=dynamic(tag=argc)
  MPI_Send(buf, global_count, derived, modified, argc, MPI_COMM_WORLD);
  // Memory reads: array elements, structure members, uninitialised locals.
  int u;
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(buf + argc: buf is a parameter of g, which other files may call), count=dynamic(arr[1]: array element arr[1]), datatype=static(MPI_INT), dest=dynamic(s.n: structure member s.n), tag=dynamic(u: u is declared without a value (line 57)), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=s.n @ MPI_COMM_WORLD) CommSize=dynamic(arr[1] x MPI_INT) Buffer=dynamic(buf=buf + argc) Tag=dynamic(tag=u)
  MPI_Send(buf + argc, arr[1], MPI_INT, s.n, u, MPI_COMM_WORLD);
}
