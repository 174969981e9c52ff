/* Lazy reduction fusion: deferred MPI_Allreduce / MPI_Reduce, fused at a
 * force point into as few collectives as possible (after Field, Kelly and
 * Hansen's CFL). Part of libompi-rt.
 *
 *   mpiopt_lazy_allreduce(sendbuf, recvbuf, count, datatype, op, comm)
 *   mpiopt_lazy_reduce(sendbuf, recvbuf, count, datatype, op, root, comm)
 *       queue the operation and return at once. The input (sendbuf, or
 *       recvbuf for MPI_IN_PLACE) is copied now, so the caller may reuse it;
 *       recvbuf must not be read or written until the result is delivered.
 *   mpiopt_lazy_flush(comm)    deliver every pending operation on comm
 *   mpiopt_lazy_flush_all()    ... on every communicator
 *   mpiopt_lazy_wait(recvbuf)  deliver recvbuf's result (flushing its
 *                              communicator) if it is pending; else no-op
 *   mpiopt_lazy_wait_range(p, bytes)  the same for any result overlapping
 *                              p[0..bytes)
 *
 * Every rank of a communicator must queue the same operations in the same
 * order and flush at the same points, as with the collectives they replace
 * (MPIOPT_CHECK=1 verifies this at every flush). MPI_Finalize flushes
 * everything. Environment variables (README, "Lazy reduction fusion"):
 * MPIOPT_LAZY, MPIOPT_LAZY_FUSE, MPIOPT_LAZY_MODEL, MPIOPT_LAZY_ADAPT, MPIOPT_LAZY_ASYNC,
 * MPIOPT_CHECK, MPIOPT_LAZY_STATS.
 *
 * Not thread-safe: call from one thread at a time.
 *
 * Linking: code written by ompi-opt includes this header through
 * mpiopt/lazy_optional.h, which gives the three entry points it calls
 * (mpiopt_lazy_allreduce_at, mpiopt_lazy_reduce_at,
 * mpiopt_lazy_wait_range_at) weak definitions (GCC and Clang, ELF) that run
 * the MPI call at once (a wait does nothing). An object compiled by
 * ompi-cc -c that a plain mpicc or mpicxx links without libompi-rt
 * therefore runs exactly as the original program. Where libompi-rt is
 * linked, its strong definitions replace them: ompi-cc, pkg-config ompi-rt
 * and CMake's OMPI::rt pull them in with -Wl,--undefined=
 * mpiopt_lazy_runtime_linked (a weak definition alone would not pull a
 * member out of the static library). The calls stay plain calls, so a file
 * with thousands of them compiles as fast as before. Code that includes
 * this header itself refers to the runtime as to any library.
 *
 * Valid C89/C90 (-ansi -pedantic-errors), C99 and later, and C++. */
#ifndef MPIOPT_LAZY_H
#define MPIOPT_LAZY_H

#include <stddef.h>

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __GNUC__
#define MPIOPT_LAZY_EXT __extension__ /* long long in C89 */
#else
#define MPIOPT_LAZY_EXT
#endif

/* The _at forms name the call site (for MPIOPT_CHECK messages and the
 * per-site adaptive policy); the macros below fill it in. */
int mpiopt_lazy_allreduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, const char *file, int line);
int mpiopt_lazy_reduce_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, int root, MPI_Comm comm, const char *file, int line);
int mpiopt_lazy_flush_at(MPI_Comm comm, const char *file, int line);
/* As mpiopt_lazy_allreduce, but sendbuf is read when the operation is
 * flushed, not at the call: the caller may keep accumulating into it until
 * then (the C++ front end, mpiopt/shared.hpp, builds on this). */
int mpiopt_lazy_allreduce_by_ref_at(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, const char *file, int line);
int mpiopt_lazy_wait_at(const void *recvbuf, const char *file, int line);
int mpiopt_lazy_wait_range_at(const void *p, size_t bytes, const char *file, int line);

/* Function forms (the call site is the caller's return address). */
int mpiopt_lazy_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm);
int mpiopt_lazy_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       int root, MPI_Comm comm);
int mpiopt_lazy_flush(MPI_Comm comm);
int mpiopt_lazy_flush_all(void);
int mpiopt_lazy_wait(const void *recvbuf);
/* Deliver every pending result that overlaps p[0..bytes) (ompi-opt inserts
 * this before each read of a variable a deferred reduction writes). */
int mpiopt_lazy_wait_range(const void *p, size_t bytes);

/* 1 when a deferred result for an address inside recvbuf[0..bytes) has not
 * been delivered yet (pending or in flight), else 0. Never communicates. */
int mpiopt_lazy_pending(const void *recvbuf, size_t bytes);

/* Changes whenever queued operations are taken for a collective (a flush,
 * or an operation executed at once): while it is unchanged, an operation
 * queued with mpiopt_lazy_allreduce_by_ref_at still reads its input later. */
MPIOPT_LAZY_EXT extern unsigned long long mpiopt_lazy_epoch;

/* Defined by the runtime (queue.c) only: what links pull in to get it. */
extern const int mpiopt_lazy_runtime_linked;

/* Counters since MPI_Init (or the last reset), identical on every rank. */
typedef struct {
  MPIOPT_LAZY_EXT unsigned long long queued;      /* operations deferred */
  MPIOPT_LAZY_EXT unsigned long long immediate;   /* operations executed at once (adaptive, unsupported types, MPIOPT_LAZY=0) */
  MPIOPT_LAZY_EXT unsigned long long flushes;     /* non-empty flushes */
  MPIOPT_LAZY_EXT unsigned long long collectives; /* collectives issued, fused and immediate */
  MPIOPT_LAZY_EXT unsigned long long max_fused;   /* most operations delivered by one flush */
} mpiopt_lazy_stats_t;
void mpiopt_lazy_get_stats(mpiopt_lazy_stats_t *stats);
void mpiopt_lazy_reset_stats(void);

#define mpiopt_lazy_allreduce(s, r, c, d, o, comm) mpiopt_lazy_allreduce_at(s, r, c, d, o, comm, __FILE__, __LINE__)
#define mpiopt_lazy_reduce(s, r, c, d, o, root, comm)                                                                \
  mpiopt_lazy_reduce_at(s, r, c, d, o, root, comm, __FILE__, __LINE__)
#define mpiopt_lazy_flush(comm) mpiopt_lazy_flush_at(comm, __FILE__, __LINE__)
#define mpiopt_lazy_wait(r) mpiopt_lazy_wait_at(r, __FILE__, __LINE__)
#define mpiopt_lazy_wait_range(p, n) mpiopt_lazy_wait_range_at(p, n, __FILE__, __LINE__)
/* The same wait as a declaration (of an int nobody reads), for the places
   among a block's declarations where C89 allows no statement. */
#ifdef __GNUC__
#define MPIOPT_LAZY_UNUSED __attribute__((unused))
#else
#define MPIOPT_LAZY_UNUSED
#endif
#define mpiopt_lazy_wait_decl(name, p, n) int name MPIOPT_LAZY_UNUSED = mpiopt_lazy_wait_range(p, n)

#ifdef __cplusplus
}
#endif

#endif /* MPIOPT_LAZY_H */
