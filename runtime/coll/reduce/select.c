/* The selection table of the large-vector reduce (see mpiopt/coll.h and
 * coll/vector.h): mpiopt_reduce runs the algorithm the selector picks
 * (coll/vector.c), or the one MPIOPT_REDUCE_ALGO forces.
 *
 * Built-in model (MPIOPT_REDUCE_MODEL overrides any of it), measured by
 * scripts/tune on the machine the shipped profiles come from. */
#include "../vector.h"

const int mpiopt_reduce_linked = 1; /* see core/linked.c */

#if defined(SMPI_H) /* measured in the simulator (scripts/tune --mpi=smpi, node16, 2 ranks): never faster on one
                       node; across 4 and 16 nodes of 16 ranks (cluster4, cluster16; reduce_bench, communication
                       only) the ring from about 40 KiB per rank (docs/simulation.md) */
static mpiopt_vec_model model = {.alpha = 2.82, .beta = 2.28e-4, .gamma = 4.39e-7, .min = 1.07e9, .dense = 0,
                                 .density = 1, .nodes = 16, .xbytes = 40960};
#elif defined(OPEN_MPI)
static mpiopt_vec_model model = {.alpha = 2.77, .beta = 2.46e-4, .gamma = 3.18e-5, .min = 4194304, .dense = 0, .density = 10};
#else
static mpiopt_vec_model model = {.alpha = 1.22, .beta = 1.53e-4, .gamma = 7.68e-5, .min = 65536, .dense = 65536, .density = 10};
#endif

const mpiopt_vec_model *mpiopt_reduce_model(void) {
  static int read;
  if (!read) {
    mpiopt_vec_model_parse("MPIOPT_REDUCE_MODEL", &model);
    read = 1;
  }
  return &model;
}

int mpiopt_reduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                     MPI_Comm comm, const char *file, int line) {
  static int forced = -2;
  if (forced == -2) forced = mpiopt_vec_forced("MPIOPT_REDUCE_ALGO");
  const mpiopt_vec_kind kind = {
      "mpiopt_reduce",
      file,
      line,
      mpiopt_reduce_model(),
      "MPIOPT_REDUCE_ALGO",
      forced,
      {NULL, mpiopt_reduce_binomial_cost, mpiopt_reduce_redscat_cost, mpiopt_reduce_ring_cost},
      {MPIOPT_STAT_REDUCE_NATIVE, MPIOPT_STAT_REDUCE_BINOMIAL, MPIOPT_STAT_REDUCE_REDSCAT, MPIOPT_STAT_REDUCE_RING},
  };
  static const mpiopt_vec_fn run[MPIOPT_VEC_NALGS] = {NULL, mpiopt_reduce_binomial, mpiopt_reduce_redscat,
                                                      mpiopt_reduce_ring};
  if (root < 0) {
    mpiopt_coll_comm *c = mpiopt_coll_get(comm, "mpiopt_reduce");
    if (!c->inter)
      mpiopt_die(comm, "mpiopt_reduce at %s:%d: the root %d is negative", file ? file : "?", line, root);
    return MPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm); /* MPI_ROOT, MPI_PROC_NULL */
  }
  mpiopt_vec v;
  int algo = mpiopt_vec_select(&kind, &v, sendbuf, recvbuf, count, datatype, op, root, comm);
  if (algo == MPIOPT_VEC_NATIVE)
    return sendbuf == MPI_IN_PLACE ? mpiopt_reduce_in_place(recvbuf, count, datatype, op, root, comm)
                                   : MPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  run[algo](&v, sendbuf, recvbuf);
  return MPI_SUCCESS;
}
