/* The self and null peers' templates (templates/mpiopt/peer.h) against the
 * generic calls: the same data and the same status, byte for byte (every
 * status starts from the same sentinel, so the MPI_ERROR field the MPI
 * leaves alone must stay alone too), for sends and receives with
 * MPI_PROC_NULL, exchanges with one side or both MPI_PROC_NULL (the other
 * side with the neighbours of a ring), and exchanges of each process with
 * itself (counts 0 and more, a receive larger than the message,
 * MPI_ANY_TAG, several datatypes, MPI_STATUS_IGNORE, MPI_COMM_SELF); an
 * earlier message from the process to itself that the exchange's receive
 * matches is taken first, as MPI orders them; the errors MPI reports (a
 * negative count, a tag out of range, a null buffer, MPI_COMM_NULL,
 * truncation) are the same error classes. Any process count. */
#include <mpi.h>
#include <string.h>

#include "check.h"
#include "mpiopt/peer.h"

static int rank, size, left, right;

static void sentinel(MPI_Status *a, MPI_Status *b) {
  memset(a, 0x5a, sizeof *a);
  memset(b, 0x5a, sizeof *b);
}

static int same(const MPI_Status *a, const MPI_Status *b) { return !memcmp(a, b, sizeof *a); }

static void null_p2p(void) {
  MPI_Status g, t;
  int x = 7, y = 3, n = -1, P = MPI_PROC_NULL, tags[2] = {0, MPI_ANY_TAG}, k;
  CHECK(mpiopt_send_null(&x, 1, MPI_INT, P, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "send to MPI_PROC_NULL");
  CHECK(mpiopt_ssend_null(&x, 1, MPI_INT, P, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "ssend to MPI_PROC_NULL");
  CHECK(mpiopt_rsend_null(&x, 1, MPI_INT, P, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "rsend to MPI_PROC_NULL");
  for (k = 0; k < 2; k++) {
    sentinel(&g, &t);
    MPI_Recv(&y, 1, MPI_INT, P, tags[k], MPI_COMM_WORLD, &g);
    CHECK(mpiopt_recv_null(&y, 1, MPI_INT, P, tags[k], MPI_COMM_WORLD, &t) == MPI_SUCCESS, "recv from MPI_PROC_NULL");
    MPI_Get_count(&t, MPI_INT, &n);
    CHECK(same(&g, &t) && y == 3 && n == 0 && t.MPI_SOURCE == MPI_PROC_NULL && t.MPI_TAG == MPI_ANY_TAG,
          "recv from MPI_PROC_NULL (tag %d): MPI's status, count %d, buffer untouched", tags[k], n);
  }
  CHECK(mpiopt_recv_null(&y, 1, MPI_INT, P, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS, "status ignored");
  sentinel(&g, &t);
  MPI_Sendrecv(&x, 1, MPI_INT, P, 1, &y, 1, MPI_INT, P, 1, MPI_COMM_WORLD, &g);
  mpiopt_sendrecv_null(&x, 1, MPI_INT, P, 1, &y, 1, MPI_INT, P, 1, MPI_COMM_WORLD, &t);
  CHECK(same(&g, &t) && y == 3, "sendrecv with MPI_PROC_NULL on both sides: MPI's status");
  sentinel(&g, &t);
  MPI_Sendrecv_replace(&y, 1, MPI_INT, P, 1, P, 1, MPI_COMM_WORLD, &g);
  mpiopt_sendrecv_replace_null(&y, 1, MPI_INT, P, 1, P, 1, MPI_COMM_WORLD, &t);
  CHECK(same(&g, &t) && y == 3, "sendrecv_replace with MPI_PROC_NULL on both sides: MPI's status");
  CHECK(mpiopt_peer()->on == 1, "the templates ran (state %d)", mpiopt_peer()->on);
}

/* An exchange with one side MPI_PROC_NULL around the ring: the send half
   to the right (its receive posted first), the receive half from the left
   (its message sent first); generic, then template: the same. */
static void null_half(int replace) {
  double out[8], in[8], keep[8];
  MPI_Status g, t;
  MPI_Request r;
  int P = MPI_PROC_NULL, pass, i, n = -1;
  for (pass = 0; pass < 2; pass++) {
    MPI_Status *st = pass ? &t : &g;
    for (i = 0; i < 8; i++)
      out[i] = rank * 100 + i + pass, in[i] = -1;
    memset(st, 0x5a, sizeof *st);
    MPI_Irecv(in, 8, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &r);
    memcpy(keep, out, sizeof out);
    if (replace)
      (pass ? mpiopt_sendrecv_replace_null : MPI_Sendrecv_replace)(out, 8, MPI_DOUBLE, right, 20, P, 21,
                                                                   MPI_COMM_WORLD, st);
    else
      (pass ? mpiopt_sendrecv_null : MPI_Sendrecv)(out, 8, MPI_DOUBLE, right, 20, in + 4, 4, MPI_DOUBLE, P, 21,
                                                   MPI_COMM_WORLD, st);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(in[0] == left * 100 + pass && in[7] == left * 100 + 7 + pass && !memcmp(out, keep, sizeof out),
          "%s with MPI_PROC_NULL as source (pass %d): the message arrived", replace ? "replace" : "sendrecv", pass);
    if (pass)
      CHECK(same(&g, &t), "%s with MPI_PROC_NULL as source: MPI's status", replace ? "replace" : "sendrecv");
  }
  for (pass = 0; pass < 2; pass++) {
    MPI_Status *st = pass ? &t : &g;
    for (i = 0; i < 8; i++)
      out[i] = rank * 100 + i + pass, in[i] = -1;
    memset(st, 0x5a, sizeof *st);
    MPI_Isend(out, 6, MPI_DOUBLE, right, 22, MPI_COMM_WORLD, &r);
    if (replace)
      (pass ? mpiopt_sendrecv_replace_null : MPI_Sendrecv_replace)(in, 8, MPI_DOUBLE, P, 23, left, 22,
                                                                   MPI_COMM_WORLD, st);
    else
      (pass ? mpiopt_sendrecv_null : MPI_Sendrecv)(out, 8, MPI_DOUBLE, P, 23, in, 8, MPI_DOUBLE, left, 22,
                                                   MPI_COMM_WORLD, st);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(in[0] == left * 100 + pass && in[5] == left * 100 + 5 + pass && in[6] == -1,
          "%s with MPI_PROC_NULL as destination (pass %d): the message arrived", replace ? "replace" : "sendrecv",
          pass);
  }
  MPI_Get_count(&t, MPI_DOUBLE, &n);
  CHECK(same(&g, &t) && n == 6 && t.MPI_SOURCE == left && t.MPI_TAG == 22,
        "%s with MPI_PROC_NULL as destination: MPI's status (count %d)", replace ? "replace" : "sendrecv", n);
}

/* An exchange with itself of n elements of type (size bytes each) on
   comm, whose rank is me: data and status as the generic call's. */
static void self_one(MPI_Datatype type, int esize, int n, int rn, int rtag, MPI_Comm comm, int me) {
  unsigned char a[512], b[512], c[512];
  MPI_Status g, t;
  int i, cg = -2, ct = -2;
  for (i = 0; i < 512; i++)
    a[i] = (unsigned char)(i * 7 + n), b[i] = c[i] = 0xee;
  sentinel(&g, &t);
  MPI_Sendrecv(a, n, type, me, 4, b, rn, type, me, rtag, comm, &g);
  CHECK(mpiopt_sendrecv_self(a, n, type, me, 4, c, rn, type, me, rtag, comm, &t) == MPI_SUCCESS, "sendrecv self");
  MPI_Get_count(&g, type, &cg);
  MPI_Get_count(&t, type, &ct);
  CHECK(!memcmp(b, c, sizeof b) && same(&g, &t) && ct == n,
        "sendrecv with itself, %d of %d bytes (receive %d, tag %d): data and status (count %d, generic %d)", n, esize,
        rn, rtag, ct, cg);
  for (i = 0; i < 512; i++)
    b[i] = c[i] = a[i];
  sentinel(&g, &t);
  MPI_Sendrecv_replace(b, n, type, me, 4, me, rtag, comm, &g);
  CHECK(mpiopt_sendrecv_replace_self(c, n, type, me, 4, me, rtag, comm, &t) == MPI_SUCCESS, "replace self");
  CHECK(!memcmp(b, c, sizeof b) && same(&g, &t), "sendrecv_replace with itself, %d elements: data and status", n);
}

static void self_exchanges(void) {
  unsigned char a[64], b[64];
  MPI_Status t;
  MPI_Request r;
  int x = 11, y = 0, z = 0, me0 = 0;
  self_one(MPI_INT, 4, 0, 0, 4, MPI_COMM_WORLD, rank);
  self_one(MPI_INT, 4, 5, 5, 4, MPI_COMM_WORLD, rank);
  self_one(MPI_INT, 4, 5, 9, MPI_ANY_TAG, MPI_COMM_WORLD, rank);
  self_one(MPI_DOUBLE, 8, 60, 64, 4, MPI_COMM_WORLD, rank);
  self_one(MPI_CHAR, 1, 500, 512, 4, MPI_COMM_SELF, me0);
  self_one(MPI_BYTE, 1, 1, 1, MPI_ANY_TAG, MPI_COMM_SELF, me0);
  memset(a, 1, sizeof a);
  CHECK(mpiopt_sendrecv_self(a, 64, MPI_BYTE, rank, 0, b, 64, MPI_BYTE, rank, 0, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE) == MPI_SUCCESS &&
            b[63] == 1,
        "sendrecv with itself, status ignored");
  /* An earlier message to itself is received first; the exchange's own
     message waits for the next receive, so the exchange completes only
     where the MPI buffers its send: not MPICH 4.0 on one process, where
     the template's generic call would wait forever, as MPI_Sendrecv does. */
#ifdef MPICH_VERSION
  if (size == 1)
    return;
#endif
  MPI_Isend(&x, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &r);
  z = 22;
  CHECK(mpiopt_sendrecv_self(&z, 1, MPI_INT, rank, 9, &y, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &t) == MPI_SUCCESS &&
            y == 11,
        "a message waiting from itself comes first (got %d)", y);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Recv(&y, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &t);
  CHECK(y == 22, "the exchange's own message comes next (got %d)", y);
  MPI_Isend(&x, 1, MPI_INT, rank, 8, MPI_COMM_WORLD, &r); /* another tag, matched by MPI_ANY_TAG */
  z = 33;
  mpiopt_sendrecv_replace_self(&z, 1, MPI_INT, rank, 9, rank, MPI_ANY_TAG, MPI_COMM_WORLD, &t);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(z == 11 && t.MPI_TAG == 8, "replace: a waiting message of another tag matches MPI_ANY_TAG first (%d)", z);
  MPI_Recv(&y, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &t);
  CHECK(y == 33, "replace: its own message comes next (got %d)", y);
}

/* The same error class from the template as from the generic call. */
static void errors(void) {
  MPI_Comm c;
  int x[4] = {0}, P = MPI_PROC_NULL, eg, et, me;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* MPI_COMM_NULL's errors: MPI-3 raises them here, */
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);  /* MPI-4 here */
  MPI_Comm_rank(c, &me);
#define SAME_ERROR(what, generic, tpl)                                                                           \
  do {                                                                                                           \
    int rg = generic, rt = tpl;                                                                                  \
    eg = et = -1;                                                                                                \
    MPI_Error_class(rg, &eg);                                                                                    \
    MPI_Error_class(rt, &et);                                                                                    \
    CHECK(eg == et, "%s: error class %d, generic %d", what, et, eg);                                             \
  } while (0)
  SAME_ERROR("negative count", MPI_Send(x, -1, MPI_INT, P, 0, c), mpiopt_send_null(x, -1, MPI_INT, P, 0, c));
  SAME_ERROR("negative tag", MPI_Send(x, 1, MPI_INT, P, -5, c), mpiopt_send_null(x, 1, MPI_INT, P, -5, c));
  SAME_ERROR("null buffer", MPI_Recv(0, 2, MPI_INT, P, 0, c, MPI_STATUS_IGNORE),
             mpiopt_recv_null(0, 2, MPI_INT, P, 0, c, MPI_STATUS_IGNORE));
  SAME_ERROR("MPI_COMM_NULL", MPI_Send(x, 1, MPI_INT, P, 0, MPI_COMM_NULL),
             mpiopt_send_null(x, 1, MPI_INT, P, 0, MPI_COMM_NULL));
  SAME_ERROR("sendrecv, negative send count",
             MPI_Sendrecv(x, -1, MPI_INT, P, 0, x, 1, MPI_INT, P, 0, c, MPI_STATUS_IGNORE),
             mpiopt_sendrecv_null(x, -1, MPI_INT, P, 0, x, 1, MPI_INT, P, 0, c, MPI_STATUS_IGNORE));
  /* Open MPI 4.1 reports no truncation of an exchange with itself: the
     template runs the generic call there, so it reports what the MPI does. */
  SAME_ERROR("truncation", MPI_Sendrecv(x, 4, MPI_INT, me, 0, x + 2, 2, MPI_INT, me, 0, c, MPI_STATUS_IGNORE),
             mpiopt_sendrecv_self(x, 4, MPI_INT, me, 0, x + 2, 2, MPI_INT, me, 0, c, MPI_STATUS_IGNORE));
#undef SAME_ERROR
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  null_p2p();
  null_half(0);
  null_half(1);
  self_exchanges();
  errors();
  MPI_Barrier(MPI_COMM_WORLD);
  if (!rank)
    printf("ok: %d checks, %d failures\n", checks, failures);
  MPI_Finalize();
  return failures != 0;
}
