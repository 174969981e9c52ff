/* The node topology and the node's shared segment: see coll_internal.h.
 *
 * Nodes are MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) of the private
 * duplicate; with MPIOPT_RANKS_PER_NODE=k each of them is split further into
 * emulated nodes of k consecutive MPI_COMM_WORLD ranks, which still share
 * memory (one host runs the node-aware algorithms as on k-way nodes). The
 * tables come from one MPI_Allgather of each rank's node leader (its lowest
 * rank), at the first use on the communicator.
 *
 * The segment belongs to local rank 0 of each node (MPI_Win_allocate_shared,
 * the others allocate nothing and address it through
 * MPI_Win_shared_query); a passive epoch (MPI_Win_lock_all) stays open for
 * the window's life. Its first 256 bytes are the node barrier: a counter and
 * a generation on cache lines of their own; the last member to arrive
 * resets the counter and advances the generation (release), the others
 * wait for it (acquire), which also orders every member's stores to the
 * segment before the barrier before every load after it. Waiters spin, then
 * yield the processor (nodes may hold more ranks than cores); under SMPI
 * they yield to the simulator at once. This costs a fraction of an
 * MPI_Barrier on the node communicator. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_internal.h"

#define HEADER 256

#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define CPU_RELAX() __asm__ __volatile__("yield")
#else
#define CPU_RELAX() ((void)0)
#endif

typedef struct {
  unsigned count;
  char pad1[124];
  unsigned generation;
  char pad2[124];
} node_barrier;

static void *xmalloc(size_t n, MPI_Comm comm) {
  void *p = malloc(n ? n : 1);
  if (!p) mpiopt_die(comm, "out of memory (%zu bytes) building the node topology", n);
  return p;
}

/* The ranks on this host: the launcher's count (MPICH's Hydra, Open MPI),
 * else c's members that share memory with this rank. */
static int host_ranks(mpiopt_coll_comm *c) {
  static const char *const vars[] = {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", "PMI_LOCAL_SIZE"};
  for (int i = 0; i < 3; i++) {
    const char *v = getenv(vars[i]);
    if (v && atoi(v) > 0) return atoi(v);
  }
  MPI_Comm shared;
  int n = 1;
  MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &shared);
  MPI_Comm_size(shared, &n);
  MPI_Comm_free(&shared);
  return n;
}

int mpiopt_coll_threads(mpiopt_coll_comm *c) {
  if (c->threads) return c->threads;
  int want = mpiopt_coll_cfg.threads, cap = want;
  if (c->inter) {
    c->threads = 1; /* no collective on c to agree with */
    return 1;
  }
  if (want > 1 && !mpiopt_coll_cfg.oversubscribe) {
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int mine = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)online;
    int ranks = host_ranks(c);
    cap = mine < online ? mine : (int)(online / (ranks > 0 ? ranks : 1));
    if (cap < 1) cap = 1;
    if (cap > want) cap = want;
  }
  int agreed[2] = {cap, -want}; /* the smallest cap, and the largest request */
  MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_INT, MPI_MIN, c->comm);
  c->threads = agreed[0];
  static int warned;
  if (c->threads < -agreed[1] && c->rank == 0 && !warned) {
    warned = 1;
    fprintf(stderr,
            "mpiopt: warning: MPIOPT_THREADS=%d: a rank has only %d core%s of its own on its host; the local "
            "reductions use %d thread%s per rank (MPIOPT_THREADS_OVERSUBSCRIBE=1 keeps %d)\n",
            -agreed[1], c->threads, c->threads == 1 ? "" : "s", c->threads, c->threads == 1 ? "" : "s", -agreed[1]);
  }
  return c->threads;
}

const mpiopt_coll_topo *mpiopt_coll_topology(mpiopt_coll_comm *c) {
  mpiopt_coll_topo *t = &c->topo;
  if (t->ready) return t;
  MPI_Comm shared;
  MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &shared);
  /* Emulated nodes; and under SMPI the node in c's order, which the tables
     below assume: SimGrid 3.32's MPI_Comm_split_type ignores the key (on a
     communicator ordered otherwise than MPI_COMM_WORLD the node algorithms
     put blocks in the wrong places). */
  if (mpiopt_coll_cfg.ranks_per_node > 0 || MPIOPT_SMPI) {
    int wrank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int color = mpiopt_coll_cfg.ranks_per_node > 0 ? (int)(wrank / mpiopt_coll_cfg.ranks_per_node) : 0;
    MPI_Comm_split(shared, color, c->rank, &t->node);
    MPI_Comm_free(&shared);
  } else {
    t->node = shared;
  }
  MPI_Comm_rank(t->node, &t->lrank);
  MPI_Comm_size(t->node, &t->lsize);
  int leader = c->rank, P = c->size;
  MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, t->node);
  int *leaders = xmalloc(sizeof(int) * (size_t)P, c->comm);
  MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, c->comm);
  t->node_of = xmalloc(sizeof(int) * (size_t)P, c->comm);
  t->lrank_of = xmalloc(sizeof(int) * (size_t)P, c->comm);
  t->members = xmalloc(sizeof(int) * (size_t)P, c->comm);
  int *count = xmalloc(sizeof(int) * (size_t)P, c->comm);
  t->nnodes = 0;
  for (int r = 0; r < P; r++) {
    if (leaders[r] == r) count[r] = t->nnodes++; /* count[leader] holds the node's index for now */
    t->node_of[r] = count[leaders[r]];
  }
  t->first = xmalloc(sizeof(int) * (size_t)(t->nnodes + 1), c->comm);
  memset(t->first, 0, sizeof(int) * (size_t)(t->nnodes + 1));
  for (int r = 0; r < P; r++) t->first[t->node_of[r] + 1]++;
  for (int n = 0; n < t->nnodes; n++) t->first[n + 1] += t->first[n];
  memset(count, 0, sizeof(int) * (size_t)P);
  for (int r = 0; r < P; r++) {
    int n = t->node_of[r];
    t->lrank_of[r] = count[n]++;
    t->members[t->first[n] + t->lrank_of[r]] = r;
  }
  t->mynode = t->node_of[c->rank];
  free(count);
  free(leaders);
  t->ready = 1;
  return t;
}

void mpiopt_coll_segment_reserve(mpiopt_coll_comm *c, size_t bytes) {
  mpiopt_coll_segment *s = &c->seg;
  if (s->win != MPI_WIN_NULL && bytes <= s->half) return;
  size_t half = s->half ? 2 * s->half : 64 * 1024;
  while (half < bytes) half *= 2;
  if (s->win != MPI_WIN_NULL) {
    MPI_Barrier(c->topo.node); /* nobody still reads the old segment */
    MPI_Win_unlock_all(s->win);
    MPI_Win_free(&s->win);
  }
  unsigned char *mine = NULL;
  MPI_Aint size = c->topo.lrank == 0 ? (MPI_Aint)(HEADER + 2 * half) : 0;
  if (MPI_Win_allocate_shared(size, 1, MPI_INFO_NULL, c->topo.node, &mine, &s->win) != MPI_SUCCESS)
    mpiopt_die(c->comm, "MPI_Win_allocate_shared of %zu bytes for the node's segment failed", 2 * half);
  MPI_Aint got = 0;
  int unit = 0;
  MPI_Win_shared_query(s->win, 0, &got, &unit, &s->base);
  if (c->topo.lrank == 0) memset(s->base, 0, HEADER);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win);
  mpiopt_win_sync(s->win);
  MPI_Barrier(c->topo.node); /* the barrier's words are zero before anyone uses them */
  mpiopt_win_sync(s->win);
  s->half = half;
  s->parity = 0;
}

unsigned char *mpiopt_coll_segment_next(mpiopt_coll_comm *c) {
  unsigned char *p = c->seg.base + HEADER + (c->seg.parity ? c->seg.half : 0);
  c->seg.parity ^= 1u;
  return p;
}

void mpiopt_coll_node_sync(mpiopt_coll_comm *c) {
  int L = c->topo.lsize;
  if (L == 1) return;
  node_barrier *b = (node_barrier *)(void *)c->seg.base;
  unsigned g = __atomic_load_n(&b->generation, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == (unsigned)L) {
    __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->generation, g + 1, __ATOMIC_RELEASE);
    return;
  }
  mpiopt_smpi_wait_begin();
  for (unsigned spin = 0; __atomic_load_n(&b->generation, __ATOMIC_ACQUIRE) == g; spin++) {
    if (MPIOPT_SMPI)
      mpiopt_smpi_yield(); /* the member that advances the generation runs only when this one yields */
    else if (spin < 2000)
      CPU_RELAX();
    else
      sched_yield();
  }
  mpiopt_smpi_wait_end();
}
