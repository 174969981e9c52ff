/* Self and null peers: a point-to-point call whose peer ompi-opt proved to
 * be MPI_PROC_NULL, or an exchange (MPI_Sendrecv, MPI_Sendrecv_replace)
 * whose destination and source it proved to be the calling process itself,
 * becomes the template of the same name and arguments:
 *
 *   mpiopt_send_null, mpiopt_ssend_null, mpiopt_rsend_null  a send to MPI_PROC_NULL
 *   mpiopt_recv_null                                       a receive from MPI_PROC_NULL
 *   mpiopt_sendrecv_null, mpiopt_sendrecv_replace_null     one side or both MPI_PROC_NULL
 *   mpiopt_sendrecv_self, mpiopt_sendrecv_replace_self     both peers the caller
 *
 * Null peers. MPI defines a send to MPI_PROC_NULL as returning at once and
 * a receive from it as returning at once with the status MPI_SOURCE =
 * MPI_PROC_NULL, MPI_TAG = MPI_ANY_TAG and count 0 (MPI-4.1, 3.10). The
 * templates return MPI_SUCCESS; a receive's status is a copy of the one the
 * MPI itself gave the same kind of call at the first use (the hidden count
 * and cancelled fields included). An exchange with one side MPI_PROC_NULL
 * runs the other side alone: the receive as MPI_Recv, the send as MPI_Send
 * (a standard-mode send, as the exchange's), the status then the MPI's own
 * for a receive from MPI_PROC_NULL. Argument errors the MPI would report
 * stay the MPI's: a negative count, a tag outside 0..32767 (beyond, the
 * MPI's own bound decides), a null buffer with a positive count,
 * MPI_COMM_NULL: these run the generic call. ompi-opt proves the dropped
 * side's datatype predefined. Not detected (an erroneous program either
 * way): a communicator freed before the call.
 *
 * Self peers. The exchange's receive takes the exchange's own message
 * unless a message from the process to itself that the receive matches is
 * already waiting (MPI's order: the earlier message first): the template
 * asks MPI_Iprobe, and runs the generic call where one waits. A receive
 * posted earlier that the send would match instead (MPI_Irecv from
 * MPI_ANY_SOURCE) leaves the generic exchange waiting forever for a second
 * message from itself, which no process can send while it waits: the
 * template completes such a program where the generic call hangs; a
 * program that completes completes alike. The copy is a memmove of count x
 * the datatype's size (ompi-opt proves both sides the same predefined
 * datatype without gaps; the template checks the handles equal); the
 * status is MPI_SOURCE = the caller, MPI_TAG = the send's tag, the count
 * set by MPI_Status_set_elements and not cancelled. MPI_Sendrecv_replace
 * to itself leaves the buffer as it is. Run generically (MPI reports the
 * error, or matches as it does): a receive count smaller than the send's
 * (truncation), tags that differ (unless the receive's is MPI_ANY_TAG),
 * peers that are not the caller's rank in the communicator (checked by
 * MPI_Comm_rank), the checks of the null templates.
 *
 * Statuses' MPI_ERROR field: MPI defines it only for calls that complete
 * several requests, and the MPIs differ (MPICH writes it in
 * MPI_Sendrecv_replace and leaves it alone in MPI_Sendrecv and MPI_Recv).
 * At the first use the templates run each kind of call they replace once,
 * generically, on a duplicate of MPI_COMM_SELF (no message of the program
 * can match there), and write the field, or leave it alone, as the MPI did.
 *
 * Saves: the MPI's argument checks, request and matching work (a null
 * peer); the self-message's queueing, matching and copy through the MPI
 * (a self peer; the replace: its pack buffer and two copies). ompi-opt uses
 * a template only where the machine profile ("templates.null",
 * "templates.null_sendrecv", "templates.self_sendrecv",
 * "templates.self_replace", measured by scripts/tune's peer_tune.c)
 * measured it faster than the generic call at the message's size.
 *
 * Thread safety: the templates share one static state per translation
 * unit, set at the first call (the statuses the MPI gives MPI_PROC_NULL,
 * and whether the templates may run). Where MPI was initialised with
 * MPI_THREAD_MULTIPLE (or not through MPI_Init) every template runs the
 * generic call; after MPI_Finalize has begun, too. */
#ifndef MPIOPT_PEER_H
#define MPIOPT_PEER_H

#include <mpi.h>
#include <stddef.h>
#include <string.h>

#include "mpiopt/inline.h"

/* The calls whose statuses the templates reproduce: a receive from
   MPI_PROC_NULL; an exchange (MPI_Sendrecv, MPI_Sendrecv_replace) with
   MPI_PROC_NULL on both sides, as its destination only (the send half
   runs), as its source only (the receive half runs); with itself. */
enum {
  MPIOPT_PEER_RECV_NULL,
  MPIOPT_PEER_SR_NULL,
  MPIOPT_PEER_REP_NULL,
  MPIOPT_PEER_SR_SEND,
  MPIOPT_PEER_REP_SEND,
  MPIOPT_PEER_SR_RECV,
  MPIOPT_PEER_REP_RECV,
  MPIOPT_PEER_SR_SELF,
  MPIOPT_PEER_REP_SELF,
  MPIOPT_PEER_KINDS
};

/* The state: on = 0 not yet known, 1 the templates run, -1 the generic
   calls. For each kind of call, the status the MPI gave it at the first
   use (on a duplicate of MPI_COMM_SELF) and whether the MPI wrote its
   MPI_ERROR field (1) or left it alone (0): the MPIs differ (MPICH writes
   it in MPI_Sendrecv_replace and leaves it in MPI_Sendrecv). */
struct mpiopt_peer_state {
  int on;
  int world_rank; /* the rank in MPI_COMM_WORLD, once on (it never changes) */
  MPI_Status status[MPIOPT_PEER_KINDS];
  int writes_error[MPIOPT_PEER_KINDS];
};

static MPIOPT_INLINE struct mpiopt_peer_state *mpiopt_peer(void) {
  static struct mpiopt_peer_state s;
  return &s;
}

/* MPI_COMM_SELF's attribute delete callback: MPI_Finalize has begun. */
static MPIOPT_INLINE int mpiopt_peer_finalize(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  mpiopt_peer()->on = -1;
  return MPI_SUCCESS;
}

/* Run the generic form of kind k on self (a communicator of this process
   alone, so no message of the program can match), one byte where a
   message moves, the status first holding a sentinel. */
static MPIOPT_INLINE int mpiopt_peer_probe(struct mpiopt_peer_state *s, int k, MPI_Comm self) {
  char c[2] = {0, 0};
  int P = MPI_PROC_NULL, rc = MPI_ERR_OTHER, rw = MPI_SUCCESS;
  MPI_Status *st = &s->status[k];
  MPI_Request r = MPI_REQUEST_NULL;
  st->MPI_ERROR = -4242;
  if (k == MPIOPT_PEER_SR_SEND || k == MPIOPT_PEER_REP_SEND)
    MPI_Irecv(c + 1, 1, MPI_BYTE, 0, 0, self, &r);
  else if (k == MPIOPT_PEER_SR_RECV || k == MPIOPT_PEER_REP_RECV)
    MPI_Isend(c, 1, MPI_BYTE, 0, 0, self, &r);
  switch (k) {
  case MPIOPT_PEER_RECV_NULL: rc = MPI_Recv(c, 0, MPI_BYTE, P, 0, self, st); break;
  case MPIOPT_PEER_SR_NULL: rc = MPI_Sendrecv(c, 0, MPI_BYTE, P, 0, c + 1, 0, MPI_BYTE, P, 0, self, st); break;
  case MPIOPT_PEER_REP_NULL: rc = MPI_Sendrecv_replace(c, 0, MPI_BYTE, P, 0, P, 0, self, st); break;
  case MPIOPT_PEER_SR_SEND: rc = MPI_Sendrecv(c, 1, MPI_BYTE, 0, 0, c, 0, MPI_BYTE, P, 0, self, st); break;
  case MPIOPT_PEER_REP_SEND: rc = MPI_Sendrecv_replace(c, 1, MPI_BYTE, 0, 0, P, 0, self, st); break;
  case MPIOPT_PEER_SR_RECV: rc = MPI_Sendrecv(c + 1, 0, MPI_BYTE, P, 0, c + 1, 1, MPI_BYTE, 0, 0, self, st); break;
  case MPIOPT_PEER_REP_RECV: rc = MPI_Sendrecv_replace(c + 1, 1, MPI_BYTE, P, 0, 0, 0, self, st); break;
  case MPIOPT_PEER_SR_SELF: rc = MPI_Sendrecv(c, 1, MPI_BYTE, 0, 0, c + 1, 1, MPI_BYTE, 0, 0, self, st); break;
  case MPIOPT_PEER_REP_SELF: rc = MPI_Sendrecv_replace(c, 1, MPI_BYTE, 0, 0, 0, 0, self, st); break;
  }
  if (r != MPI_REQUEST_NULL)
    rw = MPI_Wait(&r, MPI_STATUS_IGNORE);
  s->writes_error[k] = st->MPI_ERROR != -4242;
  return rc == MPI_SUCCESS && rw == MPI_SUCCESS;
}

/* Whether the templates may run: MPI initialised by MPI_Init, below
   MPI_THREAD_MULTIPLE, not finalizing; decided at the first call after
   MPI_Init. */
static MPIOPT_INLINE int mpiopt_peer_on(void) {
  struct mpiopt_peer_state *s = mpiopt_peer();
  int init = 0, fin = 0, level = MPI_THREAD_MULTIPLE, kv, k, ok = 1;
  MPI_Comm self;
  if (s->on)
    return s->on > 0;
  MPI_Initialized(&init);
  if (!init)
    return 0; /* not yet, or through sessions: the generic call says */
  MPI_Finalized(&fin);
  s->on = -1;
  if (fin || MPI_Query_thread(&level) != MPI_SUCCESS || level == MPI_THREAD_MULTIPLE)
    return 0;
  if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, mpiopt_peer_finalize, &kv, 0) != MPI_SUCCESS)
    return 0;
  if (MPI_Comm_set_attr(MPI_COMM_SELF, kv, 0) != MPI_SUCCESS || MPI_Comm_dup(MPI_COMM_SELF, &self) != MPI_SUCCESS)
    return 0;
  MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
  for (k = 0; k < MPIOPT_PEER_KINDS; k++)
    ok = ok && mpiopt_peer_probe(s, k, self);
  MPI_Comm_free(&self);
  ok = ok && MPI_Comm_rank(MPI_COMM_WORLD, &s->world_rank) == MPI_SUCCESS;
  s->on = ok ? 1 : -1;
  return ok;
}

/* st's MPI_ERROR field after a call of kind k that succeeded: what the MPI
   writes there, or e (what it held before) where the MPI leaves it. */
static MPIOPT_INLINE void mpiopt_peer_error(MPI_Status *st, int k, int e) {
  struct mpiopt_peer_state *s = mpiopt_peer();
  st->MPI_ERROR = s->writes_error[k] ? s->status[k].MPI_ERROR : e;
}

/* The checks MPI makes of a side that the templates drop or copy: count,
   buffer and tag (a receive's may be MPI_ANY_TAG); and the communicator. */
static MPIOPT_INLINE int mpiopt_peer_side_ok(const void *buf, int count, int tag, int recv) {
  return count >= 0 && (count == 0 || buf) && ((tag >= 0 && tag <= 32767) || (recv && tag == MPI_ANY_TAG));
}

/* The status of a call of kind k whose receive is from MPI_PROC_NULL into
   st, as the MPI fills it. */
static MPIOPT_INLINE void mpiopt_peer_null_status(MPI_Status *st, int k) {
  if (st != MPI_STATUS_IGNORE) {
    int e = st->MPI_ERROR;
    *st = mpiopt_peer()->status[k];
    mpiopt_peer_error(st, k, e);
  }
}

/* Sends to MPI_PROC_NULL. */
static MPIOPT_INLINE int mpiopt_null_ok(const void *buf, int count, int peer, int tag, MPI_Comm comm, int recv) {
  return peer == MPI_PROC_NULL && comm != MPI_COMM_NULL && mpiopt_peer_side_ok(buf, count, tag, recv) &&
         mpiopt_peer_on();
}
static MPIOPT_INLINE int mpiopt_send_null(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                                          MPI_Comm comm) {
  return mpiopt_null_ok(buf, count, dest, tag, comm, 0) ? MPI_SUCCESS : MPI_Send(buf, count, type, dest, tag, comm);
}
static MPIOPT_INLINE int mpiopt_ssend_null(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                                           MPI_Comm comm) {
  return mpiopt_null_ok(buf, count, dest, tag, comm, 0) ? MPI_SUCCESS : MPI_Ssend(buf, count, type, dest, tag, comm);
}
static MPIOPT_INLINE int mpiopt_rsend_null(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                                           MPI_Comm comm) {
  return mpiopt_null_ok(buf, count, dest, tag, comm, 0) ? MPI_SUCCESS : MPI_Rsend(buf, count, type, dest, tag, comm);
}

/* A receive from MPI_PROC_NULL. */
static MPIOPT_INLINE int mpiopt_recv_null(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                                          MPI_Status *status) {
  if (!mpiopt_null_ok(buf, count, source, tag, comm, 1))
    return MPI_Recv(buf, count, type, source, tag, comm, status);
  mpiopt_peer_null_status(status, MPIOPT_PEER_RECV_NULL);
  return MPI_SUCCESS;
}

/* The receive half of an exchange (of kind k) run as MPI_Recv: the status's
   fields as MPI_Recv fills them, its MPI_ERROR field as the exchange's. */
static MPIOPT_INLINE int mpiopt_peer_recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                                          MPI_Status *status, int k) {
  int rc, e;
  if (status == MPI_STATUS_IGNORE)
    return MPI_Recv(buf, count, type, source, tag, comm, MPI_STATUS_IGNORE);
  e = status->MPI_ERROR;
  rc = MPI_Recv(buf, count, type, source, tag, comm, status);
  if (rc == MPI_SUCCESS)
    mpiopt_peer_error(status, k, e);
  return rc;
}

/* An exchange with one side (or both) MPI_PROC_NULL. */
static MPIOPT_INLINE int mpiopt_sendrecv_null(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                                              void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                                              MPI_Comm comm, MPI_Status *status) {
  int sn = dest == MPI_PROC_NULL, rn = source == MPI_PROC_NULL, rc;
  if ((!sn && !rn) || comm == MPI_COMM_NULL || !mpiopt_peer_side_ok(sbuf, scount, stag, 0) ||
      !mpiopt_peer_side_ok(rbuf, rcount, rtag, 1) || !mpiopt_peer_on())
    return MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
  if (!rn)
    return mpiopt_peer_recv(rbuf, rcount, rtype, source, rtag, comm, status, MPIOPT_PEER_SR_RECV);
  rc = sn ? MPI_SUCCESS : MPI_Send(sbuf, scount, stype, dest, stag, comm);
  if (rc == MPI_SUCCESS)
    mpiopt_peer_null_status(status, sn ? MPIOPT_PEER_SR_NULL : MPIOPT_PEER_SR_SEND);
  return rc;
}

static MPIOPT_INLINE int mpiopt_sendrecv_replace_null(void *buf, int count, MPI_Datatype type, int dest, int stag,
                                                      int source, int rtag, MPI_Comm comm, MPI_Status *status) {
  int sn = dest == MPI_PROC_NULL, rn = source == MPI_PROC_NULL, rc;
  if ((!sn && !rn) || comm == MPI_COMM_NULL || !mpiopt_peer_side_ok(buf, count, stag, 0) ||
      !mpiopt_peer_side_ok(buf, count, rtag, 1) || !mpiopt_peer_on())
    return MPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
  if (!rn)
    return mpiopt_peer_recv(buf, count, type, source, rtag, comm, status, MPIOPT_PEER_REP_RECV);
  rc = sn ? MPI_SUCCESS : MPI_Send(buf, count, type, dest, stag, comm);
  if (rc == MPI_SUCCESS)
    mpiopt_peer_null_status(status, sn ? MPIOPT_PEER_REP_NULL : MPIOPT_PEER_REP_SEND);
  return rc;
}

/* Whether an exchange with itself may be a copy: both peers the caller,
   the tags such that the receive matches the send, count fits, and no
   message from itself that the receive matches waiting. *size: the
   datatype's size. */
static MPIOPT_INLINE int mpiopt_self_ok(const void *sbuf, int scount, int dest, int stag, void *rbuf, int rcount,
                                        int source, int rtag, MPI_Comm comm, MPI_Datatype type, int *size) {
  int me = -1, flag = 1;
  /* The peers first: where they are known only at run time, most calls
     are with another rank and must cost little more than the generic
     call (MPI_COMM_WORLD's rank is kept from the first use). */
  if (dest != source || comm == MPI_COMM_NULL || !mpiopt_peer_on())
    return 0;
  if (comm == MPI_COMM_WORLD)
    me = mpiopt_peer()->world_rank;
  else if (MPI_Comm_rank(comm, &me) != MPI_SUCCESS)
    return 0;
  return me == dest && scount <= rcount && (rtag == stag || rtag == MPI_ANY_TAG) &&
         mpiopt_peer_side_ok(sbuf, scount, stag, 0) && mpiopt_peer_side_ok(rbuf, rcount, rtag, 1) &&
         MPI_Type_size(type, size) == MPI_SUCCESS &&
         MPI_Iprobe(source, rtag, comm, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag;
}

/* The status of an exchange with itself. */
static MPIOPT_INLINE void mpiopt_self_status(MPI_Status *status, int source, int tag, MPI_Datatype type, int count,
                                            int k) {
  if (status == MPI_STATUS_IGNORE)
    return;
  mpiopt_peer_error(status, k, status->MPI_ERROR);
  status->MPI_SOURCE = source;
  status->MPI_TAG = tag;
  MPI_Status_set_elements(status, type, count);
  MPI_Status_set_cancelled(status, 0);
}

static MPIOPT_INLINE int mpiopt_sendrecv_self(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                                              void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                                              MPI_Comm comm, MPI_Status *status) {
  int size = 0;
  if (stype != rtype || !mpiopt_self_ok(sbuf, scount, dest, stag, rbuf, rcount, source, rtag, comm, stype, &size))
    return MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
  if (scount > 0 && size > 0)
    memmove(rbuf, sbuf, (size_t)scount * (size_t)size);
  mpiopt_self_status(status, source, stag, stype, scount, MPIOPT_PEER_SR_SELF);
  return MPI_SUCCESS;
}

static MPIOPT_INLINE int mpiopt_sendrecv_replace_self(void *buf, int count, MPI_Datatype type, int dest, int stag,
                                                      int source, int rtag, MPI_Comm comm, MPI_Status *status) {
  int size = 0;
  if (!mpiopt_self_ok(buf, count, dest, stag, buf, count, source, rtag, comm, type, &size))
    return MPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
  mpiopt_self_status(status, source, stag, type, count, MPIOPT_PEER_REP_SELF);
  return MPI_SUCCESS;
}

#endif /* MPIOPT_PEER_H */
