/* Lazy reduction fusion: the queues, force points and adaptive policy.
 *
 * Each communicator has an open batch. mpiopt_lazy_allreduce/reduce copy
 * the input into the batch group of its (datatype, op, root) and record
 * where the result goes; a flush hands the batch to the fusion algorithm
 * chosen by select.c (grouped: one builtin collective per group; composite:
 * one collective for all) and copies the results out in queue order.
 *
 * Cost of queueing one operation: a site lookup (hash), cached
 * communicator / datatype / op lookups, a bounds test against pending
 * results, and a memcpy of the input; no allocation once the arrays have
 * grown (benchmarks/lazy measures it).
 *
 * Adaptive policy, per call site: when MPIOPT_LAZY_SOLO flushes in a row
 * deliver that site's operation alone, deferral only adds overhead, so the
 * site executes its next `backoff` operations at once (plain MPI call), then
 * probes deferral again; each failed probe doubles the period (up to
 * MPIOPT_LAZY_BACKOFF_MAX), a probe that fuses resets it. The decision
 * depends only on the sequence of operations and flushes, which every rank
 * of an SPMD program shares, so all ranks switch together.
 *
 * Dependencies: an operation whose input (or, executed at once, whose
 * result) overlaps a pending result flushes that result's communicator
 * first, so a deferred result is never read or overwritten early. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lazy_internal.h"

#undef mpiopt_lazy_allreduce
#undef mpiopt_lazy_reduce
#undef mpiopt_lazy_flush
#undef mpiopt_lazy_wait
#undef mpiopt_lazy_wait_range

mpiopt_lazy_config mpiopt_lazy_cfg;
mpiopt_lazy_stats_t mpiopt_lazy_counters;
unsigned long long mpiopt_lazy_epoch;
void mpiopt_lazy_composite_free(void);

static int initialised;
static long npending; /* operations queued or in flight, on every communicator */
/* Bounds of every pending result on every communicator (empty when none):
   most addresses a queued input or a wait names lie outside, which settles
   the overlap question without visiting the batches. */
static uintptr_t pend_lo = UINTPTR_MAX, pend_hi;
static mpiopt_lazy_comm *comms;
static int ncomms, capcomms;
static mpiopt_lazy_site *sites;
static int nsites, capsites;
static int *site_hash; /* indices into sites, -1 empty; size hash_cap (power of two) */
static int hash_cap;



static void init(void) {
  if (initialised) return;
  int inited = 0, finalized = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (!inited || finalized)
    mpiopt_die(MPI_COMM_NULL, "a lazy reduction was called %s", inited ? "after MPI_Finalize" : "before MPI_Init");
  mpiopt_lazy_config *c = &mpiopt_lazy_cfg;
  c->enabled = mpiopt_env_bool("MPIOPT_LAZY", 1);
  /* auto (-1) or the index of a forced algorithm in mpiopt_lazy_algorithms */
  static const char *const fuse_names[] = {"auto", "grouped", "composite"};
  c->fuse = mpiopt_env_choice("MPIOPT_LAZY_FUSE", fuse_names, 3, 0) - 1;
  mpiopt_lazy_model_init();
  c->adapt = mpiopt_env_bool("MPIOPT_LAZY_ADAPT", 1);
  c->solo_limit = (int)mpiopt_env_long("MPIOPT_LAZY_SOLO", 8, 1, 1 << 30);
  c->backoff_min = mpiopt_env_long("MPIOPT_LAZY_BACKOFF", 64, 1, 1L << 40);
  c->backoff_max = mpiopt_env_long("MPIOPT_LAZY_BACKOFF_MAX", 1L << 16, 1, 1L << 40);
  if (c->backoff_max < c->backoff_min) c->backoff_max = c->backoff_min;
  c->async = mpiopt_env_bool("MPIOPT_LAZY_ASYNC", 0);
  c->check = mpiopt_env_bool("MPIOPT_CHECK", 0);
  c->check_timeout = mpiopt_env_long("MPIOPT_CHECK_TIMEOUT", 60, 1, 1L << 30);
  c->stats = mpiopt_env_bool("MPIOPT_LAZY_STATS", 0);
  hash_cap = 256;
  site_hash = malloc(sizeof *site_hash * (size_t)hash_cap);
  if (!site_hash) mpiopt_die(MPI_COMM_WORLD, "out of memory");
  memset(site_hash, -1, sizeof *site_hash * (size_t)hash_cap);
  initialised = 1;
}

/* --- call sites ------------------------------------------------------------ */

/* Cheap, as it runs at every queued operation: the sites of one file differ
   in their line, which the multiplication spreads over the table; return
   addresses differ in their low bits. */
static inline size_t site_key(const char *file, int line, const void *ra) {
  uintptr_t k = file ? ((uintptr_t)file >> 3) + (uintptr_t)(unsigned)line * 0x9e3779b1u : (uintptr_t)ra;
  return (size_t)(k ^ (k >> 15));
}

static int site_insert(const char *file, int line, const void *ra, size_t h);

/* The site's index: found in the table (every call but a site's first), or
   added. */
static inline __attribute__((always_inline)) int site_index(const char *file, int line, const void *ra) {
  size_t h = site_key(file, line, ra) & (size_t)(hash_cap - 1);
  for (;; h = (h + 1) & (size_t)(hash_cap - 1)) {
    int i = site_hash[h];
    if (i < 0) break;
    if (sites[i].file == file && sites[i].line == line && sites[i].ra == ra) return i;
  }
  return site_insert(file, line, ra, h);
}

static __attribute__((noinline)) int site_insert(const char *file, int line, const void *ra, size_t h) {
  if (2 * (nsites + 1) > hash_cap) { /* rehash at half load */
    int ncap = hash_cap * 2;
    int *nh = malloc(sizeof *nh * (size_t)ncap);
    if (!nh) mpiopt_die(MPI_COMM_WORLD, "out of memory");
    memset(nh, -1, sizeof *nh * (size_t)ncap);
    for (int i = 0; i < nsites; i++) {
      size_t g = site_key(sites[i].file, sites[i].line, sites[i].ra) & (size_t)(ncap - 1);
      while (nh[g] >= 0) g = (g + 1) & (size_t)(ncap - 1);
      nh[g] = i;
    }
    free(site_hash);
    site_hash = nh;
    hash_cap = ncap;
    h = site_key(file, line, ra) & (size_t)(hash_cap - 1);
    while (site_hash[h] >= 0) h = (h + 1) & (size_t)(hash_cap - 1);
  }
  sites = mpiopt_grow_int(sites, &capsites, nsites + 1, sizeof *sites);
  mpiopt_lazy_site s = {.file = file, .line = line, .ra = ra, .backoff = mpiopt_lazy_cfg.backoff_min, .group = -1};
  sites[nsites] = s;
  site_hash[h] = nsites;
  return nsites++;
}

const mpiopt_lazy_site *mpiopt_lazy_site_at(int index) { return &sites[index]; }

/* --- communicators ----------------------------------------------------------- */

/* Each communicator's state is cached in an attribute: when the program
   frees the communicator (MPI_Comm_free, MPI_Comm_disconnect, or
   MPI_Finalize for the predefined ones), MPI calls comm_deleted, which
   delivers what is still pending on it and forgets it (MPI may give the same
   handle to a new communicator later). */
static int comm_keyval = MPI_KEYVAL_INVALID;
static int last = -1;
static unsigned long comms_gen = 1; /* changes whenever comms[] moves or loses an entry */
static int flush_comm(mpiopt_lazy_comm *c, const char *file, int line, int wait_all);
static void batch_free(mpiopt_lazy_batch *b);

static void comm_forget(int i) {
  if (comms[i].check_dup != MPI_REQUEST_NULL) MPI_Wait(&comms[i].check_dup, MPI_STATUS_IGNORE);
  if (comms[i].check_comm != MPI_COMM_NULL) MPI_Comm_free(&comms[i].check_comm);
  batch_free(&comms[i].open);
  for (int k = 0; k < comms[i].capflying; k++) batch_free(&comms[i].flying[k]);
  free(comms[i].flying);
  comms[i] = comms[--ncomms];
  last = -1;
  comms_gen++;
}

static int comm_deleted(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)keyval;
  (void)attr;
  (void)extra;
  for (int i = 0; i < ncomms; i++)
    if (comms[i].comm == comm) {
      int rc = flush_comm(&comms[i], "the communicator's release (MPI_Comm_free)", 0, 1);
      comm_forget(i);
      return rc;
    }
  return MPI_SUCCESS;
}

static mpiopt_lazy_comm *comm_lookup(MPI_Comm comm) {
  if (last >= 0 && last < ncomms && comms[last].comm == comm) return &comms[last];
  for (int i = 0; i < ncomms; i++)
    if (comms[i].comm == comm) return &comms[last = i];
  if (comm == MPI_COMM_NULL) return NULL;
  int inter = 0;
  if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return NULL;
  mpiopt_comm_watch(comm, &comm_keyval, comm_deleted);
  if (ncomms + 1 > capcomms) comms_gen++;
  comms = mpiopt_grow_int(comms, &capcomms, ncomms + 1, sizeof *comms);
  mpiopt_lazy_comm *c = &comms[ncomms];
  memset(c, 0, sizeof *c);
  c->comm = comm;
  c->check_comm = MPI_COMM_NULL;
  c->check_dup = MPI_REQUEST_NULL;
  /* The check's own communicator, so its exchange never matches one of the
     program's collectives; made without blocking (a rank that never comes is
     reported at the first checked flush, not waited for here). */
  if (mpiopt_lazy_cfg.check) MPI_Comm_idup(comm, &c->check_comm, &c->check_dup);
  MPI_Comm_rank(comm, &c->rank);
  MPI_Comm_size(comm, &c->size);
  return &comms[last = ncomms++];
}

/* --- batches ----------------------------------------------------------------- */

static void batch_reset(mpiopt_lazy_batch *b) {
  b->nops = 0;
  b->nbyref = 0;
  b->ngroups = 0;
  b->nreqs = 0;
  b->lo = UINTPTR_MAX;
  b->hi = 0;
}

static void batch_free(mpiopt_lazy_batch *b) {
  for (int j = 0; j < b->capgroups; j++) free(b->groups[j].buf);
  free(b->groups);
  free(b->ops);
  free(b->reqs);
  memset(b, 0, sizeof *b);
}

static int overlaps(uintptr_t a, size_t n, uintptr_t b, size_t m) { return a < b + m && b < a + n; }

/* memcpy, without the library call for the scalar sizes most reductions have. */
static inline void copy(void *dst, const void *src, size_t n) {
  switch (n) {
  case 4: memcpy(dst, src, 4); break;
  case 8: memcpy(dst, src, 8); break;
  case 16: memcpy(dst, src, 16); break;
  default: memcpy(dst, src, n);
  }
}

/* Does [p, p+n) overlap a result of batch b? */
static int batch_overlaps(const mpiopt_lazy_batch *b, const void *p, size_t n) {
  uintptr_t a = (uintptr_t)p;
  if (!b->nops || !overlaps(a, n, b->lo, b->hi - b->lo)) return 0;
  for (int i = 0; i < b->nops; i++)
    if (overlaps(a, n, (uintptr_t)b->ops[i].recvbuf, b->ops[i].bytes)) return 1;
  return 0;
}

/* Copy the results out, update the sites' adaptive state, reset. */
static void deliver(mpiopt_lazy_batch *b) {
  const mpiopt_lazy_op *o = b->ops, *end = b->ops + b->nops;
  for (; o < end; o++)
    if (o->deliver) copy(o->recvbuf, b->groups[o->group].res + o->off, o->bytes);
  npending -= b->nops;
  if (!npending) pend_lo = UINTPTR_MAX, pend_hi = 0;
  mpiopt_lazy_counters.flushes++;
  if ((unsigned long long)b->nops > mpiopt_lazy_counters.max_fused) mpiopt_lazy_counters.max_fused = (unsigned)b->nops;
  if (mpiopt_lazy_cfg.adapt) {
    if (b->nops == 1) {
      mpiopt_lazy_site *s = &sites[b->ops[0].site];
      if (++s->solo >= mpiopt_lazy_cfg.solo_limit) {
        s->immediate_left = s->backoff;
        s->backoff = s->backoff * 2 > mpiopt_lazy_cfg.backoff_max ? mpiopt_lazy_cfg.backoff_max : s->backoff * 2;
        s->solo = 0;
      }
    } else {
      for (int i = 0; i < b->nops; i++) {
        sites[b->ops[i].site].solo = 0;
        sites[b->ops[i].site].backoff = mpiopt_lazy_cfg.backoff_min;
      }
    }
  }
  batch_reset(b);
}

/* Finish the oldest n batches in flight (asynchronous mode). */
static int complete_flying(mpiopt_lazy_comm *c, int n) {
  int rc = MPI_SUCCESS;
  for (int k = 0; k < n; k++) {
    mpiopt_lazy_batch *b = &c->flying[0];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow" /* MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1 */
    int r = MPI_Waitall(b->nreqs, b->reqs, MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
    if (r != MPI_SUCCESS) rc = r;
    deliver(b);
    mpiopt_lazy_batch done = *b; /* keep its buffers as a spare at the end */
    memmove(&c->flying[0], &c->flying[1], sizeof *c->flying * (size_t)(c->nflying - 1));
    c->flying[c->nflying - 1] = done;
    c->nflying--;
  }
  return rc;
}

static int flush_comm(mpiopt_lazy_comm *c, const char *file, int line, int wait_all) {
  mpiopt_lazy_batch *b = &c->open;
  int rc = MPI_SUCCESS;
  int nonblocking = mpiopt_lazy_cfg.async && !wait_all;
  if (!nonblocking && c->nflying) rc = complete_flying(c, c->nflying);
  if (!b->nops) return rc;
  mpiopt_lazy_epoch++;
  b->flush_file = file;
  b->flush_line = line;
  if (b->nbyref) /* read the by-reference inputs now */
    for (int i = 0; i < b->nops; i++)
      if (b->ops[i].src) memcpy(b->groups[b->ops[i].group].buf + b->ops[i].off, b->ops[i].src, b->ops[i].bytes);
  if (mpiopt_lazy_cfg.check) mpiopt_lazy_check(b, c);
  const mpiopt_lazy_algorithm *alg = mpiopt_lazy_select(b, c->size, nonblocking);
  int r = alg->run(b, c, nonblocking);
  if (r != MPI_SUCCESS) rc = r;
  if (!nonblocking) {
    deliver(b);
    return rc;
  }
  /* In flight: the open batch moves to the end of the flying array and a
   * spare batch (with its grown buffers) becomes the open one. */
  c->flying = mpiopt_grow_int(c->flying, &c->capflying, c->nflying + 1, sizeof *c->flying);
  mpiopt_lazy_batch next = c->flying[c->nflying]; /* a spare, or zeroed by the growth */
  c->flying[c->nflying++] = *b;
  *b = next;
  batch_reset(b);
  return rc;
}

/* Whether [p, p + n) may overlap a pending result: outside the bounds of
   them all, it cannot. */
static inline int maybe_pending(const void *p, size_t n) {
  return overlaps((uintptr_t)p, n, pend_lo, pend_hi - pend_lo);
}

static void flush_overlapping_slow(const mpiopt_lazy_comm *skip, const void *p, size_t n, const char *file, int line);

/* Deliver every pending result overlapping [p, p + n), on every
   communicator but skip (NULL: none). The common answer, nothing, is
   settled inline. */
static inline void flush_overlapping(const mpiopt_lazy_comm *skip, const void *p, size_t n, const char *file,
                                     int line) {
  if (n && npending && maybe_pending(p, n)) flush_overlapping_slow(skip, p, n, file, line);
}

static void flush_overlapping_slow(const mpiopt_lazy_comm *skip, const void *p, size_t n, const char *file, int line) {
  for (int i = 0; i < ncomms; i++) {
    mpiopt_lazy_comm *c = &comms[i];
    if (c == skip || (!c->nflying && !c->open.nops)) continue;
    for (int k = 0; k < c->nflying; k++)
      if (batch_overlaps(&c->flying[k], p, n)) complete_flying(c, k + 1), k = -1;
    if (batch_overlaps(&c->open, p, n)) flush_comm(c, file, line, 1);
  }
}

static int immediate(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                     MPI_Comm comm, size_t bytes, const char *file, int line) {
  if (initialised && bytes) {
    flush_overlapping(NULL, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, bytes, file, line);
    flush_overlapping(NULL, recvbuf, bytes, file, line);
  }
  mpiopt_lazy_epoch++;
  mpiopt_lazy_counters.immediate++;
  mpiopt_lazy_counters.collectives++;
  return root < 0 ? MPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm)
                  : MPI_Reduce(sendbuf, recvbuf, count, dt, op, root, comm);
}

/* Arguments no MPI accepts stop the program with a message naming the call
   site (MPI's own message would name MPI_Allreduce, or a later flush). */
static void check_args(const void *sendbuf, const void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                       MPI_Comm comm, const char *file, int line, const void *ra) {
  const char *bad = NULL;
  if (comm == MPI_COMM_NULL)
    bad = "the communicator is MPI_COMM_NULL";
  else if (count < 0)
    bad = "the count is negative";
  else if (dt == MPI_DATATYPE_NULL)
    bad = "the datatype is MPI_DATATYPE_NULL";
  else if (op == MPI_OP_NULL)
    bad = "the op is MPI_OP_NULL";
  else if (count > 0 && !sendbuf)
    bad = "the send buffer is NULL";
  else if (count > 0 && !recvbuf && root < 0)
    bad = "the receive buffer is NULL";
  else if (root >= 0) {
    int size = 0, rank = 0;
    if (MPI_Comm_size(comm, &size) == MPI_SUCCESS && MPI_Comm_rank(comm, &rank) == MPI_SUCCESS) {
      if (root >= size)
        bad = "the root is not a rank of the communicator";
      else if (count > 0 && root == rank && !recvbuf)
        bad = "the receive buffer is NULL on the root";
    }
  }
  if (!bad) return;
  char where[300];
  if (file)
    snprintf(where, sizeof where, "%s:%d", file, line);
  else
    snprintf(where, sizeof where, "the call from %p", ra);
  mpiopt_die(comm, "mpiopt_lazy_%s at %s: %s (count %d, root %d)", root < 0 ? "allreduce" : "reduce", where,
                  bad, count, root);
}

/* The arguments' datatype, op and communicator, resolved: from the site's
   cache when the site repeats its last validated arguments, else checked
   (a bad call stops the program), looked up and cached. *c is NULL when the
   communicator cannot defer (an intercommunicator). */
static int resolve_slow(mpiopt_lazy_site *st, const void *sendbuf, const void *recvbuf, int count, MPI_Datatype dt,
                        MPI_Op op, int root, MPI_Comm comm, const char *file, int line, const void *ra,
                        const mpiopt_type_info **ti, const mpiopt_op_info **oi, mpiopt_lazy_comm **c);

static inline __attribute__((always_inline)) int
resolve(mpiopt_lazy_site *st, const void *sendbuf, const void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
        int root, MPI_Comm comm, const char *file, int line, const void *ra, const mpiopt_type_info **ti,
        const mpiopt_op_info **oi, mpiopt_lazy_comm **c) {
  if (st->gen == comms_gen && st->dt == dt && st->op == op && st->comm == comm && st->count == count &&
      st->root == root && sendbuf && recvbuf) {
    *ti = st->ti;
    *oi = st->oi;
    *c = &comms[st->cidx];
    return 1;
  }
  return resolve_slow(st, sendbuf, recvbuf, count, dt, op, root, comm, file, line, ra, ti, oi, c);
}

static __attribute__((noinline)) int
resolve_slow(mpiopt_lazy_site *st, const void *sendbuf, const void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
             int root, MPI_Comm comm, const char *file, int line, const void *ra, const mpiopt_type_info **ti,
             const mpiopt_op_info **oi, mpiopt_lazy_comm **c) {
  check_args(sendbuf, recvbuf, count, dt, op, root, comm, file, line, ra);
  *ti = mpiopt_type_lookup(dt);
  *oi = mpiopt_op_lookup(op);
  *c = comm_lookup(comm);
  /* Cache only arguments that defer whatever the buffers are. */
  if (*ti && *oi && *c && (*ti)->dense && count > 0 && mpiopt_lazy_cfg.enabled && root < (*c)->size) {
    st->dt = dt;
    st->op = op;
    st->comm = comm;
    st->count = count;
    st->root = root;
    st->ti = *ti;
    st->oi = *oi;
    st->cidx = (int)(*c - comms);
    st->gen = comms_gen;
  }
  return 0;
}

/* The group of batch b for (ti, oi, root): the site's last group when it
   matches, else found or opened (reusing the buffer of an earlier batch's
   slot). */
static __attribute__((noinline)) int group_find(mpiopt_lazy_batch *b, mpiopt_lazy_site *st,
                                                 const mpiopt_type_info *ti, const mpiopt_op_info *oi, int root);

static inline __attribute__((always_inline)) int group_of(mpiopt_lazy_batch *b, mpiopt_lazy_site *st,
                                                          const mpiopt_type_info *ti, const mpiopt_op_info *oi,
                                                          int root) {
  int g = st->group;
  if (g >= 0 && g < b->ngroups && b->groups[g].ti == ti && b->groups[g].oi == oi && b->groups[g].root == root)
    return g;
  return group_find(b, st, ti, oi, root);
}

static int group_find(mpiopt_lazy_batch *b, mpiopt_lazy_site *st, const mpiopt_type_info *ti,
                      const mpiopt_op_info *oi, int root) {
  int g = b->ngroups - 1;
  while (g >= 0 && !(b->groups[g].ti == ti && b->groups[g].oi == oi && b->groups[g].root == root)) g--;
  if (g < 0) {
    b->groups = mpiopt_grow_int(b->groups, &b->capgroups, b->ngroups + 1, sizeof *b->groups);
    g = b->ngroups++;
    b->groups[g].ti = ti;
    b->groups[g].oi = oi;
    b->groups[g].root = root;
    b->groups[g].used = 0;
    b->groups[g].count = 0;
  }
  return st->group = g;
}

/* Inlined into each entry point, where root, ra and by_ref are constants. */
static inline __attribute__((always_inline)) int enqueue(const void *sendbuf, void *recvbuf, int count,
                                                         MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                                                         const char *file, int line, const void *ra, int by_ref) {
  if (!initialised) init();
  int s = site_index(file, line, ra);
  mpiopt_lazy_site *st = &sites[s];
  const mpiopt_type_info *ti;
  const mpiopt_op_info *oi;
  mpiopt_lazy_comm *c;
  int cached = resolve(st, sendbuf, recvbuf, count, dt, op, root, comm, file, line, ra, &ti, &oi, &c);
  size_t bytes = ti && count > 0 ? (size_t)count * (size_t)ti->size : 0;
  /* Fast path: a site the adaptive policy runs at once. */
  if (st->immediate_left > 0 && mpiopt_lazy_cfg.enabled) {
    st->immediate_left--;
    return immediate(sendbuf, recvbuf, count, dt, op, root, comm, npending ? bytes : 0, file, line);
  }
  /* What MPI should judge (bad arguments), or cannot be packed, or is
   * switched off, runs at once as the call it replaces. The conditions that
   * differ between ranks are erroneous calls, on which MPI aborts. */
  int is_root = root < 0 || (c && root == c->rank);
  /* SMPI: the program's MPI_Type_free and MPI_Op_free bypass core/free_*.c
     (the program is a library smpirun loads after SimGrid's), so nothing
     would deliver a pending result before its handle is freed: derived
     datatypes and user-defined ops run at once there. */
  if ((MPIOPT_SMPI && (!ti || !oi || ti->code >= 1000 || oi->code >= 100)) ||
      (!cached && (!ti || !oi || !c || !ti->dense || count <= 0 || !mpiopt_lazy_cfg.enabled ||
                   (root >= 0 && root >= c->size))) ||
      (is_root && !recvbuf) || (sendbuf != MPI_IN_PLACE && !sendbuf) ||
      (root >= 0 && root != c->rank && sendbuf == MPI_IN_PLACE) || recvbuf == MPI_IN_PLACE)
    return immediate(sendbuf, recvbuf, count, dt, op, root, comm, bytes, file, line);
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  flush_overlapping(NULL, in, bytes, file, line);
  /* A result pending on another communicator that this one overlaps lands
     first (one communicator's results land in queue order). Allreduce only:
     its receive buffer is the same object on every rank, so every rank
     decides alike; ompi-opt never defers into one variable on two
     communicators. */
  if (root < 0 && ncomms > 1) flush_overlapping(c, recvbuf, bytes, file, line);

  mpiopt_lazy_batch *b = &c->open;
  int g = group_of(b, st, ti, oi, root);
  mpiopt_lazy_group *gr = &b->groups[g];
  if (gr->count > INT_MAX - count) { /* one collective's count is an int: deliver what is queued first */
    flush_comm(c, file, line, 1);
    g = group_of(b, st, ti, oi, root);
    gr = &b->groups[g];
  }
  if (gr->used + bytes > gr->cap) {
    size_t n = gr->cap ? gr->cap : 64;
    while (n < gr->used + bytes) n *= 2;
    unsigned char *nb = realloc(gr->buf, n);
    if (!nb) mpiopt_die(comm, "out of memory queueing %zu bytes", bytes);
    gr->buf = nb;
    gr->cap = n;
  }
  if (!by_ref) copy(gr->buf + gr->used, in, bytes);
  b->nbyref += by_ref;
  b->ops = mpiopt_grow_int(b->ops, &b->capops, b->nops + 1, sizeof *b->ops);
  mpiopt_lazy_op *o = &b->ops[b->nops++];
  o->recvbuf = recvbuf;
  o->bytes = bytes;
  o->deliver = root < 0 || root == c->rank;
  o->off = gr->used;
  o->group = g;
  o->site = s;
  o->count = count;
  o->src = by_ref ? in : NULL;
  gr->used += bytes;
  gr->count += count;
  uintptr_t lo = (uintptr_t)recvbuf, hi = lo + bytes;
  if (lo < b->lo) b->lo = lo;
  if (hi > b->hi) b->hi = hi;
  if (lo < pend_lo) pend_lo = lo;
  if (hi > pend_hi) pend_hi = hi;
  npending++;
  mpiopt_lazy_counters.queued++;
  return MPI_SUCCESS;
}

/* --- public interface ----------------------------------------------------- */

int mpiopt_lazy_allreduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, const char *file, int line) {
  return enqueue(sendbuf, recvbuf, count, datatype, op, -1, comm, file, line, NULL, 0);
}

int mpiopt_lazy_reduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          int root, MPI_Comm comm, const char *file, int line) {
  if (root < 0) {
    init();
    mpiopt_die(comm, "mpiopt_lazy_reduce at %s:%d: the root %d is negative", file ? file : "?", line, root);
  }
  return enqueue(sendbuf, recvbuf, count, datatype, op, root, comm, file, line, NULL, 0);
}

int mpiopt_lazy_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm) {
  return enqueue(sendbuf, recvbuf, count, datatype, op, -1, comm, NULL, 0, __builtin_return_address(0), 0);
}

int mpiopt_lazy_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                       MPI_Comm comm) {
  if (root < 0) {
    init();
    mpiopt_die(comm, "mpiopt_lazy_reduce at the call from %p: the root %d is negative",
                    __builtin_return_address(0), root);
  }
  return enqueue(sendbuf, recvbuf, count, datatype, op, root, comm, NULL, 0, __builtin_return_address(0), 0);
}

int mpiopt_lazy_allreduce_by_ref_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, const char *file, int line) {
  return enqueue(sendbuf, recvbuf, count, datatype, op, -1, comm, file, line, NULL, 1);
}

int mpiopt_lazy_flush_at(MPI_Comm comm, const char *file, int line) {
  if (!initialised) return MPI_SUCCESS;
  for (int i = 0; i < ncomms; i++)
    if (comms[i].comm == comm) return flush_comm(&comms[i], file, line, 0);
  return MPI_SUCCESS;
}

int mpiopt_lazy_flush(MPI_Comm comm) { return mpiopt_lazy_flush_at(comm, NULL, 0); }

const int mpiopt_lazy_runtime_linked = 1;

int mpiopt_lazy_flush_all(void) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < ncomms; i++) {
    int r = flush_comm(&comms[i], NULL, 0, 1);
    if (r != MPI_SUCCESS) rc = r;
  }
  return rc;
}

int mpiopt_lazy_pending(const void *recvbuf, size_t bytes) {
  if (!initialised || !npending) return 0;
  if (!bytes) bytes = 1;
  if (!maybe_pending(recvbuf, bytes)) return 0;
  for (int i = 0; i < ncomms; i++) {
    if (batch_overlaps(&comms[i].open, recvbuf, bytes)) return 1;
    for (int k = 0; k < comms[i].nflying; k++)
      if (batch_overlaps(&comms[i].flying[k], recvbuf, bytes)) return 1;
  }
  return 0;
}

int mpiopt_lazy_wait_range_at(const void *p, size_t bytes, const char *file, int line) {
  if (!initialised || !npending) return MPI_SUCCESS;
  if (!bytes) bytes = 1;
  if (!maybe_pending(p, bytes)) return MPI_SUCCESS;
  int rc = MPI_SUCCESS;
  for (int i = 0; i < ncomms; i++) {
    mpiopt_lazy_comm *c = &comms[i];
    for (int k = c->nflying - 1; k >= 0; k--)
      if (batch_overlaps(&c->flying[k], p, bytes)) {
        rc = complete_flying(c, k + 1);
        break;
      }
    if (batch_overlaps(&c->open, p, bytes)) rc = flush_comm(c, file, line, 1);
  }
  return rc;
}

int mpiopt_lazy_wait_at(const void *recvbuf, const char *file, int line) {
  return mpiopt_lazy_wait_range_at(recvbuf, 1, file, line);
}

int mpiopt_lazy_wait(const void *recvbuf) { return mpiopt_lazy_wait_at(recvbuf, NULL, 0); }
int mpiopt_lazy_wait_range(const void *p, size_t bytes) { return mpiopt_lazy_wait_range_at(p, bytes, NULL, 0); }

void mpiopt_lazy_get_stats(mpiopt_lazy_stats_t *stats) { *stats = mpiopt_lazy_counters; }
void mpiopt_lazy_reset_stats(void) { memset(&mpiopt_lazy_counters, 0, sizeof mpiopt_lazy_counters); }

/* The program frees a datatype or an op (core/free_type.c, free_op.c): a
 * pending operation may use it, and MPI may hand the handle to another one,
 * so everything pending is delivered first (a force point, as
 * MPI_Comm_free is) and every call site's cached records are dropped. */
void mpiopt_lazy_handle_freed(void) {
  if (!initialised) return;
  mpiopt_lazy_flush_all();
  comms_gen++;
}

/* Called by MPI_Finalize (finalize.c): deliver everything, report, free. */
void mpiopt_lazy_finalize(void) {
  if (!initialised) return;
  mpiopt_lazy_flush_all();
  if (mpiopt_lazy_cfg.stats) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      const mpiopt_lazy_stats_t *s = &mpiopt_lazy_counters;
      fprintf(stderr,
              "mpiopt: lazy: %llu deferred, %llu immediate, %llu flushes, %llu collectives, at most %llu fused\n",
              s->queued, s->immediate, s->flushes, s->collectives, s->max_fused);
    }
  }
  while (ncomms > 0) comm_forget(ncomms - 1);
  mpiopt_comm_unwatch_all(&comm_keyval);
  free(comms);
  free(sites);
  free(site_hash);
  comms = NULL;
  sites = NULL;
  site_hash = NULL;
  ncomms = capcomms = nsites = capsites = hash_cap = 0;
  npending = 0;
  pend_lo = UINTPTR_MAX;
  pend_hi = 0;
  mpiopt_lazy_composite_free();
  mpiopt_types_free();
  initialised = 0;
}
