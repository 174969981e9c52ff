/* Alltoallv algorithm "native": the MPI's own MPI_Alltoallv, on the
 * program's communicator, with the plan's arrays.
 *
 * Cost model (per rank): the call's own cost, then every nonzero pair is a
 * message, charged to both
 * sides, inter-node ones dearer; every zero-length pair costs "zero" (the
 * MPI may post it anyway); the self block is a copy. For a plan made for
 * MPI_Alltoall with blocks of at most 256 bytes, the MPI runs Bruck's
 * algorithm instead: ceil(log2 P) rounds, each moving half of the data. */
#include "alltoallv.h"

double mpiopt_a2av_native_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m) {
  const mpiopt_coll_topo *t = p->c->topo.ready ? &p->c->topo : NULL;
  double est = m->call + mpiopt_a2av_copy(m, p->s.bytes[p->rank]);
  long long zeros = 0, total = 0;
  for (int j = 0; j < p->P; j++) {
    total += p->s.bytes[j];
    if (j == p->rank) continue;
    int inter = t && t->node_of[j] != t->mynode;
    if (p->s.bytes[j])
      est += mpiopt_a2av_msg(m, inter, p->s.bytes[j]);
    else
      zeros++;
    if (p->r.bytes[j]) est += mpiopt_a2av_msg(m, inter, p->r.bytes[j]);
  }
  est += m->zero * (double)zeros;
  if (p->alltoall && p->P > 1 && p->s.bytes[(p->rank + 1) % p->P] <= 256) {
    int rounds = 0;
    for (int n = 1; n < p->P; n *= 2) rounds++;
    double bruck = rounds * 2 * mpiopt_a2av_msg(m, 1, total / 2) + mpiopt_a2av_copy(m, 2 * total);
    if (bruck < est) est = bruck;
  }
  return est;
}

void mpiopt_a2av_native_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf) {
  if (mpiopt_coll_cfg.stats)
    for (int j = 0; j < p->P; j++)
      if (j != p->rank && p->s.bytes[j]) mpiopt_coll_count_msg(p->c, MPIOPT_STAT_ALLTOALLV_NATIVE, j, (size_t)p->s.bytes[j]);
  if (sendbuf == MPI_IN_PLACE)
    MPI_Alltoallv(MPI_IN_PLACE, p->r.counts, p->r.displs, p->r.type, recvbuf, p->r.counts, p->r.displs, p->r.type,
                  p->c->comm);
  else
    MPI_Alltoallv(sendbuf, p->s.counts, p->s.displs, p->s.type, recvbuf, p->r.counts, p->r.displs, p->r.type,
                  p->c->comm);
}
