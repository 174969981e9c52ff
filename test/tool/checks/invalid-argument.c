// invalid-argument: arguments no MPI accepts, from their static values (or
// the value one path gives them), under both MPIs' headers; the negative
// cases are valid uses of the same arguments.
// RUN: %ompi-opt --check --checks=invalid-argument %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=invalid-argument %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>
#include <stddef.h>

static void positives(int argc) {
  int rank, size, x = 1, y[4];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm nullcomm = MPI_COMM_NULL;
  MPI_Op op = NULL;
  int *none = NULL;
  MPI_Request *noreq = NULL;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:32: warning: MPI_Bcast comm 'nullcomm' is MPI_COMM_NULL: the standard requires a valid communicator [ompi-invalid-argument]
  MPI_Bcast(&x, 1, MPI_INT, 0, nullcomm);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:27: warning: MPI_Allreduce datatype 'MPI_DATATYPE_NULL' is MPI_DATATYPE_NULL: the standard requires a valid datatype [ompi-invalid-argument]
  MPI_Allreduce(&x, y, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:33: warning: MPI_Reduce op 'op' is NULL: NULL is not an op handle (the standard requires a valid op) [ompi-invalid-argument]
  MPI_Reduce(&x, y, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:33: warning: MPI_Reduce op 'MPI_INT' is MPI_INT, a datatype, where the standard requires an op [ompi-invalid-argument]
  MPI_Reduce(&x, y, 1, MPI_INT, MPI_INT, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:17: warning: MPI_Bcast count '-1' is negative (-1): a count must be non-negative [ompi-invalid-argument]
  MPI_Bcast(&x, -1, MPI_INT, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:31: warning: MPI_Send tag '-1' is negative (-1): a tag must be non-negative (-1 is MPI_ANY_TAG's value in MPICH and Open MPI: write the constant where any tag is meant) [ompi-invalid-argument]
  MPI_Send(&x, 1, MPI_INT, 1, -1, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:31: warning: MPI_Send tag 'MPI_ANY_TAG' is MPI_ANY_TAG: a message's tag must be non-negative; MPI_ANY_TAG is only for receives [ompi-invalid-argument]
  MPI_Send(&x, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:31: warning: MPI_Send tag '40000' is 40000, above 32767, the only MPI_TAG_UB the standard guarantees (MPICH and Open MPI accept it; other MPIs need not: query MPI_TAG_UB) [ompi-invalid-argument]
  MPI_Send(&x, 1, MPI_INT, 1, 40000, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:28: warning: MPI_Send dest '-1' is negative (-1): ranks are non-negative; -1 is MPI_PROC_NULL under MPICH but MPI_ANY_SOURCE under Open MPI: write the constant [ompi-invalid-argument]
  MPI_Send(&x, 1, MPI_INT, -1, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:28: warning: MPI_Send dest 'size' is size, never below the communicator's size: a rank must be less than the size [ompi-invalid-argument]
  MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:28: warning: MPI_Recv source 'rank + size' is rank+size, never below the communicator's size: a rank must be less than the size [ompi-invalid-argument]
  MPI_Recv(&x, 1, MPI_INT, rank + size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:29: warning: MPI_Bcast root 'MPI_ANY_SOURCE' is MPI_ANY_SOURCE: a root must be a rank of the communicator [ompi-invalid-argument]
  MPI_Bcast(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:12: warning: MPI_Send buf 'none' is NULL with count 1: a buffer of a positive count must be a valid address [ompi-invalid-argument]
  MPI_Send(none, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:51: warning: MPI_Irecv request 'noreq' is NULL: the call writes its result there, and the standard requires a valid address [ompi-invalid-argument]
  MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, noreq);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:50: warning: MPI_Recv status 'NULL' is NULL: Open MPI's MPI_STATUS_IGNORE is NULL, but MPICH's is not and MPICH writes the status there; write MPI_STATUS_IGNORE [ompi-invalid-argument]
  MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL);
  int count = 1;
  if (argc > 1)
    count = -4;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:17: warning: MPI_Bcast count 'count' (as set at line [[#@LINE-1]], one of the values reaching the call) is negative (-4): a count must be non-negative [ompi-invalid-argument]
  MPI_Bcast(&x, count, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Datatype t;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:23: warning: MPI_Type_contiguous count '-2' is negative (-2): the standard requires a non-negative count [ompi-invalid-argument]
  MPI_Type_contiguous(-2, MPI_INT, &t);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:28: warning: MPI_Type_vector oldtype 'MPI_DATATYPE_NULL' is a null datatype: the standard requires a valid datatype to build from [ompi-invalid-argument]
  MPI_Type_vector(2, 1, 4, MPI_DATATYPE_NULL, &t);
  // A constructor's count that one path sets negative.
  int blocks = 2;
  if (argc > 2)
    blocks = -1;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:19: warning: MPI_Type_vector count 'blocks' (as set at line [[#@LINE-1]], one of the values reaching the call) is negative (-1): the standard requires a non-negative count [ompi-invalid-argument]
  MPI_Type_vector(blocks, 1, 4, MPI_INT, &t);
  // Ops that are not defined for the datatype: a logical op on floats (on
  // one path), a location op on plain integers, MPI_REPLACE in a reduction.
  MPI_Op lop = MPI_SUM;
  float f = 1, g;
  if (argc > 3)
    lop = MPI_LXOR;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:39: warning: MPI_Allreduce op 'lop' (as set at line [[#@LINE-1]], one of the values reaching the call) with datatype 'MPI_FLOAT': MPI_LXOR is not defined for MPI_FLOAT: it combines only integer and logical (MPI_C_BOOL) types [ompi-invalid-argument]
  MPI_Allreduce(&f, &g, 1, MPI_FLOAT, lop, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:36: warning: MPI_Allreduce op 'MPI_MAXLOC' with datatype 'MPI_INT': MPI_MAXLOC is not defined for MPI_INT: it combines only value-index pair (MPI_DOUBLE_INT, MPI_2INT, ...) types [ompi-invalid-argument]
  MPI_Allreduce(&x, y, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:33: warning: MPI_Reduce op 'MPI_REPLACE': MPI_REPLACE is only for one-sided accumulate operations, not for reductions [ompi-invalid-argument]
  MPI_Reduce(&x, y, 1, MPI_INT, MPI_REPLACE, 0, MPI_COMM_WORLD);
  // A pointer no path sets, a count one path leaves unset (clang's
  // uninitialised-values analysis).
  int *unset, n;
  if (argc > 4)
    n = 2;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:12: warning: MPI_Recv buf 'unset' is never set before the call: the call reads an indeterminate value [ompi-invalid-argument]
  MPI_Recv(unset, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:17: warning: MPI_Bcast count 'n' is not set on every path to the call (the branch at line [[#@LINE-4]] can skip its assignment): the call reads an indeterminate value [ompi-invalid-argument]
  MPI_Bcast(&x, n, MPI_INT, 0, MPI_COMM_WORLD);
  // A byte stride that splits the floats of a column.
  MPI_Datatype col;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:34: warning: MPI_Type_create_hvector stride '3' is 3 bytes, not a multiple of the 4 bytes of MPI_FLOAT: every block after the first starts inside an element (a byte stride counts bytes, not elements) [ompi-invalid-argument]
  MPI_Type_create_hvector(16, 1, 3, MPI_FLOAT, &col);
}

// Negative: each of these is valid and must not be reported.
static void negatives(int argc) {
  int rank, size, x = 1, y[8];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The named constants, whatever their values.
  MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // NULL with a zero count; the last rank, size - 1.
  MPI_Send(NULL, 0, MPI_INT, size - 1, 32767, MPI_COMM_WORLD);
  // MPI_IN_PLACE: the send count and type are not read (nor, at the root of
  // MPI_Scatter, the receive side).
  MPI_Allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, y, 1, MPI_INT, MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Scatter(y, 1, MPI_INT, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
  else
    MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, &x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // The receive side of MPI_Gather is read only at the root.
  if (rank != 0)
    MPI_Gather(&x, 1, MPI_INT, NULL, -1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
  else
    MPI_Gather(&x, 1, MPI_INT, y, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // A peer set to -1 on one path but tested before the call.
  int peer = -1;
  if (rank == 0)
    peer = 1;
  if (peer >= 0)
    MPI_Send(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
  // MPI_Waitsome with no requests may take NULL arrays.
  int n = 0, outcount;
  MPI_Waitsome(n, NULL, &outcount, NULL, MPI_STATUSES_IGNORE);
  MPI_Datatype t;
  MPI_Type_vector(2, 0, -4, MPI_INT, &t);
  // Ops defined for their datatypes: a location op on a pair, a bitwise op
  // on bytes, a logical op on MPI_C_BOOL, MPI_SUM on MPI_CHAR (which MPICH
  // accepts as an integer), a user op, and MPI_REPLACE in an accumulate.
  struct {
    double v;
    int i;
  } in = {0, 0}, out;
  MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  unsigned char bytes[4] = {0}, band[4];
  MPI_Allreduce(bytes, band, 4, MPI_BYTE, MPI_BAND, MPI_COMM_WORLD);
  _Bool flag = 1, all;
  MPI_Allreduce(&flag, &all, 1, MPI_C_BOOL, MPI_LAND, MPI_COMM_WORLD);
  char c = 1, csum;
  MPI_Allreduce(&c, &csum, 1, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
  MPI_Op mine;
  MPI_Op_create(NULL, 1, &mine);
  MPI_Allreduce(&c, &csum, 1, MPI_CHAR, mine, MPI_COMM_WORLD);
  MPI_Op_free(&mine);
  MPI_Win w;
  int mem[4] = {0};
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  MPI_Accumulate(mem, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_REPLACE, w);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
  // A peer set by an if-else-if chain on the rank: the ranks the program is
  // written for may all take one of its arms.
  int me, partner;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0)
    partner = 1;
  else if (me == 1)
    partner = 0;
  MPI_Send(&me, 1, MPI_INT, partner, 0, MPI_COMM_WORLD);
  // Byte strides of whole elements, and one block (its stride is not used).
  MPI_Datatype hv;
  MPI_Type_create_hvector(16, 1, 16 * sizeof(float), MPI_FLOAT, &hv);
  MPI_Type_create_hvector(1, 1, 10, MPI_DOUBLE, &hv);
  (void)argc;
}

// One block per process: the send and receive sides' type signatures must
// be equal.
static void signatures(void) {
  int send[8] = {0}, recv[16];
  double d[8] = {0}, e[16];
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:39: warning: MPI_Scatter sends 2 x MPI_INT per process (sendcount '2' of 'MPI_INT') but receives 1 (recvcount '1' of 'MPI_INT'): a collective's send and receive type signatures must be equal [ompi-invalid-argument]
  MPI_Scatter(send, 2, MPI_INT, recv, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:37: warning: MPI_Alltoall sends 1 x MPI_DOUBLE per process (sendcount '1' of 'MPI_DOUBLE') but receives 2 (recvcount '2' of 'MPI_DOUBLE'): a collective's send and receive type signatures must be equal [ompi-invalid-argument]
  MPI_Alltoall(d, 1, MPI_DOUBLE, e, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  // Negative: equal counts; one vector of 2 ints against 2 ints (the same
  // signature); the receive side alone in place; different types (another
  // check's); a root's call that only the root makes (its send side is
  // checked against the other ranks' receives, which the tool does not see).
  MPI_Gather(send, 2, MPI_INT, recv, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Datatype pair;
  MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Allgather(send, 1, pair, recv, 2, MPI_INT, MPI_COMM_WORLD);
  MPI_Type_free(&pair);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, 2, MPI_INT, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Scatter(send, 2, MPI_INT, recv, 1, MPI_INT, 0, MPI_COMM_WORLD);
  else
    MPI_Scatter(NULL, 0, MPI_INT, recv, 2, MPI_INT, 0, MPI_COMM_WORLD);
}

// A column resized to one double: its elements interleave. Received as 3
// elements 16 bytes apart, or one chunk per process from 3 processes on,
// they write some bytes twice.
static void overlapping_types(void) {
  double a[64] = {0}, b[64];
  MPI_Datatype col, t, wide, wt;
  MPI_Type_vector(6, 1, 2, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, (MPI_Aint)sizeof(double), &t);
  MPI_Type_commit(&t);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:18: warning: MPI_Recv receives 3 x 't': its elements write some bytes twice (MPI_Type_create_resized(col, 0, 8), extent 8 bytes), and the entries of a receive datatype must not overlap [ompi-invalid-argument]
  MPI_Recv(b, 3, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:31: warning: MPI_Alltoall receives 1 x 't' per process: on 3 processes or more, its elements write some bytes twice (MPI_Type_create_resized(col, 0, 8), extent 8 bytes), and the entries of a receive datatype must not overlap [ompi-invalid-argument]
  MPI_Alltoall(a, 1, t, b, 1, t, MPI_COMM_WORLD);
  // Negative: two elements interleave without meeting; sending overlapping
  // entries is allowed, also as a scatter's chunks (columns of a 16-wide
  // matrix, one per process).
  MPI_Recv(b, 2, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(a, 3, t, 0, 0, MPI_COMM_WORLD);
  MPI_Type_vector(4, 1, 16, MPI_DOUBLE, &wide);
  MPI_Type_create_resized(wide, 0, (MPI_Aint)sizeof(double), &wt);
  MPI_Type_commit(&wt);
  MPI_Scatter(a, 1, wt, b, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Type_free(&wt);
  MPI_Type_free(&t);
}

// The communicator and topology calls: a negative colour (not
// MPI_UNDEFINED), negative dimensions, Cartesian queries on a predefined
// communicator or MPI_COMM_NULL (MBI's CollInvalidDim, CollComNull and
// CollInvalidCom codes).
void topology(int rank) {
  int color = -10, dims[2] = {2, 1}, periods[2] = {1, 1}, coords[2];
  MPI_Comm split, undefined, cart, none = MPI_COMM_NULL, world = MPI_COMM_WORLD;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:34: warning: MPI_Comm_split color 'color' is negative (-10): a colour must be non-negative or MPI_UNDEFINED [ompi-invalid-argument]
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &split);
  MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &undefined);
  dims[0] = -2;
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:38: warning: MPI_Cart_create dims[0] is negative (-2): the size of every dimension must be non-negative [ompi-invalid-argument]
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:16: warning: MPI_Cart_get comm 'none' is MPI_COMM_NULL: a valid communicator is required [ompi-invalid-argument]
  MPI_Cart_get(none, 2, dims, periods, coords);
  // CHECK: {{.*}}invalid-argument.c:[[#@LINE+1]]:16: warning: MPI_Cart_get comm 'world' is MPI_COMM_WORLD, which has no Cartesian topology: MPI_Cart_get needs a communicator that MPI_Cart_create (or MPI_Cart_sub) made [ompi-invalid-argument]
  MPI_Cart_get(world, 2, dims, periods, coords);
  MPI_Cart_get(cart, 2, dims, periods, coords); // negative: a Cartesian communicator
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  positives(argc);
  topology(argc);
  negatives(argc);
  signatures();
  overlapping_types();
  MPI_Finalize();
  return 0;
}
// CHECK: 33 warnings generated.
