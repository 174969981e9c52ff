// A parameter that feeds an MPI argument is static when every call site in
// the translation unit passes the same static value. Functions with
// external linkage may be called from other files, so they count only under
// --closed-world (the program is this one file).
// RUN: %ompi-opt --report=long %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefixes=CHECK,OPEN %s
// RUN: %ompi-opt --closed-world --report=long %s -- %openmpi_cflags | FileCheck --match-full-lines --check-prefixes=CHECK,CLOSED %s
// The whole report is the same byte for byte under both headers:
// RUN: %ompi-opt --report=long %s -- %mpich_cflags > %t.mpich
// RUN: %ompi-opt --report=long %s -- %openmpi_cflags > %t.openmpi
// RUN: diff %t.mpich %t.openmpi
#include <mpi.h>
#include <stddef.h>

static double block[64];

static void send_block(double *b, int count, int peer) {
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=static(block; same value at 2 call sites of send_block), count=static(64; same value at 2 call sites of send_block), datatype=static(MPI_DOUBLE), dest=static(1; same value at 2 call sites of send_block), tag=static(1), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=1 @ MPI_COMM_WORLD) CommSize=static(512 bytes) Buffer=static(buf=block) Tag=static(tag=1)
  MPI_Send(b, count, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
}

// Negative: two call sites pass different counts.
static void send_var(int count) {
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=static(NULL), count=dynamic(count: calls of send_var pass different values (lines 61 and 62)), datatype=static(MPI_INT), dest=static(0), tag=static(2), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=dynamic(count x MPI_INT) Buffer=static(buf=NULL) Tag=static(tag=2)
  MPI_Send(NULL, count, MPI_INT, 0, 2, MPI_COMM_WORLD);
}

// Negative: the function's address escapes, so it has unknown callers.
static void via_pointer(int count) {
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=static(NULL), count=dynamic(count: count is a parameter of via_pointer, whose address is taken), datatype=static(MPI_INT), dest=static(0), tag=static(3), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=dynamic(count x MPI_INT) Buffer=static(buf=NULL) Tag=static(tag=3)
  MPI_Send(NULL, count, MPI_INT, 0, 3, MPI_COMM_WORLD);
}

// Rank-relative values pass through parameters too.
static void to_peer(int peer) {
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=static(NULL), count=static(0), datatype=static(MPI_INT), dest=rank-relative((rank+1)%size; same value at 1 call site of to_peer), tag=static(4), comm=static(MPI_COMM_WORLD)) CommNode=rank-relative(dest=(rank+1)%size @ MPI_COMM_WORLD) CommSize=static(0 bytes) Buffer=static(buf=NULL) Tag=static(tag=4)
  MPI_Send(NULL, 0, MPI_INT, peer, 4, MPI_COMM_WORLD);
}

// Negative: recursion, where the analysis does not look for a fixed point.
static void recurse(int n, int depth) {
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=static(NULL), count=dynamic(n: recurse at line 43 passes a dynamic value: recurse is called recursively), datatype=static(MPI_INT), dest=static(0), tag=static(5), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=dynamic(n x MPI_INT) Buffer=static(buf=NULL) Tag=static(tag=5)
  MPI_Send(NULL, n, MPI_INT, 0, 5, MPI_COMM_WORLD);
  if (depth > 0) recurse(n, depth - 1);
}

// External linkage: static only when the program is this file.
void exported(int count) {
  // OPEN: {{.*}}:[[@LINE+2]]:3: MPI_Send(buf=static(NULL), count=dynamic(count: count is a parameter of exported, which other files may call), datatype=static(MPI_INT), dest=static(0), tag=static(6), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=dynamic(count x MPI_INT) Buffer=static(buf=NULL) Tag=static(tag=6)
  // CLOSED: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=static(NULL), count=static(12; same value at 1 call site of exported), datatype=static(MPI_INT), dest=static(0), tag=static(6), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=static(48 bytes) Buffer=static(buf=NULL) Tag=static(tag=6)
  MPI_Send(NULL, count, MPI_INT, 0, 6, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int rank, size;
  void (*fp)(int) = via_pointer;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  send_block(block, 64, 1);
  send_block(block, 64, 1);
  send_var(1);
  send_var(2);
  fp(7);
  to_peer((rank + 1) % size);
  recurse(3, 2);
  exported(12);
  MPI_Finalize();
  return 0;
}
// CHECK: {{.*}}:[[@LINE-14]]:3: MPI_Init(argc=static(&argc), argv=static(&argv))
