/* Alltoallv algorithm "pairwise": nonblocking point-to-point messages for
 * the nonzero pairs only, in a scattered order (rank + i to send, rank - i
 * to receive, i = 1 .. P-1) so that no rank is everybody's first target.
 * Messages use the plan's datatypes directly (no packing); with
 * MPI_IN_PLACE the outgoing blocks are packed first and sent as
 * MPI_PACKED, since the receives overwrite the same buffer.
 *
 * Cost model (per rank): as native without the zero-length pairs. It is
 * what a sparse pattern (an FFT transpose's many empty pairs) saves under
 * an MPI that posts every pair. */
#include <stdlib.h>
#include <string.h>

#include "alltoallv.h"

typedef struct {
  int nsend, nrecv;
  int *speer, *rpeer;
  size_t *poff;          /* MPI_IN_PLACE: where each outgoing block is packed */
  size_t ptotal;
  MPI_Request *req;
} pairwise;

double mpiopt_a2av_pairwise_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m) {
  const mpiopt_coll_topo *t = p->c->topo.ready ? &p->c->topo : NULL;
  double est = mpiopt_a2av_copy(m, p->s.bytes[p->rank]);
  for (int j = 0; j < p->P; j++) {
    if (j == p->rank) continue;
    int inter = t && t->node_of[j] != t->mynode;
    if (p->s.bytes[j]) est += mpiopt_a2av_msg(m, inter, p->s.bytes[j]);
    if (p->r.bytes[j]) est += mpiopt_a2av_msg(m, inter, p->r.bytes[j]);
  }
  return est;
}

void mpiopt_a2av_pairwise_prepare(mpiopt_plan_s *p) {
  int P = p->P;
  pairwise *d = calloc(1, sizeof *d);
  if (d) {
    d->speer = malloc(sizeof(int) * (size_t)P);
    d->rpeer = malloc(sizeof(int) * (size_t)P);
    d->poff = malloc(sizeof(size_t) * (size_t)P);
    d->req = malloc(sizeof(MPI_Request) * 2 * (size_t)P);
  }
  if (!d || !d->speer || !d->rpeer || !d->poff || !d->req) mpiopt_die(p->c->comm, "out of memory planning an Alltoallv");
  for (int i = 1; i < P; i++) {
    int to = (p->rank + i) % P, from = (p->rank - i + P) % P;
    if (p->s.bytes[to]) {
      d->speer[d->nsend++] = to;
      d->poff[to] = d->ptotal;
      d->ptotal += (size_t)p->r.bytes[to]; /* in place, the receive side's layout is the send side's */
    }
    if (p->r.bytes[from]) d->rpeer[d->nrecv++] = from;
  }
  p->data = d;
}

void mpiopt_a2av_pairwise_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf) {
  pairwise *d = p->data;
  MPI_Comm comm = p->c->priv;
  int n = 0, me = p->rank;
  unsigned char *packed = NULL;
  if (sendbuf == MPI_IN_PLACE && d->nsend) { /* before any receive may land */
    packed = mpiopt_coll_scratch(MPIOPT_SCRATCH_A, d->ptotal);
    for (int k = 0; k < d->nsend; k++) mpiopt_a2av_pack(p, &p->r, recvbuf, d->speer[k], packed + d->poff[d->speer[k]]);
  }
  for (int k = 0; k < d->nrecv; k++) {
    int j = d->rpeer[k];
    MPI_Irecv(mpiopt_a2av_at(&p->r, recvbuf, j), p->r.counts[j], p->r.type, j, MPIOPT_TAG_PAIRWISE, comm, &d->req[n++]);
  }
  for (int k = 0; k < d->nsend; k++) {
    int j = d->speer[k];
    if (packed)
      MPI_Isend(packed + d->poff[j], (int)p->s.bytes[j], MPI_PACKED, j, MPIOPT_TAG_PAIRWISE, comm, &d->req[n++]);
    else
      MPI_Isend(mpiopt_a2av_at(&p->s, sendbuf, j), p->s.counts[j], p->s.type, j, MPIOPT_TAG_PAIRWISE, comm,
                &d->req[n++]);
    mpiopt_coll_count_msg(p->c, MPIOPT_STAT_ALLTOALLV_PAIRWISE, j, (size_t)p->s.bytes[j]);
  }
  if (sendbuf != MPI_IN_PLACE && p->s.bytes[me]) { /* the self block (in place it is where it belongs) */
    if (p->s.dense && p->r.dense) {
      memcpy(mpiopt_a2av_at(&p->r, recvbuf, me), mpiopt_a2av_at(&p->s, sendbuf, me), (size_t)p->s.bytes[me]);
    } else {
      unsigned char *tmp = mpiopt_coll_scratch(MPIOPT_SCRATCH_B, (size_t)p->s.bytes[me]);
      mpiopt_a2av_pack(p, &p->s, sendbuf, me, tmp);
      mpiopt_a2av_unpack(p, tmp, recvbuf, me);
    }
  }
  MPI_Waitall(n, d->req, MPI_STATUSES_IGNORE);
}

void mpiopt_a2av_pairwise_destroy(mpiopt_plan_s *p) {
  pairwise *d = p->data;
  if (!d) return;
  free(d->speer);
  free(d->rpeer);
  free(d->poff);
  free(d->req);
  free(d);
  p->data = NULL;
}
