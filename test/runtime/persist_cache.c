/* The per-site caches of persistent requests (templates/mpiopt/persist.h,
 * struct mpiopt_pcache): a call whose arguments a way holds reuses its
 * request; other arguments take an empty way, then the way used longest
 * ago; a site that misses more than one call in eight over
 * MPIOPT_PCACHE_VERDICT calls runs the generic call for good; a freed and
 * remade datatype or communicator (which may get the freed handle's value)
 * never meets a request made for the old one; wildcards and MPI_PROC_NULL
 * run the generic calls with MPI's statuses; a call of a site from a user
 * error handler its own call ran takes the generic call; MPI_Finalize frees every
 * cached request. On 1 process through MPI_COMM_SELF (each send goes to a
 * receive posted before it: MPICH buffers no send to the process itself),
 * and on every process count a ring of sendrecvs through MPI_COMM_WORLD
 * whose buffers alternate. */
#include <mpi.h>

#include "check.h"
#include "mpiopt/persist.h"

static double a[64], b[64], c[64];

/* One send of n doubles of src (tag t) through the cache cs, to a receive
   posted before it into dst. */
static void send_self(struct mpiopt_pcache *cs, const double *src, double *dst, int n, int t) {
  MPI_Request r;
  MPI_Irecv(dst, 64, MPI_DOUBLE, 0, t, MPI_COMM_SELF, &r);
  CHECK(mpiopt_send_cached(cs, src, n, MPI_DOUBLE, 0, t, MPI_COMM_SELF) == MPI_SUCCESS, "send tag %d", t);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void same_and_alternating(void) {
  static struct mpiopt_pcache cs, cr;
  MPI_Status st;
  MPI_Request r;
  int k, n;
  for (k = 0; k < 10; k++) {
    a[0] = k;
    send_self(&cs, a, c, 16, 1);
    CHECK(c[0] == k, "same arguments %d: the message arrived", k);
  }
  CHECK(cs.state == 1 && cs.misses == 1 && cs.way[0].made == 1, "same arguments: one request, made once (%u misses)",
        cs.misses);
  for (k = 0; k < 10; k++) { /* two buffers in turn: two ways */
    double *src = k % 2 ? b : a;
    src[1] = 100 + k;
    send_self(&cs, src, c, 16, 1);
    CHECK(c[1] == 100 + k, "alternating %d: the message arrived", k);
  }
  CHECK(cs.misses == 2 && cs.way[0].made && cs.way[1].made && !cs.way[2].made, "alternating: two ways (%u misses)",
        cs.misses);
  for (k = 0; k < 6; k++) { /* receives: the status is MPI_Recv's */
    a[2] = k;
    MPI_Isend(a, 8 + k % 2, MPI_DOUBLE, 0, 5 + k % 2, MPI_COMM_SELF, &r);
    CHECK(mpiopt_recv_cached(&cr, b, 64, MPI_DOUBLE, 0, 5 + k % 2, MPI_COMM_SELF, &st) == MPI_SUCCESS, "recv %d", k);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    CHECK(b[2] == k && n == 8 + k % 2 && st.MPI_SOURCE == 0 && st.MPI_TAG == 5 + k % 2, "recv %d: data and status",
          k);
  }
  CHECK(cr.misses == 2, "two receive keys, two misses (%u)", cr.misses);
  /* Wildcards and MPI_PROC_NULL: the generic calls, nothing cached. */
  MPI_Isend(a, 3, MPI_DOUBLE, 0, 9, MPI_COMM_SELF, &r);
  mpiopt_recv_cached(&cr, b, 64, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &st);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 9 && n == 3 && cr.misses == 2, "wildcard receive: generic");
  CHECK(mpiopt_recv_cached(&cr, b, 64, MPI_DOUBLE, MPI_PROC_NULL, 1, MPI_COMM_SELF, &st) == MPI_SUCCESS, "null recv");
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && n == 0 && cr.misses == 2,
        "receive from MPI_PROC_NULL: MPI's status");
  CHECK(mpiopt_send_cached(&cs, a, 4, MPI_DOUBLE, MPI_PROC_NULL, 1, MPI_COMM_SELF) == MPI_SUCCESS, "null send");
}

/* More keys than ways, in turn: every call misses, and after
   MPIOPT_PCACHE_VERDICT calls the site runs the generic call. */
static void thrashing(void) {
  static struct mpiopt_pcache cs;
  int k;
  for (k = 0; k < 3 * MPIOPT_PCACHE_VERDICT; k++) {
    a[3] = k;
    send_self(&cs, a, c, 4, 10 + k % (MPIOPT_PCACHE_WAYS + 1));
    CHECK(c[3] == k, "thrashing %d: the message arrived", k);
  }
  CHECK(cs.state == -1 && !cs.way[0].made && !cs.way[MPIOPT_PCACHE_WAYS - 1].made,
        "thrashing: the site runs the generic call, its requests freed");
}

/* A datatype and a communicator freed and made again between calls: the
   new handle may have the old one's value, but a cached request holds the
   old one, so the value is not reused while the request lives. */
static void remade_handles(void) {
  static struct mpiopt_pcache cs, cd;
  MPI_Request r;
  MPI_Status st;
  int k, n, i;
  for (k = 1; k <= 6; k++) {
    MPI_Datatype t;
    MPI_Comm dup;
    MPI_Type_contiguous(k, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    for (i = 0; i < 64; i++)
      a[i] = 10 * k + i, c[i] = -1;
    MPI_Irecv(c, 64, MPI_DOUBLE, 0, 3, MPI_COMM_SELF, &r);
    mpiopt_send_cached(&cs, a, 2, t, 0, 3, MPI_COMM_SELF);
    MPI_Wait(&r, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    CHECK(n == 2 * k && c[2 * k - 1] == 10 * k + 2 * k - 1 && c[2 * k] == -1, "datatype of %d doubles: %d arrived", k,
          n);
    MPI_Type_free(&t);
    MPI_Comm_dup(MPI_COMM_SELF, &dup);
    MPI_Irecv(c, 64, MPI_DOUBLE, 0, 4, dup, &r);
    a[0] = -k;
    mpiopt_send_cached(&cd, a, 1, MPI_DOUBLE, 0, 4, dup);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(c[0] == -k, "communicator %d: the message arrived on the new one", k);
    MPI_Comm_free(&dup);
  }
}

/* A call of a site from a user error handler that the site's own call ran
   (an invalid peer): the inner call runs the generic send. */
static struct mpiopt_pcache ce;
static MPI_Comm errcomm;
static int reentered;

static void on_error(MPI_Comm *comm, int *code, ...) {
  MPI_Request r;
  (void)comm, (void)code;
  if (reentered++)
    return;
  CHECK(ce.busy == 1, "the handler runs inside the site's call");
  c[5] = -1;
  a[5] = 55;
  MPI_Irecv(c, 64, MPI_DOUBLE, 0, 77, errcomm, &r);
  CHECK(mpiopt_send_cached(&ce, a, 6, MPI_DOUBLE, 0, 77, errcomm) == MPI_SUCCESS, "the inner call");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(c[5] == 55, "the inner call's message arrived");
}

static void reentry(void) {
  MPI_Errhandler eh;
  MPI_Comm_dup(MPI_COMM_SELF, &errcomm);
  MPI_Comm_create_errhandler(on_error, &eh);
  MPI_Comm_set_errhandler(errcomm, eh);
  CHECK(mpiopt_send_cached(&ce, a, 1, MPI_DOUBLE, 5, 77, errcomm) != MPI_SUCCESS, "a send to rank 5 of 1 fails");
  CHECK(reentered == 1 && ce.busy == 0, "the handler ran once (%d), the site is free again", reentered);
  MPI_Errhandler_free(&eh);
  MPI_Comm_free(&errcomm);
}

/* A ring of sendrecvs through MPI_COMM_WORLD, two buffers in turn. */
static void ring(int rank, int size) {
  static struct mpiopt_pcache cx;
  MPI_Status st;
  int k, n, right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (k = 0; k < 20; k++) {
    double *send = k % 2 ? a : b, *recv = k % 2 ? b : a;
    send[0] = 1000 * rank + k;
    CHECK(mpiopt_sendrecv_cached(&cx, send, 1 + k % 2, MPI_DOUBLE, right, 2, recv, 64, MPI_DOUBLE, left, 2,
                                 MPI_COMM_WORLD, &st) == MPI_SUCCESS,
          "sendrecv %d", k);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    CHECK(recv[0] == 1000 * left + k && n == 1 + k % 2 && st.MPI_SOURCE == left && st.MPI_TAG == 2,
          "sendrecv %d: data and status", k);
  }
  CHECK(cx.misses == 2 && cx.way[0].made == 2 && cx.way[1].made == 2, "sendrecv: two ways of two requests (%u)",
        cx.misses);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  same_and_alternating();
  thrashing();
  remade_handles();
  reentry();
  ring(rank, size);
  CHECK(mpiopt_pcache_registry()->n == 7, "seven caches registered (%d)", mpiopt_pcache_registry()->n);
  MPI_Finalize();
  CHECK(mpiopt_pcache_registry()->done && mpiopt_pcache_registry()->n == 0, "MPI_Finalize freed the caches");
  printf("ok: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
