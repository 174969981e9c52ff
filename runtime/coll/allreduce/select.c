/* The selection table of the large-vector allreduce (see mpiopt/coll.h and
 * coll/vector.h): mpiopt_allreduce runs the algorithm the selector picks
 * (coll/vector.c: by size, ranks, threads and the density every rank agrees
 * on), or the one MPIOPT_ALLREDUCE_ALGO forces.
 *
 * Built-in model (MPIOPT_ALLREDUCE_MODEL overrides any of it), measured by
 * scripts/tune on the machine the shipped profiles come from. */
#include "../vector.h"

const int mpiopt_allreduce_linked = 1; /* see core/linked.c */

#if defined(SMPI_H) /* measured in the simulator (scripts/tune --mpi=smpi, node16, 2 ranks); across 4 and 16
                       nodes of 16 ranks (cluster4, cluster16; reduce_bench, communication only) the ring from
                       16 KiB per rank (docs/simulation.md) */
static mpiopt_vec_model model = {.alpha = 2.26, .beta = 2.76e-4, .gamma = 4.39e-7, .min = 65536, .dense = 262144,
                                 .density = 1, .nodes = 16, .xbytes = 16384};
#elif defined(OPEN_MPI)
static mpiopt_vec_model model = {.alpha = 3.94, .beta = 3.26e-4, .gamma = 3.18e-5, .min = 65536, .dense = 0, .density = 10};
#else
static mpiopt_vec_model model = {.alpha = 0.944, .beta = 1.86e-4, .gamma = 7.68e-5, .min = 65536, .dense = 65536, .density = 10};
#endif

const mpiopt_vec_model *mpiopt_allreduce_model(void) {
  static int read;
  if (!read) {
    mpiopt_vec_model_parse("MPIOPT_ALLREDUCE_MODEL", &model);
    read = 1;
  }
  return &model;
}

int mpiopt_allreduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, const char *file, int line) {
  static int forced = -2;
  if (forced == -2) forced = mpiopt_vec_forced("MPIOPT_ALLREDUCE_ALGO");
  const mpiopt_vec_kind kind = {
      "mpiopt_allreduce",
      file,
      line,
      mpiopt_allreduce_model(),
      "MPIOPT_ALLREDUCE_ALGO",
      forced,
      {NULL, mpiopt_allreduce_binomial_cost, mpiopt_allreduce_redscat_cost, mpiopt_allreduce_ring_cost},
      {MPIOPT_STAT_ALLREDUCE_NATIVE, MPIOPT_STAT_ALLREDUCE_BINOMIAL, MPIOPT_STAT_ALLREDUCE_REDSCAT,
       MPIOPT_STAT_ALLREDUCE_RING},
  };
  static const mpiopt_vec_fn run[MPIOPT_VEC_NALGS] = {NULL, mpiopt_allreduce_binomial, mpiopt_allreduce_redscat,
                                                      mpiopt_allreduce_ring};
  mpiopt_vec v;
  int algo = mpiopt_vec_select(&kind, &v, sendbuf, recvbuf, count, datatype, op, -1, comm);
  if (algo == MPIOPT_VEC_NATIVE) return MPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  run[algo](&v, sendbuf, recvbuf);
  return MPI_SUCCESS;
}
