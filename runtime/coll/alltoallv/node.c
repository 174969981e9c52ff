/* Alltoallv algorithm "node": node aggregation through the node's shared
 * segment (Jackson and Booth's planned AlltoAllv).
 *
 * Every rank packs its outgoing blocks into the node's send area, laid out
 * by destination node: region R_D holds, for each rank r of node D (in
 * order) and each member s of this node, the block s -> r. After one node
 * synchronisation, one member sends each R_D of another node as a single
 * message, straight from the segment, and one member of every other node's
 * pairs receives it, straight into the receive area (region Q_S from node
 * S: for each member r of this node, each rank s of S, the block s -> r,
 * which is R_D as S laid it out). After a second synchronisation every
 * rank unpacks its blocks: those from its own node out of R_mine, the
 * others out of the Q regions. The segment has two halves used alternately,
 * so the synchronisation before the messages also tells that nobody still
 * reads the half being packed (two synchronisations per execution).
 *
 * Who sends and who receives: for the pair (S -> D), j = (D - S - 1) mod N
 * numbers D among S's other nodes (and S among D's); member j mod L_S of S
 * sends, member L_D - 1 - (j mod L_D) of D receives (mpiopt_node_sender,
 * mpiopt_node_receiver). Both sides compute this alone, and when a node has
 * at least 2 (N - 1) members each rank sends at most one message and
 * receives at most one.
 *
 * Cost model (per rank): the copies in and out (mpiopt_a2av_copy), two node
 * synchronisations (sync x log2 L), and its messages between nodes. It
 * cannot run when a node's segment would pass 1 GiB or a region 2 GiB
 * (one message). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alltoallv.h"

typedef struct {
  size_t need;           /* bytes of a segment half */
  size_t *soff;          /* [P]: where my block for rank j goes in the send area */
  size_t *roff;          /* [P]: where the block from rank j is (send area: same node; receive area: others) */
  mpiopt_node_xfer *sends, *recvs;
  int nsends, nrecvs;
  int toolarge;          /* a message over INT_MAX bytes, or a segment over 1 GiB */
  MPI_Request *req;
} node;

#define xcalloc(n, size, comm) mpiopt_coll_calloc(n, size, comm, "planning an Alltoallv")

/* The layout every member of the node computes alike from the node tables. */
static void layout(const mpiopt_plan_s *p, node *d) {
  const mpiopt_coll_topo *t = &p->c->topo;
  int P = p->P, L = t->lsize, N = t->nnodes, S = t->mynode, ml = t->lrank;
  const long long *nsb = p->nsb, *nrb = p->nrb;
  MPI_Comm comm = p->c->comm;
  d->soff = xcalloc((size_t)P, sizeof(size_t), comm);
  d->roff = xcalloc((size_t)P, sizeof(size_t), comm);
  d->sends = xcalloc((size_t)N, sizeof(mpiopt_node_xfer), comm);
  d->recvs = xcalloc((size_t)N, sizeof(mpiopt_node_xfer), comm);
  size_t *rstart = xcalloc((size_t)N, sizeof(size_t), comm), *rsize = xcalloc((size_t)N, sizeof(size_t), comm);
  size_t off = 0;
  for (int D = 0; D < N; D++) { /* the send area: R_D for every node */
    rstart[D] = off;
    for (int m = t->first[D]; m < t->first[D + 1]; m++) {
      int r = t->members[m];
      for (int s = 0; s < L; s++) {
        if (s == ml) d->soff[r] = off;
        if (D == S && r == p->rank) d->roff[t->members[t->first[S] + s]] = off;
        off += (size_t)nsb[(size_t)s * P + r];
      }
    }
    rsize[D] = off - rstart[D];
  }
  for (int Sx = 0; Sx < N; Sx++) { /* the receive area: Q_S for every other node */
    if (Sx == S) continue;
    size_t qstart = off;
    for (int rl = 0; rl < L; rl++)
      for (int m = t->first[Sx]; m < t->first[Sx + 1]; m++) {
        int s = t->members[m];
        if (rl == ml) d->roff[s] = off;
        off += (size_t)nrb[(size_t)rl * P + s];
      }
    size_t qsize = off - qstart;
    if (qsize && mpiopt_node_receiver(t, Sx, S) == p->rank)
      d->recvs[d->nrecvs++] = (mpiopt_node_xfer){mpiopt_node_sender(t, Sx, S), qstart, qsize};
    if (qsize > INT_MAX) d->toolarge = 1;
  }
  for (int D = 0; D < N; D++) {
    if (D == S || !rsize[D]) continue;
    if (mpiopt_node_sender(t, S, D) == p->rank)
      d->sends[d->nsends++] = (mpiopt_node_xfer){mpiopt_node_receiver(t, S, D), rstart[D], rsize[D]};
    if (rsize[D] > INT_MAX) d->toolarge = 1;
  }
  d->need = off;
  if (off > ((size_t)1 << 30)) d->toolarge = 1;
  free(rstart);
  free(rsize);
}

static void release(node *d) {
  free(d->soff);
  free(d->roff);
  free(d->sends);
  free(d->recvs);
  free(d->req);
}

double mpiopt_a2av_node_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m) {
  if (!mpiopt_a2av_packable(&p->s, p->P) || !mpiopt_a2av_packable(&p->r, p->P)) return -1;
  node d = {0};
  layout(p, &d);
  double est = -1;
  if (!d.toolarge) {
    long long bytes = 0;
    for (int j = 0; j < p->P; j++) bytes += p->s.bytes[j] + p->r.bytes[j];
    est = mpiopt_a2av_copy(m, bytes) + 2 * mpiopt_a2av_sync(m, p->c->topo.lsize);
    for (int k = 0; k < d.nsends; k++) est += mpiopt_a2av_msg(m, 1, (long long)d.sends[k].bytes);
    for (int k = 0; k < d.nrecvs; k++) est += mpiopt_a2av_msg(m, 1, (long long)d.recvs[k].bytes);
  }
  release(&d);
  return est;
}

void mpiopt_a2av_node_prepare(mpiopt_plan_s *p) {
  node *d = xcalloc(1, sizeof *d, p->c->comm);
  layout(p, d);
  d->req = xcalloc((size_t)(d->nsends + d->nrecvs), sizeof(MPI_Request), p->c->comm);
  mpiopt_coll_segment_reserve(p->c, d->need); /* every member asks for the same size */
  p->data = d;
}

void mpiopt_a2av_node_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf) {
  node *d = p->data;
  mpiopt_coll_comm *c = p->c;
  unsigned char *half = mpiopt_coll_segment_next(c);
  const mpiopt_a2av_side *s = &p->s;
  const void *src = sendbuf;
  if (sendbuf == MPI_IN_PLACE) { /* the plan's send side is the receive side */
    s = &p->r;
    src = recvbuf;
  }
  for (int j = 0; j < p->P; j++) mpiopt_a2av_pack(p, s, src, j, half + d->soff[j]);
  mpiopt_coll_node_sync(c);
  int n = 0;
  for (int k = 0; k < d->nrecvs; k++)
    MPI_Irecv(half + d->recvs[k].off, (int)d->recvs[k].bytes, MPI_BYTE, d->recvs[k].peer, MPIOPT_TAG_NODE, c->priv,
              &d->req[n++]);
  for (int k = 0; k < d->nsends; k++) {
    MPI_Isend(half + d->sends[k].off, (int)d->sends[k].bytes, MPI_BYTE, d->sends[k].peer, MPIOPT_TAG_NODE, c->priv,
              &d->req[n++]);
    mpiopt_coll_count_msg(c, MPIOPT_STAT_ALLTOALLV_NODE, d->sends[k].peer, d->sends[k].bytes);
  }
  MPI_Waitall(n, d->req, MPI_STATUSES_IGNORE);
  mpiopt_coll_node_sync(c);
  for (int j = 0; j < p->P; j++) mpiopt_a2av_unpack(p, half + d->roff[j], recvbuf, j);
}

void mpiopt_a2av_node_destroy(mpiopt_plan_s *p) {
  node *d = p->data;
  if (!d) return;
  release(d);
  free(d);
  p->data = NULL;
}
