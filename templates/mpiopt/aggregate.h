/* Message aggregation: adjacent MPI_Send statements to one peer on one
 * communicator, and the adjacent MPI_Recv statements that take them, each
 * become one call of a template that moves all the parts as one message
 * (ompi-opt's message-aggregation; what it proves is in
 * tool/lib/analysis/AggregationPlan.h):
 *
 *   MPI_Send(&n, 1, MPI_INT, right, 5, comm);
 *   MPI_Send(x, 8, MPI_DOUBLE, right, 6, comm);
 *     -> mpiopt_agg_send(2, right, comm, (const void *)(&n), (int)(1), (MPI_Datatype)(MPI_INT), 5,
 *                        (const void *)(x), (int)(8), (MPI_Datatype)(MPI_DOUBLE), 6);
 *   MPI_Recv(&n, 1, MPI_INT, left, 5, comm, &st);
 *   MPI_Recv(y, 8, MPI_DOUBLE, left, 6, comm, MPI_STATUS_IGNORE);
 *     -> mpiopt_agg_recv(2, left, comm, (void *)(&n), (int)(1), (MPI_Datatype)(MPI_INT), 5, (MPI_Status *)(&st),
 *                        (void *)(y), (int)(8), (MPI_Datatype)(MPI_DOUBLE), 6, (MPI_Status *)(MPI_STATUS_IGNORE));
 *
 * Each part is (buffer, count, predefined datatype, tag) and, received, a
 * status. The message goes on the first part's tag: a header of one int
 * per part (the count sent), then the parts' bytes in order, at most
 * MPIOPT_AGG_MAX bytes in all (ompi-opt proves the sizes constant and
 * below it, so the message is sent eagerly wherever the separate ones
 * were). The receive takes up to MPIOPT_AGG_MAX bytes, copies each part
 * (the count sent; one larger than the receive's count copies what fits
 * and calls the communicator's error handler with MPI_ERR_TRUNCATE, as
 * MPI_Recv would) and writes its status as the separate receive would:
 * MPI_SOURCE the sender, MPI_TAG the part's tag, the count sent (by
 * MPI_Status_set_elements), not cancelled; MPI_ERROR untouched (MPI_Recv
 * need not set it). With the peer MPI_PROC_NULL both run the separate
 * calls (which return at once). The parts travel as bytes: the datatypes
 * are the same on both sides (ompi-opt proves it); a heterogeneous system
 * that converts representations is not supported.
 *
 * Saves: all but one message's latency, matching and envelope per group,
 * for two copies of a few hundred bytes. ompi-opt aggregates only where
 * the machine profile ("templates.aggregate", measured by scripts/tune's
 * aggregate_tune.c) measured the packed message faster.
 *
 * Thread safety: no shared state (the message is on the caller's stack). */
#ifndef MPIOPT_AGGREGATE_H
#define MPIOPT_AGGREGATE_H

#include <mpi.h>
#include <stdarg.h>
#include <string.h>

#include "mpiopt/inline.h"

#define MPIOPT_AGG_MAX 1024 /* bytes of one message, its header included */
#define MPIOPT_AGG_PARTS 16 /* parts of one message */

struct mpiopt_agg_part {
  void *buf;
  int count, tag, size;
  MPI_Datatype type;
  MPI_Status *status;
};

/* Read k parts from the arguments: receiving, each has a status too. */
static MPIOPT_INLINE int mpiopt_agg_parts(struct mpiopt_agg_part *p, int k, int receiving, va_list ap) {
  int i;
  if (k < 1 || k > MPIOPT_AGG_PARTS)
    return 0;
  for (i = 0; i < k; i++) {
    p[i].buf = receiving ? va_arg(ap, void *) : (void *)va_arg(ap, const void *);
    p[i].count = va_arg(ap, int);
    p[i].type = va_arg(ap, MPI_Datatype);
    p[i].tag = va_arg(ap, int);
    p[i].status = receiving ? va_arg(ap, MPI_Status *) : MPI_STATUS_IGNORE;
    if (MPI_Type_size(p[i].type, &p[i].size) != MPI_SUCCESS || p[i].count < 0)
      return 0;
  }
  return 1;
}

/* The parts one by one, as the program wrote them. */
static MPIOPT_INLINE int mpiopt_agg_each(const struct mpiopt_agg_part *p, int k, int receiving, int peer,
                                         MPI_Comm comm) {
  int i, rc = MPI_SUCCESS;
  for (i = 0; i < k && rc == MPI_SUCCESS; i++)
    rc = receiving ? MPI_Recv(p[i].buf, p[i].count, p[i].type, peer, p[i].tag, comm, p[i].status)
                   : MPI_Send(p[i].buf, p[i].count, p[i].type, peer, p[i].tag, comm);
  return rc;
}

static MPIOPT_INLINE int mpiopt_agg_send(int k, int dest, MPI_Comm comm, ...) {
  struct mpiopt_agg_part p[MPIOPT_AGG_PARTS];
  unsigned char msg[MPIOPT_AGG_MAX];
  size_t used = 0;
  int i, ok;
  va_list ap;
  va_start(ap, comm);
  ok = mpiopt_agg_parts(p, k, 0, ap);
  va_end(ap);
  if (!ok)
    return MPI_Comm_call_errhandler(comm, MPI_ERR_ARG), MPI_ERR_ARG;
  if (dest == MPI_PROC_NULL)
    return mpiopt_agg_each(p, k, 0, dest, comm);
  used = (size_t)k * sizeof(int);
  for (i = 0; i < k; i++) {
    size_t bytes = (size_t)p[i].count * (size_t)p[i].size;
    if (used + bytes > MPIOPT_AGG_MAX) /* ompi-opt proved the sizes: never */
      return MPI_Comm_call_errhandler(comm, MPI_ERR_COUNT), MPI_ERR_COUNT;
    memcpy(msg + (size_t)i * sizeof(int), &p[i].count, sizeof(int));
    if (bytes > 0)
      memcpy(msg + used, p[i].buf, bytes);
    used += bytes;
  }
  return MPI_Send(msg, (int)used, MPI_BYTE, dest, p[0].tag, comm);
}

static MPIOPT_INLINE int mpiopt_agg_recv(int k, int source, MPI_Comm comm, ...) {
  struct mpiopt_agg_part p[MPIOPT_AGG_PARTS];
  unsigned char msg[MPIOPT_AGG_MAX];
  MPI_Status st;
  size_t used;
  int i, ok, got = 0, rc;
  va_list ap;
  va_start(ap, comm);
  ok = mpiopt_agg_parts(p, k, 1, ap);
  va_end(ap);
  if (!ok)
    return MPI_Comm_call_errhandler(comm, MPI_ERR_ARG), MPI_ERR_ARG;
  if (source == MPI_PROC_NULL)
    return mpiopt_agg_each(p, k, 1, source, comm);
  rc = MPI_Recv(msg, MPIOPT_AGG_MAX, MPI_BYTE, source, p[0].tag, comm, &st);
  if (rc != MPI_SUCCESS)
    return rc;
  MPI_Get_count(&st, MPI_BYTE, &got);
  used = (size_t)k * sizeof(int);
  for (i = 0; i < k; i++) {
    int sent = 0, kept;
    if ((size_t)got >= (size_t)(i + 1) * sizeof(int))
      memcpy(&sent, msg + (size_t)i * sizeof(int), sizeof(int));
    kept = sent <= p[i].count ? sent : p[i].count;
    if (used + (size_t)kept * (size_t)p[i].size > (size_t)got)
      return MPI_Comm_call_errhandler(comm, MPI_ERR_TRUNCATE), MPI_ERR_TRUNCATE;
    if (kept > 0)
      memcpy(p[i].buf, msg + used, (size_t)kept * (size_t)p[i].size);
    used += (size_t)sent * (size_t)p[i].size;
    if (p[i].status != MPI_STATUS_IGNORE) {
      p[i].status->MPI_SOURCE = st.MPI_SOURCE;
      p[i].status->MPI_TAG = p[i].tag;
      MPI_Status_set_elements(p[i].status, p[i].type, kept);
      MPI_Status_set_cancelled(p[i].status, 0);
    }
    if (sent > p[i].count)
      return MPI_Comm_call_errhandler(comm, MPI_ERR_TRUNCATE), MPI_ERR_TRUNCATE;
  }
  return MPI_SUCCESS;
}

/* Broadcasts (ompi-opt's broadcast-fusion; what it proves is in
 * tool/lib/analysis/BroadcastPlan.h): adjacent MPI_Bcast statements from
 * one root on one communicator become one broadcast of their parts,
 *
 *   MPI_Bcast(&n, 1, MPI_INT, 0, comm);
 *   MPI_Bcast(&tol, 1, MPI_DOUBLE, 0, comm);
 *     -> mpiopt_agg_bcast(2, 0, comm, (void *)(&n), (int)(1), (MPI_Datatype)(MPI_INT),
 *                         (void *)(&tol), (int)(1), (MPI_Datatype)(MPI_DOUBLE));
 *
 * each part (buffer, count, predefined datatype). MPI requires every
 * process's count and datatype to match the root's, so every process
 * computes the same size: the root packs the parts, one MPI_Bcast of
 * that many bytes moves them, the others unpack them in order (a later
 * part over an earlier one's bytes lands last, as the separate calls
 * left it). More than MPIOPT_AGG_MAX bytes in all (the sizes are known
 * only at run time), an intercommunicator, or a part the template cannot
 * size: the separate calls, as written. Saves all but one broadcast's
 * latency (a tree of them at scale) for two copies of a few hundred
 * bytes. The parts travel as bytes: a heterogeneous system that converts
 * representations is not supported. */
static MPIOPT_INLINE int mpiopt_agg_bcast(int k, int root, MPI_Comm comm, ...) {
  struct mpiopt_agg_part p[MPIOPT_AGG_PARTS];
  unsigned char msg[MPIOPT_AGG_MAX];
  size_t used = 0;
  int i, ok = k >= 1 && k <= MPIOPT_AGG_PARTS, me = -1, inter = 1, rc;
  va_list ap;
  va_start(ap, comm);
  for (i = 0; ok && i < k; i++) {
    p[i].buf = va_arg(ap, void *);
    p[i].count = va_arg(ap, int);
    p[i].type = va_arg(ap, MPI_Datatype);
    ok = MPI_Type_size(p[i].type, &p[i].size) == MPI_SUCCESS && p[i].count >= 0 &&
         (size_t)p[i].count * (size_t)p[i].size <= MPIOPT_AGG_MAX - used;
    if (ok)
      used += (size_t)p[i].count * (size_t)p[i].size;
  }
  va_end(ap);
  if (ok && MPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter && MPI_Comm_rank(comm, &me) == MPI_SUCCESS &&
      me >= 0) {
    size_t at = 0;
    for (i = 0; i < k && me == root; i++) {
      size_t bytes = (size_t)p[i].count * (size_t)p[i].size;
      if (bytes > 0)
        memcpy(msg + at, p[i].buf, bytes);
      at += bytes;
    }
    rc = MPI_Bcast(msg, (int)used, MPI_BYTE, root, comm);
    for (i = 0, at = 0; i < k && me != root && rc == MPI_SUCCESS; i++) {
      size_t bytes = (size_t)p[i].count * (size_t)p[i].size;
      if (bytes > 0)
        memcpy(p[i].buf, msg + at, bytes);
      at += bytes;
    }
    return rc;
  }
  /* the separate calls, each made as written (an error in one, under
     MPI_ERRORS_RETURN, does not stop the next) */
  va_start(ap, comm);
  for (i = 0, rc = MPI_SUCCESS; i < k && i < MPIOPT_AGG_PARTS; i++) {
    void *buf = va_arg(ap, void *);
    int count = va_arg(ap, int);
    MPI_Datatype type = va_arg(ap, MPI_Datatype);
    int r = MPI_Bcast(buf, count, type, root, comm);
    rc = rc == MPI_SUCCESS ? r : rc;
  }
  va_end(ap);
  return rc;
}

#endif /* MPIOPT_AGGREGATE_H */
