/* Nonblocking point-to-point through persistent requests: the
 * MPI_Isend, MPI_Issend and MPI_Irecv calls of a function that ompi-opt
 * proved (analysis/NonblockingPlan.h) keep their requests in local request
 * variables that nothing but nonblocking starts and completion calls of
 * that function touch become templates that keep persistent requests in
 * one cache per function, a static struct mpiopt_nbcache declared after
 * the function's opening brace; every completion call of the function on
 * those variables (MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome and
 * the four tests) becomes its template with the same cache:
 *
 *   void halo(double *u, int n, int up, int down, MPI_Comm comm) { static struct mpiopt_nbcache mpiopt_nbc1_c;
 *     MPI_Request r[4];
 *     mpiopt_irecv_nb(&mpiopt_nbc1_c, u, n, MPI_DOUBLE, up, 0, comm, &r[0]);
 *     ...
 *     mpiopt_waitall_nb(&mpiopt_nbc1_c, 4, r, MPI_STATUSES_IGNORE);
 *
 * A start looks for an inactive persistent request of the cache made with
 * the same arguments (mode, buffer, count, datatype, peer, tag,
 * communicator); where there is none it makes one (MPI_Send_init,
 * MPI_Ssend_init, MPI_Recv_init) in an empty way or in place of the
 * inactive request used longest ago. It starts the request (MPI_Start)
 * and gives its handle to the program's request variable. A neighbour
 * loop's calls (peer, count and buffer read from arrays by the loop
 * counter) find their requests again on the next run of the loop: the
 * cache holds MPIOPT_NBCACHE_WAYS of them.
 *
 * What the program sees is what MPI's nonblocking calls give it. MPI says
 * a persistent request started by MPI_Start behaves as the nonblocking call
 * of the same mode and arguments (MPI-4.1, 3.9): the same matching order
 * (requests are started in the program's order), the same statuses and
 * error codes, the same buffer rules. The one difference, that completing
 * a persistent request leaves its handle inactive where completing a
 * nonblocking one sets it to MPI_REQUEST_NULL, the completion templates
 * remove: after the MPI call, every handle it completed that is one of the
 * cache's active requests is marked inactive in the cache and set to
 * MPI_REQUEST_NULL in the program's variable. So the program's request
 * variables hold, at every point, a handle where they held one and
 * MPI_REQUEST_NULL where they held it; the handles' values (opaque) are
 * other ones. A request of the program's own (made by MPI_Send_init) in
 * the same array is left as MPI leaves it: it is not among the cache's.
 * A request of the cache is never freed or restarted while it is active:
 * a start that finds every matching request active (the same message
 * posted twice before it completes) and no inactive way to reuse runs the
 * generic call. MPI_PROC_NULL peers, MPI_ANY_SOURCE and MPI_ANY_TAG run
 * the generic call (MPICH 4.0's persistent receive from MPI_PROC_NULL
 * reports MPI_ANY_SOURCE as the status's source).
 *
 * A request keeps the communicator and datatype it was made with alive
 * (both MPIs count references), so a freed handle's value is not reused
 * while a cached request holds it, and a key never matches a newer handle
 * with an old value. Every MPIOPT_NBCACHE_VERDICT starts, a cache that
 * had to free a request (or run the generic call) for more than one in 8
 * of them frees its inactive requests (and each active one when it completes) and runs the generic
 * calls from then on. The requests are freed at MPI_Finalize (the
 * registry of mpiopt/persist.h). After an MPI error returned to the
 * program (MPI_ERRORS_RETURN), a request a failed completion call did not
 * report complete (other than MPI_Wait, which completes its request in
 * any case: MPI_ERR_IN_STATUS with statuses names those completed) stays
 * active in the cache and is never reused, and the program's variable
 * keeps its handle.
 *
 * Thread safety: the cache is one static object per function. Where MPI
 * was initialised with MPI_THREAD_MULTIPLE (or not through MPI_Init) the
 * starts run the generic calls; with MPI_THREAD_SERIALIZED or less the
 * threads that call MPI take turns.
 *
 * Saves: MPI's argument checks and request set-up on each start, for one
 * comparison of the arguments; ompi-opt uses these templates only where
 * the machine profile ("templates.persistent_nonblocking", a halo exchange
 * of four messages each way measured by ompi-tune's persist_tune.c)
 * measured them faster than the nonblocking calls at the message's size. */
#ifndef MPIOPT_NBPERSIST_H
#define MPIOPT_NBPERSIST_H

#include <mpi.h>

#include "mpiopt/inline.h"
#include "mpiopt/persist.h"

#define MPIOPT_NBCACHE_WAYS 32
#define MPIOPT_NBCACHE_VERDICT 64

/* One persistent request of a cache. */
struct mpiopt_nbway {
  MPI_Request req;
  struct mpiopt_pkey key;
  int mode;   /* MPIOPT_PRECV, MPIOPT_PSEND or MPIOPT_PSSEND */
  int made;   /* req is a persistent request */
  int active; /* started and not yet completed */
  unsigned age;
};

/* A function's cache (static, zeroed). */
struct mpiopt_nbcache {
  struct mpiopt_nbway way[MPIOPT_NBCACHE_WAYS];
  int state;         /* 0: not yet enabled; 1: caching; -1: the generic calls for good */
  int last, nactive; /* the way used last; how many are active */
  unsigned clock, calls, misses;
  int busy; /* a start is under way (a user error handler may start again) */
};

/* Free way w's request (inactive, or with off also active: MPI completes
   an active one first). */
static MPIOPT_INLINE void mpiopt_nbway_free(struct mpiopt_nbcache *c, struct mpiopt_nbway *w) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (w->made && !fin)
    MPI_Request_free(&w->req);
  if (w->active)
    c->nactive--;
  w->made = w->active = 0;
}

/* Free c's inactive requests and run the generic calls from now on; at
   MPI_Finalize (all), the active ones too. */
static MPIOPT_INLINE void mpiopt_nbcache_clear(struct mpiopt_nbcache *c, int all) {
  int w;
  for (w = 0; w < MPIOPT_NBCACHE_WAYS; w++)
    if (all || !c->way[w].active)
      mpiopt_nbway_free(c, &c->way[w]);
  c->state = -1;
}

/* The registry's form of mpiopt_nbcache_clear(c, 1). */
static MPIOPT_INLINE void mpiopt_nbcache_off(void *c) { mpiopt_nbcache_clear((struct mpiopt_nbcache *)c, 1); }

/* The way of c for a start of mode with key k: an inactive request made
   with them, or an emptied way (an empty one, or the inactive one used
   longest ago, its request freed). Null: run the generic call. */
static MPIOPT_INLINE struct mpiopt_nbway *mpiopt_nbcache_way(struct mpiopt_nbcache *c, int mode,
                                                            const struct mpiopt_pkey *k) {
  int i, w, pick = -1;
  if (c->busy || (c->state <= 0 && (c->state < 0 || (c->state = mpiopt_cache_register(c, mpiopt_nbcache_off)) < 0)))
    return 0;
  if (++c->calls > MPIOPT_NBCACHE_VERDICT) {
    if (c->misses * 8 > MPIOPT_NBCACHE_VERDICT) {
      mpiopt_nbcache_clear(c, 0);
      return 0;
    }
    c->calls = 1;
    c->misses = 0;
  }
  c->clock++;
  for (i = 1; i <= MPIOPT_NBCACHE_WAYS; i++) { /* from the way after the last: starts come in a stable order */
    struct mpiopt_nbway *p;
    w = (c->last + i) % MPIOPT_NBCACHE_WAYS;
    p = &c->way[w];
    if (p->made && !p->active && p->mode == mode && mpiopt_pkey_eq(&p->key, k)) {
      c->last = w;
      p->age = c->clock;
      return p;
    }
  }
  for (w = 0; w < MPIOPT_NBCACHE_WAYS; w++) { /* an empty way, or the inactive one used longest ago */
    struct mpiopt_nbway *p = &c->way[w];
    if (!p->made) {
      pick = w;
      break;
    }
    if (!p->active && (pick < 0 || c->clock - p->age > c->clock - c->way[pick].age))
      pick = w;
  }
  if (pick < 0 || c->way[pick].made) /* a miss that costs a request: counted */
    c->misses++;
  if (pick < 0)
    return 0;
  mpiopt_nbway_free(c, &c->way[pick]);
  c->last = pick;
  c->way[pick].age = c->clock;
  return &c->way[pick];
}

/* The nonblocking call of mode. */
static MPIOPT_INLINE int mpiopt_nb_generic(int mode, const void *buf, int count, MPI_Datatype type, int peer, int tag,
                                           MPI_Comm comm, MPI_Request *request) {
  if (mode == MPIOPT_PRECV)
    return MPI_Irecv((void *)buf, count, type, peer, tag, comm, request);
  if (mode == MPIOPT_PSSEND)
    return MPI_Issend(buf, count, type, peer, tag, comm, request);
  return MPI_Isend(buf, count, type, peer, tag, comm, request);
}

/* Start the nonblocking call of mode through c: its request into
   *request. */
static MPIOPT_INLINE int mpiopt_nb_start(struct mpiopt_nbcache *c, int mode, const void *buf, int count,
                                         MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request *request) {
  struct mpiopt_pkey k;
  struct mpiopt_nbway *w;
  int err = MPI_SUCCESS;
  if (peer == MPI_PROC_NULL || peer == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
    return mpiopt_nb_generic(mode, buf, count, type, peer, tag, comm, request);
  mpiopt_pkey_set(&k, buf, count, type, peer, tag, comm);
  if (!(w = mpiopt_nbcache_way(c, mode, &k)))
    return mpiopt_nb_generic(mode, buf, count, type, peer, tag, comm, request);
  c->busy = 1;
  if (!w->made) {
    if (mode == MPIOPT_PRECV)
      err = MPI_Recv_init((void *)buf, count, type, peer, tag, comm, &w->req);
    else if (mode == MPIOPT_PSSEND)
      err = MPI_Ssend_init(buf, count, type, peer, tag, comm, &w->req);
    else
      err = MPI_Send_init(buf, count, type, peer, tag, comm, &w->req);
    if (err == MPI_SUCCESS) {
      w->made = 1;
      w->mode = mode;
      w->key = k;
    }
  }
  if (err == MPI_SUCCESS)
    err = MPI_Start(&w->req);
  if (err == MPI_SUCCESS) {
    w->active = 1;
    c->nactive++;
    *request = w->req;
  }
  c->busy = 0;
  return err;
}

static MPIOPT_INLINE int mpiopt_isend_nb(struct mpiopt_nbcache *c, const void *buf, int count, MPI_Datatype type,
                                         int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  return mpiopt_nb_start(c, MPIOPT_PSEND, buf, count, type, dest, tag, comm, request);
}

static MPIOPT_INLINE int mpiopt_issend_nb(struct mpiopt_nbcache *c, const void *buf, int count, MPI_Datatype type,
                                          int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  return mpiopt_nb_start(c, MPIOPT_PSSEND, buf, count, type, dest, tag, comm, request);
}

static MPIOPT_INLINE int mpiopt_irecv_nb(struct mpiopt_nbcache *c, void *buf, int count, MPI_Datatype type,
                                         int source, int tag, MPI_Comm comm, MPI_Request *request) {
  return mpiopt_nb_start(c, MPIOPT_PRECV, buf, count, type, source, tag, comm, request);
}

/* GCC 11 and later warn that MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1,
   points to no status once a completion template is inlined where the
   program passes it; MPI defines it, so the warning is not the program's. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

/* *r was completed by an MPI call: where it is one of c's active
   requests, it is inactive now and the program's variable gets
   MPI_REQUEST_NULL, as for a nonblocking call's request. */
static MPIOPT_INLINE void mpiopt_nbcache_done(struct mpiopt_nbcache *c, MPI_Request *r) {
  int w;
  if (!c->nactive || *r == MPI_REQUEST_NULL)
    return;
  for (w = 0; w < MPIOPT_NBCACHE_WAYS; w++) {
    struct mpiopt_nbway *p = &c->way[w];
    if (p->active && p->req == *r) {
      p->active = 0;
      c->nactive--;
      *r = MPI_REQUEST_NULL;
      if (c->state < 0)
        mpiopt_nbway_free(c, p);
      return;
    }
  }
}

/* Each of the n requests at r a completion call completed: all of them
   after err == MPI_SUCCESS; after MPI_ERR_IN_STATUS, those whose status
   (where there are statuses) is not MPI_ERR_PENDING. */
static MPIOPT_INLINE void mpiopt_nbcache_done_all(struct mpiopt_nbcache *c, int n, MPI_Request *r, int err,
                                                  MPI_Status *statuses) {
  int i;
  if (err != MPI_SUCCESS && (err != MPI_ERR_IN_STATUS || statuses == MPI_STATUSES_IGNORE))
    return;
  for (i = 0; i < n; i++)
    if (err == MPI_SUCCESS || statuses[i].MPI_ERROR != MPI_ERR_PENDING)
      mpiopt_nbcache_done(c, &r[i]);
}

static MPIOPT_INLINE int mpiopt_wait_nb(struct mpiopt_nbcache *c, MPI_Request *request, MPI_Status *status) {
  int err = MPI_Wait(request, status);
  mpiopt_nbcache_done(c, request);
  return err;
}

static MPIOPT_INLINE int mpiopt_test_nb(struct mpiopt_nbcache *c, MPI_Request *request, int *flag,
                                        MPI_Status *status) {
  int err = MPI_Test(request, flag, status);
  if (err == MPI_SUCCESS && *flag)
    mpiopt_nbcache_done(c, request);
  return err;
}

static MPIOPT_INLINE int mpiopt_waitall_nb(struct mpiopt_nbcache *c, int count, MPI_Request *requests,
                                           MPI_Status *statuses) {
  int err = MPI_Waitall(count, requests, statuses);
  mpiopt_nbcache_done_all(c, count, requests, err, statuses);
  return err;
}

static MPIOPT_INLINE int mpiopt_testall_nb(struct mpiopt_nbcache *c, int count, MPI_Request *requests, int *flag,
                                           MPI_Status *statuses) {
  int err = MPI_Testall(count, requests, flag, statuses);
  if ((err == MPI_SUCCESS && *flag) || err == MPI_ERR_IN_STATUS)
    mpiopt_nbcache_done_all(c, count, requests, err, statuses);
  return err;
}

static MPIOPT_INLINE int mpiopt_waitany_nb(struct mpiopt_nbcache *c, int count, MPI_Request *requests, int *index,
                                           MPI_Status *status) {
  int err = MPI_Waitany(count, requests, index, status);
  if (err == MPI_SUCCESS && *index != MPI_UNDEFINED && *index >= 0 && *index < count)
    mpiopt_nbcache_done(c, &requests[*index]);
  return err;
}

static MPIOPT_INLINE int mpiopt_testany_nb(struct mpiopt_nbcache *c, int count, MPI_Request *requests, int *index,
                                           int *flag, MPI_Status *status) {
  int err = MPI_Testany(count, requests, index, flag, status);
  if (err == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED && *index >= 0 && *index < count)
    mpiopt_nbcache_done(c, &requests[*index]);
  return err;
}

/* The requests a call for some completed: indices[0..*outcount-1] (after
   MPI_SUCCESS or MPI_ERR_IN_STATUS). */
static MPIOPT_INLINE void mpiopt_nbcache_done_some(struct mpiopt_nbcache *c, int count, MPI_Request *requests,
                                                   int err, const int *outcount, const int *indices) {
  int i;
  if ((err != MPI_SUCCESS && err != MPI_ERR_IN_STATUS) || *outcount == MPI_UNDEFINED)
    return;
  for (i = 0; i < *outcount; i++)
    if (indices[i] >= 0 && indices[i] < count)
      mpiopt_nbcache_done(c, &requests[indices[i]]);
}

static MPIOPT_INLINE int mpiopt_waitsome_nb(struct mpiopt_nbcache *c, int incount, MPI_Request *requests,
                                            int *outcount, int *indices, MPI_Status *statuses) {
  int err = MPI_Waitsome(incount, requests, outcount, indices, statuses);
  mpiopt_nbcache_done_some(c, incount, requests, err, outcount, indices);
  return err;
}

static MPIOPT_INLINE int mpiopt_testsome_nb(struct mpiopt_nbcache *c, int incount, MPI_Request *requests,
                                            int *outcount, int *indices, MPI_Status *statuses) {
  int err = MPI_Testsome(incount, requests, outcount, indices, statuses);
  mpiopt_nbcache_done_some(c, incount, requests, err, outcount, indices);
  return err;
}

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif

#endif /* MPIOPT_NBPERSIST_H */
