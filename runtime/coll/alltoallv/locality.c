/* Alltoallv algorithm "locality": locality-aware aggregation by messages,
 * without shared memory (the approach of MPI Advance's locality-aware
 * all-to-all). Each member of a node owns a subset of the other nodes:
 * node D belongs to member j mod L of node S, where j = (D - S - 1) mod N.
 *
 *   A  every rank sends each member l of its node one message: its block
 *      for l itself, then its blocks for every rank of the nodes l owns;
 *   B  each member sends, to each node it owns, one message with the
 *      node's blocks from every member (rank s, then destination r), to the
 *      member of that node that handles this node (the same j mod L_D);
 *   C  each member forwards to every member r of its node the blocks for r
 *      from the nodes it handles.
 * A rank sends L - 1 messages within its node in A and in C, and about
 * (N - 1) / L between nodes: far fewer inter-node messages than P - 1
 * when nodes are large.
 *
 * Cost model (per rank): the messages of A, B and C (those of B between
 * nodes) and the bytes copied into and out of them. It cannot run when a
 * message would pass 2 GiB. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alltoallv.h"

typedef struct {
  long long *nsb, *nrb;                     /* the node tables, kept */
  int *owned, nowned, *handled, nhandled;   /* nodes, increasing */
  size_t *aout, *ain, *bout, *bin, *cout, *cin; /* message sizes */
  size_t ta, tb, tc;                        /* A, B, C buffer totals (out + in) */
  int toolarge;
  MPI_Request *req;
} locality;

#define xcalloc(n, size, comm) mpiopt_coll_calloc(n, size, comm, "planning an Alltoallv")

/* The member of node X that owns (sends to, or handles receipts from) node Y. */
static int owner(const mpiopt_coll_topo *t, int X, int Y) {
  int N = t->nnodes, L = t->first[X + 1] - t->first[X];
  return ((Y - X - 1 + N) % N) % L;
}

/* Bytes local rank s of this node sends to the ranks of node D. */
static long long to_node(const mpiopt_plan_s *p, const long long *nsb, int s, int D) {
  const mpiopt_coll_topo *t = &p->c->topo;
  long long b = 0;
  for (int m = t->first[D]; m < t->first[D + 1]; m++) b += nsb[(size_t)s * p->P + t->members[m]];
  return b;
}

/* Bytes local rank rl of this node receives from the ranks of node X. */
static long long from_node(const mpiopt_plan_s *p, const long long *nrb, int rl, int X) {
  const mpiopt_coll_topo *t = &p->c->topo;
  long long b = 0;
  for (int m = t->first[X]; m < t->first[X + 1]; m++) b += nrb[(size_t)rl * p->P + t->members[m]];
  return b;
}

static void sizes(const mpiopt_plan_s *p, locality *d) {
  const mpiopt_coll_topo *t = &p->c->topo;
  int L = t->lsize, N = t->nnodes, S = t->mynode, ml = t->lrank;
  MPI_Comm comm = p->c->comm;
  d->owned = xcalloc((size_t)N, sizeof(int), comm);
  d->handled = xcalloc((size_t)N, sizeof(int), comm);
  for (int X = 0; X < N; X++)
    if (X != S && owner(t, S, X) == ml) {
      d->owned[d->nowned++] = X;   /* I send this node's aggregate */
      d->handled[d->nhandled++] = X; /* the same j: I receive that node's aggregate for us */
    }
  size_t *v[6];
  for (int i = 0; i < 6; i++) v[i] = xcalloc((size_t)(L > N ? L : N), sizeof(size_t), comm);
  d->aout = v[0], d->ain = v[1], d->bout = v[2], d->bin = v[3], d->cout = v[4], d->cin = v[5];
  for (int l = 0; l < L; l++) {
    int rank_l = t->members[t->first[S] + l];
    long long ao = d->nsb[(size_t)ml * p->P + rank_l], ai = d->nsb[(size_t)l * p->P + p->rank];
    for (int X = 0; X < N; X++) {
      if (X == S) continue;
      if (owner(t, S, X) == l) ao += to_node(p, d->nsb, ml, X);
      if (owner(t, S, X) == ml) ai += to_node(p, d->nsb, l, X);
    }
    d->aout[l] = (size_t)ao;
    d->ain[l] = (size_t)ai;
    long long co = 0, ci = 0;
    for (int X = 0; X < N; X++) {
      if (X == S) continue;
      if (owner(t, S, X) == ml) co += from_node(p, d->nrb, l, X);
      if (owner(t, S, X) == l) ci += from_node(p, d->nrb, ml, X);
    }
    d->cout[l] = (size_t)co;
    d->cin[l] = (size_t)ci;
  }
  for (int k = 0; k < d->nowned; k++) {
    long long b = 0, r = 0;
    for (int s = 0; s < L; s++) b += to_node(p, d->nsb, s, d->owned[k]);
    for (int rl = 0; rl < L; rl++) r += from_node(p, d->nrb, rl, d->handled[k]);
    d->bout[k] = (size_t)b;
    d->bin[k] = (size_t)r;
  }
  d->ta = d->tb = d->tc = 0;
  for (int l = 0; l < L; l++) {
    d->ta += d->aout[l] + d->ain[l];
    d->tc += d->cout[l] + d->cin[l];
    if (d->aout[l] > INT_MAX || d->ain[l] > INT_MAX || d->cout[l] > INT_MAX || d->cin[l] > INT_MAX) d->toolarge = 1;
  }
  for (int k = 0; k < d->nowned; k++) {
    d->tb += d->bout[k] + d->bin[k];
    if (d->bout[k] > INT_MAX || d->bin[k] > INT_MAX) d->toolarge = 1;
  }
}

static void release(locality *d) {
  free(d->owned);
  free(d->handled);
  free(d->aout);
  free(d->ain);
  free(d->bout);
  free(d->bin);
  free(d->cout);
  free(d->cin);
  free(d->req);
}

double mpiopt_a2av_locality_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m) {
  for (int j = 0; j < p->P; j++)
    if ((!p->s.dense && p->s.bytes[j] > INT_MAX) || (!p->r.dense && p->r.bytes[j] > INT_MAX)) return -1;
  locality d = {.nsb = p->nsb, .nrb = p->nrb};
  sizes(p, &d);
  double est = -1;
  if (!d.toolarge) {
    est = mpiopt_a2av_copy(m, (long long)(d.ta + d.tb + d.tc));
    for (int l = 0; l < p->c->topo.lsize; l++) {
      if (l == p->c->topo.lrank) continue;
      if (d.aout[l]) est += mpiopt_a2av_msg(m, 0, (long long)d.aout[l]);
      if (d.ain[l]) est += mpiopt_a2av_msg(m, 0, (long long)d.ain[l]);
      if (d.cout[l]) est += mpiopt_a2av_msg(m, 0, (long long)d.cout[l]);
      if (d.cin[l]) est += mpiopt_a2av_msg(m, 0, (long long)d.cin[l]);
    }
    for (int k = 0; k < d.nowned; k++) {
      if (d.bout[k]) est += mpiopt_a2av_msg(m, 1, (long long)d.bout[k]);
      if (d.bin[k]) est += mpiopt_a2av_msg(m, 1, (long long)d.bin[k]);
    }
  }
  d.nsb = d.nrb = NULL;
  release(&d);
  return est;
}

void mpiopt_a2av_locality_prepare(mpiopt_plan_s *p) {
  locality *d = xcalloc(1, sizeof *d, p->c->comm);
  d->nsb = p->nsb;
  d->nrb = p->nrb;
  p->nsb = p->nrb = NULL; /* kept for the executions */
  sizes(p, d);
  int L = p->c->topo.lsize;
  d->req = xcalloc(2 * (size_t)(L + d->nowned), sizeof(MPI_Request), p->c->comm);
  p->data = d;
}

/* Post receives into in (one slot per peer index, in order, slot skip
 * unused) and sends of the slots of out; wait for all. */
static void exchange(mpiopt_plan_s *p, locality *d, int n, const int *peers, const size_t *in_size,
                     const size_t *out_size, unsigned char *in, unsigned char *out, int skip, int tag) {
  int k = 0;
  size_t ioff = 0, ooff = 0;
  for (int i = 0; i < n; i++) {
    if (i != skip && in_size[i])
      MPI_Irecv(in + ioff, (int)in_size[i], MPI_BYTE, peers[i], tag, p->c->priv, &d->req[k++]);
    ioff += in_size[i];
  }
  for (int i = 0; i < n; i++) {
    if (i != skip && out_size[i]) {
      MPI_Isend(out + ooff, (int)out_size[i], MPI_BYTE, peers[i], tag, p->c->priv, &d->req[k++]);
      mpiopt_coll_count_msg(p->c, MPIOPT_STAT_ALLTOALLV_LOCALITY, peers[i], out_size[i]);
    }
    ooff += out_size[i];
  }
  MPI_Waitall(k, d->req, MPI_STATUSES_IGNORE);
}

static size_t total(const size_t *v, int n) {
  size_t t = 0;
  for (int i = 0; i < n; i++) t += v[i];
  return t;
}

/* A: my blocks, one slot per local owner: its own block, then those of the
 * nodes it owns. */
static void phase_a(mpiopt_plan_s *p, const mpiopt_a2av_side *side, const void *src, unsigned char *w) {
  const mpiopt_coll_topo *t = &p->c->topo;
  const int *local = t->members + t->first[t->mynode];
  for (int l = 0; l < t->lsize; l++) {
    mpiopt_a2av_pack(p, side, src, local[l], w);
    w += side->bytes[local[l]];
    for (int X = 0; X < t->nnodes; X++)
      if (X != t->mynode && owner(t, t->mynode, X) == l)
        for (int m = t->first[X]; m < t->first[X + 1]; m++) {
          mpiopt_a2av_pack(p, side, src, t->members[m], w);
          w += side->bytes[t->members[m]];
        }
  }
}

/* B: what each local rank s sent me (its slot of ain, or mine of aout):
 * its block for me (unpacked), then its blocks for the nodes I own,
 * regrouped per node, member by member. */
static void phase_b(mpiopt_plan_s *p, locality *d, const unsigned char *aout, const unsigned char *ain,
                    unsigned char *bout, void *recvbuf) {
  const mpiopt_coll_topo *t = &p->c->topo;
  int L = t->lsize, ml = t->lrank, P = p->P;
  const int *local = t->members + t->first[t->mynode];
  size_t *cursor = mpiopt_coll_scratch(MPIOPT_SCRATCH_D, sizeof(size_t) * (size_t)(d->nowned + 1));
  size_t off = 0, aoff = 0, ioff = 0;
  for (int k = 0; k < d->nowned; off += d->bout[k], k++) cursor[k] = off;
  for (int l = 0; l < ml; l++) aoff += d->aout[l];
  for (int s = 0; s < L; s++) {
    const unsigned char *r = s == ml ? aout + aoff : ain + ioff;
    ioff += d->ain[s];
    mpiopt_a2av_unpack(p, r, recvbuf, local[s]);
    r += d->nsb[(size_t)s * P + p->rank];
    for (int k = 0; k < d->nowned; k++)
      for (int m = t->first[d->owned[k]]; m < t->first[d->owned[k] + 1]; m++) {
        size_t b = (size_t)d->nsb[(size_t)s * P + t->members[m]];
        memcpy(bout + cursor[k], r, b);
        cursor[k] += b;
        r += b;
      }
  }
}

/* C: from each node I handle (rank s, then my node's member rl), the
 * blocks of each member rl: mine unpacked, the others' into their slots. */
static void phase_c(mpiopt_plan_s *p, locality *d, const unsigned char *bin, unsigned char *cout, void *recvbuf) {
  const mpiopt_coll_topo *t = &p->c->topo;
  int L = t->lsize, ml = t->lrank, P = p->P;
  size_t *cursor = mpiopt_coll_scratch(MPIOPT_SCRATCH_D, sizeof(size_t) * (size_t)(L + 1));
  size_t off = 0;
  for (int l = 0; l < L; off += d->cout[l], l++) cursor[l] = off;
  const unsigned char *r = bin;
  for (int k = 0; k < d->nhandled; k++)
    for (int m = t->first[d->handled[k]]; m < t->first[d->handled[k] + 1]; m++) {
      int s = t->members[m];
      for (int rl = 0; rl < L; rl++) {
        size_t b = (size_t)d->nrb[(size_t)rl * P + s];
        if (rl == ml)
          mpiopt_a2av_unpack(p, r, recvbuf, s);
        else
          memcpy(cout + cursor[rl], r, b);
        cursor[rl] += b;
        r += b;
      }
    }
}

void mpiopt_a2av_locality_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf) {
  locality *d = p->data;
  const mpiopt_coll_topo *t = &p->c->topo;
  int L = t->lsize, S = t->mynode, ml = t->lrank;
  const int *local = t->members + t->first[S];
  const mpiopt_a2av_side *side = &p->s;
  const void *src = sendbuf;
  if (sendbuf == MPI_IN_PLACE) { /* everything is packed before anything lands */
    side = &p->r;
    src = recvbuf;
  }
  size_t na = total(d->aout, L);
  unsigned char *aout = mpiopt_coll_scratch(MPIOPT_SCRATCH_A, na + total(d->ain, L)), *ain = aout + na;
  phase_a(p, side, src, aout);
  exchange(p, d, L, local, d->ain, d->aout, ain, aout, ml, MPIOPT_TAG_LOCAL_A);
  size_t nb = total(d->bout, d->nowned);
  unsigned char *bout = mpiopt_coll_scratch(MPIOPT_SCRATCH_B, nb + total(d->bin, d->nhandled)), *bin = bout + nb;
  phase_b(p, d, aout, ain, bout, recvbuf);
  int *bpeer = mpiopt_coll_scratch(MPIOPT_SCRATCH_C, sizeof(int) * (size_t)(d->nowned + 1));
  for (int k = 0; k < d->nowned; k++) { /* node X's member that owns us: it sends us X's aggregate, we send it ours */
    int X = d->owned[k];
    bpeer[k] = t->members[t->first[X] + owner(t, X, S)];
  }
  exchange(p, d, d->nowned, bpeer, d->bin, d->bout, bin, bout, -1, MPIOPT_TAG_LOCAL_B);
  size_t nc = total(d->cout, L);
  unsigned char *cout = mpiopt_coll_scratch(MPIOPT_SCRATCH_C, nc + total(d->cin, L)), *cin = cout + nc;
  phase_c(p, d, bin, cout, recvbuf);
  exchange(p, d, L, local, d->cin, d->cout, cin, cout, ml, MPIOPT_TAG_LOCAL_C);
  const unsigned char *r = cin;
  for (int h = 0; h < L; h++) {
    if (h == ml) {
      r += d->cin[h];
      continue;
    }
    for (int X = 0; X < t->nnodes; X++)
      if (X != S && owner(t, S, X) == h)
        for (int m = t->first[X]; m < t->first[X + 1]; m++) {
          mpiopt_a2av_unpack(p, r, recvbuf, t->members[m]);
          r += p->r.bytes[t->members[m]];
        }
  }
}

void mpiopt_a2av_locality_destroy(mpiopt_plan_s *p) {
  locality *d = p->data;
  if (!d) return;
  release(d);
  free(d->nsb);
  free(d->nrb);
  free(d);
  p->data = NULL;
}
