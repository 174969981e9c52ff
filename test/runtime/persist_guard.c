/* The persistent templates (templates/mpiopt/persist.h) on one process,
 * through MPI_COMM_SELF: the request made at the first call is reused while
 * the arguments stay the same (one request, made once), a call with other
 * arguments makes a new one (the belt-and-braces check: ompi-opt proves
 * this cannot happen, the template does not rely on it), a sendrecv keeps
 * two, a wildcard receive and MPI_PROC_NULL peers run the generic calls
 * (statuses as MPI_Recv's: MPI_PROC_NULL, MPI_ANY_TAG, count 0), and the
 * release frees what was made and may run twice. A send to the process
 * itself completes only once its receive is posted (MPICH buffers none), so
 * each send goes to a receive posted before it, and each receive takes a
 * message sent before it. */
#include <mpi.h>

#include "check.h"
#include "mpiopt/persist.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm self = MPI_COMM_SELF;
  double a[16], b[16], c[16];
  MPI_Status st;
  int n;
  struct mpiopt_persist ps = {0}, pr = {0};
  for (int i = 0; i < 16; i++)
    a[i] = i, c[i] = 100 + i;
  /* The same arguments: one request each, reused. */
  MPI_Request r;
  for (int k = 0; k < 5; k++) {
    a[0] = k;
    MPI_Irecv(c, 16, MPI_DOUBLE, 0, 1, self, &r);
    CHECK(mpiopt_send_persistent(&ps, a, 16, MPI_DOUBLE, 0, 1, self) == MPI_SUCCESS, "send %d", k);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Isend(c, 16, MPI_DOUBLE, 0, 1, self, &r);
    CHECK(mpiopt_recv_persistent(&pr, b, 16, MPI_DOUBLE, 0, 1, self, &st) == MPI_SUCCESS, "recv %d", k);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    CHECK(b[0] == k && b[15] == 15 && n == 16 && st.MPI_SOURCE == 0 && st.MPI_TAG == 1, "exchange %d", k);
    CHECK(ps.made == 1 && pr.made == 1, "exchange %d: one request each (%d, %d)", k, ps.made, pr.made);
  }
  /* Another buffer, another count, another tag: new requests. */
  for (int i = 0; i < 16; i++)
    c[i] = 100 + i;
  MPI_Irecv(b, 16, MPI_DOUBLE, 0, 2, self, &r);
  mpiopt_send_persistent(&ps, c, 8, MPI_DOUBLE, 0, 2, self);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  CHECK(b[0] == 100 && b[7] == 107 && n == 8 && st.MPI_TAG == 2, "the new arguments' message arrived");
  CHECK(ps.made == 1 && ps.key[0].buf == c && ps.key[0].count == 8 && ps.key[0].tag == 2,
        "the send request was made again");
  MPI_Isend(a, 4, MPI_DOUBLE, 0, 3, self, &r);
  mpiopt_recv_persistent(&pr, b, 16, MPI_DOUBLE, 0, 3, self, &st);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(pr.made == 1 && pr.key[0].tag == 3 && st.MPI_TAG == 3, "the receive request was made again");
  /* A wildcard receive: the generic call, the request kept. */
  MPI_Isend(c, 8, MPI_DOUBLE, 0, 2, self, &r);
  CHECK(mpiopt_recv_persistent(&pr, b, 16, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, self, &st) == MPI_SUCCESS,
        "wildcard receive");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 2 && pr.key[0].tag == 3, "wildcard: the generic receive");
  /* MPI_PROC_NULL: the status MPI defines. */
  st.MPI_SOURCE = 5;
  CHECK(mpiopt_recv_persistent(&pr, b, 16, MPI_DOUBLE, MPI_PROC_NULL, 3, self, &st) == MPI_SUCCESS, "null recv");
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && n == 0, "null receive's status (%d %d %d)",
        st.MPI_SOURCE, st.MPI_TAG, n);
  CHECK(mpiopt_send_persistent(&ps, a, 16, MPI_DOUBLE, MPI_PROC_NULL, 3, self) == MPI_SUCCESS, "null send");
  CHECK(mpiopt_ssend_persistent(&ps, a, 16, MPI_DOUBLE, MPI_PROC_NULL, 3, self) == MPI_SUCCESS, "null ssend");
  /* A sendrecv: two requests, the receive first; its status. */
  struct mpiopt_persist px = {0};
  for (int k = 0; k < 3; k++) {
    a[1] = k;
    mpiopt_sendrecv_persistent(&px, a, 4, MPI_DOUBLE, 0, 7, b, 16, MPI_DOUBLE, 0, 7, self, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    CHECK(b[1] == k && n == 4 && st.MPI_TAG == 7 && px.made == 2 && px.key[0].buf == b && px.key[1].buf == a,
          "sendrecv %d", k);
  }
  mpiopt_sendrecv_persistent(&px, a, 4, MPI_DOUBLE, MPI_PROC_NULL, 7, b, 16, MPI_DOUBLE, MPI_PROC_NULL, 7, self, &st);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "sendrecv with MPI_PROC_NULL: the generic call's status");
  mpiopt_persist_free(&ps);
  mpiopt_persist_free(&pr);
  mpiopt_persist_free(&px);
  mpiopt_persist_free(&px);
  CHECK(ps.made == 0 && pr.made == 0 && px.made == 0, "released");
  printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
