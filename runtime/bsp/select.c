/* BSPlib on MPI: the one table that chooses how the part of a superstep
 * that does not fit in the all-to-all block travels (MPIOPT_BSP_EXCHANGE).
 *
 *   name   file            used for
 *   msg    exchange_msg.c  every stream (one message per pair and superstep)
 *   rma    exchange_rma.c  every put and get of MPIOPT_BSP_RMA_MIN bytes or
 *                          more (1 when forced) and at most MPIOPT_BSP_RMA_MAX;
 *                          the rest as auto
 *   bulk   exchange_bulk.c every put and get to or from another process of
 *                          MPIOPT_BSP_BULK_MIN bytes or more (1 when forced)
 *                          alone, into place where the order allows; the
 *                          rest (and every send) as msg
 *   auto   (default)       rma in the measured window below, else bulk from
 *                          the measured size below, else msg
 *
 * The window comes from `scripts/bench bsp` (bsp_bench bulk/bulkget: one
 * transfer of n bytes per superstep, MPICH, p = 2, this machine): one-sided
 * wins from 16 KiB (no receiver copy: 64 KiB puts 6-9 us against 13-15 us
 * as messages) but loses from 256 KiB on (MPICH moves dynamic-window data
 * in pipelined active messages: 1 MiB 1.0-1.3 ms against 0.15 ms). Below
 * 16 KiB the fences cost more than the copy saves. Open MPI's shared-memory
 * one-sided component has no dynamic windows: there everything is bulk or
 * msg.
 *
 * Bulk from 64 KiB (bsp_bench bulk/bulkget, msg against bulk, same machine;
 * the README's BSPlib table): there a bulk put is never slower and a bulk
 * get about 2x faster in every run. Smaller transfers stay in the streams:
 * the single-transfer gains there are within noise for puts, and a
 * superstep of many small transfers would pay a message for each. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "bsp_internal.h"

#define G mpiopt_bsp_g

/* How the headers of a sync travel (MPIOPT_BSP_SYNC):
 *
 *   name      file           used for
 *   alltoall  sync.c         one MPI_Alltoall of a fixed block per pair
 *   sparse    sync_sparse.c  blocks to the processes with a stream only,
 *                            plus one small non-blocking allreduce (NBX)
 *   census    sync_census.c  blocks to the processes with a stream only,
 *                            plus one allreduce of p counts and the
 *                            agreement, then receives from any source all
 *                            posted at once (no polling)
 *   adaptive  sync.c         census while the last sync's streams were
 *                            sparse, the all-to-all when they were dense
 *   auto      (default)      adaptive under SMPI from AUTO_ADAPTIVE_P
 *                            processes (simulated: the census's empty
 *                            superstep 0.2-0.35x the all-to-all's at 32 and
 *                            64, but 2.3x with 15 partners at 16); alltoall
 *                            otherwise: neither sparse nor census is
 *                            measured where it should win on a machine
 *                            (16 processes and more; DEVELOPERS.md,
 *                            Machines); at 2 processes the all-to-all is
 *                            one exchange and wins */
#define AUTO_ADAPTIVE_P 32
static const char *const syncs[] = {"auto", "alltoall", "sparse", "census", "adaptive"};
static const int sync_ids[] = {MPIOPT_BSP_SYNC_ALLTOALL, MPIOPT_BSP_SYNC_ALLTOALL, MPIOPT_BSP_SYNC_SPARSE,
                               MPIOPT_BSP_SYNC_CENSUS, MPIOPT_BSP_SYNC_ADAPTIVE};

/* MPIOPT_BSP_EXCHANGE's values, in the order of their ids. */
static const char *const exchanges[] = {"auto", "msg", "rma", "bulk"};
static const int exchange_ids[] = {MPIOPT_BSP_EX_AUTO, MPIOPT_BSP_EX_MSG, MPIOPT_BSP_EX_RMA, MPIOPT_BSP_EX_BULK};

#define AUTO_RMA_MIN ((size_t)16 << 10) /* measured: see the comment above */
#define AUTO_RMA_MAX ((size_t)128 << 10)
#define AUTO_BULK_MIN ((size_t)64 << 10)

/* A positive byte count from the environment, or -1 when unset. */
static long env_bytes(const char *name) { return mpiopt_env_long(name, -1, 1, LONG_MAX); }

void mpiopt_bsp_select_init(void) {
  long mode[5] = {MPIOPT_BSP_EX_AUTO, -1, -1, -1, MPIOPT_BSP_SYNC_ALLTOALL};
  mode[0] = exchange_ids[mpiopt_env_choice("MPIOPT_BSP_EXCHANGE", exchanges, 4, 0)];
  mode[1] = env_bytes("MPIOPT_BSP_RMA_MIN");
  mode[2] = env_bytes("MPIOPT_BSP_RMA_MAX");
  mode[3] = env_bytes("MPIOPT_BSP_BULK_MIN");
  int sync = mpiopt_env_choice("MPIOPT_BSP_SYNC", syncs, 5, 0);
  mode[4] = sync == 0 && MPIOPT_SMPI && G.p >= AUTO_ADAPTIVE_P ? MPIOPT_BSP_SYNC_ADAPTIVE : sync_ids[sync];
  /* Window creation is collective, and both sides of a transfer must agree
   * on its path: process 0's choice counts. */
  MPI_Bcast(mode, 5, MPI_LONG, 0, G.comm);
  G.exchange = (int)mode[0];
  G.sync = (int)mode[4];
  int forced = G.exchange == MPIOPT_BSP_EX_RMA;
  G.rma_min = mode[1] > 0 ? (size_t)mode[1] : forced ? 1 : AUTO_RMA_MIN;
  G.rma_max = mode[2] > 0 ? (size_t)mode[2] : forced ? SIZE_MAX : AUTO_RMA_MAX;
  G.bulk_min = mode[3] > 0                         ? (size_t)mode[3]
               : G.exchange == MPIOPT_BSP_EX_BULK ? 1
               : G.exchange == MPIOPT_BSP_EX_MSG  ? SIZE_MAX
                                                  : AUTO_BULK_MIN;
  int want_rma = G.exchange == MPIOPT_BSP_EX_AUTO || forced;
  if (want_rma && G.p > 1 && !mpiopt_bsp_rma_start() && forced && G.pid == 0)
    fprintf(stderr, "bsp: MPIOPT_BSP_EXCHANGE=rma: %s; using messages\n",
            MPIOPT_SMPI ? "dynamic windows are not used under SMPI" : "this MPI has no dynamic windows");
}

int mpiopt_bsp_use_rma(size_t n) { return G.have_win && n >= G.rma_min && n <= G.rma_max; }

int mpiopt_bsp_use_bulk(size_t n) { return n >= G.bulk_min; }
