/* Compiled derived datatypes on nonblocking calls (datatype-templates:
 * MPI_Isend, MPI_Issend and MPI_Irecv through the _nd templates, their
 * MPI_Wait through mpiopt_wait_dtype, which unpacks and returns the pool
 * buffer): a ring of columns and of 2-D subarrays, repeated so the pool's
 * buffers are reused; a synchronous send; a receive of a shorter message
 * (only what came is unpacked; MPI_Get_count and MPI_Get_elements with the
 * derived type); a transformed sender with an untransformed receiver and the
 * reverse; MPI_PROC_NULL (the generic call); arrays of requests completed
 * by MPI_Waitall, with statuses and without; completions by MPI_Test,
 * MPI_Testall, MPI_Waitany, MPI_Waitsome, MPI_Testany and MPI_Testsome
 * (tests.. loops until done; requests started again after as many waits
 * for any as there are requests). Every rank folds what it holds
 * into a checksum, and rank 0 prints every rank's. The same output through
 * ompi-cc (e2e dtype-nonblocking.*) shows that the templates move the
 * elements MPI's engine moves. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 8
static double g[N][N], h[N][N], flat[N * N];
static MPI_Datatype col, sub;
static long sum;
static MPI_Status *no_statuses;

static void fold(const double *p, int n) {
  for (int i = 0; i < n; i++)
    sum = sum * 31 + (long)p[i];
}

static void fill(int rank, int step) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      g[i][j] = 1000 * rank + 100 * step + 10 * i + j, h[i][j] = -1;
  for (int i = 0; i < N * N; i++)
    flat[i] = -1;
}

static void ring(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int step = 0; step < 3; step++) {
    MPI_Request rr, sr, rs, ss;
    MPI_Status st;
    int count = -1, elems = -1;
    fill(rank, step);
    MPI_Irecv(&h[0][step], 1, col, left, step, MPI_COMM_WORLD, &rr);
    MPI_Irecv(h, 1, sub, left, 10 + step, MPI_COMM_WORLD, &rs);
    MPI_Isend(&g[0][step + 1], 1, col, right, step, MPI_COMM_WORLD, &sr);
    MPI_Issend(g, 1, sub, right, 10 + step, MPI_COMM_WORLD, &ss);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Wait(&rr, &st);
    MPI_Get_count(&st, col, &count);
    MPI_Get_elements(&st, MPI_DOUBLE, &elems);
    MPI_Wait(&ss, MPI_STATUS_IGNORE);
    MPI_Wait(&rs, MPI_STATUS_IGNORE);
    sum = sum * 7 + count * 100 + elems + st.MPI_SOURCE * 10000 + st.MPI_TAG * 1000000;
    fold(&h[0][0], N * N);
  }
}

static void mixed(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request r, s;
  MPI_Status st;
  int count = -1, elems = -1;
  fill(rank, 7);
  /* Even ranks send the column through the template, odd ones plain doubles;
     every rank receives into a column through the template, whatever came. */
  if (rank % 2 == 0)
    MPI_Isend(&g[0][3], 1, col, right, 20, MPI_COMM_WORLD, &s);
  else
    MPI_Isend(g[4], 5, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &s); /* shorter than a column */
  MPI_Irecv(&h[0][2], 1, col, left, 20, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, &st);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  MPI_Get_count(&st, col, &count); /* MPI_UNDEFINED for the shorter message */
  MPI_Get_elements(&st, col, &elems);
  sum = sum * 7 + count * 100 + elems;
  fold(&h[0][0], N * N);
  /* The reverse: a column through the template into plain doubles. */
  fill(rank, 8);
  MPI_Irecv(flat, N * N, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &r);
  MPI_Isend(&g[0][5], 1, col, right, 21, MPI_COMM_WORLD, &s);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  sum = sum * 7 + count;
  fold(flat, N * N);
  /* MPI_PROC_NULL: the generic call, a status of MPI_ANY_TAG and no data. */
  fill(rank, 9);
  MPI_Irecv(&h[0][1], 1, col, MPI_PROC_NULL, 22, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, col, &count);
  sum = sum * 7 + count + st.MPI_SOURCE + st.MPI_TAG;
  fold(&h[0][0], N * N);
}

/* Arrays of requests completed by MPI_Waitall: both neighbours' columns at
   once, with statuses and without. */
static void waitall(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int step = 0; step < 2; step++) {
    MPI_Request reqs[4];
    MPI_Status sts[4];
    fill(rank, 20 + step);
    MPI_Irecv(&h[0][0], 1, col, left, 30, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&h[0][N - 1], 1, col, right, 31, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&g[0][N - 2], 1, col, right, 30, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(&g[0][1], 1, col, left, 31, MPI_COMM_WORLD, reqs + 3);
    if (step == 0) {
      MPI_Waitall(4, reqs, sts);
      for (int i = 0; i < 2; i++) {
        int count = -1;
        MPI_Get_count(&sts[i], col, &count);
        sum = sum * 7 + count + sts[i].MPI_SOURCE * 10 + sts[i].MPI_TAG * 1000;
      }
    } else {
      MPI_Waitall(4, reqs, no_statuses); /* MPI_STATUSES_IGNORE, out of GCC's sight (its -Wstringop-overflow) */
    }
    fold(&h[0][0], N * N);
  }
}

/* Completions by tests and by waits for any or some (mpiopt_test_dtype,
   mpiopt_waitany_dtype, ...): each finishes the template's requests it
   completes, with their statuses. One step per call: the requests that a
   wait for any or some, or a test, may leave pending are not started again
   in the function. */
static void tests(int rank, int size, int step) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request r, s, s2, q[3], t[2], u[2], v[2], w[2];
  MPI_Status st, sts[3];
  int flag = 0, done, all, any, idx, out, got[3], count = -1, open;
  fill(rank, 40 + step);
  MPI_Irecv(&h[0][1], 1, col, left, 40, MPI_COMM_WORLD, &r);
  MPI_Isend(&g[0][2], 1, col, right, 40, MPI_COMM_WORLD, &s);
  do {
    MPI_Test(&r, &flag, &st);
  } while (!flag);
  MPI_Get_count(&st, col, &count);
  sum = sum * 7 + count + st.MPI_SOURCE * 10 + st.MPI_TAG * 1000;
  done = 0;
  while (!done)
    MPI_Test(&s, &done, MPI_STATUS_IGNORE);
  fold(&h[0][0], N * N);
  fill(rank, 50 + step);
  MPI_Irecv(&h[0][3], 1, col, left, 41, MPI_COMM_WORLD, &q[0]);
  MPI_Irecv(flat, 1, sub, right, 42, MPI_COMM_WORLD, &q[1]); /* apart from the column's bytes */
  MPI_Isend(&g[0][4], 1, col, right, 41, MPI_COMM_WORLD, &q[2]);
  MPI_Isend(g, 1, sub, left, 42, MPI_COMM_WORLD, &s2);
  long seen = 0; /* in whatever order they complete */
  for (int k = 0; k < 3; k++) {
    MPI_Waitany(3, q, &idx, &st);
    if (idx < 2) {
      MPI_Get_count(&st, idx ? sub : col, &count);
      seen += (count + 1) * (idx + 1) * 1000 + st.MPI_TAG;
    }
  }
  sum = sum * 7 + seen;
  MPI_Wait(&s2, MPI_STATUS_IGNORE);
  fold(&h[0][0], N * N);
  fold(flat, N * N);
  /* Two of the same requests started again after three waits for any of
     three (all complete), and waited for by two waits for any of two. */
  fill(rank, 55 + step);
  MPI_Irecv(&h[0][6], 1, col, left, 47, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(&g[0][7], 1, col, right, 47, MPI_COMM_WORLD, &q[1]);
  seen = 0;
  for (int k = 0; k < 2; k++) {
    MPI_Waitany(2, q, &idx, &st);
    seen += idx == 0 ? st.MPI_TAG : 1;
  }
  sum = sum * 7 + seen;
  fold(&h[0][0], N * N);
  fill(rank, 60 + step);
  MPI_Irecv(&h[0][5], 1, col, left, 43, MPI_COMM_WORLD, &t[0]);
  MPI_Isend(&g[0][6], 1, col, right, 43, MPI_COMM_WORLD, &t[1]);
  for (int n = 0; n < 2; n += out)
    MPI_Waitsome(2, t, &out, got, sts);
  fold(&h[0][0], N * N);
  fill(rank, 70 + step);
  MPI_Irecv(&h[0][7], 1, col, left, 44, MPI_COMM_WORLD, &u[0]);
  MPI_Isend(&g[0][0], 1, col, right, 44, MPI_COMM_WORLD, &u[1]);
  all = 0;
  while (!all)
    MPI_Testall(2, u, &all, no_statuses);
  fold(&h[0][0], N * N);
  fill(rank, 80 + step);
  MPI_Irecv(&h[0][2], 1, col, left, 45, MPI_COMM_WORLD, &v[0]);
  MPI_Irecv(flat, 1, sub, right, 46, MPI_COMM_WORLD, &v[1]);
  MPI_Isend(&g[0][3], 1, col, right, 45, MPI_COMM_WORLD, &w[0]);
  MPI_Isend(g, 1, sub, left, 46, MPI_COMM_WORLD, &w[1]);
  for (open = 2; open > 0;) {
    MPI_Testsome(2, v, &out, got, sts);
    if (out != MPI_UNDEFINED)
      open -= out;
  }
  do
    MPI_Testany(2, w, &idx, &any, &st);
  while (!any || idx != MPI_UNDEFINED);
  fold(&h[0][0], N * N);
  fold(flat, N * N);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  no_statuses = argc > 99 ? (MPI_Status *)0 : MPI_STATUSES_IGNORE;
  int sizes[2] = {N, N}, subs[2] = {3, 4}, starts[2] = {4, 2};
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);
  MPI_Type_commit(&col);
  MPI_Type_commit(&sub);
  ring(rank, size);
  mixed(rank, size);
  waitall(rank, size);
  for (int step = 0; step < 2; step++)
    tests(rank, size, step);
  long *all = malloc(sizeof *all * (size_t)size);
  MPI_Gather(&sum, 1, MPI_LONG, all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  for (int r = 0; !rank && r < size; r++)
    printf("rank %d: %ld\n", r, all[r]);
  free(all);
  MPI_Type_free(&col);
  MPI_Type_free(&sub);
  MPI_Finalize();
  return 0;
}
