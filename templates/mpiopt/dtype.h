/* Compiled derived datatypes: point-to-point calls whose datatype ompi-opt
 * found built in the same file from static arguments (MPI_Type_vector,
 * MPI_Type_create_hvector, MPI_Type_contiguous, MPI_Type_create_subarray of
 * up to 3 dimensions, MPI_Type_create_resized, of a predefined type or of
 * each other; MPI_Type_create_indexed_block and _hindexed_block, strided or
 * as a run list of displacements: the _ix forms).
 *
 * The shape comes from the call site as constants: count elements of the
 * derived type, each nblocks blocks of blocklen elements of the predefined
 * type base (elem bytes each), block starts stride bytes apart, successive
 * elements extent bytes apart; the _nd forms add an offset of the first
 * block and nouter groups of those blocks ostride bytes apart (a 3-D
 * subarray: the rows of a plane, the planes). After inlining, the pack and unpack loops
 * have constant trip counts and strides, which the C compiler unrolls or
 * vectorises.
 *
 * Assumes: the datatype handle passed is the committed type of that shape
 * (ompi-opt proves it: every construction of the variable builds the same
 * shape, and nothing else writes it). What travels is what the derived type
 * would send: count * nblocks * blocklen elements of base, in typemap
 * order, so a transformed sender matches an untransformed receiver and the
 * reverse (MPI matches type signatures, not layouts); the status of a
 * receive records the same bytes, so MPI_Get_count and MPI_Get_elements
 * with the derived type give what they would have; a shorter message
 * unpacks only the elements that came, as MPI would. A count of 0 or less,
 * MPI_PROC_NULL, or more than INT_MAX elements in all, runs the generic call.
 *
 * Saves: MPI's datatype engine (a generic interpreter of the typemap) on
 * both sides, for one copy into or out of a scratch buffer. ompi-opt uses
 * a template only where the machine profile ("templates.vector") measured
 * it faster than the generic call at the message's size and the length of
 * its contiguous runs: on columns (8-byte runs) the template wins by up to
 * 4x with MPICH here, and on small ones with Open MPI; with runs of 64 and
 * 512 bytes the engines copy each block straight into the transfer and the
 * template's two extra copies lose, except on small messages.
 *
 * Thread safety: the scratch buffers are per thread (_Thread_local), grown
 * geometrically and kept until the thread ends; with MPI_THREAD_MULTIPLE
 * several threads may run templates at once. */
#ifndef MPIOPT_DTYPE_H
#define MPIOPT_DTYPE_H

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "mpiopt/inline.h"

/* The run-time forms keep their packing out of line: inlined into a
   caller's hot loop nest, it changed the code of the caller's own loops
   (a CG core ran up to 15% slower where every message took the generic
   call). */
#if defined(__GNUC__)
#define MPIOPT_NOINLINE __attribute__((noinline, unused))
#else
#define MPIOPT_NOINLINE
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define MPIOPT_THREAD_LOCAL _Thread_local
#else
#define MPIOPT_THREAD_LOCAL __thread /* GCC and Clang, in every C mode */
#endif

/* Scratch buffer which (0: send, 1: receive) of at least bytes; NULL when
   memory runs out (the caller then runs the generic call). */
static MPIOPT_INLINE void *mpiopt_dtype_scratch(int which, size_t bytes) {
  static MPIOPT_THREAD_LOCAL void *buf[2];
  static MPIOPT_THREAD_LOCAL size_t cap[2];
  if (bytes > cap[which]) {
    size_t n = cap[which] ? cap[which] : 4096;
    void *p;
    while (n < bytes)
      n *= 2;
    p = realloc(buf[which], n);
    if (!p)
      return (void *)0;
    buf[which] = p;
    cap[which] = n;
  }
  return buf[which];
}

/* A shape without holes (one block, or blocks that abut, elements that
   abut): the user's buffer is already the dense message. */
#define MPIOPT_DTYPE_DENSE(nblocks, blocklen, stride, extent, elem)                                                  \
  (((nblocks) == 1 || (stride) == (MPI_Aint)(blocklen) * (elem)) &&                                                   \
   (extent) == (MPI_Aint)(nblocks) * (blocklen) * (elem))

/* The same for a shape of two levels from an offset (ompi-opt merges the
   levels of a shape without holes, so this is the one-level test). */
#define MPIOPT_DTYPE_DENSE_ND(offset, nouter, nblocks, blocklen, stride, extent, elem)                               \
  ((offset) == 0 && (nouter) == 1 && MPIOPT_DTYPE_DENSE(nblocks, blocklen, stride, extent, elem))

/* Elements of base in count elements of the shape, or -1 when over INT_MAX. */
static MPIOPT_INLINE int mpiopt_dtype_elements(int count, int nblocks, int blocklen) {
  double n = (double)count * nblocks * blocklen; /* exact below 2^53 */
  return n > INT_MAX || n < 0 ? -1 : (int)n;
}

/* One block: a block of one 8- or 4-byte element (a matrix column) gets a
   copy of constant size also where the shape is known only at run time
   (with a constant shape the test folds away). */
static MPIOPT_INLINE void mpiopt_dtype_copy(void *d, const void *s, size_t block) {
  if (block == 8)
    memcpy(d, s, 8);
  else if (block == 4)
    memcpy(d, s, 4);
  else
    memcpy(d, s, block);
}

/* Whether count elements of the shape may write a byte twice (a resized
   column whose elements interleave at a stride too short for them). A
   receive datatype whose entries overlap is erroneous MPI, and which write
   lands last is the library's affair: the receive templates then call the
   MPI as written, so the program behaves exactly as before. Exact for one
   level of blocks; a shape of two levels counts when one element's span
   exceeds its extent. Runs in O(span / extent), nothing for the usual
   shapes (span <= extent). */
static MPIOPT_INLINE int mpiopt_dtype_may_overlap(int count, MPI_Aint offset, int nouter, MPI_Aint ostride,
                                                 int nblocks, int blocklen, MPI_Aint stride, MPI_Aint extent,
                                                 int elem) {
  MPI_Aint block = (MPI_Aint)blocklen * elem, inner, span, d;
  MPI_Aint as = stride < 0 ? -stride : stride, aos = ostride < 0 ? -ostride : ostride;
  (void)offset;
  if (nblocks > 1 && as < block)
    return 1; /* blocks of one group overlap */
  inner = (MPI_Aint)(nblocks > 0 ? nblocks - 1 : 0) * as + block;
  if (nouter > 1 && aos < inner)
    return 1; /* groups that interleave may overlap */
  if (count <= 1)
    return 0;
  span = (MPI_Aint)(nouter > 0 ? nouter - 1 : 0) * aos + inner;
  if (extent > 0 && span <= extent)
    return 0;
  if (nouter != 1 || extent <= 0 || stride <= 0)
    return 1;
  /* Element e's blocks start at e * extent + b * stride: elements d apart
     meet where some |d * extent + m * stride| < block, |m| < nblocks. */
  for (d = 1; d < count && d * extent < span; d++) {
    MPI_Aint q = (d * extent) / stride, m;
    for (m = q; m <= q + 1; m++)
      if (m < nblocks && (d * extent - m * stride < block && m * stride - d * extent < block))
        return 1;
  }
  return 0;
}

/* Copy count elements of the shape at src into dst, densely: each element
   nouter groups ostride bytes apart of nblocks blocks stride bytes apart,
   the first offset bytes in. */
static MPIOPT_INLINE void mpiopt_dtype_pack_nd(void *dst, const void *src, int count, MPI_Aint offset, int nouter,
                                        MPI_Aint ostride, int nblocks, int blocklen, MPI_Aint stride,
                                        MPI_Aint extent, int elem) {
  char *d = (char *)dst;
  const char *s = (const char *)src + offset;
  size_t block = (size_t)blocklen * (size_t)elem;
  int e, o, b;
  for (e = 0; e < count; e++, s += extent)
    for (o = 0; o < nouter; o++)
      for (b = 0; b < nblocks; b++, d += block)
        mpiopt_dtype_copy(d, s + (MPI_Aint)o * ostride + (MPI_Aint)b * stride, block);
}

static MPIOPT_INLINE void mpiopt_dtype_pack(void *dst, const void *src, int count, int nblocks, int blocklen,
                                     MPI_Aint stride, MPI_Aint extent, int elem) {
  mpiopt_dtype_pack_nd(dst, src, count, 0, 1, 0, nblocks, blocklen, stride, extent, elem);
}

/* Copy the first n elements of base from src back into the shape at dst. */
static MPIOPT_INLINE void mpiopt_dtype_unpack_nd(void *dst, const void *src, int n, MPI_Aint offset, int nouter,
                                          MPI_Aint ostride, int nblocks, int blocklen, MPI_Aint stride,
                                          MPI_Aint extent, int elem) {
  char *d = (char *)dst + offset;
  const char *s = (const char *)src;
  size_t block = (size_t)blocklen * (size_t)elem;
  int full = n / (nouter * nblocks * blocklen), e, o, b;
  for (e = 0; e < full; e++, d += extent)
    for (o = 0; o < nouter; o++)
      for (b = 0; b < nblocks; b++, s += block)
        mpiopt_dtype_copy(d + (MPI_Aint)o * ostride + (MPI_Aint)b * stride, s, block);
  n -= full * nouter * nblocks * blocklen; /* a message shorter than the buffer */
  for (o = 0; n > 0; o++)
    for (b = 0; n > 0 && b < nblocks; b++, s += block) {
      int k = n < blocklen ? n : blocklen;
      memcpy(d + (MPI_Aint)o * ostride + (MPI_Aint)b * stride, s, (size_t)k * (size_t)elem);
      n -= k;
    }
}

/* The calls, with the arguments of the call they replace first and the
   shape after them (ompi-opt appends the shape and renames the call). The
   _nd forms take a shape of two levels from an offset (subarrays, resized
   vectors); the short forms, one level from the buffer's start. */

/* MPI_Send (ssend 0) or MPI_Ssend (ssend 1) of count elements of the shape. */
static MPIOPT_INLINE int mpiopt_send_dtype_nd(const void *buf, int count, MPI_Datatype dtype, int dest, int tag,
                                       MPI_Comm comm, MPI_Aint offset, int nouter, MPI_Aint ostride, int nblocks,
                                       int blocklen, MPI_Aint stride, MPI_Aint extent, MPI_Datatype base, int elem,
                                       int ssend) {
  int n = mpiopt_dtype_elements(count, nouter * nblocks, blocklen);
  void *p;
  if (n > 0 && MPIOPT_DTYPE_DENSE_ND(offset, nouter, nblocks, blocklen, stride, extent, elem)) /* no copy needed */
    return ssend ? MPI_Ssend(buf, n, base, dest, tag, comm) : MPI_Send(buf, n, base, dest, tag, comm);
  p = n > 0 && dest != MPI_PROC_NULL ? mpiopt_dtype_scratch(0, (size_t)n * (size_t)elem) : (void *)0;
  if (!p)
    return ssend ? MPI_Ssend(buf, count, dtype, dest, tag, comm) : MPI_Send(buf, count, dtype, dest, tag, comm);
  mpiopt_dtype_pack_nd(p, buf, count, offset, nouter, ostride, nblocks, blocklen, stride, extent, elem);
  return ssend ? MPI_Ssend(p, n, base, dest, tag, comm) : MPI_Send(p, n, base, dest, tag, comm);
}

static MPIOPT_INLINE int mpiopt_send_dtype(const void *buf, int count, MPI_Datatype dtype, int dest, int tag, MPI_Comm comm,
                                    int nblocks, int blocklen, MPI_Aint stride, MPI_Aint extent, MPI_Datatype base,
                                    int elem, int ssend) {
  return mpiopt_send_dtype_nd(buf, count, dtype, dest, tag, comm, 0, 1, 0, nblocks, blocklen, stride, extent, base,
                              elem, ssend);
}

/* Unpack what the status says arrived (elements of base) into buf. */
static MPIOPT_INLINE void mpiopt_dtype_arrived(void *buf, const void *p, const MPI_Status *st, MPI_Aint offset,
                                        int nouter, MPI_Aint ostride, int nblocks, int blocklen, MPI_Aint stride,
                                        MPI_Aint extent, int elem) {
  int bytes = 0;
  MPI_Get_count(st, MPI_BYTE, &bytes);
  if (bytes > 0)
    mpiopt_dtype_unpack_nd(buf, p, bytes / elem, offset, nouter, ostride, nblocks, blocklen, stride, extent, elem);
}

static MPIOPT_INLINE int mpiopt_recv_dtype_nd(void *buf, int count, MPI_Datatype dtype, int source, int tag,
                                       MPI_Comm comm, MPI_Status *status, MPI_Aint offset, int nouter,
                                       MPI_Aint ostride, int nblocks, int blocklen, MPI_Aint stride, MPI_Aint extent,
                                       MPI_Datatype base, int elem) {
  int n = mpiopt_dtype_elements(count, nouter * nblocks, blocklen), rc;
  void *p;
  MPI_Status st;
  if (n > 0 && MPIOPT_DTYPE_DENSE_ND(offset, nouter, nblocks, blocklen, stride, extent, elem))
    return MPI_Recv(buf, n, base, source, tag, comm, status);
  p = n > 0 && source != MPI_PROC_NULL &&
              !mpiopt_dtype_may_overlap(count, offset, nouter, ostride, nblocks, blocklen, stride, extent, elem)
          ? mpiopt_dtype_scratch(1, (size_t)n * (size_t)elem)
          : (void *)0;
  if (!p)
    return MPI_Recv(buf, count, dtype, source, tag, comm, status);
  rc = MPI_Recv(p, n, base, source, tag, comm, &st);
  if (rc != MPI_SUCCESS)
    return rc;
  mpiopt_dtype_arrived(buf, p, &st, offset, nouter, ostride, nblocks, blocklen, stride, extent, elem);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

static MPIOPT_INLINE int mpiopt_recv_dtype(void *buf, int count, MPI_Datatype dtype, int source, int tag, MPI_Comm comm,
                                    MPI_Status *status, int nblocks, int blocklen, MPI_Aint stride, MPI_Aint extent,
                                    MPI_Datatype base, int elem) {
  return mpiopt_recv_dtype_nd(buf, count, dtype, source, tag, comm, status, 0, 1, 0, nblocks, blocklen, stride,
                              extent, base, elem);
}

/* MPI_Sendrecv where either side (or both) has a compiled shape; a side
   whose nblocks is 0 passes through as written. */
static MPIOPT_INLINE int mpiopt_sendrecv_dtype_nd(
    const void *sendbuf, int scount, MPI_Datatype stype, int dest, int stag, void *recvbuf, int rcount,
    MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status *status, MPI_Aint soffset, int snouter,
    MPI_Aint sostride, int snblocks, int sblocklen, MPI_Aint sstride, MPI_Aint sextent, MPI_Datatype sbase, int selem,
    MPI_Aint roffset, int rnouter, MPI_Aint rostride, int rnblocks, int rblocklen, MPI_Aint rstride,
    MPI_Aint rextent, MPI_Datatype rbase, int relem) {
  int sn = snblocks ? mpiopt_dtype_elements(scount, snouter * snblocks, sblocklen) : 0;
  int rn = rnblocks ? mpiopt_dtype_elements(rcount, rnouter * rnblocks, rblocklen) : 0;
  void *sp = sn > 0 && dest != MPI_PROC_NULL ? mpiopt_dtype_scratch(0, (size_t)sn * (size_t)selem) : (void *)0;
  void *rp = rn > 0 && source != MPI_PROC_NULL &&
                     !mpiopt_dtype_may_overlap(rcount, roffset, rnouter, rostride, rnblocks, rblocklen, rstride,
                                               rextent, relem)
                 ? mpiopt_dtype_scratch(1, (size_t)rn * (size_t)relem)
                 : (void *)0;
  MPI_Status st;
  int rc;
  if (!sp && !rp)
    return MPI_Sendrecv(sendbuf, scount, stype, dest, stag, recvbuf, rcount, rtype, source, rtag, comm, status);
  if (sp)
    mpiopt_dtype_pack_nd(sp, sendbuf, scount, soffset, snouter, sostride, snblocks, sblocklen, sstride, sextent,
                         selem);
  rc = MPI_Sendrecv(sp ? sp : sendbuf, sp ? sn : scount, sp ? sbase : stype, dest, stag, rp ? rp : recvbuf,
                    rp ? rn : rcount, rp ? rbase : rtype, source, rtag, comm, &st);
  if (rc != MPI_SUCCESS)
    return rc;
  if (rp)
    mpiopt_dtype_arrived(recvbuf, rp, &st, roffset, rnouter, rostride, rnblocks, rblocklen, rstride, rextent, relem);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

static MPIOPT_INLINE int mpiopt_sendrecv_dtype(const void *sendbuf, int scount, MPI_Datatype stype, int dest, int stag,
                                        void *recvbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                                        MPI_Comm comm, MPI_Status *status, int snblocks, int sblocklen,
                                        MPI_Aint sstride, MPI_Aint sextent, MPI_Datatype sbase, int selem,
                                        int rnblocks, int rblocklen, MPI_Aint rstride, MPI_Aint rextent,
                                        MPI_Datatype rbase, int relem) {
  return mpiopt_sendrecv_dtype_nd(sendbuf, scount, stype, dest, stag, recvbuf, rcount, rtype, source, rtag, comm,
                                  status, 0, 1, 0, snblocks, sblocklen, sstride, sextent, sbase, selem, 0, 1, 0,
                                  rnblocks, rblocklen, rstride, rextent, rbase, relem);
}

/* Run lists: an MPI_Type_create_indexed_block or _hindexed_block whose
   displacements are not evenly spaced (no stride describes them). ompi-opt
   declares the blocks' byte displacements from the buffer, in typemap
   order, as a static const table at the start of the calling function
   (mpiopt_displs_NAME) and passes it with the shape: each element nblocks
   blocks of blocklen elements of base at displs[b] bytes, elements extent
   bytes apart. ompi-opt proves that the blocks of one element do not
   overlap and lie within its extent (its lower to its upper bound), so
   count elements never write a byte twice. It uses these forms where the
   machine profile's "templates.indexed" measurements show them faster. */
static MPIOPT_INLINE void mpiopt_dtype_pack_ix(void *dst, const void *src, int count, const MPI_Aint *displs,
                                              int nblocks, int blocklen, MPI_Aint extent, int elem) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t block = (size_t)blocklen * (size_t)elem;
  int e, b;
  for (e = 0; e < count; e++, s += extent)
    for (b = 0; b < nblocks; b++, d += block)
      mpiopt_dtype_copy(d, s + displs[b], block);
}

/* Copy the first n elements of base from src back into the run list at dst. */
static MPIOPT_INLINE void mpiopt_dtype_unpack_ix(void *dst, const void *src, int n, const MPI_Aint *displs,
                                                int nblocks, int blocklen, MPI_Aint extent, int elem) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t block = (size_t)blocklen * (size_t)elem;
  int full = n / (nblocks * blocklen), e, b;
  for (e = 0; e < full; e++, d += extent)
    for (b = 0; b < nblocks; b++, s += block)
      mpiopt_dtype_copy(d + displs[b], s, block);
  n -= full * nblocks * blocklen; /* a message shorter than the buffer */
  for (b = 0; n > 0; b++, s += block) {
    int k = n < blocklen ? n : blocklen;
    memcpy(d + displs[b], s, (size_t)k * (size_t)elem);
    n -= k;
  }
}

/* Unpack what the status says arrived (elements of base) into the run list. */
static MPIOPT_INLINE void mpiopt_dtype_arrived_ix(void *buf, const void *p, const MPI_Status *st,
                                                 const MPI_Aint *displs, int nblocks, int blocklen, MPI_Aint extent,
                                                 int elem) {
  int bytes = 0;
  MPI_Get_count(st, MPI_BYTE, &bytes);
  if (bytes > 0)
    mpiopt_dtype_unpack_ix(buf, p, bytes / elem, displs, nblocks, blocklen, extent, elem);
}

/* MPI_Send (ssend 0) or MPI_Ssend (ssend 1) of count elements of the run list. */
static MPIOPT_INLINE int mpiopt_send_dtype_ix(const void *buf, int count, MPI_Datatype dtype, int dest, int tag,
                                             MPI_Comm comm, const MPI_Aint *displs, int nblocks, int blocklen,
                                             MPI_Aint extent, MPI_Datatype base, int elem, int ssend) {
  int n = mpiopt_dtype_elements(count, nblocks, blocklen);
  void *p = n > 0 && dest != MPI_PROC_NULL ? mpiopt_dtype_scratch(0, (size_t)n * (size_t)elem) : (void *)0;
  if (!p)
    return ssend ? MPI_Ssend(buf, count, dtype, dest, tag, comm) : MPI_Send(buf, count, dtype, dest, tag, comm);
  mpiopt_dtype_pack_ix(p, buf, count, displs, nblocks, blocklen, extent, elem);
  return ssend ? MPI_Ssend(p, n, base, dest, tag, comm) : MPI_Send(p, n, base, dest, tag, comm);
}

static MPIOPT_INLINE int mpiopt_recv_dtype_ix(void *buf, int count, MPI_Datatype dtype, int source, int tag,
                                             MPI_Comm comm, MPI_Status *status, const MPI_Aint *displs, int nblocks,
                                             int blocklen, MPI_Aint extent, MPI_Datatype base, int elem) {
  int n = mpiopt_dtype_elements(count, nblocks, blocklen), rc;
  void *p = n > 0 && source != MPI_PROC_NULL ? mpiopt_dtype_scratch(1, (size_t)n * (size_t)elem) : (void *)0;
  MPI_Status st;
  if (!p)
    return MPI_Recv(buf, count, dtype, source, tag, comm, status);
  rc = MPI_Recv(p, n, base, source, tag, comm, &st);
  if (rc != MPI_SUCCESS)
    return rc;
  mpiopt_dtype_arrived_ix(buf, p, &st, displs, nblocks, blocklen, extent, elem);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* MPI_Sendrecv where either side (or both) is a run list; a side whose
   nblocks is 0 passes through as written (a strided side among them). */
static MPIOPT_INLINE int mpiopt_sendrecv_dtype_ix(const void *sendbuf, int scount, MPI_Datatype stype, int dest,
                                                 int stag, void *recvbuf, int rcount, MPI_Datatype rtype, int source,
                                                 int rtag, MPI_Comm comm, MPI_Status *status, const MPI_Aint *sdispls,
                                                 int snblocks, int sblocklen, MPI_Aint sextent, MPI_Datatype sbase,
                                                 int selem, const MPI_Aint *rdispls, int rnblocks, int rblocklen,
                                                 MPI_Aint rextent, MPI_Datatype rbase, int relem) {
  int sn = snblocks ? mpiopt_dtype_elements(scount, snblocks, sblocklen) : 0;
  int rn = rnblocks ? mpiopt_dtype_elements(rcount, rnblocks, rblocklen) : 0;
  void *sp = sn > 0 && dest != MPI_PROC_NULL ? mpiopt_dtype_scratch(0, (size_t)sn * (size_t)selem) : (void *)0;
  void *rp = rn > 0 && source != MPI_PROC_NULL ? mpiopt_dtype_scratch(1, (size_t)rn * (size_t)relem) : (void *)0;
  MPI_Status st;
  int rc;
  if (!sp && !rp)
    return MPI_Sendrecv(sendbuf, scount, stype, dest, stag, recvbuf, rcount, rtype, source, rtag, comm, status);
  if (sp)
    mpiopt_dtype_pack_ix(sp, sendbuf, scount, sdispls, snblocks, sblocklen, sextent, selem);
  rc = MPI_Sendrecv(sp ? sp : sendbuf, sp ? sn : scount, sp ? sbase : stype, dest, stag, rp ? rp : recvbuf,
                    rp ? rn : rcount, rp ? rbase : rtype, source, rtag, comm, &st);
  if (rc != MPI_SUCCESS)
    return rc;
  if (rp)
    mpiopt_dtype_arrived_ix(recvbuf, rp, &st, rdispls, rnblocks, rblocklen, rextent, relem);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* Collectives whose datatype (a side of them) has a compiled shape: Bcast,
 * Gather, Scatter and Alltoall on an intracommunicator. The shape's
 * elements travel packed as elements of its base type, so the type
 * signature every rank sees is the derived type's: a transformed rank takes
 * part in the collective with untransformed ones. A collective's counts
 * match exactly (the standard requires equal signatures), so no message is
 * short. Each root's or rank's count elements of the shape are packed in
 * typemap order; several ranks' chunks of count elements each lie one
 * extent after another in the user's buffer, so packing size x count
 * elements packs them in rank order. Run generically: an intercommunicator,
 * MPI_IN_PLACE, a count of 0, or more than INT_MAX elements in all. Only
 * the root's (Gather, Scatter) receive or send side is read at the root;
 * elsewhere it passes through as written, as MPI ignores it there. A side
 * whose nblocks is 0 passes through as written everywhere. */

/* Whether a collective on comm can go through a template: an
   intracommunicator (the root's and the ranks' roles differ on an
   intercommunicator). */
static MPIOPT_INLINE int mpiopt_dtype_intra(MPI_Comm comm, int *rank, int *size) {
  int inter = 1;
  if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
    return 0;
  return MPI_Comm_rank(comm, rank) == MPI_SUCCESS && MPI_Comm_size(comm, size) == MPI_SUCCESS;
}

/* A side of a collective (or of a run-time sendrecv): a strided shape of
   the _nd form, or a run list (displs, its table: the _ix form). nblocks 0:
   the side as written. count and type: a run-time sendrecv's side as it
   is sent. */
struct mpiopt_dtype_side {
  int count, nouter, nblocks, blocklen, elem;
  MPI_Datatype type, base;
  MPI_Aint offset, ostride, stride, extent;
  const MPI_Aint *displs; /* a run list's table, or null */
};

static MPIOPT_INLINE struct mpiopt_dtype_side mpiopt_dtype_nd_side(MPI_Aint offset, int nouter, MPI_Aint ostride,
                                                                 int nblocks, int blocklen, MPI_Aint stride,
                                                                 MPI_Aint extent, MPI_Datatype base, int elem) {
  struct mpiopt_dtype_side d;
  memset(&d, 0, sizeof d);
  d.offset = offset;
  d.nouter = nouter;
  d.ostride = ostride;
  d.nblocks = nblocks;
  d.blocklen = blocklen;
  d.stride = stride;
  d.extent = extent;
  d.type = d.base = base;
  d.elem = elem;
  return d;
}

static MPIOPT_INLINE struct mpiopt_dtype_side mpiopt_dtype_ix_side(const MPI_Aint *displs, int nblocks, int blocklen,
                                                                 MPI_Aint extent, MPI_Datatype base, int elem) {
  struct mpiopt_dtype_side d =
      mpiopt_dtype_nd_side(0, 1, 0, nblocks, blocklen, (MPI_Aint)blocklen * elem, extent, base, elem);
  d.displs = nblocks ? displs : (const MPI_Aint *)0;
  return d;
}

/* The shape arguments of one side, as the collectives take them: the _nd
   form's, the _ix form's; and the side they make. */
#define MPIOPT_DTYPE_SIDE_PARAMS(x)                                                                                   \
  MPI_Aint x##offset, int x##nouter, MPI_Aint x##ostride, int x##nblocks, int x##blocklen, MPI_Aint x##stride,        \
      MPI_Aint x##extent, MPI_Datatype x##base, int x##elem
#define MPIOPT_DTYPE_SIDE_ARGS(x) x##offset, x##nouter, x##ostride, x##nblocks, x##blocklen, x##stride, x##extent, x##elem
#define MPIOPT_DTYPE_ND_SIDE(x)                                                                                       \
  mpiopt_dtype_nd_side(x##offset, x##nouter, x##ostride, x##nblocks, x##blocklen, x##stride, x##extent, x##base,      \
                       x##elem)
#define MPIOPT_DTYPE_IX_PARAMS(x)                                                                                     \
  const MPI_Aint *x##displs, int x##nblocks, int x##blocklen, MPI_Aint x##extent, MPI_Datatype x##base, int x##elem
#define MPIOPT_DTYPE_IX_SIDE(x) mpiopt_dtype_ix_side(x##displs, x##nblocks, x##blocklen, x##extent, x##base, x##elem)

/* A side of a collective: times chunks of count elements of the side's
   shape, packed (pack 1) from buf into scratch which, or only sized for
   receiving; the packed call's count per chunk in *n. A strided shape
   without holes is its own packed form: buf itself, nothing copied. A run
   list's blocks never overlap and lie within its extent (the tool proves
   it, or the run-time record checks it), so it needs no overlap test and is
   always packed. NULL: the side as written (no shape, nothing to move, over
   INT_MAX, overlapping entries of a strided receive side, no memory). */
static MPIOPT_INLINE void *mpiopt_dtype_coll_side(int which, int pack, const void *buf, int count, int times,
                                                 const struct mpiopt_dtype_side *d, int *n) {
  void *p;
  *n = d->nblocks ? mpiopt_dtype_elements(count, d->nouter * d->nblocks, d->blocklen) : 0;
  if (*n <= 0 || mpiopt_dtype_elements(*n, times, 1) < 0 || mpiopt_dtype_elements(count, times, 1) < 0)
    return (void *)0;
  if (!d->displs && !pack &&
      mpiopt_dtype_may_overlap(count * times, d->offset, d->nouter, d->ostride, d->nblocks, d->blocklen, d->stride,
                               d->extent, d->elem))
    return (void *)0; /* a receive side whose entries overlap: as written */
  if (!d->displs && MPIOPT_DTYPE_DENSE_ND(d->offset, d->nouter, d->nblocks, d->blocklen, d->stride, d->extent, d->elem))
    return (void *)buf;
  p = mpiopt_dtype_scratch(which, (size_t)*n * (size_t)times * (size_t)d->elem);
  if (p && pack && d->displs)
    mpiopt_dtype_pack_ix(p, buf, count * times, d->displs, d->nblocks, d->blocklen, d->extent, d->elem);
  else if (p && pack)
    mpiopt_dtype_pack_nd(p, buf, count * times, d->offset, d->nouter, d->ostride, d->nblocks, d->blocklen, d->stride,
                         d->extent, d->elem);
  return p;
}

/* The first n elements of base at p (a side's packed form) back into buf. */
static MPIOPT_INLINE void mpiopt_dtype_coll_unpack(void *buf, const void *p, int n,
                                                  const struct mpiopt_dtype_side *d) {
  if (d->displs)
    mpiopt_dtype_unpack_ix(buf, p, n, d->displs, d->nblocks, d->blocklen, d->extent, d->elem);
  else if (p != buf)
    mpiopt_dtype_unpack_nd(buf, p, n, d->offset, d->nouter, d->ostride, d->nblocks, d->blocklen, d->stride, d->extent,
                           d->elem);
}

/* MPI_Bcast of count elements of the side's shape: packed at the root,
   unpacked elsewhere. */
static MPIOPT_INLINE int mpiopt_bcast_dtype_side(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                                                struct mpiopt_dtype_side d) {
  int rank, size, n, rc;
  void *p;
  if (!mpiopt_dtype_intra(comm, &rank, &size))
    return MPI_Bcast(buf, count, dtype, root, comm);
  p = mpiopt_dtype_coll_side(0, rank == root, buf, count, 1, &d, &n);
  if (!p)
    return MPI_Bcast(buf, count, dtype, root, comm);
  rc = MPI_Bcast(p, n, d.base, root, comm);
  if (rc == MPI_SUCCESS && rank != root)
    mpiopt_dtype_coll_unpack(buf, p, n, &d);
  return rc;
}

/* MPI_Gather: each rank's send side packed; the root's receive side
   received packed and unpacked, every rank's chunk in rank order. */
static MPIOPT_INLINE int mpiopt_gather_dtype_side(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                 int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                                 struct mpiopt_dtype_side s, struct mpiopt_dtype_side r) {
  int rank, size, sn = 0, rn = 0, rc;
  void *sp = (void *)0, *rp = (void *)0;
  if (sbuf == MPI_IN_PLACE || rbuf == MPI_IN_PLACE || !mpiopt_dtype_intra(comm, &rank, &size))
    return MPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
  sp = mpiopt_dtype_coll_side(0, 1, sbuf, scount, 1, &s, &sn);
  if (rank == root)
    rp = mpiopt_dtype_coll_side(1, 0, rbuf, rcount, size, &r, &rn);
  rc = MPI_Gather(sp ? sp : sbuf, sp ? sn : scount, sp ? s.base : stype, rp ? rp : rbuf, rp ? rn : rcount,
                  rp ? r.base : rtype, root, comm);
  if (rc == MPI_SUCCESS && rp)
    mpiopt_dtype_coll_unpack(rbuf, rp, rn * size, &r);
  return rc;
}

/* MPI_Scatter: the root's send side packed, every rank's chunk in rank
   order; each rank's receive side received packed and unpacked. */
static MPIOPT_INLINE int mpiopt_scatter_dtype_side(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                  int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                                  struct mpiopt_dtype_side s, struct mpiopt_dtype_side r) {
  int rank, size, sn = 0, rn = 0, rc;
  void *sp = (void *)0, *rp = (void *)0;
  if (sbuf == MPI_IN_PLACE || rbuf == MPI_IN_PLACE || !mpiopt_dtype_intra(comm, &rank, &size))
    return MPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
  if (rank == root)
    sp = mpiopt_dtype_coll_side(0, 1, sbuf, scount, size, &s, &sn);
  rp = mpiopt_dtype_coll_side(1, 0, rbuf, rcount, 1, &r, &rn);
  rc = MPI_Scatter(sp ? sp : sbuf, sp ? sn : scount, sp ? s.base : stype, rp ? rp : rbuf, rp ? rn : rcount,
                   rp ? r.base : rtype, root, comm);
  if (rc == MPI_SUCCESS && rp)
    mpiopt_dtype_coll_unpack(rbuf, rp, rn, &r);
  return rc;
}

/* MPI_Alltoall: every rank's size chunks packed in rank order, and
   received packed and unpacked. */
static MPIOPT_INLINE int mpiopt_alltoall_dtype_side(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                   int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                                   struct mpiopt_dtype_side s, struct mpiopt_dtype_side r) {
  int rank, size, sn = 0, rn = 0, rc;
  void *sp, *rp;
  if (sbuf == MPI_IN_PLACE || !mpiopt_dtype_intra(comm, &rank, &size))
    return MPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  sp = mpiopt_dtype_coll_side(0, 1, sbuf, scount, size, &s, &sn);
  rp = mpiopt_dtype_coll_side(1, 0, rbuf, rcount, size, &r, &rn);
  rc = MPI_Alltoall(sp ? sp : sbuf, sp ? sn : scount, sp ? s.base : stype, rp ? rp : rbuf, rp ? rn : rcount,
                    rp ? r.base : rtype, comm);
  if (rc == MPI_SUCCESS && rp)
    mpiopt_dtype_coll_unpack(rbuf, rp, rn * size, &r);
  return rc;
}

/* The calls ompi-opt writes: the _nd forms with strided shapes, the _ix
   forms with run lists (chosen where the profile's
   "templates.<collective>_indexed" measurements show them faster); a side
   whose nblocks is 0 passes through as written. */
static MPIOPT_INLINE int mpiopt_bcast_dtype_nd(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                                              MPIOPT_DTYPE_SIDE_PARAMS(b)) {
  return mpiopt_bcast_dtype_side(buf, count, dtype, root, comm, MPIOPT_DTYPE_ND_SIDE(b));
}

static MPIOPT_INLINE int mpiopt_bcast_dtype_ix(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                                              MPIOPT_DTYPE_IX_PARAMS(b)) {
  return mpiopt_bcast_dtype_side(buf, count, dtype, root, comm, MPIOPT_DTYPE_IX_SIDE(b));
}

static MPIOPT_INLINE int mpiopt_gather_dtype_nd(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                               MPIOPT_DTYPE_SIDE_PARAMS(s), MPIOPT_DTYPE_SIDE_PARAMS(r)) {
  return mpiopt_gather_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, MPIOPT_DTYPE_ND_SIDE(s),
                                  MPIOPT_DTYPE_ND_SIDE(r));
}

static MPIOPT_INLINE int mpiopt_gather_dtype_ix(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                               MPIOPT_DTYPE_IX_PARAMS(s), MPIOPT_DTYPE_IX_PARAMS(r)) {
  return mpiopt_gather_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, MPIOPT_DTYPE_IX_SIDE(s),
                                  MPIOPT_DTYPE_IX_SIDE(r));
}

static MPIOPT_INLINE int mpiopt_scatter_dtype_nd(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                                MPIOPT_DTYPE_SIDE_PARAMS(s), MPIOPT_DTYPE_SIDE_PARAMS(r)) {
  return mpiopt_scatter_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, MPIOPT_DTYPE_ND_SIDE(s),
                                   MPIOPT_DTYPE_ND_SIDE(r));
}

static MPIOPT_INLINE int mpiopt_scatter_dtype_ix(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                                MPIOPT_DTYPE_IX_PARAMS(s), MPIOPT_DTYPE_IX_PARAMS(r)) {
  return mpiopt_scatter_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, MPIOPT_DTYPE_IX_SIDE(s),
                                   MPIOPT_DTYPE_IX_SIDE(r));
}

static MPIOPT_INLINE int mpiopt_alltoall_dtype_nd(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                 int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                                 MPIOPT_DTYPE_SIDE_PARAMS(s), MPIOPT_DTYPE_SIDE_PARAMS(r)) {
  return mpiopt_alltoall_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, comm, MPIOPT_DTYPE_ND_SIDE(s),
                                    MPIOPT_DTYPE_ND_SIDE(r));
}

static MPIOPT_INLINE int mpiopt_alltoall_dtype_ix(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                 int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                                 MPIOPT_DTYPE_IX_PARAMS(s), MPIOPT_DTYPE_IX_PARAMS(r)) {
  return mpiopt_alltoall_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, comm, MPIOPT_DTYPE_IX_SIDE(s),
                                    MPIOPT_DTYPE_IX_SIDE(r));
}

/* Nonblocking sends and receives (MPI_Isend, MPI_Issend, MPI_Irecv) whose
 * datatype has a compiled shape. The packed message needs a buffer that
 * lives until the request completes, and a receive is unpacked only then:
 * ompi-opt declares a struct mpiopt_dpend beside the request variable
 * (zeroed) and rewrites every MPI_Wait on that variable to
 * mpiopt_wait_dtype, which waits, unpacks what arrived and returns the
 * buffer. It does so only where it proves (analysis/RequestFlow) that every
 * path from such a call reaches one of those waits before the request is
 * started again, tested, freed, passed anywhere else or the function
 * returns, so the wait always runs in the thread that posted the call. The
 * buffers come from a per-thread pool of at most 64 (grown geometrically,
 * kept; no allocation per call once warm); with all 64 in use, the call
 * runs generically. What travels, the status and MPI_Get_count are as for
 * the blocking templates. */
struct mpiopt_dpend {
  int active, slot, recv, nouter, nblocks, blocklen, elem;
  void *user, *scratch;
  MPI_Aint offset, ostride, stride, extent;
  const MPI_Aint *displs; /* a receive's run list (the _ix forms), or null: the strided shape */
};

#define MPIOPT_DTYPE_POOL 64

struct mpiopt_dtype_pool {
  void *buf[MPIOPT_DTYPE_POOL];
  size_t cap[MPIOPT_DTYPE_POOL];
  unsigned char used[MPIOPT_DTYPE_POOL];
};

static MPIOPT_INLINE struct mpiopt_dtype_pool *mpiopt_dtype_pool(void) {
  static MPIOPT_THREAD_LOCAL struct mpiopt_dtype_pool pool;
  return &pool;
}

/* A free pool buffer of at least bytes, its slot in *slot; NULL when every
   slot is in use or memory runs out. */
static MPIOPT_INLINE void *mpiopt_dtype_pool_get(size_t bytes, int *slot) {
  struct mpiopt_dtype_pool *P = mpiopt_dtype_pool();
  int i, best = -1;
  for (i = 0; i < MPIOPT_DTYPE_POOL; i++) /* a free buffer large enough, or the largest free one */
    if (!P->used[i] && (best < 0 || (P->cap[best] < bytes && P->cap[i] > P->cap[best])))
      best = i;
  if (best < 0)
    return (void *)0;
  if (P->cap[best] < bytes) {
    size_t n = P->cap[best] ? P->cap[best] : 4096;
    void *p;
    while (n < bytes)
      n *= 2;
    p = realloc(P->buf[best], n);
    if (!p)
      return (void *)0;
    P->buf[best] = p;
    P->cap[best] = n;
  }
  P->used[best] = 1;
  *slot = best;
  return P->buf[best];
}

static MPIOPT_INLINE void mpiopt_dtype_pool_put(int slot) { mpiopt_dtype_pool()->used[slot] = 0; }

/* The pending state after a template posted its call on pool buffer p of
   slot (recv: a receive, which the wait unpacks): active when the post
   succeeded; the buffer back in the pool when it failed. */
static MPIOPT_INLINE int mpiopt_dtype_posted(int rc, struct mpiopt_dpend *pd, void *p, int slot, int recv) {
  if (rc != MPI_SUCCESS) {
    mpiopt_dtype_pool_put(slot);
    return rc;
  }
  pd->active = 1;
  pd->slot = slot;
  pd->scratch = p;
  pd->recv = recv;
  return rc;
}

/* What a pending receive's wait unpacks into buf: the shape, or the run
   list displs (null for a strided shape). */
static MPIOPT_INLINE void mpiopt_dtype_pend_shape(struct mpiopt_dpend *pd, void *buf, MPI_Aint offset, int nouter,
                                                 MPI_Aint ostride, int nblocks, int blocklen, MPI_Aint stride,
                                                 MPI_Aint extent, int elem, const MPI_Aint *displs) {
  pd->user = buf;
  pd->offset = offset;
  pd->nouter = nouter;
  pd->ostride = ostride;
  pd->nblocks = nblocks;
  pd->blocklen = blocklen;
  pd->stride = stride;
  pd->extent = extent;
  pd->elem = elem;
  pd->displs = displs;
}

/* MPI_Isend (ssend 0) or MPI_Issend (ssend 1) of count elements of the
   shape: packed into a pool buffer that the wait returns. */
static MPIOPT_INLINE int mpiopt_isend_dtype_nd(const void *buf, int count, MPI_Datatype dtype, int dest, int tag,
                                              MPI_Comm comm, MPI_Request *req, struct mpiopt_dpend *pd,
                                              MPI_Aint offset, int nouter, MPI_Aint ostride, int nblocks, int blocklen,
                                              MPI_Aint stride, MPI_Aint extent, MPI_Datatype base, int elem, int ssend) {
  int n = mpiopt_dtype_elements(count, nouter * nblocks, blocklen), slot = 0, rc;
  void *p;
  pd->active = 0;
  if (n > 0 && MPIOPT_DTYPE_DENSE_ND(offset, nouter, nblocks, blocklen, stride, extent, elem)) /* no copy needed */
    return ssend ? MPI_Issend(buf, n, base, dest, tag, comm, req) : MPI_Isend(buf, n, base, dest, tag, comm, req);
  p = n > 0 && dest != MPI_PROC_NULL ? mpiopt_dtype_pool_get((size_t)n * (size_t)elem, &slot) : (void *)0;
  if (!p)
    return ssend ? MPI_Issend(buf, count, dtype, dest, tag, comm, req)
                 : MPI_Isend(buf, count, dtype, dest, tag, comm, req);
  mpiopt_dtype_pack_nd(p, buf, count, offset, nouter, ostride, nblocks, blocklen, stride, extent, elem);
  rc = ssend ? MPI_Issend(p, n, base, dest, tag, comm, req) : MPI_Isend(p, n, base, dest, tag, comm, req);
  return mpiopt_dtype_posted(rc, pd, p, slot, 0);
}

/* MPI_Irecv of count elements of the shape: into a pool buffer, unpacked by
   the wait. */
static MPIOPT_INLINE int mpiopt_irecv_dtype_nd(void *buf, int count, MPI_Datatype dtype, int source, int tag,
                                              MPI_Comm comm, MPI_Request *req, struct mpiopt_dpend *pd,
                                              MPI_Aint offset, int nouter, MPI_Aint ostride, int nblocks, int blocklen,
                                              MPI_Aint stride, MPI_Aint extent, MPI_Datatype base, int elem) {
  int n = mpiopt_dtype_elements(count, nouter * nblocks, blocklen), slot = 0, rc;
  void *p;
  pd->active = 0;
  if (n > 0 && MPIOPT_DTYPE_DENSE_ND(offset, nouter, nblocks, blocklen, stride, extent, elem))
    return MPI_Irecv(buf, n, base, source, tag, comm, req);
  p = n > 0 && source != MPI_PROC_NULL &&
              !mpiopt_dtype_may_overlap(count, offset, nouter, ostride, nblocks, blocklen, stride, extent, elem)
          ? mpiopt_dtype_pool_get((size_t)n * (size_t)elem, &slot)
          : (void *)0;
  if (!p)
    return MPI_Irecv(buf, count, dtype, source, tag, comm, req);
  rc = mpiopt_dtype_posted(MPI_Irecv(p, n, base, source, tag, comm, req), pd, p, slot, 1);
  if (rc != MPI_SUCCESS)
    return rc;
  mpiopt_dtype_pend_shape(pd, buf, offset, nouter, ostride, nblocks, blocklen, stride, extent, elem,
                          (const MPI_Aint *)0);
  return rc;
}

/* MPI_Isend (ssend 0) or MPI_Issend (ssend 1) of count elements of a run
   list, and MPI_Irecv of them: as the _nd forms, with the run list. */
static MPIOPT_INLINE int mpiopt_isend_dtype_ix(const void *buf, int count, MPI_Datatype dtype, int dest, int tag,
                                              MPI_Comm comm, MPI_Request *req, struct mpiopt_dpend *pd,
                                              const MPI_Aint *displs, int nblocks, int blocklen, MPI_Aint extent,
                                              MPI_Datatype base, int elem, int ssend) {
  int n = mpiopt_dtype_elements(count, nblocks, blocklen), slot = 0, rc;
  void *p = n > 0 && dest != MPI_PROC_NULL ? mpiopt_dtype_pool_get((size_t)n * (size_t)elem, &slot) : (void *)0;
  pd->active = 0;
  if (!p)
    return ssend ? MPI_Issend(buf, count, dtype, dest, tag, comm, req)
                 : MPI_Isend(buf, count, dtype, dest, tag, comm, req);
  mpiopt_dtype_pack_ix(p, buf, count, displs, nblocks, blocklen, extent, elem);
  rc = ssend ? MPI_Issend(p, n, base, dest, tag, comm, req) : MPI_Isend(p, n, base, dest, tag, comm, req);
  return mpiopt_dtype_posted(rc, pd, p, slot, 0);
}

static MPIOPT_INLINE int mpiopt_irecv_dtype_ix(void *buf, int count, MPI_Datatype dtype, int source, int tag,
                                              MPI_Comm comm, MPI_Request *req, struct mpiopt_dpend *pd,
                                              const MPI_Aint *displs, int nblocks, int blocklen, MPI_Aint extent,
                                              MPI_Datatype base, int elem) {
  int n = mpiopt_dtype_elements(count, nblocks, blocklen), slot = 0, rc;
  void *p = n > 0 && source != MPI_PROC_NULL ? mpiopt_dtype_pool_get((size_t)n * (size_t)elem, &slot) : (void *)0;
  pd->active = 0;
  if (!p)
    return MPI_Irecv(buf, count, dtype, source, tag, comm, req);
  rc = mpiopt_dtype_posted(MPI_Irecv(p, n, base, source, tag, comm, req), pd, p, slot, 1);
  if (rc != MPI_SUCCESS)
    return rc;
  mpiopt_dtype_pend_shape(pd, buf, 0, 1, 0, nblocks, blocklen, 0, extent, elem, displs);
  return rc;
}

/* The template's side of a pending call done: unpack what arrived, return
   the buffer (after a failed wait the buffer stays out of the pool: MPI may
   still hold it). Out of line: the wait is in the caller's loops. */
static MPIOPT_NOINLINE void mpiopt_dtype_finish(struct mpiopt_dpend *pd, const MPI_Status *st, int ok) {
  pd->active = 0;
  if (!ok)
    return;
  if (pd->recv && pd->displs)
    mpiopt_dtype_arrived_ix(pd->user, pd->scratch, st, pd->displs, pd->nblocks, pd->blocklen, pd->extent, pd->elem);
  else if (pd->recv)
    mpiopt_dtype_arrived(pd->user, pd->scratch, st, pd->offset, pd->nouter, pd->ostride, pd->nblocks, pd->blocklen,
                         pd->stride, pd->extent, pd->elem);
  mpiopt_dtype_pool_put(pd->slot);
}

/* Whether the request of status st completed without error in a call that
   returned rc. */
#define MPIOPT_DTYPE_DONE_OK(rc, st) ((rc) == MPI_SUCCESS || ((rc) == MPI_ERR_IN_STATUS && (st).MPI_ERROR == MPI_SUCCESS))

/* MPI_Wait on a request a nonblocking template may have started (pd
   active): the wait, then the unpack and the buffer's return. */
static MPIOPT_INLINE int mpiopt_wait_dtype(MPI_Request *req, MPI_Status *status, struct mpiopt_dpend *pd) {
  MPI_Status st;
  int rc;
  if (!pd->active)
    return MPI_Wait(req, status);
  rc = MPI_Wait(req, &st);
  mpiopt_dtype_finish(pd, &st, rc == MPI_SUCCESS);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* MPI_Waitall on an array of requests some of which a nonblocking template
   may have started (pd: the array's pending states, from the first request
   waited on): the wait, then each template's unpack and buffer's return.
   The statuses are needed to know what arrived: with MPI_STATUSES_IGNORE
   they go to a per-thread buffer. */
static MPIOPT_NOINLINE int mpiopt_waitall_dtype_work(int count, MPI_Request *reqs, MPI_Status *statuses,
                                                     struct mpiopt_dpend *pd) {
  MPI_Status *st = statuses;
  int rc, i;
  if (statuses == MPI_STATUSES_IGNORE)
    st = (MPI_Status *)mpiopt_dtype_scratch(1, (size_t)count * sizeof *st);
  if (!st) { /* no memory for the statuses: one wait after another, as MPI_Waitall completes them */
    for (i = 0, rc = MPI_SUCCESS; i < count && rc == MPI_SUCCESS; i++)
      rc = pd[i].active ? mpiopt_wait_dtype(&reqs[i], MPI_STATUS_IGNORE, &pd[i]) : MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
    return rc;
  }
  rc = MPI_Waitall(count, reqs, st);
  for (i = 0; i < count; i++) /* a request still pending after an error (MPI_ERR_PENDING) stays the template's */
    if (pd[i].active && !(rc == MPI_ERR_IN_STATUS && st[i].MPI_ERROR == MPI_ERR_PENDING))
      mpiopt_dtype_finish(&pd[i], &st[i], MPIOPT_DTYPE_DONE_OK(rc, st[i]));
  return rc;
}

static MPIOPT_INLINE int mpiopt_waitall_dtype(int count, MPI_Request *reqs, MPI_Status *statuses,
                                              struct mpiopt_dpend *pd) {
  int i;
  for (i = 0; i < count; i++)
    if (pd[i].active)
      return mpiopt_waitall_dtype_work(count, reqs, statuses, pd);
  return MPI_Waitall(count, reqs, statuses);
}

/* The other completions of a request a nonblocking template may have
   started: MPI_Test, and MPI_Testall, MPI_Waitany, MPI_Waitsome,
   MPI_Testany and MPI_Testsome over an array of requests (pd: the array's
   pending states, from the first request in the call). Each calls the MPI
   function, then finishes (unpacks and returns the buffer of) every
   template's request it completed, with that request's status. The
   statuses are needed to know what arrived: where the program passes
   MPI_STATUS(ES)_IGNORE they go to a local array (up to 64 requests) or
   the per-thread scratch buffer. ompi-opt rewrites every completion of
   such a request: one that does not complete it (a test whose flag is 0)
   leaves the pending state for the next. */
#define MPIOPT_DTYPE_LOCAL_STATUSES 64

/* Whether any of count pending states is active. */
static MPIOPT_INLINE int mpiopt_dtype_any_active(int count, const struct mpiopt_dpend *pd) {
  int i;
  for (i = 0; i < count; i++)
    if (pd[i].active)
      return 1;
  return 0;
}

static MPIOPT_INLINE int mpiopt_test_dtype(MPI_Request *req, int *flag, MPI_Status *status, struct mpiopt_dpend *pd) {
  MPI_Status st;
  int rc;
  if (!pd->active)
    return MPI_Test(req, flag, status);
  rc = MPI_Test(req, flag, &st);
  if (rc == MPI_SUCCESS && *flag) {
    mpiopt_dtype_finish(pd, &st, 1);
    if (status != MPI_STATUS_IGNORE)
      *status = st;
  } else if (rc != MPI_SUCCESS)
    mpiopt_dtype_finish(pd, &st, 0); /* the request is no longer the template's to finish */
  return rc;
}

static MPIOPT_NOINLINE int mpiopt_waitany_dtype_work(int count, MPI_Request *reqs, int *index, MPI_Status *status,
                                                     struct mpiopt_dpend *pd, int test, int *flag) {
  MPI_Status st;
  int rc = test ? MPI_Testany(count, reqs, index, flag, &st) : MPI_Waitany(count, reqs, index, &st);
  if (*index >= 0 && *index < count && pd[*index].active) /* MPI_UNDEFINED is negative */
    mpiopt_dtype_finish(&pd[*index], &st, rc == MPI_SUCCESS);
  if (status != MPI_STATUS_IGNORE && (rc != MPI_SUCCESS || *index != MPI_UNDEFINED || !test || *flag))
    *status = st;
  return rc;
}

static MPIOPT_INLINE int mpiopt_waitany_dtype(int count, MPI_Request *reqs, int *index, MPI_Status *status,
                                              struct mpiopt_dpend *pd) {
  int flag = 1;
  if (!mpiopt_dtype_any_active(count, pd))
    return MPI_Waitany(count, reqs, index, status);
  return mpiopt_waitany_dtype_work(count, reqs, index, status, pd, 0, &flag);
}

static MPIOPT_INLINE int mpiopt_testany_dtype(int count, MPI_Request *reqs, int *index, int *flag,
                                              MPI_Status *status, struct mpiopt_dpend *pd) {
  if (!mpiopt_dtype_any_active(count, pd))
    return MPI_Testany(count, reqs, index, flag, status);
  return mpiopt_waitany_dtype_work(count, reqs, index, status, pd, 1, flag);
}

/* MPI_Waitsome (test 0) or MPI_Testsome (test 1): the requests completed
   are those indices names. */
static MPIOPT_NOINLINE int mpiopt_waitsome_dtype_work(int count, MPI_Request *reqs, int *outcount, int *indices,
                                                      MPI_Status *statuses, struct mpiopt_dpend *pd, int test) {
  MPI_Status local[MPIOPT_DTYPE_LOCAL_STATUSES], *st = statuses;
  int rc, i, flag = 1;
  if (statuses == MPI_STATUSES_IGNORE)
    st = count <= MPIOPT_DTYPE_LOCAL_STATUSES ? local
                                              : (MPI_Status *)mpiopt_dtype_scratch(1, (size_t)count * sizeof *st);
  if (!st) { /* no memory for the statuses: one completion at a time, which the call may return */
    rc = mpiopt_waitany_dtype_work(count, reqs, indices, MPI_STATUS_IGNORE, pd, test, &flag);
    *outcount = *indices != MPI_UNDEFINED ? 1 : test && !flag ? 0 : MPI_UNDEFINED; /* none active: undefined */
    return rc;
  }
  rc = test ? MPI_Testsome(count, reqs, outcount, indices, st) : MPI_Waitsome(count, reqs, outcount, indices, st);
  for (i = 0; (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED && i < *outcount; i++)
    if (indices[i] >= 0 && indices[i] < count && pd[indices[i]].active)
      mpiopt_dtype_finish(&pd[indices[i]], &st[i], MPIOPT_DTYPE_DONE_OK(rc, st[i]));
  return rc;
}

static MPIOPT_INLINE int mpiopt_waitsome_dtype(int count, MPI_Request *reqs, int *outcount, int *indices,
                                               MPI_Status *statuses, struct mpiopt_dpend *pd) {
  if (!mpiopt_dtype_any_active(count, pd))
    return MPI_Waitsome(count, reqs, outcount, indices, statuses);
  return mpiopt_waitsome_dtype_work(count, reqs, outcount, indices, statuses, pd, 0);
}

static MPIOPT_INLINE int mpiopt_testsome_dtype(int count, MPI_Request *reqs, int *outcount, int *indices,
                                               MPI_Status *statuses, struct mpiopt_dpend *pd) {
  if (!mpiopt_dtype_any_active(count, pd))
    return MPI_Testsome(count, reqs, outcount, indices, statuses);
  return mpiopt_waitsome_dtype_work(count, reqs, outcount, indices, statuses, pd, 1);
}

/* MPI_Testall: all complete (flag 1) or none. Without memory for the
   statuses, each request is first asked whether it has completed without
   completing it (MPI_Request_get_status): where one has not, the test
   answers 0 (as MPI_Testall may, when it saw one incomplete); otherwise each
   template's request is finished with its status, and each request is
   completed (MPI_Wait on a request already complete returns at once). */
static MPIOPT_NOINLINE int mpiopt_testall_dtype_work(int count, MPI_Request *reqs, int *flag, MPI_Status *statuses,
                                                     struct mpiopt_dpend *pd) {
  MPI_Status local[MPIOPT_DTYPE_LOCAL_STATUSES], *st = statuses, one;
  int rc, i, f = 1;
  if (statuses == MPI_STATUSES_IGNORE)
    st = count <= MPIOPT_DTYPE_LOCAL_STATUSES ? local
                                              : (MPI_Status *)mpiopt_dtype_scratch(1, (size_t)count * sizeof *st);
  if (!st) {
    for (i = 0; i < count && f; i++)
      if ((rc = MPI_Request_get_status(reqs[i], &f, &one)) != MPI_SUCCESS)
        return rc;
    *flag = 0;
    if (!f)
      return MPI_SUCCESS;
    for (i = 0, rc = MPI_SUCCESS; i < count && rc == MPI_SUCCESS; i++) { /* all complete: each wait returns */
      if (pd[i].active && MPI_Request_get_status(reqs[i], &f, &one) == MPI_SUCCESS)
        mpiopt_dtype_finish(&pd[i], &one, 1);
      rc = MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
    }
    *flag = rc == MPI_SUCCESS;
    return rc;
  }
  rc = MPI_Testall(count, reqs, flag, st);
  for (i = 0; i < count; i++)
    if (pd[i].active && rc == MPI_ERR_IN_STATUS && st[i].MPI_ERROR != MPI_ERR_PENDING)
      mpiopt_dtype_finish(&pd[i], &st[i], st[i].MPI_ERROR == MPI_SUCCESS);
    else if (pd[i].active && rc == MPI_SUCCESS && *flag)
      mpiopt_dtype_finish(&pd[i], &st[i], 1);
  return rc;
}

static MPIOPT_INLINE int mpiopt_testall_dtype(int count, MPI_Request *reqs, int *flag, MPI_Status *statuses,
                                              struct mpiopt_dpend *pd) {
  if (!mpiopt_dtype_any_active(count, pd))
    return MPI_Testall(count, reqs, flag, statuses);
  return mpiopt_testall_dtype_work(count, reqs, flag, statuses, pd);
}

/* Shapes known only at run time: a datatype variable every construction of
 * which is MPI_Type_contiguous, MPI_Type_vector, MPI_Type_create_hvector,
 * MPI_Type_create_subarray or MPI_Type_create_(h)indexed_block (strided
 * or a run list at run time) of a predefined type, or MPI_Type_create_resized
 * of a predefined type or of another such variable, with arguments that
 * have no side effects. ompi-opt declares a shadow struct mpiopt_dshape
 * beside the variable (zeroed) and renames each construction to the
 * mpiopt_type_*_rt wrapper below, which builds the type as the call would
 * and records the shape it built; the calls get the shadow's address.
 * Nothing else writes the variable (ompi-opt proves it), so the shadow
 * describes the type the variable holds. A shadow never set (valid 0), a
 * failed construction, a shape the templates do not cover (a subarray of
 * more than 3 dimensions, blocks that overlap), or a message whose size the
 * machine profile did not measure the template winning at runs the generic
 * call. The profile's choice comes as three masks, for contiguous runs of
 * up to 8 bytes (m8: a column), 9 to 64 bytes (m64) and 65 to 512 bytes
 * (m512): bit k set where sizes in (2^(k-1), 2^k] bytes won, sizes above
 * 2^30 in bit 31. Longer runs always take the generic call: an engine that
 * copies long blocks straight into its transfer beats the template's extra
 * copies. The shape is that of the _nd templates: from an offset, nouter
 * groups ostride bytes apart of nblocks blocks stride bytes apart, each
 * blocklen elements of base; elements extent bytes apart. Or, where nruns
 * is not 0, a run list (an (h)indexed_block of unevenly spaced blocks, at
 * most MPIOPT_DSHAPE_RUNS of them): nblocks (= nruns) blocks of blocklen
 * elements of base at runs[b] bytes from the element's start, in typemap
 * order, not overlapping, elements extent bytes apart; the calls then go
 * through the _ix templates with runs as the table, and nonblocking calls
 * run generically (their pending state would have to keep the table past
 * a reconstruction of the variable). */
#ifndef MPIOPT_DSHAPE_RUNS
#define MPIOPT_DSHAPE_RUNS 32
#endif
struct mpiopt_dshape {
  int valid, nouter, nblocks, blocklen, elem, nruns;
  MPI_Aint offset, ostride, stride, extent;
  MPI_Datatype base;
  MPI_Aint runs[MPIOPT_DSHAPE_RUNS];
};

/* Whether a shadow's shape has no holes: count elements of it are one run
   of base elements from the buffer's start. */
static MPIOPT_INLINE int mpiopt_dshape_dense(const struct mpiopt_dshape *sh) {
  return sh->offset == 0 && sh->nouter == 1 && sh->nblocks == 1 && sh->extent == (MPI_Aint)sh->blocklen * sh->elem;
}

/* The shape arguments of the _nd templates from a shadow. */
#define MPIOPT_DSHAPE_ARGS(sh)                                                                                        \
  (sh)->offset, (sh)->nouter, (sh)->ostride, (sh)->nblocks, (sh)->blocklen, (sh)->stride, (sh)->extent, (sh)->base,   \
      (sh)->elem

/* Record a shape of two levels (nblocks 1 and nouter 1 for one run) after a
   construction that returned rc: merged into the fewest levels (blocks that
   abut are one run), or not valid where the construction failed or blocks
   of a group overlap or go backwards (left to MPI). */
static MPIOPT_INLINE int mpiopt_dtype_record_nd(int rc, struct mpiopt_dshape *sh, MPI_Aint offset, int nouter,
                                                MPI_Aint ostride, int nblocks, int blocklen, MPI_Aint stride,
                                                MPI_Aint extent, MPI_Datatype base, int elem) {
  MPI_Aint block = (MPI_Aint)blocklen * elem;
  sh->valid = 0;
  if (rc != MPI_SUCCESS || nouter < 1 || nblocks < 1 || blocklen < 1 || elem < 1 || offset < 0 || extent < 1 ||
      (nblocks > 1 && stride < block) || (nouter > 1 && ostride < 0))
    return rc;
  if (nouter > 1 && nblocks == 1) { /* one block per group: the groups are the blocks */
    nblocks = nouter;
    stride = ostride;
    nouter = 1;
  }
  if (nouter > 1 && ostride == (MPI_Aint)nblocks * stride) { /* groups continue the blocks' stride */
    nblocks *= nouter;
    nouter = 1;
  }
  if (nblocks > 1 && stride == block && (double)blocklen * nblocks <= INT_MAX) { /* blocks that abut */
    blocklen *= nblocks;
    nblocks = 1;
  }
  if (nblocks > 1 && stride < (MPI_Aint)blocklen * elem)
    return rc;
  sh->offset = offset;
  sh->nouter = nouter;
  sh->ostride = nouter > 1 ? ostride : 0;
  sh->nblocks = nblocks;
  sh->blocklen = blocklen;
  sh->stride = nblocks > 1 ? stride : (MPI_Aint)blocklen * elem;
  sh->extent = extent;
  sh->base = base;
  sh->elem = elem;
  sh->nruns = 0;
  sh->valid = 1;
  return rc;
}

/* One level of nblocks blocks stride bytes apart from the buffer's start,
   its extent the span of its blocks (a contiguous, vector or hvector). */
static MPIOPT_INLINE int mpiopt_dtype_record(int rc, struct mpiopt_dshape *sh, int nblocks, int blocklen,
                                      MPI_Aint stride, MPI_Datatype base) {
  int elem = 0;
  sh->valid = 0;
  if (rc != MPI_SUCCESS || nblocks < 1 || blocklen < 1 || MPI_Type_size(base, &elem) != MPI_SUCCESS || elem < 1)
    return rc;
  if (nblocks == 1)
    stride = (MPI_Aint)blocklen * elem;
  return mpiopt_dtype_record_nd(rc, sh, 0, 1, 0, nblocks, blocklen, stride,
                                (MPI_Aint)(nblocks - 1) * stride + (MPI_Aint)blocklen * elem, base, elem);
}

/* After a wrapper recorded in sh the shape of the type *t it built (rc its
   construction's result): the extent MPI gives *t must be the one
   recorded, or the shape is not valid. An MPI may round a span of blocks
   up to its elements' alignment (Open MPI does, MPICH does not: an hvector
   of two doubles 12 bytes apart spans 20 bytes, Open MPI's extent is 24),
   and the templates place element i at i x extent, as MPI does. */
static MPIOPT_INLINE int mpiopt_dtype_extent_checked(int rc, struct mpiopt_dshape *sh, const MPI_Datatype *t) {
  MPI_Aint lb, extent;
  if (rc == MPI_SUCCESS && sh->valid &&
      (MPI_Type_get_extent(*t, &lb, &extent) != MPI_SUCCESS || extent != sh->extent))
    sh->valid = 0;
  return rc;
}

static MPIOPT_INLINE int mpiopt_type_contiguous_rt(int count, MPI_Datatype old, MPI_Datatype *t,
                                            struct mpiopt_dshape *sh) {
  int rc = mpiopt_dtype_record(MPI_Type_contiguous(count, old, t), sh, 1, count, 0, old);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

static MPIOPT_INLINE int mpiopt_type_vector_rt(int count, int blocklen, int stride, MPI_Datatype old, MPI_Datatype *t,
                                        struct mpiopt_dshape *sh) {
  int elem = 0, rc;
  MPI_Type_size(old, &elem);
  rc = mpiopt_dtype_record(MPI_Type_vector(count, blocklen, stride, old, t), sh, count, blocklen,
                           (MPI_Aint)stride * elem, old);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

static MPIOPT_INLINE int mpiopt_type_create_hvector_rt(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                                                MPI_Datatype *t, struct mpiopt_dshape *sh) {
  int rc = mpiopt_dtype_record(MPI_Type_create_hvector(count, blocklen, stride, old, t), sh, count, blocklen,
                               stride, old);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

/* A subarray of 1 to 3 dimensions of a predefined type, in either order:
   rows (the fastest dimension's subsize) of the planes' rows, from the
   starts' offset; its extent the whole array's (MPI's lower bound 0). The
   arrays are read after the call, which does not write them. */
static MPIOPT_INLINE int mpiopt_type_create_subarray_rt(int ndims, const int sizes[], const int subsizes[],
                                                        const int starts[], int order, MPI_Datatype old,
                                                        MPI_Datatype *t, struct mpiopt_dshape *sh) {
  int rc = MPI_Type_create_subarray(ndims, sizes, subsizes, starts, order, old, t), elem = 0, i, sub[3] = {1, 1, 1};
  MPI_Aint step, offset = 0, strides[3] = {0, 0, 0};
  sh->valid = 0;
  if (rc != MPI_SUCCESS || ndims < 1 || ndims > 3 || (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) ||
      MPI_Type_size(old, &elem) != MPI_SUCCESS || elem < 1)
    return rc;
  for (i = 0, step = elem; i < ndims; i++) { /* dimension i, fastest first */
    int d = order == MPI_ORDER_C ? ndims - 1 - i : i;
    if (sizes[d] < 1 || subsizes[d] < 1 || starts[d] < 0 || starts[d] > sizes[d] - subsizes[d])
      return rc;
    offset += (MPI_Aint)starts[d] * step;
    strides[i] = step;
    sub[i] = subsizes[d];
    step *= sizes[d];
  }
  rc = mpiopt_dtype_record_nd(rc, sh, offset, sub[2], strides[2], sub[1], sub[0], sub[1] > 1 ? strides[1] : 0, step,
                              old, elem);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

/* Displacement i of an (h)indexed_block in bytes: di or da, whichever is
   given, in units of unit bytes. */
static MPIOPT_INLINE MPI_Aint mpiopt_dtype_displ(const int *di, const MPI_Aint *da, int i, MPI_Aint unit) {
  return (di ? (MPI_Aint)di[i] : da[i]) * unit;
}

/* A run list of count blocks of blocklen elements of base at displacements
   di or da (unit bytes each): recorded where there are at most
   MPIOPT_DSHAPE_RUNS blocks and no two overlap; its extent, as MPI's, from
   the lowest block's start to the highest block's end. */
static MPIOPT_INLINE int mpiopt_dtype_record_runs(int rc, struct mpiopt_dshape *sh, int count, int blocklen,
                                                  const int *di, const MPI_Aint *da, MPI_Aint unit,
                                                  MPI_Datatype base, int elem) {
  MPI_Aint block = (MPI_Aint)blocklen * elem, lo, hi;
  int i, j;
  sh->valid = 0;
  if (count < 2 || count > MPIOPT_DSHAPE_RUNS)
    return rc;
  for (i = 0; i < count; i++)
    sh->runs[i] = mpiopt_dtype_displ(di, da, i, unit);
  lo = hi = sh->runs[0];
  for (i = 0; i < count; i++) {
    for (j = 0; j < i; j++)
      if (sh->runs[i] - sh->runs[j] < block && sh->runs[j] - sh->runs[i] < block)
        return rc; /* blocks that overlap: left to MPI */
    lo = sh->runs[i] < lo ? sh->runs[i] : lo;
    hi = sh->runs[i] > hi ? sh->runs[i] : hi;
  }
  sh->offset = sh->ostride = 0;
  sh->nouter = 1;
  sh->nblocks = sh->nruns = count;
  sh->blocklen = blocklen;
  sh->stride = block;
  sh->extent = hi + block - lo;
  sh->base = base;
  sh->elem = elem;
  sh->valid = 1;
  return rc;
}

/* An (h)indexed_block of a predefined type (its extent its size): displs
   in units of unit bytes (the type's extent, or 1 for the hindexed form;
   di or da, whichever is given). Displacements evenly spaced in increasing
   order from the buffer or after it are one level of blocks from the first
   (MPI's lower bound), the element's extent their span, as a vector from
   an offset; other displacements are a run list (mpiopt_dtype_record_runs).
   The displacements are read after the call, which does not write them. */
static MPIOPT_INLINE int mpiopt_dtype_record_indexed(int rc, struct mpiopt_dshape *sh, int count, int blocklen,
                                                     const int *di, const MPI_Aint *da, MPI_Datatype old) {
  int elem = 0, i, ni, na, nd, combiner = -1;
  MPI_Aint lb, extent, unit, first, step, block;
  sh->valid = 0;
  if (rc != MPI_SUCCESS || count < 1 || blocklen < 1 || MPI_Type_size(old, &elem) != MPI_SUCCESS || elem < 1 ||
      MPI_Type_get_extent(old, &lb, &extent) != MPI_SUCCESS || lb != 0 || extent != elem ||
      MPI_Type_get_envelope(old, &ni, &na, &nd, &combiner) != MPI_SUCCESS || combiner != MPI_COMBINER_NAMED)
    return rc; /* not a predefined type without holes */
  unit = di ? extent : 1;
  block = (MPI_Aint)blocklen * elem;
  first = mpiopt_dtype_displ(di, da, 0, unit);
  step = count > 1 ? mpiopt_dtype_displ(di, da, 1, unit) - first : block;
  for (i = 1; i < count; i++)
    if (mpiopt_dtype_displ(di, da, i, unit) - mpiopt_dtype_displ(di, da, i - 1, unit) != step)
      break;
  if (i == count && first >= 0 && step >= block) /* evenly spaced upwards from the buffer: strided */
    return mpiopt_dtype_record_nd(rc, sh, first, 1, 0, count, blocklen, step, (MPI_Aint)(count - 1) * step + block,
                                  old, elem);
  return mpiopt_dtype_record_runs(rc, sh, count, blocklen, di, da, unit, old, elem);
}

static MPIOPT_INLINE int mpiopt_type_create_indexed_block_rt(int count, int blocklen, const int displs[],
                                                             MPI_Datatype old, MPI_Datatype *t,
                                                             struct mpiopt_dshape *sh) {
  int rc = mpiopt_dtype_record_indexed(MPI_Type_create_indexed_block(count, blocklen, displs, old, t), sh, count,
                                       blocklen, displs, (const MPI_Aint *)0, old);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

static MPIOPT_INLINE int mpiopt_type_create_hindexed_block_rt(int count, int blocklen, const MPI_Aint displs[],
                                                              MPI_Datatype old, MPI_Datatype *t,
                                                              struct mpiopt_dshape *sh) {
  int rc = mpiopt_dtype_record_indexed(MPI_Type_create_hindexed_block(count, blocklen, displs, old, t), sh, count,
                                       blocklen, (const int *)0, displs, old);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

/* A resized predefined type: one element, extent bytes apart (the lower
   bound moves no data: MPI places element i at i x extent). */
static MPIOPT_INLINE int mpiopt_type_create_resized_rt(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                                                       MPI_Datatype *t, struct mpiopt_dshape *sh) {
  int elem = 0, rc = MPI_Type_create_resized(old, lb, extent, t);
  sh->valid = 0;
  if (rc != MPI_SUCCESS || MPI_Type_size(old, &elem) != MPI_SUCCESS)
    return rc;
  rc = mpiopt_dtype_record_nd(rc, sh, 0, 1, 0, 1, 1, 0, extent, old, elem);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

/* A resized variable of recorded shape (oldsh, the shadow of old): its
   blocks, a new extent. */
static MPIOPT_INLINE int mpiopt_type_create_resized_of_rt(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                                                          MPI_Datatype *t, struct mpiopt_dshape *sh,
                                                          const struct mpiopt_dshape *oldsh) {
  const struct mpiopt_dshape *o = oldsh;
  int rc = MPI_Type_create_resized(old, lb, extent, t);
  sh->valid = 0;
  if (!o->valid || o->nruns) /* a run list is taken only as it is */
    return rc;
  rc = mpiopt_dtype_record_nd(rc, sh, o->offset, o->nouter, o->ostride, o->nblocks, o->blocklen, o->stride, extent,
                              o->base, o->elem);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

/* Count blocks stride bytes apart, each blocklen consecutive elements of a
   variable of recorded shape (o, its shadow's copy): where o is one run
   from the buffer's start, runs; where o has one level and each block is
   one element of it (or there is one block), groups of o's blocks; other
   shapes (three levels) are left to MPI. */
static MPIOPT_INLINE int mpiopt_dtype_record_of(int rc, struct mpiopt_dshape *sh, int count, int blocklen,
                                                MPI_Aint stride, struct mpiopt_dshape o) {
  int n = blocklen == 1 ? count : blocklen;
  MPI_Aint step = blocklen == 1 ? stride : o.extent;
  sh->valid = 0;
  if (!o.valid || o.nruns || count < 1 || blocklen < 1) /* a run list is taken only as it is */
    return rc;
  if (count == 1)
    stride = 0;
  if (mpiopt_dshape_dense(&o))
    return (double)blocklen * o.blocklen > INT_MAX
               ? rc
               : mpiopt_dtype_record_nd(rc, sh, 0, 1, 0, count, blocklen * o.blocklen, stride,
                                        (MPI_Aint)(count - 1) * stride + (MPI_Aint)blocklen * o.extent, o.base, o.elem);
  if (o.nouter != 1 || (blocklen != 1 && count != 1))
    return rc;
  return mpiopt_dtype_record_nd(rc, sh, o.offset, n, step, o.nblocks, o.blocklen, o.stride,
                                (MPI_Aint)(n - 1) * step + o.extent, o.base, o.elem);
}

static MPIOPT_INLINE int mpiopt_type_contiguous_of_rt(int count, MPI_Datatype old, MPI_Datatype *t,
                                                      struct mpiopt_dshape *sh, const struct mpiopt_dshape *oldsh) {
  struct mpiopt_dshape o = *oldsh;
  int rc = mpiopt_dtype_record_of(MPI_Type_contiguous(count, old, t), sh, 1, count, 0, o);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

static MPIOPT_INLINE int mpiopt_type_vector_of_rt(int count, int blocklen, int stride, MPI_Datatype old,
                                                  MPI_Datatype *t, struct mpiopt_dshape *sh,
                                                  const struct mpiopt_dshape *oldsh) {
  struct mpiopt_dshape o = *oldsh;
  int rc = mpiopt_dtype_record_of(MPI_Type_vector(count, blocklen, stride, old, t), sh, count, blocklen,
                                  (MPI_Aint)stride * o.extent, o);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

static MPIOPT_INLINE int mpiopt_type_create_hvector_of_rt(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                                                          MPI_Datatype *t, struct mpiopt_dshape *sh,
                                                          const struct mpiopt_dshape *oldsh) {
  struct mpiopt_dshape o = *oldsh;
  int rc = mpiopt_dtype_record_of(MPI_Type_create_hvector(count, blocklen, stride, old, t), sh, count, blocklen,
                                  stride, o);
  return mpiopt_dtype_extent_checked(rc, sh, t);
}

/* Whether the profile chose the template for a message of this size. */
static MPIOPT_INLINE int mpiopt_dtype_wins(size_t bytes, unsigned long mask) {
  int k = 0;
  while (k < 31 && ((size_t)1 << k) < bytes)
    k++;
  return (int)((mask >> k) & 1UL);
}

/* The elements of base in count elements of a shadow's shape, when the
   template is to run (0 otherwise: the generic call): the size's bit in the
   mask of the shape's run length. */
static MPIOPT_INLINE int mpiopt_dtype_rt_elements(const struct mpiopt_dshape *sh, int count, int peer,
                                           unsigned long m8, unsigned long m64, unsigned long m512) {
  int n;
  size_t run;
  if (!sh || !sh->valid || peer == MPI_PROC_NULL)
    return 0;
  n = mpiopt_dtype_elements(count, sh->nouter * sh->nblocks, sh->blocklen);
  if (n <= 0)
    return 0;
  run = (size_t)sh->blocklen * (size_t)sh->elem;
  if (mpiopt_dshape_dense(sh)) /* no holes: elements abut, one run */
    run = (size_t)n * (size_t)sh->elem;
  return run <= 512 && mpiopt_dtype_wins((size_t)n * (size_t)sh->elem, run <= 8 ? m8 : run <= 64 ? m64 : m512) ? n : 0;
}

/* The _rt calls: the size check inline, the rest out of line through the
   _nd templates with the shadow's shape (one level from the buffer's
   start). */
static MPIOPT_NOINLINE int mpiopt_send_dtype_rt_work(const void *buf, int count, MPI_Datatype dtype, int dest,
                                                  int tag, MPI_Comm comm, const struct mpiopt_dshape *sh,
                                                  int ssend) {
  if (sh->nruns)
    return mpiopt_send_dtype_ix(buf, count, dtype, dest, tag, comm, sh->runs, sh->nblocks, sh->blocklen, sh->extent,
                                sh->base, sh->elem, ssend);
  return mpiopt_send_dtype_nd(buf, count, dtype, dest, tag, comm, MPIOPT_DSHAPE_ARGS(sh), ssend);
}

static MPIOPT_INLINE int mpiopt_send_dtype_rt(const void *buf, int count, MPI_Datatype dtype, int dest, int tag,
                                       MPI_Comm comm, const struct mpiopt_dshape *sh, unsigned long m8,
                                       unsigned long m64, unsigned long m512, int ssend) {
  if (mpiopt_dtype_rt_elements(sh, count, dest, m8, m64, m512) > 0)
    return mpiopt_send_dtype_rt_work(buf, count, dtype, dest, tag, comm, sh, ssend);
  return ssend ? MPI_Ssend(buf, count, dtype, dest, tag, comm) : MPI_Send(buf, count, dtype, dest, tag, comm);
}

static MPIOPT_NOINLINE int mpiopt_recv_dtype_rt_work(void *buf, int count, MPI_Datatype dtype, int source, int tag,
                                                  MPI_Comm comm, MPI_Status *status,
                                                  const struct mpiopt_dshape *sh) {
  if (sh->nruns)
    return mpiopt_recv_dtype_ix(buf, count, dtype, source, tag, comm, status, sh->runs, sh->nblocks, sh->blocklen,
                                sh->extent, sh->base, sh->elem);
  return mpiopt_recv_dtype_nd(buf, count, dtype, source, tag, comm, status, MPIOPT_DSHAPE_ARGS(sh));
}

static MPIOPT_INLINE int mpiopt_recv_dtype_rt(void *buf, int count, MPI_Datatype dtype, int source, int tag,
                                       MPI_Comm comm, MPI_Status *status, const struct mpiopt_dshape *sh,
                                       unsigned long m8, unsigned long m64, unsigned long m512) {
  if (mpiopt_dtype_rt_elements(sh, count, source, m8, m64, m512) > 0)
    return mpiopt_recv_dtype_rt_work(buf, count, dtype, source, tag, comm, status, sh);
  return MPI_Recv(buf, count, dtype, source, tag, comm, status);
}

/* A side (struct mpiopt_dtype_side) takes a shadow's shape. */
static MPIOPT_INLINE void mpiopt_dtype_side_shape(struct mpiopt_dtype_side *d, const struct mpiopt_dshape *sh) {
  d->offset = sh->offset;
  d->nouter = sh->nouter;
  d->ostride = sh->ostride;
  d->nblocks = sh->nblocks;
  d->blocklen = sh->blocklen;
  d->stride = sh->stride;
  d->extent = sh->extent;
  d->base = sh->base;
  d->elem = sh->elem;
  d->displs = sh->nruns ? sh->runs : (const MPI_Aint *)0;
}

/* A side's arguments of the _ix templates: its run list, or (nblocks 0) as
   written. */
#define MPIOPT_DTYPE_RT_IX_SIDE(d) d.displs, d.displs ? d.nblocks : 0, d.blocklen, d.extent, d.base, d.elem

/* A side of a run-time sendrecv: n elements of the shadow's shape to pack
   (0: the side as written). A shape without holes travels from and to the
   user's buffer as n elements of its base type. */
static MPIOPT_INLINE struct mpiopt_dtype_side mpiopt_dtype_rt_side(int count, MPI_Datatype type,
                                                                 const struct mpiopt_dshape *sh, int n) {
  struct mpiopt_dtype_side d;
  memset(&d, 0, sizeof d);
  d.count = count;
  d.type = d.base = type;
  d.elem = d.nouter = 1;
  if (n > 0 && mpiopt_dshape_dense(sh)) {
    d.count = n;
    d.type = sh->base;
  } else if (n > 0) {
    mpiopt_dtype_side_shape(&d, sh);
  }
  return d;
}

static MPIOPT_NOINLINE int mpiopt_sendrecv_dtype_rt_work(const void *sendbuf, int scount, MPI_Datatype stype,
                                                      int dest, int stag, void *recvbuf, int rcount,
                                                      MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                                      MPI_Status *status, const struct mpiopt_dshape *ssh,
                                                      const struct mpiopt_dshape *rsh, int sn, int rn) {
  struct mpiopt_dtype_side s = mpiopt_dtype_rt_side(scount, stype, ssh, sn),
                           r = mpiopt_dtype_rt_side(rcount, rtype, rsh, rn);
  if (s.displs || r.displs) /* a run list: the _ix form, a strided side as written */
    return mpiopt_sendrecv_dtype_ix(sendbuf, scount, stype, dest, stag, recvbuf, rcount, rtype, source, rtag, comm,
                                    status, MPIOPT_DTYPE_RT_IX_SIDE(s), MPIOPT_DTYPE_RT_IX_SIDE(r));
  return mpiopt_sendrecv_dtype_nd(sendbuf, s.count, s.type, dest, stag, recvbuf, r.count, r.type, source, rtag, comm,
                                  status, s.offset, s.nouter, s.ostride, s.nblocks, s.blocklen, s.stride, s.extent,
                                  s.base, s.elem, r.offset, r.nouter, r.ostride, r.nblocks, r.blocklen, r.stride,
                                  r.extent, r.base, r.elem);
}

/* MPI_Sendrecv with a run-time shape on either side (a null shadow: the
   side as written). */
static MPIOPT_INLINE int mpiopt_sendrecv_dtype_rt(const void *sendbuf, int scount, MPI_Datatype stype, int dest,
                                           int stag, void *recvbuf, int rcount, MPI_Datatype rtype, int source,
                                           int rtag, MPI_Comm comm, MPI_Status *status,
                                           const struct mpiopt_dshape *ssh, const struct mpiopt_dshape *rsh,
                                           unsigned long m8, unsigned long m64, unsigned long m512) {
  int sn = mpiopt_dtype_rt_elements(ssh, scount, dest, m8, m64, m512),
      rn = mpiopt_dtype_rt_elements(rsh, rcount, source, m8, m64, m512);
  if (sn > 0 || rn > 0)
    return mpiopt_sendrecv_dtype_rt_work(sendbuf, scount, stype, dest, stag, recvbuf, rcount, rtype, source, rtag,
                                         comm, status, ssh, rsh, sn, rn);
  return MPI_Sendrecv(sendbuf, scount, stype, dest, stag, recvbuf, rcount, rtype, source, rtag, comm, status);
}

/* The nonblocking calls with a shape recorded at run time: the size and
   run checks inline, the rest out of line through the _nd templates (which
   set or clear the pending state); otherwise the generic call, the pending
   state cleared. */
static MPIOPT_NOINLINE int mpiopt_isend_dtype_rt_work(const void *buf, int count, MPI_Datatype dtype, int dest,
                                                   int tag, MPI_Comm comm, MPI_Request *req, struct mpiopt_dpend *pd,
                                                   const struct mpiopt_dshape *sh, int ssend) {
  return mpiopt_isend_dtype_nd(buf, count, dtype, dest, tag, comm, req, pd, MPIOPT_DSHAPE_ARGS(sh), ssend);
}

static MPIOPT_INLINE int mpiopt_isend_dtype_rt(const void *buf, int count, MPI_Datatype dtype, int dest, int tag,
                                               MPI_Comm comm, MPI_Request *req, struct mpiopt_dpend *pd,
                                               const struct mpiopt_dshape *sh, unsigned long m8, unsigned long m64,
                                               unsigned long m512, int ssend) {
  if (mpiopt_dtype_rt_elements(sh, count, dest, m8, m64, m512) > 0 && !sh->nruns)
    return mpiopt_isend_dtype_rt_work(buf, count, dtype, dest, tag, comm, req, pd, sh, ssend);
  pd->active = 0;
  return ssend ? MPI_Issend(buf, count, dtype, dest, tag, comm, req) : MPI_Isend(buf, count, dtype, dest, tag, comm, req);
}

static MPIOPT_NOINLINE int mpiopt_irecv_dtype_rt_work(void *buf, int count, MPI_Datatype dtype, int source, int tag,
                                                   MPI_Comm comm, MPI_Request *req, struct mpiopt_dpend *pd,
                                                   const struct mpiopt_dshape *sh) {
  return mpiopt_irecv_dtype_nd(buf, count, dtype, source, tag, comm, req, pd, MPIOPT_DSHAPE_ARGS(sh));
}

static MPIOPT_INLINE int mpiopt_irecv_dtype_rt(void *buf, int count, MPI_Datatype dtype, int source, int tag,
                                               MPI_Comm comm, MPI_Request *req, struct mpiopt_dpend *pd,
                                               const struct mpiopt_dshape *sh, unsigned long m8, unsigned long m64,
                                               unsigned long m512) {
  if (mpiopt_dtype_rt_elements(sh, count, source, m8, m64, m512) > 0 && !sh->nruns)
    return mpiopt_irecv_dtype_rt_work(buf, count, dtype, source, tag, comm, req, pd, sh);
  pd->active = 0;
  return MPI_Irecv(buf, count, dtype, source, tag, comm, req);
}

/* Collectives (MPI_Bcast, MPI_Gather, MPI_Scatter, MPI_Alltoall) with a
   shape recorded at run time on a side: each side whose shadow is set and
   whose chunk (count elements) the collective's profile family measured
   the template winning at goes through the _nd collective with the
   shadow's shape; a side that does not passes as written (nblocks 0). Each
   rank decides for itself: the packed message has the derived type's
   signature, so ranks that decided differently still match. Out of line:
   the collectives are not in inner loops, and their code is long. */
static MPIOPT_INLINE struct mpiopt_dtype_side mpiopt_dtype_coll_rt(const struct mpiopt_dshape *sh, int count,
                                                                 unsigned long m8, unsigned long m64,
                                                                 unsigned long m512) {
  struct mpiopt_dtype_side d;
  memset(&d, 0, sizeof d);
  d.nouter = d.elem = 1;
  d.type = d.base = MPI_BYTE;
  if (mpiopt_dtype_rt_elements(sh, count, 0, m8, m64, m512) > 0)
    mpiopt_dtype_side_shape(&d, sh);
  return d;
}

static MPIOPT_NOINLINE int mpiopt_bcast_dtype_rt(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                                                 const struct mpiopt_dshape *sh, unsigned long m8,
                                                 unsigned long m64, unsigned long m512) {
  struct mpiopt_dtype_side d = mpiopt_dtype_coll_rt(sh, count, m8, m64, m512);
  if (!d.nblocks)
    return MPI_Bcast(buf, count, dtype, root, comm);
  return mpiopt_bcast_dtype_side(buf, count, dtype, root, comm, d);
}

/* MPI_Gather (scatter 0) or MPI_Scatter (scatter 1) with run-time shapes. */
static MPIOPT_NOINLINE int mpiopt_rooted_dtype_rt(int scatter, const void *sbuf, int scount, MPI_Datatype stype,
                                                  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                                  const struct mpiopt_dshape *ssh, const struct mpiopt_dshape *rsh,
                                                  unsigned long m8, unsigned long m64, unsigned long m512) {
  struct mpiopt_dtype_side s = mpiopt_dtype_coll_rt(ssh, scount, m8, m64, m512),
                           r = mpiopt_dtype_coll_rt(rsh, rcount, m8, m64, m512);
  if (!s.nblocks && !r.nblocks)
    return scatter ? MPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm)
                   : MPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
  return scatter ? mpiopt_scatter_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, s, r)
                 : mpiopt_gather_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, s, r);
}

static MPIOPT_INLINE int mpiopt_gather_dtype_rt(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                                const struct mpiopt_dshape *ssh, const struct mpiopt_dshape *rsh,
                                                unsigned long m8, unsigned long m64, unsigned long m512) {
  return mpiopt_rooted_dtype_rt(0, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ssh, rsh, m8, m64, m512);
}

static MPIOPT_INLINE int mpiopt_scatter_dtype_rt(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                 int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                                                 const struct mpiopt_dshape *ssh, const struct mpiopt_dshape *rsh,
                                                 unsigned long m8, unsigned long m64, unsigned long m512) {
  return mpiopt_rooted_dtype_rt(1, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ssh, rsh, m8, m64, m512);
}

static MPIOPT_NOINLINE int mpiopt_alltoall_dtype_rt(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                                    int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                                    const struct mpiopt_dshape *ssh, const struct mpiopt_dshape *rsh,
                                                    unsigned long m8, unsigned long m64, unsigned long m512) {
  struct mpiopt_dtype_side s = mpiopt_dtype_coll_rt(ssh, scount, m8, m64, m512),
                           r = mpiopt_dtype_coll_rt(rsh, rcount, m8, m64, m512);
  if (!s.nblocks && !r.nblocks)
    return MPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  return mpiopt_alltoall_dtype_side(sbuf, scount, stype, rbuf, rcount, rtype, comm, s, r);
}

#endif /* MPIOPT_DTYPE_H */
