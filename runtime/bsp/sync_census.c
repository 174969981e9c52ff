/* BSPlib on MPI, sync algorithm "census": the header exchange of a sync
 * without the all-to-all and without polling (MPIOPT_BSP_SYNC=census).
 *
 * Each process sends its block (header and inline stream, as the
 * all-to-all would carry it) only to the processes it has a stream for,
 * then joins one MPI_Allreduce of p + A words: word q counts the processes
 * that send a block to q (summed), the A words after them are what the
 * processes must agree on (the sparse sync's agreement, MPI_MIN). Each
 * process then posts exactly as many receives from any source as its word
 * says, all at once, waits for them with its sends, and writes the silent
 * pairs' blocks locally. Disagreement falls back to the all-to-all, which names it.
 *
 * Cost, per process, k partners, p processes:
 *     T_census = alpha + k * o + allreduce(p + A words) ~ 2 log2(p) * alpha + p * 8 * beta
 * (o: a message's overhead; the k transfers overlap)
 * against the sparse sync's k * alpha + a nonblocking allreduce and its
 * polling, and the all-to-all's (p - 1) * alpha + p * block * beta. It
 * trades the NBX protocol's polling for O(p) bytes in the allreduce: the
 * choice where an MPI's nonblocking collectives are slow or polling is
 * expensive (SimGrid's SMPI; docs/simulation.md).
 *
 * A process may go on to the next superstep while another still receives
 * this one's blocks: the tag alternates with the superstep's parity, and
 * no process can get two supersteps ahead (the next allreduce needs
 * everyone). */
#include <stdlib.h>
#include <string.h>

#include "bsp_internal.h"

#define G mpiopt_bsp_g
#define TAG_CENSUS(superstep) (0x7abe + (int)((superstep) & 1))

static MPI_Op census_op = MPI_OP_NULL;
static uint64_t *census;
static size_t census_cap;
static unsigned char *scratch;
static size_t scratch_cap;
static MPI_Status *statuses;
static size_t statuses_cap;

/* Sum the first len - nagree words, take the minimum of the rest. */
static void census_reduce(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  const uint64_t *a = in;
  uint64_t *b = inout;
  int counts = *len - mpiopt_bsp_nagree;
  for (int i = 0; i < counts; i++) b[i] += a[i];
  for (int i = counts < 0 ? 0 : counts; i < *len; i++)
    if (a[i] < b[i]) b[i] = a[i];
}

int mpiopt_bsp_census_blocks(const mpiopt_bsp_hdr *mine) {
  const int p = G.p, me = G.pid, tag = TAG_CENSUS(mine->superstep);
  const size_t words = (size_t)p + (size_t)mpiopt_bsp_nagree;
  if (census_op == MPI_OP_NULL) MPI_Op_create(census_reduce, 1, &census_op);
  census = mpiopt_bsp_grow(census, &census_cap, words, sizeof *census);
  unsigned char *got = G.sparse_got;
  memset(got, 0, (size_t)p);
  for (int q = 0; q < p; q++) census[q] = q != me && G.out[q].len;
  int nsend = mpiopt_bsp_send_blocks(tag, 0);
  mpiopt_bsp_agreement(mine, census + p);
  MPI_Allreduce(MPI_IN_PLACE, census, (int)words, MPI_UINT64_T, census_op, G.comm);
  G.edges = 0;
  for (int q = 0; q < p; q++) G.edges += census[q];
  /* Any source, into scratch blocks, then to the senders' slots: no probe
     (under SMPI a probe is a polling loop of the simulator). The receives
     are all posted before any is waited for, so the k transfers overlap
     (posted one at a time, each took a message's latency in simulation:
     0.7 us per partner at 16 processes, 4x the all-to-all with 15). */
  const int k = (int)census[me];
  scratch = mpiopt_bsp_grow(scratch, &scratch_cap, (size_t)(k ? k : 1) * G.block, 1);
  for (int i = 0; i < k; i++)
    MPI_Irecv(scratch + (size_t)i * G.block, (int)G.block, MPI_BYTE, MPI_ANY_SOURCE, tag, G.comm,
              mpiopt_bsp_req(nsend + i));
  statuses = mpiopt_bsp_grow(statuses, &statuses_cap, (size_t)(nsend + k + 1), sizeof *statuses);
  MPI_Waitall(nsend + k, G.reqs, statuses);
  for (int i = 0; i < k; i++) {
    const MPI_Status *st = &statuses[nsend + i];
    int n = 0;
    MPI_Get_count(st, MPI_BYTE, &n);
    memcpy(G.a2a_recv + (size_t)st->MPI_SOURCE * G.block, scratch + (size_t)i * G.block, (size_t)n);
    got[st->MPI_SOURCE] = 1;
  }
  return mpiopt_bsp_agreed(mine, census + p, got);
}
