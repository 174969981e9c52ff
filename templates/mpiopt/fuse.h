/* Static composite reductions: the support code of reductions that
 * ompi-opt fused into one collective although their ops differ.
 *
 * ompi-opt packs the members' inputs, each reduction's elements in one
 * segment, into one buffer and reduces it as ONE element of a contiguous
 * datatype of the buffer's size: the MPI library can then never split the
 * buffer between two segments (it splits only between elements). The
 * user-defined op ompi-opt generates beside the call applies each segment's
 * own op with the segment's offsets and counts as constants. ompi-opt uses it
 * only for integer segments, whose ops are exact in any order, so the
 * composite op gives every rank the same results as the separate builtin
 * collectives; and only where the machine profile measured one composite
 * collective beating the separate builtin ones at the buffer's size.
 *
 * Assumes: called after MPI_Init, before MPI_Finalize. Saves: all but one
 * collective's latency, for one extra datatype and op per call site, created
 * on first use and freed when MPI_Finalize deletes MPI_COMM_SELF's attributes.
 * Thread safety: the first use is claimed atomically, so concurrent first
 * calls from several threads (MPI_THREAD_MULTIPLE) create the objects once.
 */
#ifndef MPIOPT_FUSE_H
#define MPIOPT_FUSE_H

#include <mpi.h>

#include "mpiopt/inline.h"

/* One call site's datatype and op; zero-initialised (static storage). */
typedef struct {
  MPI_Datatype type;
  MPI_Op op;
  int state; /* 0: not created, 1: being created, 2: ready */
} mpiopt_fuse_site;

static MPIOPT_INLINE int mpiopt_fuse_site_free(MPI_Comm comm, int keyval, void *value, void *extra) {
  mpiopt_fuse_site *s = (mpiopt_fuse_site *)value;
  (void)comm;
  (void)keyval;
  (void)extra;
  MPI_Type_free(&s->type);
  MPI_Op_free(&s->op);
  __atomic_store_n(&s->state, 0, __ATOMIC_RELEASE);
  return MPI_SUCCESS;
}

/* Create s's datatype (bytes contiguous bytes) and commutative op fn, once. */
static MPIOPT_INLINE int mpiopt_fuse_site_create(mpiopt_fuse_site *s, int bytes, MPI_User_function *fn) {
  int expected = 0, keyval, rc;
  if (!__atomic_compare_exchange_n(&s->state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
    while (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != 2)
      ; /* another thread is creating them */
    return MPI_SUCCESS;
  }
  rc = MPI_Type_contiguous(bytes, MPI_BYTE, &s->type);
  if (rc == MPI_SUCCESS)
    rc = MPI_Type_commit(&s->type);
  if (rc == MPI_SUCCESS)
    rc = MPI_Op_create(fn, 1, &s->op);
  if (rc == MPI_SUCCESS)
    rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, mpiopt_fuse_site_free, &keyval, (void *)0);
  if (rc == MPI_SUCCESS)
    rc = MPI_Comm_set_attr(MPI_COMM_SELF, keyval, s);
  if (rc != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, rc); /* only when MPI itself cannot create them */
  __atomic_store_n(&s->state, 2, __ATOMIC_RELEASE);
  return MPI_SUCCESS;
}

/* The site's datatype and op, created on first use. */
static MPIOPT_INLINE void mpiopt_fuse_site_get(mpiopt_fuse_site *s, int bytes, MPI_User_function *fn, MPI_Datatype *type,
                                        MPI_Op *op) {
  if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != 2)
    mpiopt_fuse_site_create(s, bytes, fn);
  *type = s->type;
  *op = s->op;
}

#endif /* MPIOPT_FUSE_H */
