/* The plan cache: mpiopt_alltoallv_cached and mpiopt_allgatherv_cached
 * (../allgatherv/plan.c; see mpiopt/plan.h), for the calls whose arguments
 * ompi-opt could not prove unchanged.
 *
 * Per communicator, up to MPIOPT_PLAN_CACHE plans of every kind together
 * (default 16; 0: no planning, every call runs the MPI's own), found by a
 * hash of the count and displacement arrays and the datatypes and confirmed
 * by comparing them.
 * A rank's hit says nothing about the others' (their arrays may have
 * changed), so every call agrees: one MPI_Allreduce (MAX) of (id, -id) of
 * the plan each rank found tells whether all found the same one; if not,
 * every rank plans afresh. Ids come from the communicator's plan counter,
 * which advances alike on every rank, and hits and insertions are the
 * same on every rank, so the caches evolve identically and the least
 * recently used plan goes first everywhere.
 *
 * Datatypes are keyed by handle and by size and extent; a derived datatype
 * is not cached (a freed handle may come back with another layout): such a
 * call runs the MPI's own.
 *
 * A plan is made only for arrays met often enough: when no rank holds a
 * plan for its arrays, the same MPI_Allreduce also tells how many earlier
 * calls every rank has met its arrays at (a ring of the last 16 keys'
 * hashes, each with its count); until that is MPIOPT_PLAN_AFTER - 1 (15),
 * every rank counts its key and the call runs the MPI's own. Planning
 * costs several collectives and the plan's check by timing (at 64
 * simulated ranks the creation alone about 0.27 ms, some 16 small calls'
 * worth of the node algorithm's saving): arrays that change at every call
 * (NPB IS's key exchange) never pay for it, nor do arrays met only a few
 * times (IS's warm-up and first iteration share theirs); a loop's
 * unchanged arrays are planned at their 16th call (the scalar-keyed cache,
 * ../scalar_cache.c, follows the same rule).
 *
 * Per call site: when a site's agreed plans choose the MPI's own algorithm
 * 4 times in a row, the site calls the MPI's own directly for its next 16
 * calls, then probes again, doubling the period up to 4096 each time the
 * probe still chooses it. The decision depends only on agreed outcomes, so
 * every rank takes it alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alltoallv.h"

const int mpiopt_plan_cache_linked = 1; /* see core/linked.c */

typedef struct {
  const mpiopt_plan_kind *kind;
  uint64_t hash;
  int *key, nkey;         /* the key's arrays, one after the other */
  MPI_Datatype st, rt;
  int inplace;
  mpiopt_plan_s *plan;
  unsigned long long used;
} entry;

enum { SEEN = 16 };

typedef struct mpiopt_plan_cache {
  entry *e;
  int n, cap;
  unsigned long long tick;
  uint64_t seen[SEEN]; /* hashes of keys met without a plan, a ring */
  long times[SEEN];    /* the calls each was met at */
  int nseen, nextseen;
} cache;

/* The calls key h was met at without a plan (0: never, or long ago). */
static long times_seen(const cache *k, uint64_t h) {
  for (int i = 0; i < k->nseen; i++)
    if (k->seen[i] == h) return k->times[i];
  return 0;
}

static void note_seen(cache *k, uint64_t h) {
  for (int i = 0; i < k->nseen; i++)
    if (k->seen[i] == h) {
      k->times[i]++;
      return;
    }
  k->seen[k->nextseen] = h;
  k->times[k->nextseen] = 1;
  k->nextseen = (k->nextseen + 1) % SEEN;
  if (k->nseen < SEEN) k->nseen++;
}

long mpiopt_plan_cache_limit(void) {
  static long limit = -1;
  if (limit < 0) limit = mpiopt_env_long("MPIOPT_PLAN_CACHE", 16, 0, 1 << 20);
  return limit;
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

static uint64_t hash_key(const mpiopt_cache_key *k) {
  uint64_t h = 1469598103934665603ull;
  int ssize = 0, rsize = 0;
  MPI_Aint lb, sext = 0, rext = 0;
  MPI_Type_size(k->st, &ssize);
  MPI_Type_get_extent(k->st, &lb, &sext);
  MPI_Type_size(k->rt, &rsize);
  MPI_Type_get_extent(k->rt, &lb, &rext);
  for (int i = 0; i < MPIOPT_CACHE_KEY_ARRAYS; i++)
    for (int j = 0; j < k->len[i]; j++) h = mix(h, (uint64_t)(unsigned)k->a[i][j] * 4 + (unsigned)i);
  h = mix(h, (uint64_t)ssize * 31 + (uint64_t)sext);
  return mix(h, (uint64_t)rsize * 31 + (uint64_t)rext);
}

int mpiopt_plan_cacheable(MPI_Datatype t) {
  int ni, na, nd, combiner;
  if (t == MPI_DATATYPE_NULL) return 0;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

static void entry_free(entry *e) {
  mpiopt_a2av_plan_delete(e->plan);
  free(e->key);
}

void mpiopt_plan_cache_free(mpiopt_coll_comm *c) {
  cache *k = c->cache;
  if (k) {
    for (int i = 0; i < k->n; i++) entry_free(&k->e[i]);
    free(k->e);
    free(k);
    c->cache = NULL;
  }
}

static int key_length(const mpiopt_cache_key *q) {
  int n = 0;
  for (int i = 0; i < MPIOPT_CACHE_KEY_ARRAYS; i++) n += q->len[i];
  return n;
}

static int matches(const entry *e, uint64_t h, const mpiopt_cache_key *q) {
  if (e->kind != q->kind || e->hash != h || e->st != q->st || e->rt != q->rt || e->inplace != q->inplace ||
      e->nkey != key_length(q))
    return 0;
  const int *at = e->key;
  for (int i = 0; i < MPIOPT_CACHE_KEY_ARRAYS; at += q->len[i], i++)
    if (q->len[i] && memcmp(at, q->a[i], sizeof(int) * (size_t)q->len[i])) return 0;
  return 1;
}

static entry *lookup(cache *k, uint64_t h, const mpiopt_cache_key *q) {
  for (int i = 0; i < k->n; i++)
    if (matches(&k->e[i], h, q)) return &k->e[i];
  return NULL;
}

static entry *insert(cache *k, mpiopt_coll_comm *c, uint64_t h, const mpiopt_cache_key *q, mpiopt_plan_s *plan) {
  if (k->n >= mpiopt_plan_cache_limit()) { /* the least recently used goes (the same one on every rank) */
    int old = 0;
    for (int i = 1; i < k->n; i++)
      if (k->e[i].used < k->e[old].used) old = i;
    entry_free(&k->e[old]);
    k->e[old] = k->e[--k->n];
  }
  k->e = mpiopt_grow_int(k->e, &k->cap, k->n + 1, sizeof *k->e);
  entry *e = &k->e[k->n++];
  e->kind = q->kind;
  e->hash = h;
  e->nkey = key_length(q);
  e->key = malloc(sizeof(int) * (size_t)(e->nkey ? e->nkey : 1));
  if (!e->key) mpiopt_die(c->comm, "out of memory caching %s plan", q->kind->coll);
  int *at = e->key;
  for (int i = 0; i < MPIOPT_CACHE_KEY_ARRAYS; at += q->len[i], i++)
    if (q->len[i]) memcpy(at, q->a[i], sizeof(int) * (size_t)q->len[i]);
  e->st = q->st;
  e->rt = q->rt;
  e->inplace = q->inplace;
  e->plan = plan;
  return e;
}

mpiopt_plan_s *mpiopt_plan_cached(mpiopt_coll_comm *c, const mpiopt_cache_key *q,
                                  mpiopt_plan_s *(*make)(const void *args), const void *args, int *fresh,
                                  int *recurring) {
  if (!c->cache) {
    c->cache = calloc(1, sizeof(cache));
    if (!c->cache) mpiopt_die(c->comm, "out of memory");
  }
  cache *k = c->cache;
  uint64_t h = hash_key(q);
  entry *e = lookup(k, h, q);
  /* (id, -id, -times): MAX agrees on the plan, and on the fewest earlier
   * calls any rank has met its arrays at. */
  long after = mpiopt_plan_after();
  long long id[3] = {e ? e->plan->id : -1, e ? -e->plan->id : 1, -(long long)(e ? after : times_seen(k, h))};
  MPI_Allreduce(MPI_IN_PLACE, id, 3, MPI_LONG_LONG, MPI_MAX, c->comm);
  *fresh = !(e && id[0] == e->plan->id && -id[1] == e->plan->id);
  *recurring = id[2] < 0; /* every rank has met its arrays before */
  if (*fresh && -id[2] < after - 1) { /* not met often enough (on some rank) */
    note_seen(k, h);
    return NULL;
  }
  if (*fresh) { /* someone found another plan, or none */
    mpiopt_plan_s *p = make(args);
    e = lookup(k, h, q);
    if (e) { /* mine was stale on some other rank: replace it */
      mpiopt_a2av_plan_delete(e->plan);
      e->plan = p;
    } else {
      e = insert(k, c, h, q, p);
    }
  }
  e->used = ++k->tick;
  return e->plan;
}

static int native(const void *sendbuf, const int *sc, const int *sd, MPI_Datatype st, void *recvbuf, const int *rc,
                  const int *rd, MPI_Datatype rt, mpiopt_coll_comm *c) {
  if (mpiopt_coll_cfg.stats) {
    mpiopt_coll_count_call(c, MPIOPT_STAT_ALLTOALLV_NATIVE);
    int size = 0;
    MPI_Type_size(sendbuf == MPI_IN_PLACE ? rt : st, &size);
    const int *counts = sendbuf == MPI_IN_PLACE ? rc : sc;
    for (int j = 0; j < c->size; j++)
      if (j != c->rank && counts[j]) mpiopt_coll_count_msg(c, MPIOPT_STAT_ALLTOALLV_NATIVE, j, (size_t)counts[j] * size);
  }
  return MPI_Alltoallv(sendbuf, sc, sd, st, recvbuf, rc, rd, rt, c->comm);
}

typedef struct {
  const int *sc, *sd, *rc, *rd;
  MPI_Datatype st, rt;
  MPI_Comm comm;
  const char *file;
  int line;
} a2av_args;

static mpiopt_plan_s *a2av_make(const void *v) {
  const a2av_args *a = v;
  return mpiopt_a2av_plan_new(a->sc, a->sd, a->st, a->rc, a->rd, a->rt, a->comm, 0, a->file, a->line);
}

int mpiopt_alltoallv_cached_at(const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                               void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                               MPI_Comm comm, const char *file, int line) {
  const char *who = "mpiopt_alltoallv_cached"; /* "at file:line" only in a message (a call's cost) */
  mpiopt_coll_comm *c = mpiopt_coll_get_at(comm, who, file, line);
  int inplace = sendbuf == MPI_IN_PLACE;
  if (recvtype == MPI_DATATYPE_NULL || (!inplace && sendtype == MPI_DATATYPE_NULL))
    mpiopt_die(comm, "%s at %s: the %stype is MPI_DATATYPE_NULL", who, mpiopt_plan_where(file, line),
               recvtype == MPI_DATATYPE_NULL ? "recv" : "send");
  if (!recvcounts || !rdispls || (!inplace && (!sendcounts || !sdispls)))
    mpiopt_die(comm, "%s at %s: a count or displacement array is NULL", who, mpiopt_plan_where(file, line));
  const int *sc = inplace ? recvcounts : sendcounts, *sd = inplace ? rdispls : sdispls;
  MPI_Datatype st = inplace ? recvtype : sendtype;
  if (c->inter || mpiopt_plan_cache_limit() == 0 || !mpiopt_plan_cacheable(st) || !mpiopt_plan_cacheable(recvtype) ||
      !sc || !sd || !recvcounts || !rdispls)
    return native(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, c);
  mpiopt_coll_site *s = mpiopt_coll_site_of(MPIOPT_SITE_ALLTOALLV, file, line, comm);
  if (mpiopt_coll_site_skip(s))
    return native(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, c);
  /* A call whose agreed plan runs MPI's own algorithm, or was just made
   * (counts that change at every call: a plan is never used twice and
   * planning costs several collectives), gains nothing from the cache:
   * after 4 in a row the site calls MPI_Alltoallv directly for a while. */
  int P = c->size, fresh = 0, recurring = 0;
  mpiopt_cache_key q = {&mpiopt_plan_alltoallv, {sc, sd, recvcounts, rdispls}, {P, P, P, P}, st, recvtype, inplace};
  a2av_args a = {sc, sd, recvcounts, rdispls, st, recvtype, comm, file, line};
  mpiopt_plan_s *p = mpiopt_plan_cached(c, &q, a2av_make, &a, &fresh, &recurring);
  /* (arrays that recur, not yet planned, are no waste: they are on their way to a plan) */
  mpiopt_coll_site_note(s, p ? p->algo == MPIOPT_A2AV_NATIVE || fresh : !recurring);
  if (!p) /* arrays not met often enough: not planned yet */
    return native(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, c);
  return mpiopt_a2av_execute(p, sendbuf, recvbuf);
}
