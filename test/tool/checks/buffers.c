// --check, the buffer checks: type-mismatch, count-overflow,
// pointer-to-pointer (with its fix-it, applied by --fix). Each runs alone;
// --implicit-check-not makes every other warning a failure, so the negative
// cases below (the idioms other tools flag wrongly) must stay silent.
// RUN: %ompi-opt --check --checks=type-mismatch %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TYPE %s
// RUN: %ompi-opt --check --checks=type-mismatch %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=TYPE %s
// RUN: %ompi-opt --check --checks=count-overflow %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=COUNT %s
// RUN: %ompi-opt --check --checks=pointer-to-pointer %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: --check-prefix=PTR %s
// The fix-it, applied:
// RUN: rm -rf %t.d && mkdir %t.d && cp %s %t.d/b.c
// RUN: cd %t.d && %ompi-opt --check --fix --checks=pointer-to-pointer b.c -- %mpich_cflags > /dev/null 2> %t.err
// RUN: FileCheck --check-prefix=APPLIED %s < %t.err
// RUN: grep -cx "  MPI_Send(p, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);" %t.d/b.c | FileCheck --check-prefix=ONE %s
// RUN: diff %s %t.d/b.c.orig
// APPLIED: ompi-opt: applied 1 fix-it to b.c
// ONE: 1
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef double real;
struct pair { int value; int rank; };
struct di { double value; int index; };

int ibuf[4];
double dbuf[8];
real rbuf[8];

void positives(void) {
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:12: warning: MPI_Send buf 'ibuf' has elements of type int, but its datatype MPI_DOUBLE describes double [ompi-type-mismatch]
  MPI_Send(ibuf, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:31: warning: MPI_Allreduce recvbuf 'ibuf' has elements of type int, but its datatype MPI_LONG describes long [ompi-type-mismatch]
  MPI_Allreduce(MPI_IN_PLACE, ibuf, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  // A typedef is seen through:
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:12: warning: MPI_Recv buf 'rbuf' has elements of type real (double), but its datatype MPI_FLOAT describes float [ompi-type-mismatch]
  MPI_Recv(rbuf, 8, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  struct di d[2], e[2];
  // TYPE: {{.*}}buffers.c:[[#@LINE+2]]:17: warning: MPI_Allreduce sendbuf 'd' has elements of type struct di, but its datatype MPI_2INT describes a pair (int+int) [ompi-type-mismatch]
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:20: warning: MPI_Allreduce recvbuf 'e' has elements of type struct di, but its datatype MPI_2INT describes a pair (int+int) [ompi-type-mismatch]
  MPI_Allreduce(d, e, 2, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
  // COUNT: {{.*}}buffers.c:[[#@LINE+1]]:18: warning: MPI_Send reads 16 x MPI_DOUBLE = 128 bytes from 'dbuf', but 'dbuf' has 64 bytes [ompi-count-overflow]
  MPI_Send(dbuf, 16, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  // COUNT: {{.*}}buffers.c:[[#@LINE+1]]:22: warning: MPI_Recv writes 4 x MPI_DOUBLE = 32 bytes into '&dbuf[6]', but 'dbuf' has 64 bytes (16 from byte 48 on) [ompi-count-overflow]
  MPI_Recv(&dbuf[6], 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double *p = dbuf;
  // PTR: {{.*}}buffers.c:[[#@LINE+1]]:12: warning: MPI_Send buf '&p' is a pointer to double *: the call would transfer the pointer, not the data it points to [ompi-pointer-to-pointer]
  MPI_Send(&p, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
}

// A datatype variable set on different paths: each predefined type a path
// gives it is judged (the negative: every path's type describes the buffer).
void path_types(int argc) {
  MPI_Datatype t = MPI_INT, u = MPI_INT;
  if (argc > 1)
    t = MPI_CHAR;
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:13: warning: MPI_Bcast buffer 'ibuf' has elements of type int, but its datatype 't' is MPI_CHAR (as set at line [[#@LINE-1]], one of the values reaching the call), which describes char [ompi-type-mismatch]
  MPI_Bcast(ibuf, 4, t, 0, MPI_COMM_WORLD);
  if (argc > 2)
    u = MPI_INT32_T;
  MPI_Bcast(ibuf, 4, u, 0, MPI_COMM_WORLD);
}

// Negative: each of these is correct and must not be reported.
void negatives(void *anything, int n) {
  struct pair pr[2], pr2[2];
  struct di dl, dl2;
  size_t sz[2];
  int64_t big;
  MPI_Aint disp;
  double *p = dbuf;
  MPI_Allreduce(pr, pr2, 2, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);       // the pair struct of MPI_2INT
  MPI_Allreduce(ibuf, ibuf + 2, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD); // an int array holding pairs
  MPI_Reduce(&dl, &dl2, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, MPI_COMM_WORLD); // the double+int pair
  MPI_Bcast(sz, 2, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);                 // size_t is unsigned long here
  MPI_Bcast(&big, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);                     // a typedef of the datatype's own
  MPI_Bcast(&disp, 1, MPI_AINT, 0, MPI_COMM_WORLD);                       // MPI_Aint with MPI_AINT
  MPI_Allreduce(MPI_IN_PLACE, dbuf, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // MPI_IN_PLACE is no buffer
  MPI_Send(anything, n, MPI_INT, 1, 0, MPI_COMM_WORLD);                    // void *: the type is unknown
  MPI_Send(dbuf, 64, MPI_BYTE, 1, 0, MPI_COMM_WORLD);                      // bytes of anything, and 64 fit
  MPI_Send((void *)ibuf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);                // a cast to void * is seen through
  MPI_Send(dbuf, n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);                     // count not static
  MPI_Send(&dbuf[4], 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);                 // exactly the rest of dbuf
  MPI_Send(p, 8, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);                        // through a pointer: size unknown
  MPI_Send(&disp, 1, MPI_AINT, 1, 0, MPI_COMM_WORLD);                      // an address, on purpose
}

// Derived datatypes of known shape (contiguous, vector, subarray over one
// predefined type): judged by the type they are built from and by how far
// their elements reach.
void derived(void) {
  long lbuf[4];
  int ints[8];
  MPI_Datatype two, col;
  MPI_Type_contiguous(2, MPI_INT, &two);
  MPI_Type_commit(&two);
  MPI_Type_vector(2, 1, 4, MPI_INT, &col);
  MPI_Type_commit(&col);
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:12: warning: MPI_Send buf 'lbuf' has elements of type long, but its datatype two (built from MPI_INT) describes int [ompi-type-mismatch]
  MPI_Send(lbuf, 1, two, 1, 0, MPI_COMM_WORLD);
  // COUNT: {{.*}}buffers.c:[[#@LINE+1]]:18: warning: MPI_Send reads 5 x two = 40 bytes from 'ints', but 'ints' has 32 bytes [ompi-count-overflow]
  MPI_Send(ints, 5, two, 1, 0, MPI_COMM_WORLD);
  MPI_Send(ints, 4, two, 1, 0, MPI_COMM_WORLD); // 4 x 8 bytes: exactly ints
  MPI_Send(ints, 1, col, 1, 0, MPI_COMM_WORLD); // one column spans 5 ints
  // A subarray reaches only to its last element, not its extent (the whole
  // 4 x 4 array): 2 ints from byte 24 fit in ints, from byte 32 they do not.
  int sizes[2] = {4, 4}, subs[2] = {1, 2}, fits[2] = {1, 2}, past[2] = {2, 0};
  MPI_Datatype in, out;
  MPI_Type_create_subarray(2, sizes, subs, fits, MPI_ORDER_C, MPI_INT, &in);
  MPI_Type_create_subarray(2, sizes, subs, past, MPI_ORDER_C, MPI_INT, &out);
  MPI_Type_commit(&in);
  MPI_Type_commit(&out);
  MPI_Send(ints, 1, in, 1, 0, MPI_COMM_WORLD);
  // COUNT: {{.*}}buffers.c:[[#@LINE+1]]:18: warning: MPI_Send reads 1 x out = 40 bytes from 'ints', but 'ints' has 32 bytes [ompi-count-overflow]
  MPI_Send(ints, 1, out, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&in);
  MPI_Type_free(&out);
  MPI_Type_free(&two);
  MPI_Type_free(&col);
}

// A datatype of no known shape built once is judged by its old type on
// each path to its construction (CorrBench's conflo ArgError-MPISend-Type-4:
// unsigned ints sent as a contiguous type of 'ty', MPI_INT on one path),
// also where its count is not known. The negatives: every path's old type
// describes the buffer; a type a function may build again.
void remake(MPI_Datatype *t);
void built_from_path(int argc, int n) {
  MPI_Datatype ty = MPI_UNSIGNED, four, ok, dyn, other;
  unsigned u[64];
  if (argc == 1)
    ty = MPI_INT;
  MPI_Type_contiguous(4, ty, &four);
  MPI_Type_contiguous(n, MPI_UNSIGNED, &ok);
  MPI_Type_contiguous(n, MPI_DOUBLE, &dyn);
  MPI_Type_commit(&four);
  MPI_Type_commit(&ok);
  MPI_Type_commit(&dyn);
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:12: warning: MPI_Send buf 'u' has elements of type unsigned int, but its datatype 'four' (built at line [[#@LINE-6]] from 'ty', MPI_INT (as set at line [[#@LINE-7]], one of the values reaching the call)) describes int [ompi-type-mismatch]
  MPI_Send(u, 1, four, 1, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, ok, 1, 0, MPI_COMM_WORLD);
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:12: warning: MPI_Send buf 'u' has elements of type unsigned int, but its datatype 'dyn' (built at line [[#@LINE-7]] from MPI_DOUBLE) describes double [ompi-type-mismatch]
  MPI_Send(u, 1, dyn, 1, 0, MPI_COMM_WORLD);
  // A type something else may build again: not judged.
  MPI_Type_contiguous(4, MPI_DOUBLE, &other);
  remake(&other);
  MPI_Send(u, 1, other, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&four);
  MPI_Type_free(&ok);
  MPI_Type_free(&dyn);
}

// A local pointer's only allocation of a static size is its buffer's size
// (CorrBench's conflo ArgError-MPIRecv-Count-2: 10 ints on one path into
// 4). Negatives: an allocation of a size known only at run time, a pointer
// assigned twice, a pointer moved on, a count that fits.
void allocated(int argc, int n) {
  int *buf = (int *)malloc(4 * sizeof(int)), count = 4;
  double *d = calloc(8, sizeof(double)), *x = malloc((size_t)n * sizeof(double)), *y, *z;
  y = malloc(2 * sizeof(double));
  if (argc > 1)
    y = malloc(16 * sizeof(double));
  z = malloc(2 * sizeof(double));
  z++;
  if (argc == 1)
    count = 10;
  // COUNT: {{.*}}buffers.c:[[#@LINE+1]]:17: warning: MPI_Recv writes 10 x MPI_INT = 40 bytes into 'buf' (as set at line [[#@LINE-1]], one of the values reaching the call), but 'buf' has 16 bytes (from malloc at line [[#@LINE-9]]) [ompi-count-overflow]
  MPI_Recv(buf, count, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // COUNT: {{.*}}buffers.c:[[#@LINE+1]]:15: warning: MPI_Send reads 9 x MPI_DOUBLE = 72 bytes from 'd', but 'd' has 64 bytes (from calloc at line [[#@LINE-10]]) [ompi-count-overflow]
  MPI_Send(d, 9, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  MPI_Send(d, 8, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  MPI_Send(x, 9, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  MPI_Send(y, 9, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  MPI_Send(z, 9, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  free(buf);
  free(d);
  free(x);
  free(y);
}

// A pointer set to different arrays on different paths: each array against
// a count that holds on every path (CorrBench's conflo ArgError-MPIRecv-
// Type-1: a double into one char). Negatives: the pointer tested between
// its definition and the call (the test may exclude that path), a count
// that differs by path as well (the two paths may be correlated), and a
// count every array has room for.
void pointed_on_paths(int argc, int n) {
  char small[1];
  double big[4];
  void *p, *q, *r;
  int count = 1;
  if (argc == 1)
    p = small;
  else
    p = big;
  // COUNT: {{.*}}buffers.c:[[#@LINE+1]]:15: warning: MPI_Recv writes 1 x MPI_DOUBLE = 8 bytes into 'p' (as set at line [[#@LINE-3]], one of the values reaching the call), but 'small' has 1 bytes [ompi-count-overflow]
  MPI_Recv(p, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  q = n > 2 ? (void *)big : (void *)small;
  r = small;
  if (argc > 1)
    r = big;
  if (r == big)
    MPI_Recv(r, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (argc > 1)
    count = 4;
  MPI_Recv(r, count, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(q, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(p, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// A pointer-to-pointer buffer with a derived datatype whose layout is not
// known (a struct type over what the pointers point to, as one widely used
// benchmark does): not judged.
void pointers_with_struct_type(void ***cells, MPI_Datatype cell_type) {
  MPI_Send(cells, 1, cell_type, 1, 0, MPI_COMM_WORLD);
}

// A struct made of one type only, sent as that type (PRK's PIC particles:
// "use double to create homogeneous type"): the same bytes. A struct that
// mixes types is still a mismatch.
struct particle {
  double x, y, q[2];
};
struct tagged {
  double x;
  int id;
};
void homogeneous_structs(struct particle *p, struct tagged *t, int n) {
  MPI_Datatype PART;
  MPI_Type_contiguous(4, MPI_DOUBLE, &PART);
  MPI_Type_commit(&PART);
  MPI_Send(p, n, PART, 1, 0, MPI_COMM_WORLD);
  MPI_Send(p, 4 * n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  // TYPE: {{.*}}buffers.c:[[#@LINE+1]]:12: warning: MPI_Send buf 't' has elements of type struct tagged, but its datatype MPI_DOUBLE describes double [ompi-type-mismatch]
  MPI_Send(t, n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&PART);
}
