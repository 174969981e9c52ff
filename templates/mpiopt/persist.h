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
#include <stdio.h>

#include "mpiopt/inline.h"

/* Persistent collectives: MPI-4's MPI_Allreduce_init and the others, or
   Open MPI 4's MPIX_ forms (its pcollreq extension, in mpi-ext.h);
   MPIOPT_PCOLL is 0 where the MPI has neither (the collective templates
   then call the generic collective). */
#if defined(OPEN_MPI) && MPI_VERSION < 4 && !defined(MPIOPT_NO_MPI_EXT)
#include <mpi-ext.h>
#endif
#if MPI_VERSION >= 4
#define MPIOPT_PCOLL 1
#define MPIOPT_PCOLL_INIT(name) MPI_##name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MPIOPT_PCOLL 1
#define MPIOPT_PCOLL_INIT(name) MPIX_##name##_init
#else
#define MPIOPT_PCOLL 0
#endif
/* MPICH 4.0's persistent MPI_Allgather delivers the other ranks'
   contributions of the first start only: later starts leave their blocks
   of the receive buffer as they were (found by e2e persistent; checked by
   test/runtime/persist_coll.c). Under MPICH the allgather template calls
   MPI_Allgather. */
#if MPIOPT_PCOLL && !defined(MPICH_VERSION)
#define MPIOPT_PCOLL_ALLGATHER 1
#else
#define MPIOPT_PCOLL_ALLGATHER 0
#endif

/* The arguments a request was made with. */
struct mpiopt_pkey {
  const void *buf;
  int count, peer, tag;
  MPI_Datatype type;
  MPI_Comm comm;
};

/* The arguments a persistent collective was made with. */
struct mpiopt_ckey {
  const void *sbuf;
  void *rbuf;
  int scount, rcount, root;
  MPI_Datatype stype, rtype;
  MPI_Op op;
  MPI_Comm comm;
};

/* A loop's persistent request(s): made is how many (0: none yet; a sendrecv
   makes two, the receive first; a collective one, with ckey). */
struct mpiopt_persist {
  MPI_Request req[2];
  struct mpiopt_pkey key[2];
  struct mpiopt_ckey ckey;
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

static MPIOPT_INLINE int mpiopt_pkey_eq(const struct mpiopt_pkey *a, const struct mpiopt_pkey *b) {
  return mpiopt_pkey_same(a, b->buf, b->count, b->type, b->peer, b->tag, b->comm);
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

/* Start p's one request, made first where p holds none (p holds none or
   one made with these arguments), and wait for it. */
static MPIOPT_INLINE int mpiopt_persist_go(struct mpiopt_persist *p, int mode, const void *buf, int count,
                                           MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Status *status) {
  int err = MPI_SUCCESS;
  if (!p->made)
    err = mpiopt_persist_make(p, mode, buf, count, type, peer, tag, comm);
  if (err == MPI_SUCCESS)
    err = MPI_Start(&p->req[0]);
  return err != MPI_SUCCESS ? err : MPI_Wait(&p->req[0], status);
}

/* Start p's one request and wait for it (made again where the arguments
   differ from its own). */
static MPIOPT_INLINE int mpiopt_persist_one(struct mpiopt_persist *p, int mode, const void *buf, int count,
                                            MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                                            MPI_Status *status) {
  if (!mpiopt_persist_has(p, 1, buf, count, type, peer, tag, comm))
    mpiopt_persist_free(p);
  return mpiopt_persist_go(p, mode, buf, count, type, peer, tag, comm, status);
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

/* Start p's two requests, made first where p holds none (p holds none or
   two made with these arguments): the receive first, then the send; wait
   for both; the status is the receive's. */
static MPIOPT_INLINE int mpiopt_sendrecv_go(struct mpiopt_persist *p, const void *sbuf, int scount, MPI_Datatype stype,
                                            int dest, int stag, void *rbuf, int rcount, MPI_Datatype rtype, int source,
                                            int rtag, MPI_Comm comm, MPI_Status *status) {
  int err = MPI_SUCCESS;
  if (!p->made) {
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

/* MPI_Sendrecv through p's two requests: the receive is started first,
   then the send; the status is the receive's. A wildcard receive, or a
   peer that is MPI_PROC_NULL, runs MPI_Sendrecv. */
static MPIOPT_INLINE int mpiopt_sendrecv_persistent(struct mpiopt_persist *p, const void *sbuf, int scount,
                                                    MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
                                                    MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                                    MPI_Status *status) {
  if (source == MPI_ANY_SOURCE || rtag == MPI_ANY_TAG || source == MPI_PROC_NULL || dest == MPI_PROC_NULL)
    return MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
  if (!mpiopt_persist_has(p, 2, sbuf, scount, stype, dest, stag, comm) ||
      !mpiopt_pkey_same(&p->key[0], rbuf, rcount, rtype, source, rtag, comm))
    mpiopt_persist_free(p);
  return mpiopt_sendrecv_go(p, sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
}

/* Per-site caches: a blocking MPI_Send, MPI_Ssend, MPI_Recv or
 * MPI_Sendrecv whose request cannot live through a loop (a helper's call,
 * made once per call of the helper; a call whose buffer or peer changes
 * between iterations) keeps its persistent requests in a cache of its own,
 * a static struct mpiopt_pcache declared at the start of its function:
 *
 *   void exchange(double *u, int n, int right, MPI_Comm comm) {
 *     static struct mpiopt_pcache mpiopt_pcache1_c;
 *     mpiopt_send_cached(&mpiopt_pcache1_c, u, n, MPI_DOUBLE, right, 0, comm);
 *   }
 *
 * The cache holds the requests of up to MPIOPT_PCACHE_WAYS argument lists
 * (a sendrecv's two requests in one way), keyed by every argument; a call
 * whose arguments one way holds starts its requests and waits for them, as
 * the loop's template does (same semantics, same statuses, same generic
 * calls for wildcards and MPI_PROC_NULL); another list replaces the way
 * used longest ago (its requests freed, inactive). Every
 * MPIOPT_PCACHE_VERDICT calls, a site that found its arguments in the cache
 * less than 7 times in 8 frees its requests and runs the generic call from
 * then on: a request made for a call or two costs more than it saves.
 *
 * A request keeps the handles it was made with alive: both MPIs count a
 * persistent request's references to its communicator and datatype, so a
 * freed handle's value is not reused while a cached request holds it, and
 * a key never matches a newer handle that happens to have an old value
 * (test/runtime/persist_cache.c frees and remakes both between calls). The
 * requests are freed at MPI_Finalize: the first cache of a translation
 * unit puts an attribute on MPI_COMM_SELF whose delete callback, which MPI
 * runs first thing in MPI_Finalize, frees every cache's requests.
 *
 * A call of the site made while another is under way (from a user error
 * handler that the first one's error ran) runs the generic call: the way
 * the first call uses stays as it is.
 *
 * Thread safety: the cache is one static object per site. Where MPI was
 * initialised with MPI_THREAD_MULTIPLE (and where it was not initialised
 * through MPI_Init, as with MPI-4 sessions), the site runs the generic
 * call; with MPI_THREAD_SERIALIZED or less, the threads that call MPI take
 * turns, and so do their calls of the cache. */
#include <stdlib.h>

#define MPIOPT_PCACHE_WAYS 4
#define MPIOPT_PCACHE_VERDICT 64

struct mpiopt_pcache {
  struct mpiopt_persist way[MPIOPT_PCACHE_WAYS];
  int state;                 /* 0: not yet enabled; 1: caching; -1: the generic call for good */
  int last;                  /* the way used last */
  unsigned age[MPIOPT_PCACHE_WAYS], clock; /* when each way was used last */
  unsigned calls, misses;    /* since the last verdict */
  int busy;                  /* a call of the site is under way (a user error handler may call it again) */
};

/* The caches of this translation unit that made a request, freed at
   MPI_Finalize (an array grown geometrically): each with the function that
   frees its requests (mpiopt_pcache_off here; mpiopt/nbpersist.h's caches
   register theirs). */
struct mpiopt_cache_entry {
  void *site;
  void (*clear)(void *site);
};
struct mpiopt_pcache_registry {
  struct mpiopt_cache_entry *site;
  int n, cap, keyval; /* keyval: MPI_KEYVAL_INVALID until the attribute is set */
  int done;           /* 1: MPI is finalizing, no cache may make a request */
};

static MPIOPT_INLINE struct mpiopt_pcache_registry *mpiopt_pcache_registry(void) {
  static struct mpiopt_pcache_registry r = {0, 0, 0, MPI_KEYVAL_INVALID, 0};
  return &r;
}

/* Free the requests of every way of c; c runs the generic call from now on
   when off. */
static MPIOPT_INLINE void mpiopt_pcache_clear(struct mpiopt_pcache *c, int off) {
  int w;
  for (w = 0; w < MPIOPT_PCACHE_WAYS; w++)
    mpiopt_persist_free(&c->way[w]);
  if (off)
    c->state = -1;
}

/* The registry's form of mpiopt_pcache_clear(c, 1). */
static MPIOPT_INLINE void mpiopt_pcache_off(void *c) { mpiopt_pcache_clear((struct mpiopt_pcache *)c, 1); }

/* MPI_COMM_SELF's attribute delete callback: MPI_Finalize has begun. */
static MPIOPT_INLINE int mpiopt_pcache_finalize(MPI_Comm comm, int keyval, void *value, void *extra) {
  struct mpiopt_pcache_registry *r = mpiopt_pcache_registry();
  int i;
  (void)comm, (void)keyval, (void)value, (void)extra;
  for (i = 0; i < r->n; i++)
    r->site[i].clear(r->site[i].site);
  free(r->site);
  r->site = 0;
  r->n = r->cap = 0;
  r->done = 1;
  return MPI_SUCCESS;
}

/* Whether a cache may make requests (1) or its site runs the generic call
   (-1): MPI initialised by MPI_Init, not finalizing, below
   MPI_THREAD_MULTIPLE, and the cache registered with clear, which frees
   its requests at MPI_Finalize. */
static MPIOPT_INLINE int mpiopt_cache_register(void *site, void (*clear)(void *)) {
  struct mpiopt_pcache_registry *r = mpiopt_pcache_registry();
  int init = 0, fin = 0, level = MPI_THREAD_MULTIPLE;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (!init || fin || r->done || MPI_Query_thread(&level) != MPI_SUCCESS || level == MPI_THREAD_MULTIPLE)
    return -1;
  if (r->keyval == MPI_KEYVAL_INVALID) {
    int kv;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, mpiopt_pcache_finalize, &kv, 0) != MPI_SUCCESS)
      return -1;
    if (MPI_Comm_set_attr(MPI_COMM_SELF, kv, 0) != MPI_SUCCESS) {
      MPI_Comm_free_keyval(&kv);
      return -1;
    }
    r->keyval = kv;
  }
  if (r->n == r->cap) {
    int cap = r->cap ? 2 * r->cap : 16;
    struct mpiopt_cache_entry *site =
        (struct mpiopt_cache_entry *)realloc(r->site, (size_t)cap * sizeof *site);
    if (!site)
      return -1;
    r->site = site;
    r->cap = cap;
  }
  r->site[r->n].site = site;
  r->site[r->n].clear = clear;
  r->n++;
  return 1;
}

/* Whether c may cache (1) or runs the generic call (-1). */
static MPIOPT_INLINE int mpiopt_pcache_enable(struct mpiopt_pcache *c) {
  return mpiopt_cache_register(c, mpiopt_pcache_off);
}

/* The way of c for a call with n requests whose keys are k[0..n-1] (a
   sendrecv's receive first): one that holds them, or one emptied for them
   (its requests freed). Null: run the generic call. */
static MPIOPT_INLINE struct mpiopt_persist *mpiopt_pcache_way(struct mpiopt_pcache *c, int n,
                                                              const struct mpiopt_pkey *k) {
  int i, w, oldest = 0;
  if (c->busy || (c->state <= 0 && (c->state < 0 || (c->state = mpiopt_pcache_enable(c)) < 0)))
    return 0;
  if (++c->calls > MPIOPT_PCACHE_VERDICT) {
    if (c->misses * 8 > MPIOPT_PCACHE_VERDICT) {
      mpiopt_pcache_clear(c, 1);
      return 0;
    }
    c->calls = 1;
    c->misses = 0;
  }
  c->clock++;
  for (i = 0; i < MPIOPT_PCACHE_WAYS; i++) {
    struct mpiopt_persist *p;
    w = (c->last + i) % MPIOPT_PCACHE_WAYS;
    p = &c->way[w];
    if (p->made == n && mpiopt_pkey_eq(&p->key[0], &k[0]) && (n == 1 || mpiopt_pkey_eq(&p->key[1], &k[1]))) {
      c->last = w;
      c->age[w] = c->clock;
      return p;
    }
  }
  c->misses++;
  for (w = 0; w < MPIOPT_PCACHE_WAYS; w++) { /* an empty way, or the one used longest ago */
    if (!c->way[w].made) {
      oldest = w;
      break;
    }
    if (c->clock - c->age[w] > c->clock - c->age[oldest])
      oldest = w;
  }
  mpiopt_persist_free(&c->way[oldest]);
  c->last = oldest;
  c->age[oldest] = c->clock;
  return &c->way[oldest];
}

static MPIOPT_INLINE int mpiopt_pcache_send(struct mpiopt_pcache *c, int mode, const void *buf, int count,
                                            MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  struct mpiopt_pkey k;
  struct mpiopt_persist *p;
  int rc;
  mpiopt_pkey_set(&k, buf, count, type, dest, tag, comm);
  if (dest == MPI_PROC_NULL || !(p = mpiopt_pcache_way(c, 1, &k)))
    return mode == MPIOPT_PSSEND ? MPI_Ssend(buf, count, type, dest, tag, comm)
                                 : MPI_Send(buf, count, type, dest, tag, comm);
  c->busy = 1;
  rc = mpiopt_persist_go(p, mode, buf, count, type, dest, tag, comm, MPI_STATUS_IGNORE);
  c->busy = 0;
  return rc;
}

/* MPI_Send through c. */
static MPIOPT_INLINE int mpiopt_send_cached(struct mpiopt_pcache *c, const void *buf, int count, MPI_Datatype type,
                                            int dest, int tag, MPI_Comm comm) {
  return mpiopt_pcache_send(c, MPIOPT_PSEND, buf, count, type, dest, tag, comm);
}

/* MPI_Ssend through c. */
static MPIOPT_INLINE int mpiopt_ssend_cached(struct mpiopt_pcache *c, const void *buf, int count, MPI_Datatype type,
                                             int dest, int tag, MPI_Comm comm) {
  return mpiopt_pcache_send(c, MPIOPT_PSSEND, buf, count, type, dest, tag, comm);
}

/* MPI_Recv through c; a wildcard receive, or one from MPI_PROC_NULL, runs
   MPI_Recv. */
static MPIOPT_INLINE int mpiopt_recv_cached(struct mpiopt_pcache *c, void *buf, int count, MPI_Datatype type,
                                            int source, int tag, MPI_Comm comm, MPI_Status *status) {
  struct mpiopt_pkey k;
  struct mpiopt_persist *p;
  int rc;
  mpiopt_pkey_set(&k, buf, count, type, source, tag, comm);
  if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG || source == MPI_PROC_NULL || !(p = mpiopt_pcache_way(c, 1, &k)))
    return MPI_Recv(buf, count, type, source, tag, comm, status);
  c->busy = 1;
  rc = mpiopt_persist_go(p, MPIOPT_PRECV, buf, count, type, source, tag, comm, status);
  c->busy = 0;
  return rc;
}

/* MPI_Sendrecv through c (one way holds the receive and the send). */
static MPIOPT_INLINE int mpiopt_sendrecv_cached(struct mpiopt_pcache *c, const void *sbuf, int scount,
                                                MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
                                                MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                                MPI_Status *status) {
  struct mpiopt_pkey k[2];
  struct mpiopt_persist *p;
  int rc;
  mpiopt_pkey_set(&k[0], rbuf, rcount, rtype, source, rtag, comm);
  mpiopt_pkey_set(&k[1], sbuf, scount, stype, dest, stag, comm);
  if (source == MPI_ANY_SOURCE || rtag == MPI_ANY_TAG || source == MPI_PROC_NULL || dest == MPI_PROC_NULL ||
      !(p = mpiopt_pcache_way(c, 2, k)))
    return MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
  c->busy = 1;
  rc = mpiopt_sendrecv_go(p, sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
  c->busy = 0;
  return rc;
}

/* Persistent collectives. A collective's request is made by a collective
   call, at the same place in every rank's sequence of collectives as the
   call it replaces (ompi-opt proves every rank runs the call alike), and
   started and waited for at each call: MPI matches persistent collectives
   by the order of their initialisations, as it matches the blocking calls
   by theirs. A call whose arguments differ from those its request was made
   with cannot make a new one alone (the other ranks would not), nor run
   the blocking call (it would not match the others' persistent one): it
   stops the job with a message. ompi-opt proves that this cannot happen. */
enum { MPIOPT_PALLREDUCE, MPIOPT_PREDUCE, MPIOPT_PBCAST, MPIOPT_PALLGATHER, MPIOPT_PALLTOALL, MPIOPT_PBARRIER };

#if MPIOPT_PCOLL
static MPIOPT_INLINE int mpiopt_ckey_same(const struct mpiopt_ckey *a, const struct mpiopt_ckey *b) {
  return a->sbuf == b->sbuf && a->rbuf == b->rbuf && a->scount == b->scount && a->rcount == b->rcount &&
         a->root == b->root && a->stype == b->stype && a->rtype == b->rtype && a->op == b->op && a->comm == b->comm;
}

/* Make the request of collective kind with the arguments k. */
static MPIOPT_INLINE int mpiopt_pcoll_make(struct mpiopt_persist *p, int kind, const struct mpiopt_ckey *k) {
  MPI_Request *r = &p->req[0];
  switch (kind) {
  case MPIOPT_PALLREDUCE:
    return MPIOPT_PCOLL_INIT(Allreduce)(k->sbuf, k->rbuf, k->scount, k->stype, k->op, k->comm, MPI_INFO_NULL, r);
  case MPIOPT_PREDUCE:
    return MPIOPT_PCOLL_INIT(Reduce)(k->sbuf, k->rbuf, k->scount, k->stype, k->op, k->root, k->comm, MPI_INFO_NULL,
                                     r);
  case MPIOPT_PBCAST:
    return MPIOPT_PCOLL_INIT(Bcast)(k->rbuf, k->scount, k->stype, k->root, k->comm, MPI_INFO_NULL, r);
  case MPIOPT_PALLGATHER:
    return MPIOPT_PCOLL_INIT(Allgather)(k->sbuf, k->scount, k->stype, k->rbuf, k->rcount, k->rtype, k->comm,
                                        MPI_INFO_NULL, r);
  case MPIOPT_PALLTOALL:
    return MPIOPT_PCOLL_INIT(Alltoall)(k->sbuf, k->scount, k->stype, k->rbuf, k->rcount, k->rtype, k->comm,
                                       MPI_INFO_NULL, r);
  default:
    return MPIOPT_PCOLL_INIT(Barrier)(k->comm, MPI_INFO_NULL, r);
  }
}
#endif

/* The generic collective of kind with the arguments k. */
static MPIOPT_INLINE int mpiopt_pcoll_generic(int kind, const struct mpiopt_ckey *k) {
  switch (kind) {
  case MPIOPT_PALLREDUCE:
    return MPI_Allreduce(k->sbuf, k->rbuf, k->scount, k->stype, k->op, k->comm);
  case MPIOPT_PREDUCE:
    return MPI_Reduce(k->sbuf, k->rbuf, k->scount, k->stype, k->op, k->root, k->comm);
  case MPIOPT_PBCAST:
    return MPI_Bcast(k->rbuf, k->scount, k->stype, k->root, k->comm);
  case MPIOPT_PALLGATHER:
    return MPI_Allgather(k->sbuf, k->scount, k->stype, k->rbuf, k->rcount, k->rtype, k->comm);
  case MPIOPT_PALLTOALL:
    return MPI_Alltoall(k->sbuf, k->scount, k->stype, k->rbuf, k->rcount, k->rtype, k->comm);
  default:
    return MPI_Barrier(k->comm);
  }
}

/* Collective kind through p's request. */
static MPIOPT_INLINE int mpiopt_pcoll(struct mpiopt_persist *p, int kind, const struct mpiopt_ckey *k) {
#if MPIOPT_PCOLL
  int err;
  if (!p->made) {
    if ((err = mpiopt_pcoll_make(p, kind, k)) != MPI_SUCCESS)
      return err;
    p->ckey = *k;
    p->made = 1;
  } else if (!mpiopt_ckey_same(&p->ckey, k)) {
    fprintf(stderr, "mpiopt: a persistent collective's arguments changed in the loop its request was made for "
                    "(templates/mpiopt/persist.h); please report this ompi-opt bug\n");
    MPI_Abort(k->comm, 1);
  }
  err = MPI_Start(&p->req[0]);
  return err != MPI_SUCCESS ? err : MPI_Wait(&p->req[0], MPI_STATUS_IGNORE);
#else
  (void)p;
  return mpiopt_pcoll_generic(kind, k);
#endif
}

static MPIOPT_INLINE struct mpiopt_ckey mpiopt_ckey_of(const void *sbuf, void *rbuf, int scount, MPI_Datatype stype,
                                                      int rcount, MPI_Datatype rtype, MPI_Op op, int root,
                                                      MPI_Comm comm) {
  struct mpiopt_ckey k;
  k.sbuf = sbuf;
  k.rbuf = rbuf;
  k.scount = scount;
  k.stype = stype;
  k.rcount = rcount;
  k.rtype = rtype;
  k.op = op;
  k.root = root;
  k.comm = comm;
  return k;
}

static MPIOPT_INLINE int mpiopt_allreduce_persistent(struct mpiopt_persist *p, const void *sbuf, void *rbuf, int count,
                                                     MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct mpiopt_ckey k = mpiopt_ckey_of(sbuf, rbuf, count, type, 0, MPI_DATATYPE_NULL, op, 0, comm);
  return mpiopt_pcoll(p, MPIOPT_PALLREDUCE, &k);
}

static MPIOPT_INLINE int mpiopt_reduce_persistent(struct mpiopt_persist *p, const void *sbuf, void *rbuf, int count,
                                                  MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  struct mpiopt_ckey k = mpiopt_ckey_of(sbuf, rbuf, count, type, 0, MPI_DATATYPE_NULL, op, root, comm);
  return mpiopt_pcoll(p, MPIOPT_PREDUCE, &k);
}

static MPIOPT_INLINE int mpiopt_bcast_persistent(struct mpiopt_persist *p, void *buf, int count, MPI_Datatype type,
                                                 int root, MPI_Comm comm) {
  struct mpiopt_ckey k = mpiopt_ckey_of(0, buf, count, type, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, root, comm);
  return mpiopt_pcoll(p, MPIOPT_PBCAST, &k);
}

static MPIOPT_INLINE int mpiopt_allgather_persistent(struct mpiopt_persist *p, const void *sbuf, int scount,
                                                     MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                                     MPI_Comm comm) {
  struct mpiopt_ckey k = mpiopt_ckey_of(sbuf, rbuf, scount, stype, rcount, rtype, MPI_OP_NULL, 0, comm);
#if MPIOPT_PCOLL_ALLGATHER
  return mpiopt_pcoll(p, MPIOPT_PALLGATHER, &k);
#else
  (void)p;
  return mpiopt_pcoll_generic(MPIOPT_PALLGATHER, &k);
#endif
}

static MPIOPT_INLINE int mpiopt_alltoall_persistent(struct mpiopt_persist *p, const void *sbuf, int scount,
                                                    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                                    MPI_Comm comm) {
  struct mpiopt_ckey k = mpiopt_ckey_of(sbuf, rbuf, scount, stype, rcount, rtype, MPI_OP_NULL, 0, comm);
  return mpiopt_pcoll(p, MPIOPT_PALLTOALL, &k);
}

static MPIOPT_INLINE int mpiopt_barrier_persistent(struct mpiopt_persist *p, MPI_Comm comm) {
  struct mpiopt_ckey k = mpiopt_ckey_of(0, 0, 0, MPI_DATATYPE_NULL, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, 0, comm);
  return mpiopt_pcoll(p, MPIOPT_PBARRIER, &k);
}

#endif /* MPIOPT_PERSIST_H */
