/* Planned collectives' internals (runtime/coll/alltoallv/, not installed):
 * the plan, the Alltoallv algorithms (one file each, its cost model in its
 * header comment), their selection table (select.c) and the plan cache
 * (cache.c). A planned MPI_Allgatherv (runtime/coll/allgatherv/) is the
 * same plan with its own kind: its own algorithm table, forcing variable
 * and check of the arguments; creation, the model's parameters and the
 * check by timing (trial.c) are shared.
 *
 * The cost model. Every rank estimates, from its own counts and its node's,
 * the time each algorithm would keep it busy; one MPI_Allreduce (MAX) gives
 * every rank the same estimates, and the plan takes the smallest. The
 * parameters are measured (scripts/tune, "alltoallv" section; built-in
 * defaults per MPI, MPIOPT_ALLTOALLV_MODEL to override):
 *   call   us the MPI's own MPI_Alltoallv costs beyond its messages
 *   msg    us per message, charged to its sender and to its receiver
 *   byte   us per byte of a message, charged to both sides
 *   zero   us per zero-length pair in the MPI's own MPI_Alltoallv
 *          (MPICH skips them: 0; Open MPI's pairwise exchange does not)
 *   copy   us per byte copied by the runtime (packing, unpacking)
 *   sync   us per node synchronisation, times log2 of the node's size
 *   inter  how much dearer a message between nodes is than one within
 *          (1 on one host with emulated nodes) */
#ifndef MPIOPT_COLL_ALLTOALLV_H
#define MPIOPT_COLL_ALLTOALLV_H

#include "../coll_internal.h"
#include "mpiopt/plan.h"

typedef struct {
  double call, msg, byte, zero, copy, sync, inter;
} mpiopt_a2av_model;

/* How one side (send or receive) of the plan lays its data out. */
typedef struct {
  int *counts, *displs;   /* copies, [P] */
  MPI_Datatype type;      /* the program's handle, or the plan's duplicate of a derived type */
  int owned;              /* type is the plan's duplicate (freed with it) */
  int size;               /* MPI_Type_size */
  MPI_Aint extent;
  int dense;              /* an element is size contiguous bytes at its address: memcpy */
  long long *bytes;       /* [P]: counts[j] * size */
} mpiopt_a2av_side;

struct mpiopt_plan_kind;

struct mpiopt_plan_s {
  const struct mpiopt_plan_kind *kind; /* the collective planned */
  mpiopt_coll_comm *c;
  int algo;               /* index in kind->algs */
  int P, rank;
  mpiopt_a2av_side s, r;
  int inplace_ok;         /* MPI_IN_PLACE allowed (Alltoallv: the send side equals the receive side) */
  int alltoall;           /* created for MPI_Alltoall, or MPI_Allgather (the MPI's own algorithm differs) */
  int for_inplace;        /* created by a planned call for MPI_IN_PLACE */
  long long *nsb, *nrb;   /* [lsize * P]: bytes each rank of the node sends to / receives from each rank */
  void *data;             /* the algorithm's */
  long long id;           /* creation order on the communicator */
  struct mpiopt_a2av_trial *trial; /* the check under way (trial.c), or NULL */
  const char *file;
  int line;
};
typedef struct mpiopt_plan_s mpiopt_plan_s;

typedef struct {
  const char *name;
  int stat;               /* MPIOPT_STAT_ALLTOALLV_... */
  int node_aware;         /* needs the node tables (nsb, nrb) */
  /* This rank's estimated time (us), or a negative value when it cannot run. */
  double (*estimate)(const mpiopt_plan_s *p, const mpiopt_a2av_model *m);
  /* Build the algorithm's data (after the choice; collective where it must be). */
  void (*prepare)(mpiopt_plan_s *p);
  void (*execute)(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);
  void (*destroy)(mpiopt_plan_s *p);
} mpiopt_a2av_algorithm;

enum { MPIOPT_A2AV_NATIVE, MPIOPT_A2AV_PAIRWISE, MPIOPT_A2AV_NODE, MPIOPT_A2AV_LOCALITY, MPIOPT_A2AV_NALGS };
extern const mpiopt_a2av_algorithm mpiopt_a2av_algorithms[MPIOPT_A2AV_NALGS];

/* What a planned collective is: its names in messages, its algorithms (the
 * MPI's own first), the candidate the check by timing adds besides the
 * model's choice and the MPI's own (-1: none), whether MPI_IN_PLACE needs a
 * plan whose send side is its receive side, the algorithm forced by its
 * variable (-1: auto), the check's most rounds, and the check that every
 * rank's arguments match (collective; stops the job naming the call). */
enum { MPIOPT_PLAN_MAX_ALGS = 8 };
typedef struct mpiopt_plan_kind {
  const char *coll;       /* "Alltoallv" */
  const char *who;        /* "mpiopt_alltoallv_plan" */
  const mpiopt_a2av_algorithm *algs;
  int nalgs;              /* at most MPIOPT_PLAN_MAX_ALGS */
  int alt;
  int send_side;          /* MPI_IN_PLACE needs the send side to equal the receive side (Alltoallv) */
  int (*forced)(void);
  long (*trial_samples)(void);
  void (*verify)(mpiopt_plan_s *p);
} mpiopt_plan_kind;
extern const mpiopt_plan_kind mpiopt_plan_alltoallv; /* select.c */

/* The algorithms, one file each (native.c, pairwise.c, node.c, locality.c);
 * select.c holds the table. */
double mpiopt_a2av_native_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m);
void mpiopt_a2av_native_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);
double mpiopt_a2av_pairwise_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m);
void mpiopt_a2av_pairwise_prepare(mpiopt_plan_s *p);
void mpiopt_a2av_pairwise_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);
void mpiopt_a2av_pairwise_destroy(mpiopt_plan_s *p);
double mpiopt_a2av_node_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m);
void mpiopt_a2av_node_prepare(mpiopt_plan_s *p);
void mpiopt_a2av_node_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);
void mpiopt_a2av_node_destroy(mpiopt_plan_s *p);
double mpiopt_a2av_locality_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m);
void mpiopt_a2av_locality_prepare(mpiopt_plan_s *p);
void mpiopt_a2av_locality_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);
void mpiopt_a2av_locality_destroy(mpiopt_plan_s *p);

/* select.c: the model's parameters and the forced algorithm (-1: auto). */
const mpiopt_a2av_model *mpiopt_a2av_model_get(void);
int mpiopt_a2av_forced(void);
long mpiopt_a2av_trial_samples(void); /* MPIOPT_ALLTOALLV_TRIAL */

/* trial.c: the check of the model's choice against the MPI's own and the
 * pairwise exchange by timing. start: after the choice (nothing when it is
 * the MPI's own); execute: while p->trial; free: a plan freed before its
 * check ended (every candidate's data). */
void mpiopt_a2av_trial_start(mpiopt_plan_s *p);
void mpiopt_a2av_trial_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);
void mpiopt_a2av_trial_free(mpiopt_plan_s *p);

/* plan.c. plan_new: kind's plan for these arguments (alltoall: made for
 * MPI_Alltoall); mpiopt_a2av_plan_new: an Alltoallv's. */
mpiopt_plan_s *mpiopt_plan_new(const mpiopt_plan_kind *kind, const int *sendcounts, const int *sdispls,
                               MPI_Datatype sendtype, const int *recvcounts, const int *rdispls,
                               MPI_Datatype recvtype, MPI_Comm comm, int alltoall, const char *file, int line);
mpiopt_plan_s *mpiopt_a2av_plan_new(const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                                    const int *recvcounts, const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                                    int alltoall, const char *file, int line);
/* The Alltoallv kind's check that every pair agrees on its bytes. */
void mpiopt_a2av_verify(mpiopt_plan_s *p);
/* A planned call's first-call and MPI_IN_PLACE bookkeeping (plan.c). */
int mpiopt_plan_begin(mpiopt_plan *plan, int inplace);
/* "FILE:LINE" of a call site (a static buffer). */
const char *mpiopt_plan_where(const char *file, int line);
void mpiopt_a2av_plan_delete(mpiopt_plan_s *p);
int mpiopt_a2av_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);

/* Copy my block for peer j out of sendbuf into dst (s.bytes[j] bytes), and
 * a block from peer j out of src into recvbuf (r.bytes[j] bytes). */
void mpiopt_a2av_pack(const mpiopt_plan_s *p, const mpiopt_a2av_side *s, const void *buf, int j,
                      unsigned char *dst);
void mpiopt_a2av_unpack(const mpiopt_plan_s *p, const unsigned char *src, void *recvbuf, int j);
/* The address of peer j's block in buf laid out by side s. */
static inline unsigned char *mpiopt_a2av_at(const mpiopt_a2av_side *s, const void *buf, int j) {
  return (unsigned char *)buf + (MPI_Aint)s->displs[j] * s->extent;
}

/* Whether MPI_Pack / MPI_Unpack can move every block of side s (they take
 * an int size; a dense side is copied with memcpy). */
static inline int mpiopt_a2av_packable(const mpiopt_a2av_side *s, int P) {
  if (s->dense) return 1;
  for (int j = 0; j < P; j++)
    if (s->bytes[j] > 0x7fffffffLL) return 0;
  return 1;
}

/* The node algorithms (Alltoallv's and Allgatherv's node.c): one message
 * per pair of nodes S -> D, its peer and where it lies in the segment. Who
 * sends and who receives: j = (D - S - 1) mod N numbers D among S's other
 * nodes (and S among D's); member j mod L_S of S sends, member
 * L_D - 1 - (j mod L_D) of D receives, so that with at least N - 1 members
 * per node each rank sends and receives at most one message. Both sides
 * compute this alone; the results are ranks of the communicator. */
typedef struct {
  int peer;
  size_t off, bytes;
} mpiopt_node_xfer;
static inline int mpiopt_node_sender(const mpiopt_coll_topo *t, int S, int D) {
  int j = (D - S - 1 + t->nnodes) % t->nnodes;
  return t->members[t->first[S] + j % (t->first[S + 1] - t->first[S])];
}
static inline int mpiopt_node_receiver(const mpiopt_coll_topo *t, int S, int D) {
  int j = (D - S - 1 + t->nnodes) % t->nnodes, LD = t->first[D + 1] - t->first[D];
  return t->members[t->first[D] + LD - 1 - j % LD];
}

/* A message cost in the model: inter-node ones dearer. */
static inline double mpiopt_a2av_msg(const mpiopt_a2av_model *m, int inter, long long bytes) {
  return (m->msg + m->byte * (double)bytes) * (inter ? m->inter : 1.0);
}
/* Copies in the model: a rank's copies of more than 1 MiB no longer run
 * from its caches, and cost three times copy per byte beyond that (measured
 * here: the node algorithm's 16 MiB of copies for a 128^3 FFT transpose on
 * 2 ranks took 1.4x MPI_Alltoallv, which the small-block copy cost put at
 * 0.3x). The plan's trial checks the choice anyway; a plan the cache makes
 * for counts that are never used twice gets no trial to speak of. */
enum { MPIOPT_A2AV_CACHED_BYTES = 1 << 20 };
static inline double mpiopt_a2av_copy(const mpiopt_a2av_model *m, long long bytes) {
  double over = bytes > MPIOPT_A2AV_CACHED_BYTES ? (double)(bytes - MPIOPT_A2AV_CACHED_BYTES) : 0;
  return m->copy * ((double)bytes + 2 * over);
}
static inline double mpiopt_a2av_sync(const mpiopt_a2av_model *m, int lsize) {
  double l = 1;
  for (int n = 2; n < lsize; n *= 2) l += 1;
  return lsize > 1 ? m->sync * l : 0;
}

/* cache.c */
void mpiopt_plan_cache_free(mpiopt_coll_comm *c);
long mpiopt_plan_cache_limit(void); /* MPIOPT_PLAN_CACHE */
/* What finds a cached plan: its kind, up to four int arrays (a[i] of len[i]
 * ints; Alltoallv: sendcounts, sdispls, recvcounts, rdispls; Allgatherv:
 * the send count, recvcounts, displs), the datatypes and MPI_IN_PLACE. */
enum { MPIOPT_CACHE_KEY_ARRAYS = 4 };
typedef struct {
  const mpiopt_plan_kind *kind;
  const int *a[MPIOPT_CACHE_KEY_ARRAYS];
  int len[MPIOPT_CACHE_KEY_ARRAYS];
  MPI_Datatype st, rt;
  int inplace;
} mpiopt_cache_key;
/* Whether a datatype can key a cached plan (a predefined one: a freed
 * derived handle may come back with another layout). */
int mpiopt_plan_cacheable(MPI_Datatype t);
/* The plan every rank agrees on for key q (collective: one small
 * MPI_Allreduce): the cached one all found, or make(args) on every rank
 * (*fresh set alike everywhere); NULL on every rank, the call to run the
 * MPI's own, while some rank has met its arrays at fewer than
 * MPIOPT_PLAN_AFTER - 1 earlier calls (*recurring: every rank has met its
 * arrays before; cache.c). */
mpiopt_plan_s *mpiopt_plan_cached(mpiopt_coll_comm *c, const mpiopt_cache_key *q,
                                  mpiopt_plan_s *(*make)(const void *args), const void *args, int *fresh,
                                  int *recurring);

#endif
