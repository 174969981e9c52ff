/* BSPlib on MPI, sync algorithm "sparse": the header exchange of a sync
 * without the all-to-all, for supersteps in which each process talks to a
 * few others (MPIOPT_BSP_SYNC=sparse).
 *
 * The all-to-all moves a fixed block between every pair, O(p) bytes per
 * process even when nothing is sent. Here (the NBX protocol of Hoefler,
 * Siebert and Lumsdaine) each process sends its block, the same header and
 * inline stream the all-to-all would carry, only to the processes it has a
 * stream for, with synchronous sends; it receives whatever arrives
 * (probing any source) until its sends are matched, then joins a
 * non-blocking allreduce and goes on receiving until that completes. The
 * allreduce is the protocol's barrier (when it completes every process has
 * had every block sent to it) and carries what the processes must agree on
 * (sync or end, push and pop counts, the pops' hash, the tag-size calls and
 * value, the superstep) as minimum and maximum, and whether anyone uses
 * one-sided transfers or a NULL pop. The blocks of silent pairs are then
 * written locally. If the minimum and maximum of any field differ, every
 * process sees it in the same result and the sync falls back to the
 * all-to-all, whose header check names the two processes.
 *
 * Cost model, per process, k partners (sent to or received from), p
 * processes, an allreduce of about 160 bytes:
 *     T_sparse = k * alpha + allreduce(p) ~ k * alpha + 2 log2(p) * alpha
 *     T_a2a    = alltoall(p, block bytes) ~ (p - 1) * alpha + p * block * beta
 * so sparse pays where k is small against p and p is large; at 2 processes
 * the all-to-all (one exchange) wins.
 *
 * A process whose allreduce has completed may go on to the next superstep
 * and send its blocks while another still receives this one's: the tag
 * alternates with the superstep's parity, and no process can get two
 * supersteps ahead (the next allreduce needs everyone). */
#include <string.h>

#include "bsp_internal.h"

#define G mpiopt_bsp_g
#define TAG_BLOCK(superstep) (0x7abc + (int)((superstep) & 1))

enum { F_VOTE, F_NPUSH, F_NPOP, F_POPHASH, F_TAGSIZE, F_SUPERSTEP, F_NTAGSET, F_TAGHASH, NFIELDS };
enum { B_RMAGET, B_RMAPUT, B_WILD, NBITS };
#define NAGREE (2 * NFIELDS + NBITS)

/* A flag as the complement of 0 or 1, so that MPI_MIN gives its OR. */
static uint64_t max_bit(uint32_t flags, uint32_t bit) { return (flags & bit) ? ~(uint64_t)1 : ~(uint64_t)0; }

const int mpiopt_bsp_nagree = NAGREE;

void mpiopt_bsp_agreement(const mpiopt_bsp_hdr *h, uint64_t *v) {
  uint64_t f[NFIELDS] = {h->vote, h->npush, h->npop, h->pophash, h->tagsize_next, h->superstep, h->ntagset,
                         h->taghash};
  for (int i = 0; i < NFIELDS; i++) {
    v[i] = f[i];                /* MIN: the minimum */
    v[NFIELDS + i] = ~f[i];     /* MIN of the complement: the maximum */
  }
  v[2 * NFIELDS + B_RMAGET] = max_bit(h->flags, MPIOPT_BSP_F_RMAGET);
  v[2 * NFIELDS + B_RMAPUT] = max_bit(h->flags, MPIOPT_BSP_F_RMAPUT);
  v[2 * NFIELDS + B_WILD] = max_bit(h->flags, MPIOPT_BSP_F_WILDPOP);
}

/* Receive a block that has arrived, if any; returns whether one did. */
static int receive_one(unsigned char *got, int tag) {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, tag, G.comm, &flag, &st);
  if (!flag) return 0;
  int q = st.MPI_SOURCE;
  MPI_Recv(G.a2a_recv + (size_t)q * G.block, (int)G.block, MPI_BYTE, q, tag, G.comm, MPI_STATUS_IGNORE);
  got[q] = 1;
  return 1;
}

int mpiopt_bsp_send_blocks(int tag, int synchronous) {
  int nsend = 0;
  for (int q = 0; q < G.p; q++) {
    if (q == G.pid || !G.out[q].len) continue;
    const char *blk = G.a2a_send + (size_t)q * G.block;
    const mpiopt_bsp_hdr *h = (const mpiopt_bsp_hdr *)blk;
    int n = (int)(sizeof *h + ((h->flags & MPIOPT_BSP_F_INLINE) ? G.out[q].len : 0));
    if (synchronous)
      MPI_Issend(blk, n, MPI_BYTE, q, tag, G.comm, mpiopt_bsp_req(nsend++));
    else
      MPI_Isend(blk, n, MPI_BYTE, q, tag, G.comm, mpiopt_bsp_req(nsend++));
  }
  return nsend;
}

int mpiopt_bsp_sparse_blocks(const mpiopt_bsp_hdr *mine) {
  const int tag = TAG_BLOCK(mine->superstep);
  unsigned char *got = G.sparse_got;
  memset(got, 0, (size_t)G.p);
  int nsend = mpiopt_bsp_send_blocks(tag, 1);
  uint64_t in[NAGREE], out[NAGREE];
  mpiopt_bsp_agreement(mine, in);
  MPI_Request all = MPI_REQUEST_NULL;
  for (int done = 0, joined = 0; !done;) {
    if (receive_one(got, tag)) continue;
    if (!joined) {
      int sent = 0;
      MPI_Testall(nsend, G.reqs, &sent, MPI_STATUSES_IGNORE);
      if (sent) {
        MPI_Iallreduce(in, out, NAGREE, MPI_UINT64_T, MPI_MIN, G.comm, &all);
        joined = 1;
      }
    } else {
      MPI_Test(&all, &done, MPI_STATUS_IGNORE);
    }
  }
  return mpiopt_bsp_agreed(mine, out, got);
}

int mpiopt_bsp_agreed(const mpiopt_bsp_hdr *mine, const uint64_t *out, const unsigned char *got) {
  const int p = G.p, me = G.pid;
  int wild = ~out[2 * NFIELDS + B_WILD] != 0;
  for (int i = 0; i < NFIELDS; i++)
    if (out[i] != ~out[NFIELDS + i] && !(i == F_POPHASH && wild)) return 0;
  /* Everyone agrees: the silent pairs' blocks say so, with nothing to carry. */
  mpiopt_bsp_hdr silent = *mine;
  silent.stream = 0;
  silent.flags = (~out[2 * NFIELDS + B_RMAGET] ? MPIOPT_BSP_F_RMAGET : 0u) |
                 (~out[2 * NFIELDS + B_RMAPUT] ? MPIOPT_BSP_F_RMAPUT : 0u) | (wild ? MPIOPT_BSP_F_WILDPOP : 0u);
  for (int q = 0; q < p; q++) {
    if (q == me)
      memcpy(G.a2a_recv + (size_t)q * G.block, G.a2a_send + (size_t)q * G.block, sizeof silent);
    else if (!got[q])
      memcpy(G.a2a_recv + (size_t)q * G.block, &silent, sizeof silent);
  }
  return 1;
}
