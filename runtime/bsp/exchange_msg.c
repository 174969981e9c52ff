/* BSPlib on MPI, exchange algorithm "msg": the streams that did not fit in
 * the all-to-all block go as point-to-point messages, between the pairs that
 * have them only (the receiver knows each size from the header). One
 * message per pair and superstep, whatever the number of puts, gets and
 * sends in it (split in 1 GiB pieces).
 *
 * Cost model, for a process that sends h bytes to and receives h bytes
 * from each of k partners (beyond the all-to-all of the headers):
 *     T_msg = k * alpha + 2 * h * k * beta + 2 * h * k * gamma
 * alpha: message latency; beta: per-byte transfer; gamma: per-byte copy (the
 * sender copies the source into the stream at the call, the receiver copies
 * the stream to the destination at the sync). */
#include "bsp_internal.h"

#define G mpiopt_bsp_g

void mpiopt_bsp_msg_streams(void) {
  const int p = G.p, me = G.pid;
  int nreq = 0;
  for (int q = 0; q < p; q++) {
    if (q == me || G.stream_of[q] || !G.stream_len[q]) continue;
    size_t n = G.stream_len[q];
    mpiopt_bsp_buf *b = &G.in[q];
    b->len = 0;
    mpiopt_bsp_reserve(b, n);
    for (size_t at = 0; at < n; at += MPIOPT_BSP_CHUNK)
      MPI_Irecv(b->p + at, (int)MPIOPT_BSP_PIECE(n, at), MPI_BYTE, q, 0x7ab7, G.comm, mpiopt_bsp_req(nreq++));
    G.stream_of[q] = b->p;
  }
  for (int q = 0; q < p; q++) {
    size_t n = G.out[q].len;
    if (q == me || n <= G.inl) continue;
    for (size_t at = 0; at < n; at += MPIOPT_BSP_CHUNK)
      MPI_Isend(G.out[q].p + at, (int)MPIOPT_BSP_PIECE(n, at), MPI_BYTE, q, 0x7ab7, G.comm, mpiopt_bsp_req(nreq++));
  }
  MPI_Waitall(nreq, G.reqs, MPI_STATUSES_IGNORE);
}
