/* Fusion algorithm "grouped": one builtin collective per (datatype, op, root)
 * group of the batch.
 *
 * The pending inputs of a group were packed one after another when they
 * were queued, so the group is reduced in place by a single MPI_Allreduce
 * (root -1) or MPI_Reduce with the user's own datatype and op; the MPI
 * library's tuned algorithm and vectorised op run unchanged. Asynchronous
 * mode starts MPI_Iallreduce / MPI_Ireduce instead and leaves the requests in
 * the batch.
 *
 * Cost, for g groups of n_j bytes on p ranks (recursive doubling):
 *   sum_j ( log2(p) * (alpha + n_j * beta + n_j * gamma) )
 *   = g * log2(p) * alpha + log2(p) * N * (beta + gamma),   N = sum_j n_j.
 * Versus the unfused program (k operations): k * log2(p) * alpha + the same
 * volume term; the saving is (k - g) * log2(p) * alpha. */
#include "lazy_internal.h"

int mpiopt_lazy_fuse_grouped(mpiopt_lazy_batch *b, mpiopt_lazy_comm *c, int nonblocking) {
  int rc = MPI_SUCCESS;
  if (nonblocking) b->reqs = mpiopt_grow_int(b->reqs, &b->capreqs, b->ngroups, sizeof *b->reqs);
  b->nreqs = 0;
  for (int j = 0; j < b->ngroups && rc == MPI_SUCCESS; j++) {
    mpiopt_lazy_group *g = &b->groups[j];
    int count = g->count;
    int root = g->root;
    const void *send = (root < 0 || root == c->rank) ? MPI_IN_PLACE : g->buf;
    void *recv = (root < 0 || root == c->rank) ? g->buf : NULL;
    g->res = g->buf;
    if (nonblocking) {
      MPI_Request *r = &b->reqs[b->nreqs++];
      rc = root < 0 ? MPI_Iallreduce(send, recv, count, g->ti->dt, g->oi->op, c->comm, r)
                    : MPI_Ireduce(send, recv, count, g->ti->dt, g->oi->op, root, c->comm, r);
    } else {
      rc = root < 0       ? MPI_Allreduce(send, recv, count, g->ti->dt, g->oi->op, c->comm)
           : send == MPI_IN_PLACE ? mpiopt_reduce_in_place(recv, count, g->ti->dt, g->oi->op, root, c->comm)
                                : MPI_Reduce(send, recv, count, g->ti->dt, g->oi->op, root, c->comm);
    }
    mpiopt_lazy_counters.collectives++;
  }
  return rc;
}
