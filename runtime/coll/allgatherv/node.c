/* Allgatherv algorithm "node": through the node's shared segment.
 *
 * The segment holds the whole result, packed, node by node: region R_D
 * holds the blocks of node D's members in order. Every rank copies its own
 * block into R_mine; after one node synchronisation one member of the node
 * sends R_mine to one member of every other node, which receives it
 * straight into its segment's R_S; after a second synchronisation every
 * rank copies every block out of the segment into its receive buffer. On a
 * node that is the communicator's only one, the messages and the second
 * synchronisation go. The segment's two halves alternate, so the
 * synchronisation of the next execution tells that nobody still reads this
 * one.
 *
 * Who sends and who receives: mpiopt_node_sender / mpiopt_node_receiver
 * (../alltoallv/alltoallv.h), as in the Alltoallv's node algorithm.
 *
 * Cost model (per rank): its block copied in and the whole result copied
 * out (mpiopt_a2av_copy), one node synchronisation (two with other nodes;
 * sync x log2 L each), and its messages between nodes. Against the MPI's
 * own, whose messages within a node each copy through shared memory, this
 * saves the message costs and half the copies; it cannot run when the
 * segment would pass 1 GiB or a region 2 GiB (one message). */
#include <limits.h>
#include <stdlib.h>

#include "allgatherv.h"

typedef struct {
  size_t need;  /* bytes of a segment half: the whole result */
  size_t *off;  /* [P]: where rank j's block is */
  mpiopt_node_xfer *sends, *recvs;
  int nsends, nrecvs;
  int toolarge; /* a message over INT_MAX bytes, or a segment over 1 GiB */
  MPI_Request *req;
} node;

#define xcalloc(n, size, comm) mpiopt_coll_calloc(n, size, comm, "planning an Allgatherv")

/* The layout every rank computes alike (the receive byte counts agree on
 * every rank once the plan's check passed). */
static void layout(const mpiopt_plan_s *p, node *d) {
  const mpiopt_coll_topo *t = &p->c->topo;
  int N = t->nnodes, S = t->mynode;
  MPI_Comm comm = p->c->comm;
  d->off = xcalloc((size_t)p->P, sizeof(size_t), comm);
  d->sends = xcalloc((size_t)N, sizeof(mpiopt_node_xfer), comm);
  d->recvs = xcalloc((size_t)N, sizeof(mpiopt_node_xfer), comm);
  size_t *rstart = xcalloc((size_t)N, sizeof(size_t), comm), *rsize = xcalloc((size_t)N, sizeof(size_t), comm);
  size_t off = 0;
  for (int D = 0; D < N; D++) {
    rstart[D] = off;
    for (int m = t->first[D]; m < t->first[D + 1]; m++) {
      d->off[t->members[m]] = off;
      off += (size_t)p->r.bytes[t->members[m]];
    }
    rsize[D] = off - rstart[D];
    if (rsize[D] > INT_MAX) d->toolarge = 1;
  }
  for (int D = 0; D < N; D++) {
    if (D == S) continue;
    if (rsize[S] && mpiopt_node_sender(t, S, D) == p->rank)
      d->sends[d->nsends++] = (mpiopt_node_xfer){mpiopt_node_receiver(t, S, D), rstart[S], rsize[S]};
    if (rsize[D] && mpiopt_node_receiver(t, D, S) == p->rank)
      d->recvs[d->nrecvs++] = (mpiopt_node_xfer){mpiopt_node_sender(t, D, S), rstart[D], rsize[D]};
  }
  d->need = off;
  if (off > ((size_t)1 << 30)) d->toolarge = 1;
  free(rstart);
  free(rsize);
}

static void release(node *d) {
  free(d->off);
  free(d->sends);
  free(d->recvs);
  free(d->req);
}

double mpiopt_agv_node_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m) {
  const mpiopt_coll_topo *t = mpiopt_coll_topology(p->c);
  if (!mpiopt_a2av_packable(&p->s, p->P) || !mpiopt_a2av_packable(&p->r, p->P)) return -1;
  node d = {0};
  layout(p, &d);
  double est = -1;
  if (!d.toolarge) {
    est = mpiopt_a2av_copy(m, p->r.bytes[p->rank] + mpiopt_agv_total(p)) +
          (t->nnodes > 1 ? 2 : 1) * mpiopt_a2av_sync(m, t->lsize);
    for (int k = 0; k < d.nsends; k++) est += mpiopt_a2av_msg(m, 1, (long long)d.sends[k].bytes);
    for (int k = 0; k < d.nrecvs; k++) est += mpiopt_a2av_msg(m, 1, (long long)d.recvs[k].bytes);
  }
  release(&d);
  return est;
}

void mpiopt_agv_node_prepare(mpiopt_plan_s *p) {
  node *d = xcalloc(1, sizeof *d, p->c->comm);
  mpiopt_coll_topology(p->c);
  layout(p, d);
  d->req = xcalloc((size_t)(d->nsends + d->nrecvs), sizeof(MPI_Request), p->c->comm);
  mpiopt_coll_segment_reserve(p->c, d->need); /* every member asks for the same size */
  p->data = d;
}

void mpiopt_agv_node_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf) {
  node *d = p->data;
  mpiopt_coll_comm *c = p->c;
  unsigned char *half = mpiopt_coll_segment_next(c);
  int me = p->rank, inplace = sendbuf == MPI_IN_PLACE;
  if (inplace) /* my block is already in recvbuf, laid out as the receive side says */
    mpiopt_a2av_pack(p, &p->r, recvbuf, me, half + d->off[me]);
  else
    mpiopt_a2av_pack(p, &p->s, sendbuf, me, half + d->off[me]);
  mpiopt_coll_node_sync(c);
  if (c->topo.nnodes > 1) {
    int n = 0;
    for (int k = 0; k < d->nrecvs; k++)
      MPI_Irecv(half + d->recvs[k].off, (int)d->recvs[k].bytes, MPI_BYTE, d->recvs[k].peer, MPIOPT_TAG_GATHER, c->priv,
                &d->req[n++]);
    for (int k = 0; k < d->nsends; k++) {
      MPI_Isend(half + d->sends[k].off, (int)d->sends[k].bytes, MPI_BYTE, d->sends[k].peer, MPIOPT_TAG_GATHER,
                c->priv, &d->req[n++]);
      mpiopt_coll_count_msg(c, MPIOPT_STAT_ALLGATHERV_NODE, d->sends[k].peer, d->sends[k].bytes);
    }
    MPI_Waitall(n, d->req, MPI_STATUSES_IGNORE);
    mpiopt_coll_node_sync(c);
  }
  for (int j = 0; j < p->P; j++)
    if (j != me || !inplace) mpiopt_a2av_unpack(p, half + d->off[j], recvbuf, j);
}

void mpiopt_agv_node_destroy(mpiopt_plan_s *p) {
  node *d = p->data;
  if (!d) return;
  release(d);
  free(d);
  p->data = NULL;
}
