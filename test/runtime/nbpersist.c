/* Nonblocking starts through a function's cache of persistent requests
 * (templates/mpiopt/nbpersist.h): a ring exchange repeated reuses its
 * requests; every completion template (wait, test, and the calls for all,
 * any and some) leaves the program's variables as MPI's nonblocking
 * requests would be, MPI_REQUEST_NULL once complete, and data and statuses
 * are MPI's; a neighbour loop's messages find their requests again; the
 * same message posted twice before it completes takes two requests; a
 * request of the program's own in the same array is left as MPI leaves it;
 * MPI_PROC_NULL and wildcards run the generic calls with MPI's statuses; a
 * start whose arguments change at every call returns the cache to the
 * generic calls; MPI_Finalize frees every request. On every process count:
 * each rank exchanges with its left and right neighbours in
 * MPI_COMM_WORLD (itself on one process). */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"
#include "mpiopt/nbpersist.h"

#define N 32
static int rank, size, left, right;
static double sbuf[8][N], rbuf[8][N];

static void fill(int k, int it) {
  int i;
  for (i = 0; i < N; i++)
    sbuf[k][i] = rank * 1000 + it * 10 + k + i * 0.5;
}

/* What rbuf[k] holds after a message from `from` filled at iteration it. */
static int arrived(int k, int from, int it) {
  int i;
  for (i = 0; i < N; i++)
    if (rbuf[k][i] != from * 1000 + it * 10 + k + i * 0.5)
      return 0;
  return 1;
}

/* How many of c's ways hold a persistent request. */
static int made(const struct mpiopt_nbcache *c) {
  int w, n = 0;
  for (w = 0; w < MPIOPT_NBCACHE_WAYS; w++)
    n += c->way[w].made;
  return n;
}

static int all_null(const MPI_Request *r, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (r[i] != MPI_REQUEST_NULL)
      return 0;
  return 1;
}

/* Post: receive 0 from left, 1 from right; send 0 to right, 1 to left
   (tags keep the two directions apart on two processes). */
static void post(struct mpiopt_nbcache *c, MPI_Request r[4], int it) {
  fill(0, it);
  fill(1, it);
  CHECK(mpiopt_irecv_nb(c, rbuf[0], N, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &r[0]) == MPI_SUCCESS, "irecv");
  CHECK(mpiopt_irecv_nb(c, rbuf[1], N, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &r[1]) == MPI_SUCCESS, "irecv");
  CHECK(mpiopt_isend_nb(c, sbuf[0], N, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &r[2]) == MPI_SUCCESS, "isend");
  CHECK(mpiopt_issend_nb(c, sbuf[1], N, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &r[3]) == MPI_SUCCESS, "issend");
}

static void check_arrived(int it, const char *how) {
  /* rbuf[0] came from left's sbuf[0], rbuf[1] from right's sbuf[1]. */
  CHECK(arrived(0, left, it) && arrived(1, right, it), "%s %d: data", how, it);
}

static void waitall_ring(void) {
  static struct mpiopt_nbcache c;
  MPI_Request r[4];
  MPI_Status st[4];
  int it, n;
  for (it = 0; it < 50; it++) {
    post(&c, r, it);
    CHECK(c.nactive == 4 && !all_null(r, 4), "waitall %d: four active requests", it);
    CHECK(mpiopt_waitall_nb(&c, 4, r, st) == MPI_SUCCESS, "waitall");
    CHECK(all_null(r, 4) && c.nactive == 0, "waitall %d: every request MPI_REQUEST_NULL", it);
    MPI_Get_count(&st[0], MPI_DOUBLE, &n);
    CHECK(n == N && st[0].MPI_SOURCE == left && st[0].MPI_TAG == 10, "waitall %d: the receive's status", it);
    check_arrived(it, "waitall");
  }
  CHECK(c.state == 1 && made(&c) == 4, "waitall: four requests made, then reused (%d)", made(&c));
}

static void wait_each(void) {
  static struct mpiopt_nbcache c;
  MPI_Request r[4];
  MPI_Status st;
  int it, k;
  for (it = 0; it < 20; it++) {
    post(&c, r, it);
    for (k = 3; k >= 0; k--) {
      CHECK(mpiopt_wait_nb(&c, &r[k], &st) == MPI_SUCCESS, "wait");
      CHECK(r[k] == MPI_REQUEST_NULL, "wait %d: request %d MPI_REQUEST_NULL", it, k);
    }
    check_arrived(it, "wait");
    /* A wait on a null request: an empty status, as MPI gives. */
    CHECK(mpiopt_wait_nb(&c, &r[0], &st) == MPI_SUCCESS && st.MPI_SOURCE == MPI_ANY_SOURCE, "wait on null");
  }
  CHECK(c.state == 1 && made(&c) == 4, "wait: four requests, reused (%d)", made(&c));
}

static void waitany_and_some(void) {
  static struct mpiopt_nbcache c;
  MPI_Request r[4];
  int it, k, idx, out, ind[4], seen;
  for (it = 0; it < 20; it++) {
    post(&c, r, it);
    if (it % 2) {
      for (k = 0; k < 4; k++) {
        CHECK(mpiopt_waitany_nb(&c, 4, r, &idx, MPI_STATUS_IGNORE) == MPI_SUCCESS, "waitany");
        CHECK(idx >= 0 && idx < 4 && r[idx] == MPI_REQUEST_NULL, "waitany %d: completed one is null", it);
      }
      CHECK(mpiopt_waitany_nb(&c, 4, r, &idx, MPI_STATUS_IGNORE) == MPI_SUCCESS && idx == MPI_UNDEFINED,
            "waitany on four null requests: MPI_UNDEFINED");
    } else {
      for (seen = 0; seen < 4;) {
        CHECK(mpiopt_waitsome_nb(&c, 4, r, &out, ind, MPI_STATUSES_IGNORE) == MPI_SUCCESS && out >= 1, "waitsome");
        for (k = 0; k < out; k++)
          CHECK(r[ind[k]] == MPI_REQUEST_NULL, "waitsome %d: completed ones are null", it);
        seen += out;
      }
      CHECK(mpiopt_waitsome_nb(&c, 4, r, &out, ind, MPI_STATUSES_IGNORE) == MPI_SUCCESS && out == MPI_UNDEFINED,
            "waitsome on null requests: MPI_UNDEFINED");
    }
    CHECK(all_null(r, 4) && c.nactive == 0, "any/some %d: all null", it);
    check_arrived(it, "any/some");
  }
  CHECK(c.state == 1 && made(&c) == 4, "any/some: four requests, reused (%d)", made(&c));
}

static void tests(void) {
  static struct mpiopt_nbcache c;
  MPI_Request r[4];
  int it, k, flag, idx, out, ind[4], done;
  for (it = 0; it < 20; it++) {
    post(&c, r, it);
    switch (it % 4) {
    case 0:
      for (k = 0; k < 4; k++)
        do {
          CHECK(mpiopt_test_nb(&c, &r[k], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS, "test");
        } while (!flag);
      break;
    case 1:
      do {
        CHECK(mpiopt_testall_nb(&c, 4, r, &flag, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "testall");
        CHECK(flag || c.nactive == 4, "testall %d: nothing completed before the flag", it);
      } while (!flag);
      break;
    case 2:
      for (done = 0; done < 4;) {
        CHECK(mpiopt_testany_nb(&c, 4, r, &idx, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS, "testany");
        if (flag && idx != MPI_UNDEFINED) {
          CHECK(r[idx] == MPI_REQUEST_NULL, "testany %d: completed one null", it);
          done++;
        }
      }
      break;
    default:
      for (done = 0; done < 4;) {
        CHECK(mpiopt_testsome_nb(&c, 4, r, &out, ind, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "testsome");
        for (k = 0; k < out; k++)
          CHECK(r[ind[k]] == MPI_REQUEST_NULL, "testsome %d: completed ones null", it);
        done += out;
      }
    }
    CHECK(all_null(r, 4) && c.nactive == 0, "tests %d: all null", it);
    check_arrived(it, "tests");
  }
  CHECK(c.state == 1 && made(&c) == 4, "tests: four requests, reused (%d)", made(&c));
}

/* Six messages each way, peers and buffers read from arrays by the
   counter, in a loop run 20 times: 12 requests made, then reused. */
static void neighbour_loop(void) {
  static struct mpiopt_nbcache c;
  MPI_Request r[12];
  int peer[6], it, k;
  for (k = 0; k < 6; k++)
    peer[k] = k % 2 ? left : right;
  for (it = 0; it < 20; it++) {
    for (k = 0; k < 6; k++)
      mpiopt_irecv_nb(&c, rbuf[k], N, MPI_DOUBLE, k % 2 ? right : left, 20 + k, MPI_COMM_WORLD, &r[k]);
    for (k = 0; k < 6; k++) {
      fill(k, it);
      mpiopt_isend_nb(&c, sbuf[k], N, MPI_DOUBLE, peer[k], 20 + k, MPI_COMM_WORLD, &r[6 + k]);
    }
    mpiopt_waitall_nb(&c, 12, r, MPI_STATUSES_IGNORE);
    for (k = 0; k < 6; k++)
      CHECK(arrived(k, k % 2 ? right : left, it), "neighbour %d, message %d", it, k);
    CHECK(all_null(r, 12), "neighbour %d: all null", it);
  }
  CHECK(made(&c) == 12 && c.state == 1, "neighbour loop: 12 requests made, then reused (%d)", made(&c));
}

/* The same message twice before it completes: two requests. A request of
   the program's own in the array stays as MPI leaves it. */
static void twice_and_own(void) {
  static struct mpiopt_nbcache c;
  MPI_Request r[5], own;
  int it;
  MPI_Send_init(sbuf[7], N, MPI_DOUBLE, right, 31, MPI_COMM_WORLD, &own);
  for (it = 0; it < 10; it++) {
    fill(2, it);
    fill(7, it);
    mpiopt_irecv_nb(&c, rbuf[2], N, MPI_DOUBLE, left, 30, MPI_COMM_WORLD, &r[0]);
    mpiopt_irecv_nb(&c, rbuf[3], N, MPI_DOUBLE, left, 30, MPI_COMM_WORLD, &r[1]);
    mpiopt_isend_nb(&c, sbuf[2], N, MPI_DOUBLE, right, 30, MPI_COMM_WORLD, &r[2]);
    mpiopt_isend_nb(&c, sbuf[2], N, MPI_DOUBLE, right, 30, MPI_COMM_WORLD, &r[3]);
    CHECK(r[2] != r[3] && c.nactive == 4, "twice %d: two requests for the same message", it);
    MPI_Irecv(rbuf[7], N, MPI_DOUBLE, left, 31, MPI_COMM_WORLD, &r[4]);
    MPI_Start(&own);
    mpiopt_waitall_nb(&c, 5, r, MPI_STATUSES_IGNORE);
    MPI_Wait(&own, MPI_STATUS_IGNORE);
    CHECK(arrived(2, left, it) && arrived(7, left, it), "twice %d: data", it);
    CHECK(all_null(r, 5) && own != MPI_REQUEST_NULL, "twice %d: the program's own request left as it was", it);
  }
  CHECK(made(&c) == 4, "twice: four requests (%d)", made(&c));
  MPI_Request_free(&own);
}

/* MPI_PROC_NULL and wildcards: the generic calls and MPI's statuses. */
static void generic_peers(void) {
  static struct mpiopt_nbcache c;
  MPI_Request r[2];
  MPI_Status st;
  int n;
  mpiopt_irecv_nb(&c, rbuf[0], N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[0]);
  mpiopt_isend_nb(&c, sbuf[0], N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[1]);
  CHECK(c.nactive == 0 && c.state == 0, "MPI_PROC_NULL: nothing cached");
  mpiopt_wait_nb(&c, &r[0], &st);
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  { /* the status of the generic calls (MPICH 4.0 gives source 0, tag 0) */
    MPI_Request g;
    MPI_Status gst;
    int gn;
    MPI_Irecv(rbuf[1], N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &g);
    MPI_Wait(&g, &gst);
    MPI_Get_count(&gst, MPI_DOUBLE, &gn);
    CHECK(st.MPI_SOURCE == gst.MPI_SOURCE && st.MPI_TAG == gst.MPI_TAG && n == gn && n == 0,
          "MPI_PROC_NULL: MPI's status");
  }
  mpiopt_wait_nb(&c, &r[1], MPI_STATUS_IGNORE);
  fill(0, 99);
  mpiopt_irecv_nb(&c, rbuf[0], N, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]);
  mpiopt_isend_nb(&c, sbuf[0], N, MPI_DOUBLE, right, 40, MPI_COMM_WORLD, &r[1]);
  mpiopt_waitall_nb(&c, 2, r, MPI_STATUSES_IGNORE);
  CHECK(all_null(r, 2), "wildcard: null after the wait");
  MPI_Barrier(MPI_COMM_WORLD); /* the wildcard receive took one message; no other is in flight */
}

/* A buffer new at every call: the cache gives up after its verdict and
   runs the generic calls; the results stay right. */
static void verdict(void) {
  static struct mpiopt_nbcache c;
  MPI_Request r[2];
  double *inb = (double *)malloc(2 * MPIOPT_NBCACHE_VERDICT * N * sizeof(double));
  double *outb = (double *)malloc(2 * MPIOPT_NBCACHE_VERDICT * N * sizeof(double));
  int it;
  for (it = 0; it < 2 * MPIOPT_NBCACHE_VERDICT; it++) {
    double *in = inb + it * N, *out = outb + it * N;
    int i;
    for (i = 0; i < N; i++)
      out[i] = rank + it;
    mpiopt_irecv_nb(&c, in, N, MPI_DOUBLE, left, 50, MPI_COMM_WORLD, &r[0]);
    mpiopt_isend_nb(&c, out, N, MPI_DOUBLE, right, 50, MPI_COMM_WORLD, &r[1]);
    mpiopt_waitall_nb(&c, 2, r, MPI_STATUSES_IGNORE);
    CHECK(in[0] == left + it && in[N - 1] == left + it && all_null(r, 2), "verdict %d: data", it);
  }
  free(inb);
  free(outb);
  CHECK(c.state == -1 && c.nactive == 0 && made(&c) == 0, "a cache that always misses returns to the generic calls (state %d)",
        c.state);
}

int main(int argc, char **argv) {
  int fin = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  waitall_ring();
  wait_each();
  waitany_and_some();
  tests();
  neighbour_loop();
  twice_and_own();
  generic_peers();
  verdict();
  CHECK(mpiopt_pcache_registry()->n == 8, "eight caches registered (%d)", mpiopt_pcache_registry()->n);
  MPI_Finalize();
  MPI_Finalized(&fin);
  CHECK(fin && mpiopt_pcache_registry()->done && mpiopt_pcache_registry()->n == 0, "MPI_Finalize freed the caches");
  if (failures)
    fprintf(stderr, "rank %d: %d checks, %d failures\n", rank, checks, failures);
  else if (rank == 0)
    printf("ok: %d checks, 0 failures\n", checks);
  return failures != 0;
}
