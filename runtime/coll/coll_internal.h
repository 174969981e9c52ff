/* What the planned collectives share (runtime/coll/, internal, not
 * installed): per-communicator state kept in an MPI attribute (a private
 * duplicate for the runtime's own messages, the node topology, the node's
 * shared segment, the plan cache), MPIOPT_STATS counters, and the threads
 * setting.
 *
 * The runtime's own messages travel on the private duplicate, never on the
 * program's communicator: a receive the program posted with MPI_ANY_TAG can
 * never match them. Its agreements are collectives on the program's
 * communicator (inside the program's own collective call). Every array
 * here grows geometrically and is reused. */
#ifndef MPIOPT_COLL_INTERNAL_H
#define MPIOPT_COLL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/core.h"
#include "../ops/ops.h"

struct mpiopt_plan_cache;

/* The nodes of a communicator: real ones (MPI_Comm_split_type
 * MPI_COMM_TYPE_SHARED) or, with MPIOPT_RANKS_PER_NODE=k, emulated nodes of
 * k consecutive MPI_COMM_WORLD ranks (so one host can run the node-aware
 * paths; the segment is then per emulated node). Nodes are numbered by
 * their lowest rank; ranks within a node keep the communicator's order. */
typedef struct {
  int ready;
  MPI_Comm node;        /* this rank's node, a sub-communicator of the program's communicator */
  int nnodes, mynode, lrank, lsize;
  int *node_of;         /* [P]: node of each rank */
  int *lrank_of;        /* [P]: its rank within the node */
  int *first;           /* [nnodes + 1]: members of node n are members[first[n] .. first[n+1]) */
  int *members;         /* [P]: ranks, node by node */
} mpiopt_coll_topo;

/* The node's shared segment (MPI_Win_allocate_shared on the node
 * communicator, held by local rank 0): two halves used alternately by
 * successive executions, so one node synchronisation at the start of an
 * execution is enough to know that nobody still reads the half being
 * overwritten. Grown, collectively over the node, when a plan needs more. */
typedef struct {
  MPI_Win win;          /* MPI_WIN_NULL until first needed */
  unsigned char *base;  /* local address of the segment */
  size_t half;          /* bytes of each half */
  unsigned parity;      /* the half the next execution uses */
} mpiopt_coll_segment;

typedef struct mpiopt_coll_comm {
  MPI_Comm comm;        /* the program's communicator */
  MPI_Comm priv;        /* its private duplicate (MPI_COMM_NULL until mpiopt_coll_private) */
  int rank, size, inter;
  int refs;             /* the table's reference, plus one per plan */
  int dead;             /* the program freed comm: the MPI objects are gone */
  unsigned long serial; /* creation order */
  mpiopt_coll_topo topo;
  mpiopt_coll_segment seg;
  struct mpiopt_plan_cache *cache; /* cached Alltoallv plans (alltoallv/cache.c) */
  long long next_plan_id;          /* plans created on comm so far: the same sequence on every rank */
  long backoff_left, backoff;      /* cached calls that skip planning (native plans) */
  int native_streak;
  int threads;                     /* the local reductions' threads (0: not agreed yet) */
} mpiopt_coll_comm;

/* The state of comm, created on first use (local: no communication). Stops
 * the job with a message naming who for MPI_COMM_NULL or a call before
 * MPI_Init or after MPI_Finalize. */
mpiopt_coll_comm *mpiopt_coll_get(MPI_Comm comm, const char *who);
/* The same, who being "name at file:line", formatted only when needed (a
 * call's cost: formatting it at every call took a third of a 1 us
 * MPI_Alltoall under MPICH). */
mpiopt_coll_comm *mpiopt_coll_get_at(MPI_Comm comm, const char *name, const char *file, int line);
/* c's private duplicate, made on first use: collective over c then, so it
 * is asked for only where every rank of c takes the same path (a plan's
 * creation, mpiopt_plan_new, after which every plan's state has it; a
 * reduction algorithm chosen by the agreed selector). */
MPI_Comm mpiopt_coll_private(mpiopt_coll_comm *c);
/* A plan keeps its communicator's state alive (the MPI objects go when the
 * program frees the communicator; the struct when the last plan goes). */
void mpiopt_coll_retain(mpiopt_coll_comm *c);
void mpiopt_coll_release(mpiopt_coll_comm *c);

/* The node topology of c (collective over c on first use). */
const mpiopt_coll_topo *mpiopt_coll_topology(mpiopt_coll_comm *c);
/* The threads each rank of c gives a local reduction: MPIOPT_THREADS, but
 * no more than the cores this rank has to itself (those of its affinity
 * mask when the launcher bound it, else the host's divided among the
 * host's ranks; threads spinning on cores the MPI busy-polls on made a
 * reduction 25 times slower) unless MPIOPT_THREADS_OVERSUBSCRIBE=1; the
 * same on every rank (collective over c the first time: the selectors'
 * costs depend on it). */
int mpiopt_coll_threads(mpiopt_coll_comm *c);
/* Make each half of the node's segment at least bytes (collective over the
 * node: every member must ask for the same size, as the plans computed from
 * node-wide data do). */
void mpiopt_coll_segment_reserve(mpiopt_coll_comm *c, size_t bytes);
/* The half the next execution uses, and flip. */
unsigned char *mpiopt_coll_segment_next(mpiopt_coll_comm *c);
/* A node synchronisation: every member's stores to the segment before it are
 * visible to every member after it. */
void mpiopt_coll_node_sync(mpiopt_coll_comm *c);

/* --- settings (state.c) ------------------------------------------------- */

typedef struct {
  int read;
  int stats;            /* MPIOPT_STATS */
  int threads;          /* MPIOPT_THREADS */
  int oversubscribe;    /* MPIOPT_THREADS_OVERSUBSCRIBE: no cap by the cores */
  long ranks_per_node;  /* MPIOPT_RANKS_PER_NODE: 0 real nodes */
} mpiopt_coll_config;
extern mpiopt_coll_config mpiopt_coll_cfg;
void mpiopt_coll_config_read(void);

/* --- Per call site back-off (site.c) ------------------------------------- */

/* A call site's check that keeps finding nothing to gain (the plan cache's
 * agreed plan, the selector's agreed density): after 4 such calls in a row
 * the site skips the check for 16 calls, then 32, ... up to 4096; a gain
 * resets it. Keyed by kind (MPIOPT_SITE_...), file, line and communicator;
 * the outcomes are agreed ones, so every rank backs off alike. */
enum {
  MPIOPT_SITE_ALLTOALLV,
  MPIOPT_SITE_ALLGATHERV,
  MPIOPT_SITE_DENSITY,
  MPIOPT_SITE_ALLTOALL,
  MPIOPT_SITE_ALLGATHER
};
typedef struct {
  int kind;
  const char *file;
  int line;
  MPI_Comm comm;
  int streak;
  long left, period;
  /* The scalar-keyed plan cache's (scalar_cache.c): the plan, and the
     counts, datatypes and MPI_IN_PLACE it is for (keyed: any yet). */
  struct mpiopt_plan_s *plan;
  long calls;           /* of this key in a row */
  int keyed, count[2], inplace, cacheable;
  MPI_Datatype type[2];
} mpiopt_coll_site;
/* The site's record (valid until the next new site). */
mpiopt_coll_site *mpiopt_coll_site_of(int kind, const char *file, int line, MPI_Comm comm);
/* True, counting one skipped call, while the site backs off. */
int mpiopt_coll_site_skip(mpiopt_coll_site *s);
/* The outcome of a checked call. */
void mpiopt_coll_site_note(mpiopt_coll_site *s, int wasted);
/* MPIOPT_PLAN_AFTER (scalar_cache.c): the calls of one key before the plan
 * caches make its plan (16; at least 2), in both caches (the array-keyed
 * one counts the calls every rank has met its arrays at). */
long mpiopt_plan_after(void);
/* Drop comm's sites and free their plans (it is being freed: MPI may
 * reuse the handle). */
void mpiopt_coll_sites_forget(MPI_Comm comm);

/* --- MPIOPT_STATS (stats.c) --------------------------------------------- */

/* The collectives counted, by kind and algorithm. */
enum {
  MPIOPT_STAT_ALLTOALLV_NATIVE,
  MPIOPT_STAT_ALLTOALLV_PAIRWISE,
  MPIOPT_STAT_ALLTOALLV_NODE,
  MPIOPT_STAT_ALLTOALLV_LOCALITY,
  MPIOPT_STAT_ALLGATHERV_NATIVE,
  MPIOPT_STAT_ALLGATHERV_NODE,
  MPIOPT_STAT_REDUCE_NATIVE,
  MPIOPT_STAT_REDUCE_BINOMIAL,
  MPIOPT_STAT_REDUCE_REDSCAT,
  MPIOPT_STAT_REDUCE_RING,
  MPIOPT_STAT_ALLREDUCE_NATIVE,
  MPIOPT_STAT_ALLREDUCE_BINOMIAL,
  MPIOPT_STAT_ALLREDUCE_REDSCAT,
  MPIOPT_STAT_ALLREDUCE_RING,
  MPIOPT_STAT_KINDS
};
typedef struct {
  long long calls, plans;
  long long inter_msgs, inter_bytes, intra_msgs, intra_bytes; /* sent by this rank */
} mpiopt_coll_stat;
extern mpiopt_coll_stat mpiopt_coll_stats[MPIOPT_STAT_KINDS];
/* Count one message of bytes from this rank to peer of c (inter-node or
 * intra-node by c's topology, when MPIOPT_STATS built it). */
static inline void mpiopt_coll_count_msg(mpiopt_coll_comm *c, int kind, int peer, size_t bytes) {
  if (!mpiopt_coll_cfg.stats) return;
  mpiopt_coll_stat *s = &mpiopt_coll_stats[kind];
  if (c->topo.ready && c->topo.node_of[peer] != c->topo.mynode) {
    s->inter_msgs++;
    s->inter_bytes += (long long)bytes;
  } else {
    s->intra_msgs++;
    s->intra_bytes += (long long)bytes;
  }
}
/* Start counting a call of kind on c (builds c's topology when counting). */
void mpiopt_coll_count_call(mpiopt_coll_comm *c, int kind);
/* Count the outcome of a plan's check by timing (kept: the model's choice
 * was the fastest). */
void mpiopt_coll_count_trial(mpiopt_coll_comm *c, int kept);
/* Private duplicates this rank made (mpiopt_coll_private). */
extern long long mpiopt_coll_copies;
/* At MPI_Finalize: every rank's counters summed, printed by rank 0. */
void mpiopt_coll_stats_print(void);

/* calloc of at least one element, or the job stops with "out of memory
 * <what>" (what: "planning an Alltoallv"). */
void *mpiopt_coll_calloc(size_t n, size_t size, MPI_Comm comm, const char *what);

/* Scratch memory (geometric growth, kept): slot i of a small set. */
void *mpiopt_coll_scratch(int slot, size_t bytes);
enum { MPIOPT_SCRATCH_A, MPIOPT_SCRATCH_B, MPIOPT_SCRATCH_C, MPIOPT_SCRATCH_D, MPIOPT_SCRATCH_SLOTS };

/* Tags of the runtime's messages on the private duplicate. */
enum {
  MPIOPT_TAG_PAIRWISE = 1001,
  MPIOPT_TAG_NODE = 1002,
  MPIOPT_TAG_GATHER = 1006,
  MPIOPT_TAG_LOCAL_A = 1003,
  MPIOPT_TAG_LOCAL_B = 1004,
  MPIOPT_TAG_LOCAL_C = 1005,
  MPIOPT_TAG_REDUCE = 1010,
};

#endif
