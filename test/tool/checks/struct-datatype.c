// struct-datatype: MPI_Type_create_struct datatypes against the C struct of
// the buffer they are used with. The positives leave out a member, swap
// member types, give a wrong block length, a hand-computed displacement
// that ignores padding, a displacement nothing sets and an absolute address
// used with a buffer. The negatives describe the struct exactly (offsetof,
// MPI_Get_address relative to the base, absolute addresses with
// MPI_BOTTOM), leave out only a trailing pointer, part of an array or a
// member in the middle (each may be meant), or are not followed
// (displacements filled in a loop).
// RUN: %ompi-opt --check --checks=struct-datatype,invalid-argument %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=struct-datatype,invalid-argument %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>
#include <stddef.h>

struct S {
  int i;
  char c;
  double d;
};

struct P {
  double x[3];
  int id;
  struct P *next;
};

static void missing_member(struct S *buf) {
  int len[2] = {1, 1};
  MPI_Aint disp[2] = {offsetof(struct S, i), offsetof(struct S, c)};
  MPI_Datatype types[2] = {MPI_INT, MPI_CHAR};
  MPI_Datatype t;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:3: warning: datatype 't' does not match the struct it transfers: it describes 2 of the 3 members of struct S (from 'd' on they are not transferred) (a struct datatype's type map must match the members it transfers) [ompi-struct-datatype]
  MPI_Type_create_struct(2, len, disp, types, &t); // d is not described
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}

static void swapped_types(struct S *buf) {
  int len[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(struct S, i), offsetof(struct S, c), offsetof(struct S, d)};
  MPI_Datatype types[3] = {MPI_CHAR, MPI_INT, MPI_DOUBLE};
  MPI_Datatype t;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:3: warning: datatype 't' does not match the struct it transfers: block 0 is MPI_CHAR (char) at displacement 0, but member 'i' of struct S there is int (a struct datatype's type map must match the members it transfers) [ompi-struct-datatype]
  MPI_Type_create_struct(3, len, disp, types, &t); // i is an int, c a char
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}

static void block_length(struct P *buf) {
  int len[2] = {4, 1};
  MPI_Aint disp[2] = {offsetof(struct P, x), offsetof(struct P, id)};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Datatype t;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:3: warning: datatype 't' does not match the struct it transfers: block 0 (its element 3) is MPI_DOUBLE (double) at displacement 24, but member 'id' of struct P there is int (a struct datatype's type map must match the members it transfers) [ompi-struct-datatype]
  MPI_Type_create_struct(2, len, disp, types, &t); // x holds 3 doubles, not 4
  MPI_Type_commit(&t);
  MPI_Recv(buf, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
}

static void padding(struct S *buf) {
  int len[] = {1, 1, 1};
  MPI_Aint disp[] = {0, sizeof(int), sizeof(int) + sizeof(char)}; // d is at 8
  MPI_Datatype types[] = {MPI_INT, MPI_CHAR, MPI_DOUBLE};
  MPI_Datatype t;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:3: warning: datatype 't' does not match the struct it transfers: block 2 is MPI_DOUBLE at displacement 5, which is padding of struct S (the next member, 'd', is at offset 8; compute displacements with offsetof or MPI_Get_address: the compiler pads members) (a struct datatype's type map must match the members it transfers) [ompi-struct-datatype]
  MPI_Type_create_struct(3, len, disp, types, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}

static void unset_displacement(struct S *buf) {
  int len[3] = {1, 1, 1};
  MPI_Aint disp[3];
  MPI_Get_address(buf, disp);
  MPI_Get_address(&buf->c, disp + 1);
  MPI_Get_address(&buf->d, disp + 2);
  MPI_Aint base = disp[0];
  disp[0] = MPI_Aint_diff(disp[0], base);
  disp[2] = MPI_Aint_diff(disp[1], base); // meant disp[1]
  disp[2] = MPI_Aint_diff(disp[2], base);
  MPI_Datatype types[3] = {MPI_INT, MPI_CHAR, MPI_DOUBLE};
  MPI_Datatype t;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:3: warning: datatype 't' does not match the struct it transfers: displacement 1 is still the absolute address of &buf->c from MPI_Get_address, but the datatype is used with a buffer rather than MPI_BOTTOM (subtract the struct's base address) (a struct datatype's type map must match the members it transfers) [ompi-struct-datatype]
  MPI_Type_create_struct(3, len, disp, types, &t); // disp[1] is an absolute address
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}

static void never_set(struct S *buf) {
  int len[3] = {1, 1, 1};
  MPI_Aint disp[3];
  disp[0] = 0;
  disp[1] = offsetof(struct S, c);
  MPI_Datatype types[3] = {MPI_INT, MPI_CHAR, MPI_DOUBLE};
  MPI_Datatype t;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:3: warning: datatype 't' does not match the struct it transfers: displacement 2 is never set before the call (a struct datatype's type map must match the members it transfers) [ompi-struct-datatype]
  MPI_Type_create_struct(3, len, disp, types, &t); // disp[2] is never set
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}

static void invalid(struct S *buf) {
  int len[3] = {1, -1, 1};
  MPI_Aint disp[3] = {offsetof(struct S, i), offsetof(struct S, c), offsetof(struct S, d)};
  MPI_Datatype types[3] = {MPI_INT, MPI_DATATYPE_NULL, MPI_DOUBLE};
  MPI_Datatype t;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:26: warning: MPI_Type_create_struct count '-1' is negative (-1): the standard requires a non-negative count [ompi-invalid-argument]
  MPI_Type_create_struct(-1, len, disp, types, &t); // negative count
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:26: warning: MPI_Type_create_struct count 4 is larger than array_of_blocklengths 'len', which holds 3: the call reads past its end [ompi-invalid-argument]
  MPI_Type_create_struct(4, len, disp, types, &t);  // the arrays hold 3
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+2]]:29: warning: MPI_Type_create_struct block length 1 is negative (-1): the standard requires non-negative block lengths [ompi-invalid-argument]
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:40: warning: MPI_Type_create_struct block type 1 is MPI_DATATYPE_NULL: the standard requires a valid datatype for every block [ompi-invalid-argument]
  MPI_Type_create_struct(3, len, disp, types, &t);  // -1 and MPI_DATATYPE_NULL
  MPI_Type_free(&t);
  (void)buf;
}

// The values come through an if (MPI-CorrBench's conflo/ programs): each
// path is judged.
static void paths(struct S *buf, int argc) {
  int count = 3;
  if (argc == 1)
    count = 2;
  else
    count = 3;
  int len[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(struct S, i), offsetof(struct S, c), offsetof(struct S, d)};
  MPI_Datatype types[3] = {MPI_INT, MPI_CHAR, MPI_DOUBLE};
  MPI_Datatype t;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:3: warning: datatype 't' does not match the struct it transfers: it describes 2 of the 3 members of struct S (from 'd' on they are not transferred) (as set at line {{[0-9]+}}, one of the values reaching the call) (a struct datatype's type map must match the members it transfers) [ompi-struct-datatype]
  MPI_Type_create_struct(count, len, disp, types, &t); // 2 blocks where argc == 1
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
  MPI_Datatype swapped[3] = {MPI_INT, MPI_CHAR, MPI_DOUBLE};
  if (argc == 1) {
    swapped[0] = MPI_CHAR;
    swapped[1] = MPI_INT;
  }
  MPI_Datatype u;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:3: warning: datatype 'u' does not match the struct it transfers: block 0 is MPI_CHAR (char) at displacement 0, but member 'i' of struct S there is int on the path where argc == 1 (a struct datatype's type map must match the members it transfers) [ompi-struct-datatype]
  MPI_Type_create_struct(3, len, disp, swapped, &u); // swapped where argc == 1
  MPI_Type_commit(&u);
  MPI_Send(buf, 1, u, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&u);
  int neg[3];
  neg[0] = 1;
  neg[2] = 1;
  if (argc > 2)
    neg[1] = -1;
  else
    neg[1] = 1;
  MPI_Datatype v;
  // CHECK: {{.*}}struct-datatype.c:[[#@LINE+1]]:29: warning: MPI_Type_create_struct block length 1 is negative (-1) on the path where argc > 2: the standard requires non-negative block lengths [ompi-invalid-argument]
  MPI_Type_create_struct(3, neg, disp, types, &v); // -1 where argc > 2
  MPI_Type_free(&v);
  // An arm that returns does not reach the call.
  MPI_Datatype early[3] = {MPI_INT, MPI_CHAR, MPI_DOUBLE};
  if (argc > 5) {
    early[0] = MPI_DATATYPE_NULL;
    return;
  }
  MPI_Datatype w;
  MPI_Type_create_struct(3, len, disp, early, &w);
  MPI_Type_commit(&w);
  MPI_Send(buf, 1, w, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&w);
}

static void negatives(struct S *buf, struct P *p, int n) {
  // offsetof: exact.
  int len[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(struct S, i), offsetof(struct S, c), offsetof(struct S, d)};
  MPI_Datatype types[3] = {MPI_INT, MPI_CHAR, MPI_DOUBLE};
  MPI_Datatype t;
  MPI_Type_create_struct(3, len, disp, types, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
  // MPI_Get_address relative to the base: exact.
  MPI_Aint rel[3], base;
  MPI_Get_address(buf, &base);
  MPI_Get_address(&buf->i, &rel[0]);
  MPI_Get_address(&buf->c, &rel[1]);
  MPI_Get_address(&buf->d, &rel[2]);
  rel[0] -= base;
  rel[1] = MPI_Aint_diff(rel[1], base);
  rel[2] = rel[2] - base;
  MPI_Datatype r;
  MPI_Type_create_struct(3, len, rel, types, &r);
  MPI_Type_commit(&r);
  MPI_Send(buf, 1, r, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&r);
  // Absolute addresses with MPI_BOTTOM: the standard idiom.
  MPI_Aint abs[3];
  MPI_Get_address(&buf->i, &abs[0]);
  MPI_Get_address(&buf->c, &abs[1]);
  MPI_Get_address(&buf->d, &abs[2]);
  MPI_Datatype b;
  MPI_Type_create_struct(3, len, abs, types, &b);
  MPI_Type_commit(&b);
  MPI_Send(MPI_BOTTOM, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&b);
  // The trailing pointer is left out on purpose: it means nothing elsewhere.
  int plen[2] = {3, 1};
  MPI_Aint pdisp[2] = {offsetof(struct P, x), offsetof(struct P, id)};
  MPI_Datatype ptypes[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Datatype pt;
  MPI_Type_create_struct(2, plen, pdisp, ptypes, &pt);
  MPI_Type_commit(&pt);
  MPI_Send(p, n, pt, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&pt);
  // Part of an array member: a block shorter than the array may be meant.
  int part[2] = {2, 1};
  MPI_Datatype pp;
  MPI_Type_create_struct(2, part, pdisp, ptypes, &pp);
  MPI_Type_commit(&pp);
  MPI_Send(p, n, pp, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&pp);
  // Blocks that skip a member in the middle (MPICH's struct_empty_el.c).
  struct Q {
    int a, b, c, d;
  } q[2];
  MPI_Aint qdisp[3] = {2 * sizeof(float), 0, 2 * sizeof(int)};
  int qlen[3] = {0, 1, 2};
  MPI_Datatype qtypes[3] = {MPI_FLOAT, MPI_INT, MPI_INT};
  MPI_Datatype qt;
  MPI_Type_create_struct(3, qlen, qdisp, qtypes, &qt);
  MPI_Type_commit(&qt);
  MPI_Recv(q, 2, qt, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  MPI_Type_free(&qt);
  // A block type a constructor writes before it is stored (MPICH's
  // unusual_noncontigs.c): not the MPI_DATATYPE_NULL it was initialised to.
  MPI_Datatype inner = MPI_DATATYPE_NULL, combo, itypes[2];
  int ilen[2], err;
  MPI_Aint idisp[2];
  err = MPI_Type_contiguous(2, MPI_INT, &inner);
  ilen[0] = 1;
  idisp[0] = 0;
  itypes[0] = MPI_INT;
  ilen[1] = 1;
  idisp[1] = 4 * sizeof(int);
  itypes[1] = inner;
  err = MPI_Type_create_struct(2, ilen, idisp, itypes, &combo);
  MPI_Type_free(&combo);
  MPI_Type_free(&inner);
  (void)err;
  // Displacements filled in a loop: not followed.
  MPI_Aint loop[3];
  for (int k = 0; k < 3; ++k)
    loop[k] = k == 0 ? 0 : k == 1 ? offsetof(struct S, c) : offsetof(struct S, d);
  MPI_Datatype l;
  MPI_Type_create_struct(3, len, loop, types, &l);
  MPI_Type_commit(&l);
  MPI_Send(buf, 1, l, 1, 0, MPI_COMM_WORLD);
  MPI_Type_free(&l);
}

int main(int argc, char **argv) {
  struct S s = {1, 'a', 2.0};
  struct P p[2];
  MPI_Init(&argc, &argv);
  missing_member(&s);
  swapped_types(&s);
  block_length(p);
  padding(&s);
  unset_displacement(&s);
  never_set(&s);
  invalid(&s);
  paths(&s, argc);
  negatives(&s, p, 2);
  MPI_Finalize();
  return 0;
}
// CHECK: 13 warnings generated.
