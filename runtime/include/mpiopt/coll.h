/* Large-vector reductions: MPI_Reduce and MPI_Allreduce through a selector
 * of algorithms (after Shan, Williams and Johnson): binomial, reduce-scatter
 * + gather (Rabenseifner) and ring, each for both collectives, with a
 * threaded local reduction (OpenMP, MPIOPT_THREADS) and sparse encodings
 * of the messages (a bitmap or an index list of the nonzero elements,
 * chosen per message from its measured density). Part of libompi-rt.
 *
 *   mpiopt_allreduce(sendbuf, recvbuf, count, datatype, op, comm)
 *   mpiopt_reduce(sendbuf, recvbuf, count, datatype, op, root, comm)
 *       the arguments and the result of MPI_Allreduce / MPI_Reduce
 *       (MPI_IN_PLACE included). Small vectors, intercommunicators,
 *       operations that are not commutative and datatypes with holes run
 *       the MPI's own call; so does every call the selector expects the
 *       MPI to do faster (by a cost model with measured parameters, and the
 *       density every rank agrees on).
 *
 * Integer results are exactly MPI's. Floating-point sums and products are
 * reassociated (as the MPI's own algorithms do differently at different
 * sizes and rank counts): equal within rounding, and the same on every
 * rank. Arguments MPI would reject stop the job with a message naming the
 * call. Environment variables (README, "Planned collectives"):
 * MPIOPT_REDUCE_ALGO, MPIOPT_ALLREDUCE_ALGO, MPIOPT_REDUCE_MODEL,
 * MPIOPT_ALLREDUCE_MODEL, MPIOPT_THREADS, MPIOPT_SPARSE,
 * MPIOPT_SPARSE_DENSITY, MPIOPT_STATS.
 *
 * Not thread-safe: call from one thread at a time.
 *
 * Valid C89/C90 (-ansi -pedantic-errors), C99 and later, and C++. */
#ifndef MPIOPT_COLL_H
#define MPIOPT_COLL_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

int mpiopt_allreduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, const char *file, int line);
int mpiopt_reduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                     MPI_Comm comm, const char *file, int line);
/* The algorithm of the last mpiopt_allreduce or mpiopt_reduce on this rank
 * ("native", "binomial", "redscat" or "ring"). */
const char *mpiopt_coll_last_algorithm(void);

#define mpiopt_allreduce(sb, rb, count, dt, op, comm) mpiopt_allreduce_at(sb, rb, count, dt, op, comm, __FILE__, __LINE__)
#define mpiopt_reduce(sb, rb, count, dt, op, root, comm)                                                            \
  mpiopt_reduce_at(sb, rb, count, dt, op, root, comm, __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif

#endif /* MPIOPT_COLL_H */
