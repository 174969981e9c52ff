/* BSPlib on MPI, exchange algorithm "rma": large puts and gets go straight
 * between the registered areas with MPI one-sided communication, on a
 * dynamic window to which every registration is attached (its address is
 * exchanged with its size when the registration takes effect).
 *
 * The BSPlib order is kept with fences: gets read their sources in an epoch
 * in which nobody writes (before any get result or put lands anywhere); the
 * one-sided puts are issued after every process has written its get
 * results, in an epoch closed by the last fence. Each epoch is opened only
 * if some process uses it (a flag in the sync header), so supersteps
 * without one-sided transfers pay nothing.
 *
 * Order of the results: a one-sided get goes straight to its destination
 * only when nothing else can touch that memory during the epoch or be
 * ordered against it (the destination overlaps no registration of this
 * process, which another process may be reading, and no other get of this
 * process); otherwise it lands in a staging buffer and is copied to place
 * in issue order with the other gets. One-sided puts land in no defined
 * order among themselves, so each destination checks the markers they left
 * in its streams: if a one-sided put into it overlaps any other put into it
 * this superstep, the processes agree (one MPI_Allreduce in supersteps with
 * one-sided puts) to send that superstep's one-sided put data as messages
 * instead (exchange_bulk.c), and every destination lands all puts by source
 * and issue order.
 *
 * Cost model, for a transfer of n bytes (f: one fence, about a barrier,
 * alpha * log p):
 *     T_rma = (2 or 3) * f + n * beta + n * gamma   (put: the source is copied
 *                                                     at the call; get: none)
 *     T_msg = alpha + n * beta + 2 * n * gamma      (exchange_msg.c)
 * so one-sided pays off once n * gamma exceeds the fences: select.c holds
 * the measured threshold (MPIOPT_BSP_RMA_MIN).
 *
 * MulticoreBSP's bsp_direct_get (a get that completes at once) uses a second
 * window over the same areas in a passive-target epoch opened at bsp_begin,
 * so that it never meets the fences of the first. */
#include <string.h>

#include "bsp_internal.h"
#include "../core/core.h"

#define G mpiopt_bsp_g

static MPI_Win dwin;

/* Some MPI builds have no dynamic windows (Open MPI's shared-memory
 * one-sided component, for one): then every transfer goes as messages and
 * bsp_direct_get reports that it is unavailable. */
int mpiopt_bsp_rma_start(void) {
  /* Under SimGrid's SMPI 3.32 dynamic windows are created, but a put after
   * a registration is popped and re-attached, and puts and gets of 2 MiB,
   * deliver wrong data (test/bsp drma.c with MPIOPT_BSP_EXCHANGE=rma; not
   * yet traced to SMPI or to an assumption MPICH and Open MPI happen to
   * meet): messages instead, as under an MPI without dynamic windows. */
  if (MPIOPT_SMPI) return 0;
  MPI_Comm_set_errhandler(G.comm, MPI_ERRORS_RETURN);
  int ok = MPI_Win_create_dynamic(MPI_INFO_NULL, G.comm, &G.win) == MPI_SUCCESS;
  if (ok && MPI_Win_create_dynamic(MPI_INFO_NULL, G.comm, &dwin) != MPI_SUCCESS) {
    MPI_Win_free(&G.win);
    ok = 0;
  }
  MPI_Comm_set_errhandler(G.comm, MPI_ERRORS_ARE_FATAL);
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, G.comm);
  if (!all) {
    if (ok) { /* only here: nothing collective can undo it; leave the windows unused */
      MPI_Win_free(&G.win);
      MPI_Win_free(&dwin);
    }
    return 0;
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, dwin);
  G.have_win = 1;
  return 1;
}

void mpiopt_bsp_rma_stop(void) {
  if (!G.have_win) return;
  MPI_Win_unlock_all(dwin);
  MPI_Win_free(&dwin);
  MPI_Win_free(&G.win);
  G.have_win = 0;
}

/* Attaching can fail (Open MPI's rdma component over shared memory, for
 * one): the area is then reached by messages only, and its address is
 * published as 0 so that nobody uses the window for it. */
int mpiopt_bsp_rma_attach(int slot) {
  mpiopt_bsp_reg *r = &G.regs[slot];
  r->attached = 0;
  if (!r->addr || !r->size) return 0;
  MPI_Win_set_errhandler(G.win, MPI_ERRORS_RETURN);
  MPI_Win_set_errhandler(dwin, MPI_ERRORS_RETURN);
  if (MPI_Win_attach(G.win, (void *)r->addr, (MPI_Aint)r->size) != MPI_SUCCESS) return 0;
  if (MPI_Win_attach(dwin, (void *)r->addr, (MPI_Aint)r->size) != MPI_SUCCESS) {
    MPI_Win_detach(G.win, r->addr);
    return 0;
  }
  r->attached = 1;
  return 1;
}

void mpiopt_bsp_rma_detach(int slot) {
  mpiopt_bsp_reg *r = &G.regs[slot];
  if (!r->attached) return;
  MPI_Win_detach(G.win, r->addr);
  MPI_Win_detach(dwin, r->addr);
  r->attached = 0;
}

static void transfer(const mpiopt_bsp_rmaop *o, int put) {
  MPI_Aint base = G.raddr[(size_t)o->slot * G.p + o->pid] + (MPI_Aint)o->off;
  char *local = put ? G.rmabuf.p + o->at : o->local;
  for (size_t at = 0; at < o->n; at += MPIOPT_BSP_CHUNK) {
    int c = (int)MPIOPT_BSP_PIECE(o->n, at);
    if (put)
      MPI_Put(local + at, c, MPI_BYTE, o->pid, base + (MPI_Aint)at, c, MPI_BYTE, G.win);
    else
      MPI_Get(local + at, c, MPI_BYTE, o->pid, base + (MPI_Aint)at, c, MPI_BYTE, G.win);
  }
}

void mpiopt_bsp_rma_run(int puts) {
  if (!puts) {
    if (!(G.rma_any & MPIOPT_BSP_F_RMAGET)) return;
    MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOPUT, G.win);
    for (size_t k = 0; k < G.nrma; k++)
      if (G.rma[k].at == SIZE_MAX) transfer(&G.rma[k], 0);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, G.win);
    return;
  }
  if (!(G.rma_any & MPIOPT_BSP_F_RMAPUT)) return;
  /* Every process has read its get sources and written its get results. */
  MPI_Win_fence(MPI_MODE_NOPRECEDE, G.win);
  for (size_t k = 0; k < G.nrma; k++)
    if (G.rma[k].at != SIZE_MAX) transfer(&G.rma[k], 1);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, G.win);
}

void mpiopt_mcbsp_direct_get(unsigned int pid, const void *src, size_t offset, void *dst, size_t nbytes) {
  mpiopt_bsp_require_active("bsp_direct_get");
  if (!G.unsafe && pid >= (unsigned)G.p)
    mpiopt_bsp_fail("bsp_direct_get(pid=%u, src=%p, offset=%zu, dst=%p, nbytes=%zu): process %u does not exist "
                    "(0..%d)",
                    pid, src, offset, dst, nbytes, pid, G.p - 1);
  int s = mpiopt_bsp_lookup(src);
  if (s < 0)
    mpiopt_bsp_fail("bsp_direct_get(pid=%u, src=%p, offset=%zu, dst=%p, nbytes=%zu): %p is not a registered "
                    "address",
                    pid, src, offset, dst, nbytes, src);
  size_t size = G.rsize[(size_t)s * G.p + pid];
  if (offset > size || nbytes > size - offset)
    mpiopt_bsp_fail("bsp_direct_get(pid=%u, src=%p, offset=%zu, dst=%p, nbytes=%zu): bytes %zu..%zu are outside "
                    "the %zu bytes that process %u registered",
                    pid, src, offset, dst, nbytes, offset, offset + nbytes, size, pid);
  if (!nbytes) return;
  if ((int)pid == G.pid) {
    memmove(dst, G.regs[s].addr + offset, nbytes);
    return;
  }
  if (!G.have_win || !G.raddr[(size_t)s * G.p + pid])
    mpiopt_bsp_fail("bsp_direct_get(pid=%u, src=%p, offset=%zu, dst=%p, nbytes=%zu) needs MPI one-sided "
                    "communication (a dynamic window over the area), which %s",
                    pid, src, offset, dst, nbytes,
                    G.exchange == MPIOPT_BSP_EX_MSG ? "MPIOPT_BSP_EXCHANGE=msg turned off"
                                                    : "this MPI does not provide");
  MPI_Aint base = G.raddr[(size_t)s * G.p + pid] + (MPI_Aint)offset;
  for (size_t at = 0; at < nbytes; at += MPIOPT_BSP_CHUNK) {
    int c = (int)MPIOPT_BSP_PIECE(nbytes, at);
    MPI_Get((char *)dst + at, c, MPI_BYTE, (int)pid, base + (MPI_Aint)at, c, MPI_BYTE, dwin);
  }
  MPI_Win_flush((int)pid, dwin);
}
