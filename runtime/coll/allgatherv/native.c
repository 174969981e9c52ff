/* Allgatherv algorithm "native": the MPI's own MPI_Allgatherv, on the
 * program's communicator, with the plan's arrays (MPI_Allgather for a plan
 * made for one: its algorithms are the MPI's own, and can differ).
 *
 * Cost model (per rank): the call's own cost; ceil(log2 P) rounds of a
 * message sent and one received (recursive doubling; the ring the MPI
 * takes for large data sends more messages, but then the bytes dominate),
 * dearer when the communicator spans nodes; every other rank's bytes
 * received and as many sent on; the own block copied. */
#include "allgatherv.h"

double mpiopt_agv_native_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m) {
  const mpiopt_coll_topo *t = mpiopt_coll_topology(p->c);
  int inter = t->nnodes > 1, rounds = 0;
  for (int n = 1; n < p->P; n *= 2) rounds++;
  long long mine = p->r.bytes[p->rank], others = mpiopt_agv_total(p) - mine;
  return m->call + mpiopt_a2av_copy(m, mine) + 2 * rounds * mpiopt_a2av_msg(m, inter, 0) +
         2 * m->byte * (double)others * (inter ? m->inter : 1.0);
}

void mpiopt_agv_native_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf) {
  if (mpiopt_coll_cfg.stats)
    for (int j = 0; j < p->P; j++)
      if (j != p->rank && p->r.bytes[p->rank])
        mpiopt_coll_count_msg(p->c, MPIOPT_STAT_ALLGATHERV_NATIVE, j, (size_t)p->r.bytes[p->rank]);
  if (p->alltoall) /* made for MPI_Allgather: equal blocks in rank order */
    MPI_Allgather(sendbuf == MPI_IN_PLACE ? MPI_IN_PLACE : sendbuf, sendbuf == MPI_IN_PLACE ? 0 : p->s.counts[0],
                  sendbuf == MPI_IN_PLACE ? MPI_DATATYPE_NULL : p->s.type, recvbuf, p->r.counts[0], p->r.type,
                  p->c->comm);
  else if (sendbuf == MPI_IN_PLACE)
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recvbuf, p->r.counts, p->r.displs, p->r.type, p->c->comm);
  else
    MPI_Allgatherv(sendbuf, p->s.counts[0], p->s.type, recvbuf, p->r.counts, p->r.displs, p->r.type, p->c->comm);
}
