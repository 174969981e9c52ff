/* Fusion algorithm "composite": every group of the batch in one collective.
 *
 * The groups' packed inputs are concatenated (each group 16-byte aligned)
 * into one buffer of N bytes, reduced as a single element of a contiguous
 * N-byte datatype with a user-defined op that applies each group's own op
 * to its segment (typed kernels in localop.c). One element means the MPI
 * library can never split the buffer between two segments. When every
 * group is an MPI_Reduce to the same root the collective is an MPI_Reduce,
 * otherwise an MPI_Allreduce (roots of MPI_Reduce groups take their part).
 *
 * Cost, g groups, N bytes, p ranks:
 *   log2(p) * (alpha + N * beta + N * gamma_user) + 2 * N * gamma_copy
 * against "grouped": g * log2(p) * alpha + log2(p) * N * (beta + gamma).
 * It wins when (g - 1) * log2(p) * alpha exceeds the extra copy and the
 * slower user-op path of the MPI library (no vectorised builtin reduction,
 * no pipelining, no splitting of the vector); select.c chooses between the
 * two by a measured curve of that difference against the batch's size.
 *
 * Only blocking: the op reads the layout of the batch being reduced from
 * a static pointer, which is valid only while that collective runs. */
#include <string.h>

#include "lazy_internal.h"

static mpiopt_lazy_batch *current;  /* the batch whose collective is running */
static size_t current_total;        /* its bytes: the size of one element */
static unsigned char *scratch;
static int scratch_cap;
static MPI_Op composite_op[2] = {MPI_OP_NULL, MPI_OP_NULL};  /* [commute] */

/* Cached contiguous byte types, direct-mapped by size. */
#define NTYPES 16
static struct {
  int bytes;
  MPI_Datatype dt;
} byte_types[NTYPES];

static void composite(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  size_t stride = current_total;
  for (int e = 0; e < *len; e++)
    for (int j = 0; j < current->ngroups; j++) {
      const mpiopt_lazy_group *g = &current->groups[j];
      size_t at = (size_t)e * stride + g->off;
      mpiopt_reduce_local((unsigned char *)in + at, (unsigned char *)inout + at, g->used / (size_t)g->ti->size,
                          g->ti, g->oi);
    }
}

static MPI_Datatype byte_type(int bytes) {
  int slot = (bytes / 16) % NTYPES;
  if (byte_types[slot].bytes == bytes) return byte_types[slot].dt;
  if (byte_types[slot].bytes) PMPI_Type_free(&byte_types[slot].dt);
  MPI_Type_contiguous(bytes, MPI_BYTE, &byte_types[slot].dt);
  MPI_Type_commit(&byte_types[slot].dt);
  byte_types[slot].bytes = bytes;
  return byte_types[slot].dt;
}

int mpiopt_lazy_fuse_composite(mpiopt_lazy_batch *b, mpiopt_lazy_comm *c, int nonblocking) {
  (void)nonblocking;
  size_t total = 0;
  int commute = 1, root = b->groups[0].root;
  for (int j = 0; j < b->ngroups; j++) {
    mpiopt_lazy_group *g = &b->groups[j];
    g->off = total;
    total += (g->used + 15) & ~(size_t)15;
    commute &= g->oi->commute;
    if (g->root != root) root = -1;
  }
  if (total > (size_t)0x7fffffff) return mpiopt_lazy_fuse_grouped(b, c, 0);
  scratch = mpiopt_grow_int(scratch, &scratch_cap, (int)total, 1);
  for (int j = 0; j < b->ngroups; j++) {
    mpiopt_lazy_group *g = &b->groups[j];
    memcpy(scratch + g->off, g->buf, g->used);
    g->res = scratch + g->off;
  }
  if (composite_op[commute] == MPI_OP_NULL) MPI_Op_create(composite, commute, &composite_op[commute]);
  MPI_Datatype dt = byte_type((int)total);
  current = b;
  current_total = total;
  int rc = root < 0 ? MPI_Allreduce(MPI_IN_PLACE, scratch, 1, dt, composite_op[commute], c->comm)
           : root == c->rank ? mpiopt_reduce_in_place(scratch, 1, dt, composite_op[commute], root, c->comm)
                             : MPI_Reduce(scratch, NULL, 1, dt, composite_op[commute], root, c->comm);
  current = NULL;
  mpiopt_lazy_counters.collectives++;
  return rc;
}

/* Called by MPI_Finalize (through the runtime) before MPI goes away. */
void mpiopt_lazy_composite_free(void) {
  for (int i = 0; i < NTYPES; i++)
    if (byte_types[i].bytes) {
      PMPI_Type_free(&byte_types[i].dt);
      byte_types[i].bytes = 0;
    }
  for (int i = 0; i < 2; i++)
    if (composite_op[i] != MPI_OP_NULL) PMPI_Op_free(&composite_op[i]);
}
