/* Persistent point-to-point: a blocking MPI_Send, MPI_Ssend, MPI_Recv or
 * MPI_Sendrecv in a loop whose buffers, counts, datatypes, peers, tags and
 * communicator ompi-opt proved the same on every iteration (the call facts'
 * loop invariance) becomes the template's call with the address of a
 * struct mpiopt_persist declared, zeroed, in a block opened just before the
 * loop:
 *
 *   { struct mpiopt_persist mpiopt_preq1_p = MPIOPT_PERSIST_INIT; for (...) {
 *       ... mpiopt_send_persistent(&mpiopt_preq1_p, buf, n, MPI_DOUBLE, right, 0, comm) ...
 *   } mpiopt_persist_free(&mpiopt_preq1_p); }
 *
 * The first call makes the persistent request (MPI_Send_init, MPI_Ssend_init,
 * MPI_Recv_init; a sendrecv makes a receive and a send); every call starts
 * it and waits for it; the block frees it after the loop and before each
 * return inside the loop.
 *
 * Assumes nothing beyond what MPI says of persistent requests: MPI_Start
 * and MPI_Wait on a request made by MPI_Send_init are MPI_Send (MPI-4.1,
 * 3.9), and likewise for the other modes and the receive. Matching order,
 * the status (MPI_Get_count included), MPI_PROC_NULL, count 0 and the
 * error codes are those of the call replaced. A sendrecv starts its
 * receive, then its send, and waits for both: the status is the
 * receive's, as MPI_Sendrecv's is. Belt and braces: the template compares
 * each call's arguments with those its request was made with and makes a
 * new request where they differ (ompi-opt proved they cannot, so this
 * costs six comparisons); a wildcard receive (MPI_ANY_SOURCE or
 * MPI_ANY_TAG, which ompi-opt leaves generic where it sees it) and a peer
 * that is MPI_PROC_NULL run the generic call (MPICH 4.0's persistent
 * receive from MPI_PROC_NULL reports MPI_ANY_SOURCE as the status's
 * source, where MPI_Recv reports MPI_PROC_NULL, as MPI requires).
 * Buffering is the blocking call's: both MPIs buffer a persistent send
 * exactly where they buffer MPI_Send (measured: the same sizes complete an
 * exchange in which both sides send first, and a send to the process
 * itself before its receive: under Open MPI up to its eager limit, under
 * MPICH 4.0 none). The release does nothing once MPI is finalized.
 *
 * Saves: the argument checks, request set-up and matching set-up that MPI
 * does on every blocking call, for one comparison of the arguments. Modern
 * MPIs make these cheap; ompi-opt uses a template only where the machine
 * profile ("templates.persistent", "templates.persistent_ssend",
 * "templates.persistent_sendrecv", measured by scripts/tune's
 * persist_tune.c) measured it faster than the generic call at the
 * message's size.
 *
 * Thread safety: the struct is an automatic variable of the function that
 * runs the loop, so each thread running the function has its own; with
 * MPI_THREAD_MULTIPLE nothing is shared. */
#ifndef MPIOPT_PERSIST_H
#define MPIOPT_PERSIST_H

#include <mpi.h>

#include "mpiopt/inline.h"

/* The arguments a request was made with. */
struct mpiopt_pkey {
  const void *buf;
  int count, peer, tag;
  MPI_Datatype type;
  MPI_Comm comm;
};

/* A loop's persistent request(s): made is how many (0: none yet; a sendrecv
   makes two, the receive first). */
struct mpiopt_persist {
  MPI_Request req[2];
  struct mpiopt_pkey key[2];
  int made;
};
/* Its initialiser: nothing made. */
#ifdef __cplusplus
#define MPIOPT_PERSIST_INIT {}
#else
#define MPIOPT_PERSIST_INIT {0}
#endif

static MPIOPT_INLINE int mpiopt_pkey_same(const struct mpiopt_pkey *k, const void *buf, int count, MPI_Datatype type,
                                          int peer, int tag, MPI_Comm comm) {
  return k->buf == buf && k->count == count && k->type == type && k->peer == peer && k->tag == tag && k->comm == comm;
}

static MPIOPT_INLINE void mpiopt_pkey_set(struct mpiopt_pkey *k, const void *buf, int count, MPI_Datatype type,
                                          int peer, int tag, MPI_Comm comm) {
  k->buf = buf;
  k->count = count;
  k->type = type;
  k->peer = peer;
  k->tag = tag;
  k->comm = comm;
}

/* Free the requests made (after the loop, before each return in it). */
static MPIOPT_INLINE void mpiopt_persist_free(struct mpiopt_persist *p) {
  int fin = 0, i;
  MPI_Finalized(&fin);
  for (i = 0; !fin && i < p->made; i++)
    MPI_Request_free(&p->req[i]);
  p->made = 0;
}

/* Mode of a request: a receive, a standard or a synchronous send. */
enum { MPIOPT_PRECV, MPIOPT_PSEND, MPIOPT_PSSEND };

/* Whether p holds exactly n requests, made with these arguments (request
   n - 1: the last one made). */
static MPIOPT_INLINE int mpiopt_persist_has(const struct mpiopt_persist *p, int n, const void *buf, int count,
                                            MPI_Datatype type, int peer, int tag, MPI_Comm comm) {
  return p->made == n && mpiopt_pkey_same(&p->key[n - 1], buf, count, type, peer, tag, comm);
}

/* Make p's next request (p->made of them are made). */
static MPIOPT_INLINE int mpiopt_persist_make(struct mpiopt_persist *p, int mode, const void *buf, int count,
                                             MPI_Datatype type, int peer, int tag, MPI_Comm comm) {
  int err, i = p->made;
  if (mode == MPIOPT_PRECV)
    err = MPI_Recv_init((void *)buf, count, type, peer, tag, comm, &p->req[i]);
  else if (mode == MPIOPT_PSSEND)
    err = MPI_Ssend_init(buf, count, type, peer, tag, comm, &p->req[i]);
  else
    err = MPI_Send_init(buf, count, type, peer, tag, comm, &p->req[i]);
  if (err != MPI_SUCCESS)
    return err;
  mpiopt_pkey_set(&p->key[i], buf, count, type, peer, tag, comm);
  p->made = i + 1;
  return MPI_SUCCESS;
}

/* Start p's one request and wait for it. */
static MPIOPT_INLINE int mpiopt_persist_one(struct mpiopt_persist *p, int mode, const void *buf, int count,
                                            MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                                            MPI_Status *status) {
  int err = MPI_SUCCESS;
  if (!mpiopt_persist_has(p, 1, buf, count, type, peer, tag, comm)) {
    mpiopt_persist_free(p);
    err = mpiopt_persist_make(p, mode, buf, count, type, peer, tag, comm);
  }
  if (err == MPI_SUCCESS)
    err = MPI_Start(&p->req[0]);
  return err != MPI_SUCCESS ? err : MPI_Wait(&p->req[0], status);
}

/* MPI_Send / MPI_Ssend through p's request; to MPI_PROC_NULL, the generic
   call. */
static MPIOPT_INLINE int mpiopt_persist_send(struct mpiopt_persist *p, int mode, const void *buf, int count,
                                             MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (dest == MPI_PROC_NULL)
    return mode == MPIOPT_PSSEND ? MPI_Ssend(buf, count, type, dest, tag, comm)
                                 : MPI_Send(buf, count, type, dest, tag, comm);
  return mpiopt_persist_one(p, mode, buf, count, type, dest, tag, comm, MPI_STATUS_IGNORE);
}

static MPIOPT_INLINE int mpiopt_send_persistent(struct mpiopt_persist *p, const void *buf, int count,
                                                MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return mpiopt_persist_send(p, MPIOPT_PSEND, buf, count, type, dest, tag, comm);
}

static MPIOPT_INLINE int mpiopt_ssend_persistent(struct mpiopt_persist *p, const void *buf, int count,
                                                 MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return mpiopt_persist_send(p, MPIOPT_PSSEND, buf, count, type, dest, tag, comm);
}

/* MPI_Recv through p's request; a wildcard receive, or one from
   MPI_PROC_NULL, runs MPI_Recv. */
static MPIOPT_INLINE int mpiopt_recv_persistent(struct mpiopt_persist *p, void *buf, int count, MPI_Datatype type,
                                                int source, int tag, MPI_Comm comm, MPI_Status *status) {
  if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG || source == MPI_PROC_NULL)
    return MPI_Recv(buf, count, type, source, tag, comm, status);
  return mpiopt_persist_one(p, MPIOPT_PRECV, buf, count, type, source, tag, comm, status);
}

/* MPI_Sendrecv through p's two requests: the receive is started first,
   then the send; the status is the receive's. A wildcard receive, or a
   peer that is MPI_PROC_NULL, runs MPI_Sendrecv. */
static MPIOPT_INLINE int mpiopt_sendrecv_persistent(struct mpiopt_persist *p, const void *sbuf, int scount,
                                                    MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
                                                    MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                                    MPI_Status *status) {
  int err = MPI_SUCCESS;
  if (source == MPI_ANY_SOURCE || rtag == MPI_ANY_TAG || source == MPI_PROC_NULL || dest == MPI_PROC_NULL)
    return MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
  if (!mpiopt_persist_has(p, 2, sbuf, scount, stype, dest, stag, comm) ||
      !mpiopt_pkey_same(&p->key[0], rbuf, rcount, rtype, source, rtag, comm)) {
    mpiopt_persist_free(p);
    err = mpiopt_persist_make(p, MPIOPT_PRECV, rbuf, rcount, rtype, source, rtag, comm);
    if (err == MPI_SUCCESS)
      err = mpiopt_persist_make(p, MPIOPT_PSEND, sbuf, scount, stype, dest, stag, comm);
  }
  if (err == MPI_SUCCESS)
    err = MPI_Start(&p->req[0]);
  if (err == MPI_SUCCESS)
    err = MPI_Start(&p->req[1]);
  if (err == MPI_SUCCESS)
    err = MPI_Wait(&p->req[0], status);
  if (err == MPI_SUCCESS)
    err = MPI_Wait(&p->req[1], MPI_STATUS_IGNORE);
  return err;
}

#endif /* MPIOPT_PERSIST_H */
