/* BSPlib on MPI: the one table that chooses how the part of a superstep
 * that does not fit in the all-to-all block travels (MPIOPT_BSP_EXCHANGE).
 *
 *   name   file            used for
 *   msg    exchange_msg.c  every stream (one message per pair and superstep)
 *   rma    exchange_rma.c  every put and get of at least MPIOPT_BSP_RMA_MIN
 *                          bytes (default 1 when forced), the rest as msg
 *   auto   (default)       rma from the measured crossover below, else msg
 *
 * The crossover comes from benchmarks/bsp (puts of n bytes per superstep,
 * p = 2 MPICH and p = 4 Open MPI on the development machine): below it the
 * fences of the one-sided epochs cost more than the receiver's copy saves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp_internal.h"

#define G mpiopt_bsp_g

static const struct {
  const char *name;
  int id;
} exchanges[] = {{"auto", MPIOPT_BSP_EX_AUTO}, {"msg", MPIOPT_BSP_EX_MSG}, {"rma", MPIOPT_BSP_EX_RMA}};

#define AUTO_RMA_MIN ((size_t)1 << 20) /* measured: see the comment above */

void mpiopt_bsp_select_init(void) {
  long mode[2] = {MPIOPT_BSP_EX_AUTO, -1};
  const char *v = getenv("MPIOPT_BSP_EXCHANGE");
  if (v && *v) {
    size_t i = 0;
    while (i < sizeof exchanges / sizeof *exchanges && strcmp(v, exchanges[i].name)) i++;
    if (i == sizeof exchanges / sizeof *exchanges)
      mpiopt_bsp_fail("MPIOPT_BSP_EXCHANGE=%s: expected auto, msg or rma", v);
    mode[0] = exchanges[i].id;
  }
  v = getenv("MPIOPT_BSP_RMA_MIN");
  if (v && *v) {
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*end || x < 1) mpiopt_bsp_fail("MPIOPT_BSP_RMA_MIN=%s: expected a positive number of bytes", v);
    mode[1] = (long)x;
  }
  /* Window creation is collective: process 0's choice counts. */
  MPI_Bcast(mode, 2, MPI_LONG, 0, G.comm);
  G.exchange = (int)mode[0];
  G.rma_min = mode[1] > 0 ? (size_t)mode[1] : G.exchange == MPIOPT_BSP_EX_RMA ? 1 : AUTO_RMA_MIN;
  if (G.exchange != MPIOPT_BSP_EX_MSG && G.p > 1 && !mpiopt_bsp_rma_start() && G.exchange == MPIOPT_BSP_EX_RMA &&
      G.pid == 0)
    fprintf(stderr, "bsp: MPIOPT_BSP_EXCHANGE=rma: this MPI has no dynamic windows; using messages\n");
}

int mpiopt_bsp_use_rma(size_t n) { return G.have_win && n >= G.rma_min; }
