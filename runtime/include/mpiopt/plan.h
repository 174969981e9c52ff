/* Planned collectives: MPI_Alltoallv, MPI_Alltoall, MPI_Allgatherv and
 * MPI_Allgather (an Allgatherv plan of equal blocks) with
 * a plan built once for arguments that do not change, after Jackson and
 * Booth's planned AlltoAllv. Part of libompi-rt.
 *
 *   mpiopt_alltoallv_plan_create(sendcounts, sdispls, sendtype,
 *                                recvcounts, rdispls, recvtype, comm, &plan)
 *       collective over comm: checks that every pair of ranks agrees on the
 *       bytes it exchanges, learns the node topology, and chooses the
 *       algorithm by a cost model every rank evaluates alike (or the one
 *       MPIOPT_ALLTOALLV_ALGO forces). The arrays are copied; the datatypes
 *       are duplicated, so the program may free its own.
 *   mpiopt_alltoall_plan_create(sendcount, sendtype, recvcount, recvtype,
 *                               comm, &plan)      the same for MPI_Alltoall
 *   mpiopt_allgatherv_plan_create(sendcount, sendtype, recvcounts, displs,
 *                                 recvtype, comm, &plan)
 *       the same for MPI_Allgatherv: the MPI's own algorithm or the node's
 *       shared segment (one copy in, the result copied out, one message per
 *       pair of nodes), as its cost model and a check by timing choose
 *       (MPIOPT_ALLGATHERV_ALGO, MPIOPT_ALLGATHERV_TRIAL)
 *   mpiopt_plan_execute(plan, sendbuf, recvbuf)
 *       collective: exactly MPI_Alltoallv(sendbuf, <the plan's arrays and
 *       types>, recvbuf, ..., comm) (MPI_Allgatherv for its plans).
 *       sendbuf may be MPI_IN_PLACE for an Allgatherv plan, and for an
 *       Alltoallv plan created with the receive counts, displacements and
 *       type as its send ones (as MPI_Alltoallv ignores the send arguments
 *       then).
 *   mpiopt_plan_free(&plan)     local; sets plan to NULL (NULL: nothing)
 *   mpiopt_plan_algorithm(plan) "native", "pairwise", "node" or "locality"
 *                               ("native" or "node" for an Allgatherv)
 *
 *   mpiopt_alltoallv_planned(&plan, sendbuf, sendcounts, sdispls, sendtype,
 *                            recvbuf, recvcounts, rdispls, recvtype, comm)
 *       what ompi-opt writes for a call whose arguments it proved the same
 *       on every iteration of a loop (*plan must start NULL): the first call
 *       runs MPI_Alltoallv itself, the second creates the plan (so a loop
 *       that runs once pays no planning), every call from then on executes
 *       it; the program frees it with mpiopt_plan_free after the loop.
 *   mpiopt_alltoall_planned(&plan, ...), mpiopt_allgatherv_planned(&plan,
 *       sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
 *       comm): the same for MPI_Alltoall and MPI_Allgatherv
 *   mpiopt_allgather_planned(&plan, sendbuf, sendcount, sendtype, recvbuf,
 *       recvcount, recvtype, comm): MPI_Allgather through an Allgatherv
 *       plan whose blocks are all recvcount elements, rank j's at j x
 *       recvcount
 *   mpiopt_alltoallv_cached(sendbuf, sendcounts, ..., comm)
 *       MPI_Alltoallv's own arguments, for calls whose arguments may change:
 *       a plan cache per communicator (keyed by a hash of the arrays and
 *       verified by comparing them, MPIOPT_PLAN_CACHE entries, least
 *       recently used first out, freed with the communicator). Every call
 *       agrees with the other ranks (one small MPI_Allreduce) on whether
 *       each found the same plan, and plans afresh otherwise, once every
 *       rank has met its arrays at MPIOPT_PLAN_AFTER - 1 earlier calls (15;
 *       until then the MPI's own runs: a plan costs about 16 small
 *       calls); a site whose plans keep choosing the MPI's own algorithm,
 *       or whose arrays keep being new, calls it directly for a while
 *       (doubling periods), as every rank decides alike.
 *   mpiopt_allgatherv_cached(sendbuf, sendcount, sendtype, recvbuf,
 *       recvcounts, displs, recvtype, comm): the same for MPI_Allgatherv
 *       (keyed by the send count, recvcounts and displs; one cache per
 *       communicator holds both kinds)
 *   mpiopt_alltoall_cached(sendbuf, sendcount, sendtype, recvbuf,
 *       recvcount, recvtype, comm), mpiopt_allgather_cached(the same): one
 *       plan per call site and communicator, kept while the counts,
 *       datatypes and MPI_IN_PLACE stay the same; a key runs the MPI's own
 *       call until its MPIOPT_PLAN_AFTER-th call in a row (16), which
 *       plans, the rest execute. No
 *       agreement between the ranks: the datatypes must be the same
 *       predefined ones at the site on every rank (ompi-opt writes these
 *       only for calls that name them), so that MPI's matching rule makes
 *       the counts change on every rank alike; a derived datatype runs the
 *       MPI's own call
 *
 * Every rank must call these where it would call the MPI collective, in
 * the same order. Results are those of MPI_Alltoallv for every input;
 * arguments MPI would reject (a negative count, mismatched byte counts
 * between a pair of ranks, MPI_DATATYPE_NULL, MPI_COMM_NULL) stop the job
 * with a message naming the call. Environment variables (README, "Planned
 * collectives"): MPIOPT_ALLTOALLV_ALGO, MPIOPT_ALLTOALLV_MODEL,
 * MPIOPT_ALLTOALLV_TRIAL, MPIOPT_ALLGATHERV_ALGO, MPIOPT_ALLGATHERV_TRIAL,
 * MPIOPT_RANKS_PER_NODE, MPIOPT_PLAN_CACHE, MPIOPT_PLAN_AFTER, MPIOPT_STATS.
 *
 * Not thread-safe: call from one thread at a time.
 *
 * Valid C89/C90 (-ansi -pedantic-errors), C99 and later, and C++. */
#ifndef MPIOPT_PLAN_H
#define MPIOPT_PLAN_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mpiopt_plan_s *mpiopt_plan;

/* The _at forms name the call site (in messages, and the cache's per-site
 * policy); the macros below fill it in. */
int mpiopt_alltoallv_plan_create_at(const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                                    const int *recvcounts, const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                                    mpiopt_plan *plan, const char *file, int line);
int mpiopt_alltoall_plan_create_at(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, mpiopt_plan *plan, const char *file, int line);
int mpiopt_allgatherv_plan_create_at(int sendcount, MPI_Datatype sendtype, const int *recvcounts, const int *displs,
                                     MPI_Datatype recvtype, MPI_Comm comm, mpiopt_plan *plan, const char *file,
                                     int line);
int mpiopt_plan_execute(mpiopt_plan plan, const void *sendbuf, void *recvbuf);
int mpiopt_plan_free(mpiopt_plan *plan);
const char *mpiopt_plan_algorithm(mpiopt_plan plan);

int mpiopt_alltoallv_planned_at(mpiopt_plan *plan, const void *sendbuf, const int *sendcounts, const int *sdispls,
                                MPI_Datatype sendtype, void *recvbuf, const int *recvcounts, const int *rdispls,
                                MPI_Datatype recvtype, MPI_Comm comm, const char *file, int line);
int mpiopt_alltoall_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file,
                               int line);
int mpiopt_allgatherv_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                                 MPI_Comm comm, const char *file, int line);
int mpiopt_allgather_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file,
                                int line);
int mpiopt_alltoallv_cached_at(const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                               void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                               MPI_Comm comm, const char *file, int line);
int mpiopt_allgatherv_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int *recvcounts, const int *displs, MPI_Datatype recvtype, MPI_Comm comm,
                                const char *file, int line);
int mpiopt_alltoall_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file, int line);
int mpiopt_allgather_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file, int line);

#define mpiopt_alltoallv_plan_create(sc, sd, st, rc, rd, rt, comm, plan)                                            \
  mpiopt_alltoallv_plan_create_at(sc, sd, st, rc, rd, rt, comm, plan, __FILE__, __LINE__)
#define mpiopt_alltoall_plan_create(scount, st, rcount, rt, comm, plan)                                             \
  mpiopt_alltoall_plan_create_at(scount, st, rcount, rt, comm, plan, __FILE__, __LINE__)
#define mpiopt_allgatherv_plan_create(scount, st, rc, rd, rt, comm, plan)                                          \
  mpiopt_allgatherv_plan_create_at(scount, st, rc, rd, rt, comm, plan, __FILE__, __LINE__)
#define mpiopt_allgatherv_planned(plan, sb, scount, st, rb, rc, rd, rt, comm)                                       \
  mpiopt_allgatherv_planned_at(plan, sb, scount, st, rb, rc, rd, rt, comm, __FILE__, __LINE__)
#define mpiopt_allgather_planned(plan, sb, scount, st, rb, rcount, rt, comm)                                        \
  mpiopt_allgather_planned_at(plan, sb, scount, st, rb, rcount, rt, comm, __FILE__, __LINE__)
#define mpiopt_alltoallv_planned(plan, sb, sc, sd, st, rb, rc, rd, rt, comm)                                        \
  mpiopt_alltoallv_planned_at(plan, sb, sc, sd, st, rb, rc, rd, rt, comm, __FILE__, __LINE__)
#define mpiopt_alltoall_planned(plan, sb, scount, st, rb, rcount, rt, comm)                                         \
  mpiopt_alltoall_planned_at(plan, sb, scount, st, rb, rcount, rt, comm, __FILE__, __LINE__)
#define mpiopt_alltoallv_cached(sb, sc, sd, st, rb, rc, rd, rt, comm)                                               \
  mpiopt_alltoallv_cached_at(sb, sc, sd, st, rb, rc, rd, rt, comm, __FILE__, __LINE__)
#define mpiopt_allgatherv_cached(sb, scount, st, rb, rc, rd, rt, comm)                                              \
  mpiopt_allgatherv_cached_at(sb, scount, st, rb, rc, rd, rt, comm, __FILE__, __LINE__)
#define mpiopt_alltoall_cached(sb, scount, st, rb, rcount, rt, comm)                                                \
  mpiopt_alltoall_cached_at(sb, scount, st, rb, rcount, rt, comm, __FILE__, __LINE__)
#define mpiopt_allgather_cached(sb, scount, st, rb, rcount, rt, comm)                                               \
  mpiopt_allgather_cached_at(sb, scount, st, rb, rcount, rt, comm, __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif

#endif /* MPIOPT_PLAN_H */
