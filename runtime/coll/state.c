/* Per-communicator state of the planned collectives: see coll_internal.h.
 *
 * The state hangs off the program's communicator as an MPI attribute, so a
 * lookup costs one MPI_Comm_get_attr (one compare with the last
 * communicator first). When the program frees the communicator, MPI calls
 * the attribute's delete callback (every rank is in MPI_Comm_free then):
 * the private duplicate, the node communicator and the shared segment go
 * at once, collectively, and the struct goes when no plan refers to it
 * any more. At MPI_Finalize every state still alive is freed in creation
 * order (the same order on every rank of a communicator, since states are
 * created at the first collective call on it).
 *
 * The private duplicate is made only when the runtime first sends messages
 * of its own on the communicator (a plan, one of the reduction algorithms):
 * a call site that settles on the MPI's own call never pays for it (at 64
 * simulated ranks the copy costs about 0.2 ms, more than the program's
 * whole exchange in a short run). The runtime's agreements (the plan
 * cache's, the threads', the topology's, the density's) are collectives
 * on the program's communicator itself: every rank is in the same call of
 * the program then, and a collective never matches the program's
 * point-to-point messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alltoallv/alltoallv.h"
#include "coll_internal.h"
#include "vector.h"

mpiopt_coll_config mpiopt_coll_cfg;

static int keyval = MPI_KEYVAL_INVALID;
static mpiopt_coll_comm *last;          /* the last state looked up */
static mpiopt_coll_comm **live;         /* states whose communicator is alive, in creation order */
static int nlive, caplive;
static unsigned long serial;

void mpiopt_coll_config_read(void) {
  if (mpiopt_coll_cfg.read) return;
  mpiopt_coll_cfg.stats = mpiopt_env_bool("MPIOPT_STATS", 0);
  mpiopt_coll_cfg.threads = (int)mpiopt_env_long("MPIOPT_THREADS", 1, 1, 1024);
  mpiopt_coll_cfg.oversubscribe = mpiopt_env_bool("MPIOPT_THREADS_OVERSUBSCRIBE", 0);
  mpiopt_coll_cfg.ranks_per_node = mpiopt_env_long("MPIOPT_RANKS_PER_NODE", 0, 0, 1L << 30);
  mpiopt_coll_cfg.read = 1;
  /* Every other setting of the collectives, now: a bad value stops the job
     at the first call, whatever the call. */
  mpiopt_a2av_forced();
  mpiopt_a2av_model_get();
  mpiopt_plan_cache_limit();
  mpiopt_plan_after();
  mpiopt_vec_settings();
  mpiopt_reduce_model();
  mpiopt_allreduce_model();
  mpiopt_vec_forced("MPIOPT_REDUCE_ALGO");
  mpiopt_vec_forced("MPIOPT_ALLREDUCE_ALGO");
}

/* Free what c holds in MPI (collective over c's members, who are all in
 * MPI_Comm_free or MPI_Finalize), and drop it from the live list. */
static void release_mpi(mpiopt_coll_comm *c) {
  if (c->dead) return;
  c->dead = 1;
  mpiopt_plan_cache_free(c);
  mpiopt_coll_sites_forget(c->comm);
  if (c->seg.win != MPI_WIN_NULL) {
    MPI_Barrier(c->topo.node); /* nobody still reads the segment */
    MPI_Win_unlock_all(c->seg.win);
    MPI_Win_free(&c->seg.win);
  }
  if (c->topo.node != MPI_COMM_NULL) MPI_Comm_free(&c->topo.node);
  if (c->priv != MPI_COMM_NULL) MPI_Comm_free(&c->priv);
  for (int i = 0; i < nlive; i++)
    if (live[i] == c) {
      memmove(live + i, live + i + 1, (size_t)(nlive - i - 1) * sizeof *live);
      nlive--;
      break;
    }
  if (last == c) last = NULL;
  mpiopt_coll_release(c);
}

static int on_delete(MPI_Comm comm, int kv, void *val, void *extra) {
  (void)comm;
  (void)kv;
  (void)extra;
  release_mpi((mpiopt_coll_comm *)val);
  return MPI_SUCCESS;
}

void mpiopt_coll_retain(mpiopt_coll_comm *c) { c->refs++; }

void mpiopt_coll_release(mpiopt_coll_comm *c) {
  if (--c->refs > 0) return;
  free(c->topo.node_of);
  free(c->topo.lrank_of);
  free(c->topo.first);
  free(c->topo.members);
  free(c);
}

static mpiopt_coll_comm *create(MPI_Comm comm) {
  mpiopt_coll_comm *c = calloc(1, sizeof *c);
  if (!c) mpiopt_die(comm, "out of memory");
  c->comm = comm;
  c->priv = MPI_COMM_NULL;
  c->topo.node = MPI_COMM_NULL;
  c->seg.win = MPI_WIN_NULL;
  c->refs = 1;
  c->serial = ++serial;
  MPI_Comm_rank(comm, &c->rank);
  MPI_Comm_size(comm, &c->size);
  MPI_Comm_test_inter(comm, &c->inter);
  if (keyval == MPI_KEYVAL_INVALID &&
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_delete, &keyval, NULL) != MPI_SUCCESS)
    mpiopt_die(comm, "MPI_Comm_create_keyval failed");
  if (MPI_Comm_set_attr(comm, keyval, c) != MPI_SUCCESS) mpiopt_die(comm, "MPI_Comm_set_attr failed");
  live = mpiopt_grow_int(live, &caplive, nlive + 1, sizeof *live);
  live[nlive++] = c;
  return c;
}

MPI_Comm mpiopt_coll_private(mpiopt_coll_comm *c) {
  if (c->priv != MPI_COMM_NULL) return c->priv;
  /* Under SMPI an intracommunicator is copied by MPI_Comm_split (one color,
     ranks in order: the same group): SimGrid 3.32 charges the host time of
     its MPI_Comm_dup to the rank's simulated clock, 40 ms at 64 ranks and
     0.26 s at 128 (0.2 ms for the split), which no real MPI takes. */
  int copied = MPIOPT_SMPI && !c->inter ? MPI_Comm_split(c->comm, 0, c->rank, &c->priv)
                                        : MPI_Comm_dup(c->comm, &c->priv);
  if (copied != MPI_SUCCESS) mpiopt_die(c->comm, "copying the communicator failed");
  mpiopt_coll_copies++;
  return c->priv;
}

mpiopt_coll_comm *mpiopt_coll_get_at(MPI_Comm comm, const char *name, const char *file, int line) {
  if (last && last->comm == comm && !last->dead) return last; /* no message to format */
  char who[640];
  snprintf(who, sizeof who, "%s at %s:%d", name, file ? file : "?", line);
  return mpiopt_coll_get(comm, who);
}

mpiopt_coll_comm *mpiopt_coll_get(MPI_Comm comm, const char *who) {
  if (last && last->comm == comm && !last->dead) return last;
  int inited = 0, finalized = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (!inited || finalized) mpiopt_die(MPI_COMM_NULL, "%s was called %s", who, inited ? "after MPI_Finalize" : "before MPI_Init");
  if (comm == MPI_COMM_NULL) mpiopt_die(MPI_COMM_WORLD, "%s: the communicator is MPI_COMM_NULL", who);
  mpiopt_coll_config_read();
  mpiopt_coll_comm *c = NULL;
  int found = 0;
  if (keyval != MPI_KEYVAL_INVALID) MPI_Comm_get_attr(comm, keyval, &c, &found);
  if (!found || !c) c = create(comm);
  return last = c;
}

void *mpiopt_coll_calloc(size_t n, size_t size, MPI_Comm comm, const char *what) {
  void *p = calloc(n ? n : 1, size);
  if (!p) mpiopt_die(comm, "out of memory %s", what);
  return p;
}

static unsigned char *scratch[MPIOPT_SCRATCH_SLOTS];
static size_t scratch_cap[MPIOPT_SCRATCH_SLOTS];

void *mpiopt_coll_scratch(int slot, size_t bytes) {
  unsigned char **buf = scratch;
  size_t *cap = scratch_cap;
  if (bytes > cap[slot]) {
    size_t n = cap[slot] ? cap[slot] : 4096;
    while (n < bytes) n *= 2;
    free(buf[slot]);
    buf[slot] = malloc(n);
    if (!buf[slot]) {
      cap[slot] = 0;
      mpiopt_die(MPI_COMM_WORLD, "out of memory allocating %zu bytes of scratch", n);
    }
    cap[slot] = n;
  }
  return buf[slot];
}

/* Called by MPI_Finalize (core/finalize.c) when the collectives are linked. */
void mpiopt_coll_finalize(void) {
  if (!mpiopt_coll_cfg.read) return;
  if (mpiopt_coll_cfg.stats) mpiopt_coll_stats_print();
  while (nlive > 0) {
    mpiopt_coll_comm *c = live[0];
    MPI_Comm_delete_attr(c->comm, keyval); /* calls on_delete: release_mpi */
    if (nlive > 0 && live[0] == c) release_mpi(c);
  }
  if (keyval != MPI_KEYVAL_INVALID) MPI_Comm_free_keyval(&keyval);
  free(live);
  live = NULL;
  nlive = caplive = 0;
  last = NULL;
  for (int i = 0; i < MPIOPT_SCRATCH_SLOTS; i++) {
    free(scratch[i]);
    scratch[i] = NULL;
    scratch_cap[i] = 0;
  }
}
