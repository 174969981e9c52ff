// communication-overlap (analysis/OverlapPlan.h): a wait moves down its
// block past the statements that do not need the transfers it completes,
// and an MPI_Irecv moves up past the statements its receive does not
// need. Negative cases say why the tool leaves the call where it is.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=communication-overlap %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define W 64
#define IN(i, j) in[(i) + (j) * W]

void use(double *p);

// The halo exchange of a stencil (as the Parallel Research Kernels write
// it): four buffers in one allocation, the grid in another.
double stencil(int up, int iters) {
  double *in = malloc(sizeof(double) * W * W);
  double *top_out = malloc(4 * sizeof(double) * W), *top_in = top_out + W;
  MPI_Request req[4];
  double sum = 0;
  for (int i = 0; i < W * W; i++)
    in[i] = i;
  for (int it = 0; it < iters; it++) {
    MPI_Irecv(top_in, W, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[1]);
    for (int i = 0; i < W; i++)
      top_out[i] = IN(i, W - 2);
    MPI_Isend(top_out, W, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);
    // REPORT-DAG: halo.c:[[#@LINE+1]]:5: communication-overlap: MPI_Wait moved down before line [[#@LINE+8]] (lines [[#@LINE+3]]-[[#@LINE+6]] do not depend on the transfers it completes: {{.*}}
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    // REPORT-DAG: halo.c:[[#@LINE+1]]:5: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+3]] reads memory through top_in, which the receive at line {{[0-9]+}} fills)
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    for (int i = 0; i < W; i++)
      IN(i, W - 1) = top_in[i];
    sum += IN(0, W - 1);
    // SRC:    MPI_Wait(&req[0], MPI_STATUS_IGNORE); MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  free(in);
  free(top_out);
  return sum;
}

// Packing before the receive is posted: the receive goes first.
double early(int peer, int n) {
  double out[W], got[W], grid[W];
  // The receive stops below the declaration of its request variable.
  MPI_Request r[2];
  // SRC:  MPI_Irecv(got, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &r[1]); for (int i = 0; i < W; i++)
  for (int i = 0; i < W; i++)
    grid[i] = sqrt((double)i);
  for (int i = 0; i < W; i++)
    out[i] = fabs(grid[i]) + 1;
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: MPI_Irecv posted earlier, before line [[#@LINE-4]] (lines [[#@LINE-4]]-[[#@LINE-1]] touch no memory its buffer may lie in{{.*}} (it stops there: line [[#@LINE-6]] declares r, which the call names)); saves the time of lines [[#@LINE-4]]-[[#@LINE-1]], during which the message may now arrive
  MPI_Irecv(got, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(out, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &r[0]);
  // Both transfers complete here: the next line reads what the receive fills.
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Waitall stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] reads got, which the receive at line {{[0-9]+}} fills)
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  grid[0] = got[0];
  return grid[0];
}

// Negative cases.
double negatives(double *param, int peer, MPI_Request *preq) {
  double buf[W], keep[W], *alias = keep;
  MPI_Request r, rs, q[2];
  MPI_Status st;
  for (int i = 0; i < W; i++)
    buf[i] = keep[i] = i;
  // A call to a function the tool cannot see may do anything.
  MPI_Isend(buf, W, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &r);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] is not local: it calls use)
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  use(keep);
  // A write to the send buffer must wait for the send.
  MPI_Isend(buf, W, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &r);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] writes buf, which the send at line {{[0-9]+}} reads)
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  buf[0] = 1;
  // A write through a pointer that may point into the buffer (keep's
  // address is kept in alias).
  MPI_Isend(keep, W, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD, &r);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] writes memory through alias, which may be keep, which the send at line {{[0-9]+}} reads)
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  alias[1] = 2;
  // The status is read next.
  MPI_Irecv(keep, W, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &rs);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] reads st, the status the wait writes)
  MPI_Wait(&rs, &st);
  buf[2] = st.MPI_TAG;
  // A request that is a parameter: another function may complete it.
  MPI_Isend(buf, W, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD, preq);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (its request variable 'preq' is not an automatic MPI_Request (or array of them) of negatives, nor a local pointer to requests)
  MPI_Wait(preq, MPI_STATUS_IGNORE);
  for (int i = 0; i < 4; i++) buf[i] = 3;
  // A receive into memory a parameter may point to: a write through
  // another pointer could reach it. (The receive itself is posted before
  // the loop that touches only buf.)
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: MPI_Irecv posted earlier, before line [[#@LINE-4]] (line [[#@LINE-4]] touches no memory its buffer may lie in, {{.*}} (it stops there: line [[#@LINE-5]] is not local: it calls MPI_Wait)); saves the time of line [[#@LINE-4]], during which the message may now arrive
  MPI_Irecv(param, W, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(buf, W, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &q[1]);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Waitall stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] writes memory through alias, which may be memory through param, which the receive at line [[#@LINE-2]] fills)
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  alias[2] = 4;
  // A return between: the wait would be skipped on that path.
  MPI_Isend(buf, W, MPI_DOUBLE, peer, 8, MPI_COMM_WORLD, &r);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] is not local: it returns)
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (peer < 0)
    return 0;
  // A printf: output could show before an error the wait reports.
  MPI_Isend(buf, W, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, &r);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] is not local: it calls printf)
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  printf("%g\n", keep[0]);
  return buf[0] + keep[0];
}

// Memory from posix_memalign through a helper, freed through a wrapper of
// free: the pointers still own it (OwnedMemory.h), so the loop's writes
// through grid cannot reach the send's buffer.
static void release(void *p) { free(p); }
static void *grab(size_t n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, n))
    p = NULL;
  return p;
}
double wrapped(int peer) {
  double *grid = grab(W * sizeof(double)), *out = grab(W * sizeof(double));
  MPI_Request r;
  for (int i = 0; i < W; i++)
    out[i] = i;
  MPI_Isend(out, W, MPI_DOUBLE, peer, 10, MPI_COMM_WORLD, &r);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: MPI_Wait moved down before line [[#@LINE+5]] (lines [[#@LINE+2]]-[[#@LINE+4]] do not depend {{.*}} (it stops there: line [[#@LINE+5]] is not local: it calls release)); saves {{.*}}
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (int i = 0; i < W; i++)
    grid[i] = 2 * i;
  double s = grid[1];
  release(grid);
  // A few scalar statements are too little to overlap.
  MPI_Isend(out, W, MPI_DOUBLE, peer, 11, MPI_COMM_WORLD, &r);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what it could pass (lines [[#@LINE+2]]-[[#@LINE+3]]) holds no loop: too little computation to overlap (then line [[#@LINE+4]] writes the memory out owns, which the send at line {{[0-9]+}} reads))
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  s += 1;
  s *= 2;
  out[0] = s;
  release(out);
  return s;
}

// Odd statements: a comment inside the call's statement (written again on
// one line, it would hide what follows), volatile memory in what follows,
// and requests in an array of arrays (any element of it may be the wait's).
double odd(int peer) {
  double b[W], c[W];
  volatile int flag = 0;
  MPI_Request rv, rr[2][2];
  for (int i = 0; i < W; i++)
    b[i] = i;
  MPI_Isend(b, W, MPI_DOUBLE, peer, 12, MPI_COMM_WORLD, &rv);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (the call's statement holds a comment, a string or a preprocessor line)
  MPI_Wait(&rv, MPI_STATUS_IGNORE) // done
      ;
  for (int i = 0; i < W; i++)
    c[i] = i;
  MPI_Isend(b, W, MPI_DOUBLE, peer, 13, MPI_COMM_WORLD, &rv);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] is not local: it touches volatile memory)
  MPI_Wait(&rv, MPI_STATUS_IGNORE);
  for (int i = 0; i < W; i++)
    flag = i;
  MPI_Irecv(c, W, MPI_DOUBLE, peer, 14, MPI_COMM_WORLD, &rr[1][0]);
  MPI_Isend(b, W, MPI_DOUBLE, peer, 14, MPI_COMM_WORLD, &rr[0][1]);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Wait stays where it is written (what follows needs the transfers it completes: line [[#@LINE+3]] writes b, which the send at line [[#@LINE-1]] reads)
  MPI_Wait(&rr[0][1], MPI_STATUS_IGNORE);
  for (int i = 0; i < W; i++)
    b[i] = c[i];
  MPI_Wait(&rr[1][0], MPI_STATUS_IGNORE);
  return b[1] + flag;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x = stencil((rank + 1) % size, 3) + early((rank + 1) % size, W);
  double p[W];
  x += negatives(p, (rank + 1) % size, &r) + wrapped((rank + 1) % size) + odd((rank + 1) % size);
  printf("%d %g\n", rank, x);
  MPI_Finalize();
  return 0;
}
