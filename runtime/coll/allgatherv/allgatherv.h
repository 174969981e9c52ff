/* Planned Allgatherv internals (runtime/coll/allgatherv/, not installed).
 *
 * An Allgatherv plan is the planned collectives' plan (../alltoallv/
 * alltoallv.h) of its own kind: the send side holds the send count for
 * every peer (displacement 0: every rank's one block), the receive side the
 * program's recvcounts, displs and recvtype. Creation, the cost model's
 * parameters (MPIOPT_ALLTOALLV_MODEL: one set for every planned collective)
 * and the check by timing are shared; the algorithms, one file each with
 * its cost model in its header comment, are:
 *   native  MPI_Allgatherv itself (native.c)
 *   node    through the node's shared segment: one copy in, one copy of the
 *           whole result out, one message per pair of nodes (node.c)
 * MPIOPT_ALLGATHERV_ALGO forces one, MPIOPT_ALLGATHERV_TRIAL sets the check
 * (select.c). */
#ifndef MPIOPT_COLL_ALLGATHERV_H
#define MPIOPT_COLL_ALLGATHERV_H

#include "../alltoallv/alltoallv.h"

enum { MPIOPT_AGV_NATIVE, MPIOPT_AGV_NODE, MPIOPT_AGV_NALGS };
extern const mpiopt_a2av_algorithm mpiopt_agv_algorithms[MPIOPT_AGV_NALGS];
extern const mpiopt_plan_kind mpiopt_plan_allgatherv;

double mpiopt_agv_native_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m);
void mpiopt_agv_native_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);
double mpiopt_agv_node_estimate(const mpiopt_plan_s *p, const mpiopt_a2av_model *m);
void mpiopt_agv_node_prepare(mpiopt_plan_s *p);
void mpiopt_agv_node_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf);
void mpiopt_agv_node_destroy(mpiopt_plan_s *p);

/* plan.c: every rank's block has the bytes every other rank expects. */
void mpiopt_agv_verify(mpiopt_plan_s *p);

/* The bytes of every rank's block together, and this rank's. */
static inline long long mpiopt_agv_total(const mpiopt_plan_s *p) {
  long long n = 0;
  for (int j = 0; j < p->P; j++) n += p->r.bytes[j];
  return n;
}

#endif
