/* Building blocks of the large-vector reductions (runtime/coll/reduce/ and
 * runtime/coll/allreduce/, internal): a call's context, the block
 * partition, and the two kinds of message every algorithm is made of.
 *
 *   reducing messages  carry a part of a partial result to a rank that
 *                      combines it into its own: with sparse encodings on
 *                      (an op whose identity is zero) each one is a 16-byte
 *                      header, then the payload, dense or encoded as the
 *                      sender found its density;
 *   copying messages   carry finished results (gather, allgather,
 *                      broadcast): dense, straight into place.
 * Messages over 1 GiB go in 1 GiB pieces; all travel on the communicator's
 * private duplicate. Elements are whole extents (a pair type's padding
 * travels with it). */
#ifndef MPIOPT_COLL_VECTOR_H
#define MPIOPT_COLL_VECTOR_H

#include "coll_internal.h"

/* The algorithms, in the order of both selection tables. */
enum { MPIOPT_VEC_NATIVE, MPIOPT_VEC_BINOMIAL, MPIOPT_VEC_REDSCAT, MPIOPT_VEC_RING, MPIOPT_VEC_NALGS };

/* The cost model of a collective's algorithms (alpha-beta-gamma, Shan et
 * al.), with the selector's limits; measured by scripts/tune:
 *   alpha  us per message
 *   beta   us per byte sent
 *   gamma  us per byte reduced on one thread
 *   min    bytes below which the MPI's own call always runs
 *   dense  bytes from which the runtime's algorithms beat the MPI's own on
 *          dense data (0: never measured to)
 *   density  the largest fraction of nonzero elements for which a sparse
 *          encoding pays (percent)
 *   nodes  the most nodes it was measured across (below)
 *   xbytes bytes per rank from which the ring beats the MPI's own call
 *          across nodes (below) */
typedef struct {
  double alpha, beta, gamma, min, dense, density;
  /* The most nodes the model was measured across (0 or 1: one node). On a
     communicator across more nodes the selector runs the MPI's own call:
     the model has one bandwidth, and the contention of many ranks per node
     sending off the node at once (the reduce-scatter's first rounds) is not
     in it; simulated at 64 ranks on 4 nodes, the one-node model chose a
     reduce 3.5x slower than the MPI's. */
  double nodes;
  /* Across nodes (2 to `nodes` of them): bytes per rank from which the ring
     beats the MPI's own call, which runs below it (0: never measured to).
     Only the ring: its steps send one block off each node, where the
     binomial tree and the reduce-scatter send from many ranks of a node at
     once (simulated on 4 nodes of 16 ranks: 1.4-1.8x and 2.4-3.6x the MPI's
     reduce at every size, the ring 0.60x from 16 MiB). The crossover grows
     with P, as the ring's P - 1 latencies do. */
  double xbytes;
} mpiopt_vec_model;

typedef struct {
  mpiopt_coll_comm *c;
  MPI_Comm comm;               /* the private duplicate (the program's communicator while selecting) */
  int P, rank, root;           /* root -1: allreduce */
  size_t n, ext;               /* elements, bytes each */
  const mpiopt_type_info *ti;
  const mpiopt_op_info *oi;
  int sparse;                  /* reducing messages carry a header and may be encoded */
  int force_enc;               /* MPIOPT_SPARSE: 0 auto, 1 bitmap, 2 index, 3 dense */
  double max_density;          /* encode only below this fraction of nonzeros */
  int threads;
  int stat;                    /* MPIOPT_STAT_... of the algorithm */
} mpiopt_vec;

/* Block i of k equal parts of n elements: [lo, lo + count). */
static inline size_t mpiopt_vec_lo(size_t n, int k, int i) { return n / (size_t)k * (size_t)i + ((size_t)i < n % (size_t)k ? (size_t)i : n % (size_t)k); }

/* Send n elements at sbuf to dst as a reducing message, receive one of m
 * elements from src and combine it with mine into out (out = received op
 * mine, or mine op received when mine_first); dst or src may be
 * MPI_PROC_NULL. out may be mine, and sbuf may be either (everything is
 * sent before out changes): no algorithm copies its input first. */
void mpiopt_vec_reduce_xchg(mpiopt_vec *v, const void *sbuf, size_t n, int dst, const void *mine, void *out,
                            size_t m, int src, int mine_first);
/* The same for copying messages: receive into rbuf. */
void mpiopt_vec_copy_xchg(mpiopt_vec *v, const void *sbuf, size_t n, int dst, void *rbuf, size_t m, int src);

/* The fold of an allreduce on a P that is not a power of two (binomial.c,
 * redscat.c): of the first 2 rem ranks, each odd one gives its data to the
 * even one below it and sits out. Returns this rank's number among the
 * pof2 ranks that go on (-1: it sits out), with *mine the partial result so
 * far (recvbuf after a fold); unfold sends the result back. A participant's
 * real rank is mpiopt_vec_real. */
int mpiopt_vec_fold(mpiopt_vec *v, const void **mine, void *recvbuf, int rem);
void mpiopt_vec_unfold(mpiopt_vec *v, void *recvbuf, int rem);
static inline int mpiopt_vec_real(int newrank, int rem) { return newrank < rem ? newrank * 2 : newrank + rem; }

/* An algorithm: the whole collective on v (sendbuf may be MPI_IN_PLACE). */
typedef void (*mpiopt_vec_fn)(mpiopt_vec *v, const void *sendbuf, void *recvbuf);
void mpiopt_reduce_binomial(mpiopt_vec *v, const void *sendbuf, void *recvbuf);
void mpiopt_reduce_redscat(mpiopt_vec *v, const void *sendbuf, void *recvbuf);
void mpiopt_reduce_ring(mpiopt_vec *v, const void *sendbuf, void *recvbuf);
void mpiopt_allreduce_binomial(mpiopt_vec *v, const void *sendbuf, void *recvbuf);
void mpiopt_allreduce_redscat(mpiopt_vec *v, const void *sendbuf, void *recvbuf);
void mpiopt_allreduce_ring(mpiopt_vec *v, const void *sendbuf, void *recvbuf);

/* Estimated time (us) of each algorithm of a collective (allreduce: root
 * -1) for bytes, P ranks, T threads, the fraction f of bytes a reducing
 * message carries after encoding; the estimates are in the algorithms'
 * files. */
double mpiopt_reduce_binomial_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f);
double mpiopt_reduce_redscat_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f);
double mpiopt_reduce_ring_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f);
double mpiopt_allreduce_binomial_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f);
double mpiopt_allreduce_redscat_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f);
double mpiopt_allreduce_ring_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f);

/* The largest power of two not above P, and ceil(log2 P). */
static inline int mpiopt_pof2(int P) {
  int k = 1;
  while (k * 2 <= P) k *= 2;
  return k;
}
static inline double mpiopt_log2ceil(int P) {
  int l = 0;
  for (int k = 1; k < P; k *= 2) l++;
  return l;
}

/* The selection shared by both collectives (select.c in coll/): the
 * algorithm to run, and why (the call is checked first: a bad argument
 * stops the job naming who, file and line). */
typedef struct {
  const char *who;             /* "mpiopt_allreduce" */
  const char *file;
  int line;
  const mpiopt_vec_model *model;
  const char *algo_var;        /* MPIOPT_ALLREDUCE_ALGO */
  int forced;                  /* its value: -1 auto, else MPIOPT_VEC_... */
  double (*cost[MPIOPT_VEC_NALGS])(const mpiopt_vec_model *, double, int, int, double);
  int stats[MPIOPT_VEC_NALGS];
} mpiopt_vec_kind;
int mpiopt_vec_select(const mpiopt_vec_kind *k, mpiopt_vec *v, const void *sendbuf, const void *recvbuf, int count,
                      MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm);
/* The algorithm variable var forces (-1: auto); a bad value stops the job. */
int mpiopt_vec_forced(const char *var);
/* Parse a model variable (KEY=VALUE,... over alpha beta gamma min dense
 * density nodes xbytes) into m. */
void mpiopt_vec_model_parse(const char *var, mpiopt_vec_model *m);
extern const char *mpiopt_vec_last;
/* Read MPIOPT_SPARSE and MPIOPT_SPARSE_DENSITY (once), and each
 * collective's model (once): a bad value stops the job. */
void mpiopt_vec_settings(void);
const mpiopt_vec_model *mpiopt_reduce_model(void);
const mpiopt_vec_model *mpiopt_allreduce_model(void);

#endif
