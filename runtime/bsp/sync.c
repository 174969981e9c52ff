/* BSPlib on MPI: bsp_sync (and the last superstep of bsp_end).
 *
 * One MPI_Alltoall per superstep carries, for every pair of processes, a
 * fixed block: a header (the size of the pair's stream, and everything the
 * processes must agree on: sync or end, registrations and pops of the
 * superstep, the next tag size) followed by the stream itself when it fits
 * (MPIOPT_BSP_INLINE bytes, 208 by default). So an empty superstep, or one
 * with a few small puts, gets or sends, is exactly one all-to-all; nothing
 * else is sent. Streams that do not fit travel by the selected exchange
 * (exchange_msg.c, exchange_rma.c) between the pairs that have them only.
 * Then, the same order on every path and at every size:
 *   1. every get source is read: each owner answers the get requests it
 *      received from its memory as it is now (the replies go out at once),
 *      and one-sided gets read in an epoch in which nobody writes;
 *   2. each process writes its get results in the order it issued the gets,
 *      its own pid included (a later get wins where destinations overlap);
 *   3. puts land and messages are queued, by source process and, within a
 *      source, in issue order: one-sided puts in an epoch after every
 *      process has done 2, or, where one would overlap another put, as
 *      messages landed in order (exchange_rma.c);
 *   4. pops, then pushes, take effect; the new tag size too.
 * Phases nobody uses cost nothing: no get phase without gets, no message
 * phase without sends. */
#include <limits.h>
#include <string.h>

#include "bsp_internal.h"

#define G mpiopt_bsp_g

static const char *vote_call(uint32_t v) { return v == MPIOPT_BSP_VOTE_END ? "bsp_end" : "bsp_sync"; }

/* Every process compares every header with its own: all find the same
 * disagreement, and the lowest process that sees it reports. */
static void check_headers(const mpiopt_bsp_hdr *mine, int wild) {
  for (int q = 0; q < G.p; q++) {
    const mpiopt_bsp_hdr *h = (const mpiopt_bsp_hdr *)(G.a2a_recv + (size_t)q * G.block);
    if (h->vote == mine->vote && h->npush == mine->npush && h->npop == mine->npop &&
        (wild || h->pophash == mine->pophash) &&
        h->tagsize_next == mine->tagsize_next && h->ntagset == mine->ntagset && h->taghash == mine->taghash)
      continue;
    int lo = q < G.pid ? q : G.pid, hi = q < G.pid ? G.pid : q;
    const mpiopt_bsp_hdr *hl = q < G.pid ? h : mine, *hh = q < G.pid ? mine : h;
    if (h->vote != mine->vote)
      mpiopt_bsp_fail_collective(lo, "superstep %u: process %d called %s while process %d called %s (every process "
                                 "must end the superstep the same way)",
                                 mine->superstep, lo, vote_call(hl->vote), hi, vote_call(hh->vote));
    if (h->npush != mine->npush)
      mpiopt_bsp_fail_collective(lo, "superstep %u: process %d called bsp_push_reg %u times, process %d %u times "
                                 "(registration is collective: every process registers in the same order)",
                                 mine->superstep, lo, hl->npush, hi, hh->npush);
    if (h->npop != mine->npop || (!wild && h->pophash != mine->pophash))
      mpiopt_bsp_fail_collective(lo, "superstep %u: bsp_pop_reg differs: process %d popped %u registrations (the "
                                 "first: registration #%u), process %d popped %u (the first: #%u); registrations "
                                 "are numbered in bsp_push_reg order and every process must pop the same ones in "
                                 "the same order",
                                 mine->superstep, lo, hl->npop, hl->first_pop, hi, hh->npop, hh->first_pop);
    mpiopt_bsp_fail_collective(lo, "superstep %u: bsp_set_tagsize differs: process %d called it %u times (the tag "
                               "size then %llu), process %d %u times (then %llu); it is collective: every process "
                               "sets the same values in the same order",
                               mine->superstep, lo, hl->ntagset, (unsigned long long)hl->tagsize_next, hi,
                               hh->ntagset, (unsigned long long)hh->tagsize_next);
  }
}

static void bad_record(int src, const char *what, uint32_t w, size_t off, size_t n) {
  mpiopt_bsp_fail("superstep %u: a %s from process %d to registration slot %u, bytes %zu..%zu, is outside this "
                  "process's registration (MPIOPT_BSP_UNSAFE=1 skipped the check at the call)",
                  G.superstep, what, src, w & MPIOPT_BSP_SLOT_MASK, off, off + n);
}

/* The live registration a record names, or an error. */
static inline mpiopt_bsp_reg *target(int src, const char *what, uint32_t w, size_t off, size_t n) {
  uint32_t s = w & MPIOPT_BSP_SLOT_MASK;
  if (s >= (uint32_t)G.nregs) bad_record(src, what, w, off, n);
  mpiopt_bsp_reg *r = &G.regs[s];
  if ((r->state != MPIOPT_BSP_REG_LIVE && r->state != MPIOPT_BSP_REG_POPPED) || off > r->size ||
      n > r->size - off)
    bad_record(src, what, w, off, n);
  return r;
}

/* Answer the get requests in src's stream: into rep[src], and each bulk
 * get with a message of its own straight from the registration. */
static int serve_gets(int src, const char *s, size_t len, int nreq) {
  mpiopt_bsp_buf *rep = &G.rep[src];
  rep->len = 0;
  for (size_t i = 0; i < len;) {
    mpiopt_bsp_rec h = mpiopt_bsp_rec_read(s + i);
    uint32_t kind = h.word >> 28;
    if (kind == MPIOPT_BSP_GETREQ || kind == MPIOPT_BSP_BULKGET) {
      mpiopt_bsp_reg *r = target(src, "get", h.word, h.off, h.n);
      if (kind == MPIOPT_BSP_BULKGET) {
        nreq = mpiopt_bsp_bulk_get_send(src, r->addr + h.off, h.n, nreq);
      } else {
        mpiopt_bsp_reserve(rep, h.n);
        memcpy(rep->p + rep->len, r->addr + h.off, h.n);
        rep->len += h.n;
      }
    }
    i += mpiopt_bsp_rec_size(h, G.tagsize);
  }
  return nreq;
}

/* Land the puts and queue the messages of src's stream. The data of its
 * staged bulk puts, and of its one-sided puts when they went as messages
 * (rma_msgs; else they land in the put epoch), is at staged, in marker
 * order. Bulk puts received in place (BULKHERE) are there already. */
static void apply_stream(int src, const char *s, size_t len, const char *staged, int rma_msgs) {
  for (size_t i = 0; i < len;) {
    mpiopt_bsp_rec h = mpiopt_bsp_rec_read(s + i);
    uint32_t kind = h.word >> 28;
    if (kind == MPIOPT_BSP_PUT) {
      mpiopt_bsp_reg *r = target(src, "put", h.word, h.off, h.n);
      memcpy((char *)r->addr + h.off, s + i + MPIOPT_BSP_REC, h.n);
    } else if (kind == MPIOPT_BSP_SEND) {
      mpiopt_bsp_queue_message(s + i, h.n);
    } else if (kind == MPIOPT_BSP_BULKPUT || (kind == MPIOPT_BSP_RMAPUT && rma_msgs)) {
      mpiopt_bsp_reg *r = target(src, "put", h.word, h.off, h.n);
      memcpy((char *)r->addr + h.off, staged, h.n);
      staged += h.n;
    }
    i += mpiopt_bsp_rec_size(h, G.tagsize);
  }
}

/* Write every get result of this process in issue order. */
static void deliver_gets(void) {
  for (int q = 0; q < G.p; q++) G.getcur[q] = 0;
  for (size_t k = 0; k < G.ngets; k++) {
    const mpiopt_bsp_getdst *e = &G.getord[k];
    if (e->stage == MPIOPT_BSP_GET_DIRECT) continue;
    const char *from;
    if (e->stage == MPIOPT_BSP_GET_MSG) {
      from = (e->owner == G.pid ? G.rep[e->owner].p : G.rrep[e->owner].p) + G.getcur[e->owner];
      G.getcur[e->owner] += e->n;
    } else {
      from = G.getstage.p + e->stage;
    }
    memcpy(e->dst, from, e->n);
  }
  G.ngets = 0;
  for (int q = 0; q < G.p; q++) G.getbytes[q] = 0;
}

/* Sweep the puts into this process (checking their bounds on the way):
 * a bulk put that overlaps no other put is received straight into place
 * (its marker becomes BULKHERE). Returns whether a one-sided put overlaps
 * another put (then the put epoch could land them out of order). */
static int sweep_puts(void) {
  size_t n = 0;
  for (int q = 0; q < G.p; q++) {
    char *st = G.stream_of[q];
    for (size_t i = 0; i < G.stream_len[q];) {
      mpiopt_bsp_rec h = mpiopt_bsp_rec_read(st + i);
      uint32_t kind = h.word >> 28;
      if (kind == MPIOPT_BSP_PUT || kind == MPIOPT_BSP_RMAPUT || kind == MPIOPT_BSP_BULKPUT) {
        uintptr_t lo = (uintptr_t)target(q, "put", h.word, h.off, h.n)->addr + h.off;
        G.spans = mpiopt_bsp_grow(G.spans, &G.capspans, n + 1, sizeof *G.spans);
        G.spans[n++] = (mpiopt_bsp_span){lo, lo + h.n, (size_t)(uintptr_t)(st + i), 0};
      }
      i += mpiopt_bsp_rec_size(h, G.tagsize);
    }
  }
  mpiopt_bsp_mark_overlaps(G.spans, n);
  int conflict = 0;
  for (size_t k = 0; k < n; k++) {
    char *rec = (char *)(uintptr_t)G.spans[k].idx;
    mpiopt_bsp_rec h = mpiopt_bsp_rec_read(rec);
    if (h.word >> 28 == MPIOPT_BSP_RMAPUT && G.spans[k].mark) conflict = 1;
    if (h.word >> 28 == MPIOPT_BSP_BULKPUT && !G.spans[k].mark)
      mpiopt_bsp_rec_write(rec, (uint32_t)MPIOPT_BSP_BULKHERE << 28 | (h.word & MPIOPT_BSP_SLOT_MASK), h.n, h.off);
  }
  return conflict;
}

/* Step 3: every put lands, by source and issue order. */
static void land_puts(int bulk_in) {
  const int p = G.p;
  int rmaput = (G.rma_any & MPIOPT_BSP_F_RMAPUT) != 0, as_msgs = 0, nreq = 0;
  if (rmaput || bulk_in) {
    int conflict = sweep_puts();
    if (rmaput) MPI_Allreduce(&conflict, &as_msgs, 1, MPI_INT, MPI_MAX, G.comm);
  }
  if (bulk_in || G.nbulk || as_msgs) nreq = mpiopt_bsp_bulk_puts(0, as_msgs);
  MPI_Waitall(nreq, G.reqs, MPI_STATUSES_IGNORE);
  for (int q = 0; q < p; q++)
    if (G.stream_len[q])
      apply_stream(q, G.stream_of[q], G.stream_len[q], q == G.pid ? NULL : G.rrep[q].p, as_msgs);
  if (rmaput && !as_msgs) mpiopt_bsp_rma_run(1); /* no order to keep between one-sided puts and the rest */
}

/* The adaptive sync (MPIOPT_BSP_SYNC=adaptive, auto under SMPI from
 * ADAPTIVE_MIN_P processes) takes the census while the last sync's pairs
 * with a stream averaged at most p / ADAPTIVE_DENSE per process, and the
 * all-to-all above that. In simulation (64 processes, host-timed
 * computation charged, one run) the census costs 0.35x the all-to-all with no
 * stream, 0.73x with 16 partners per process, 1.05x with 32 and 2.4x with
 * 63; communication alone it wins at every density from 32 processes and
 * loses from 1 partner at 16 (docs/simulation.md). Every process counts the
 * same pairs: the census's allreduce sums them, and each all-to-all block's
 * header carries its sender's count. */
#define ADAPTIVE_DENSE 4

static void exchange_blocks(const mpiopt_bsp_hdr *mine) {
  const int p = G.p;
  int census = G.sync == MPIOPT_BSP_SYNC_CENSUS ||
               (G.sync == MPIOPT_BSP_SYNC_ADAPTIVE && G.edges * ADAPTIVE_DENSE <= (uint64_t)p * (uint64_t)p);
  if (G.sync == MPIOPT_BSP_SYNC_SPARSE ? mpiopt_bsp_sparse_blocks(mine) : census && mpiopt_bsp_census_blocks(mine))
    return; /* the census set G.edges */
  MPI_Alltoall(G.a2a_send, (int)G.block, MPI_BYTE, G.a2a_recv, (int)G.block, MPI_BYTE, G.comm);
  G.edges = 0;
  for (int q = 0; q < p; q++) G.edges += ((const mpiopt_bsp_hdr *)(G.a2a_recv + (size_t)q * G.block))->partners;
}

void mpiopt_bsp_exchange(uint32_t vote) {
  const int p = G.p, me = G.pid;
  /* hp transfers: read their sources now. */
  for (size_t k = 0; k < G.nfix; k++)
    memcpy((G.fix[k].pid < 0 ? G.rmabuf.p : G.out[G.fix[k].pid].p) + G.fix[k].at, G.fix[k].src, G.fix[k].n);
  G.nfix = 0;

  /* The block to each process: header, then the stream if it fits. */
  int sending = 0; /* streams to send that do not fit inline */
  mpiopt_bsp_hdr mine = {vote, G.rma_flags | (G.wildpops ? MPIOPT_BSP_F_WILDPOP : 0u), (uint32_t)G.npushed,
                         (uint32_t)G.npopped, G.pophash, G.tagsize_next, 0, G.superstep,
                         G.npopped && G.popped[0] >= 0 ? G.regs[G.popped[0]].seq : 0u, G.ntagset, G.taghash, 0};
  for (int q = 0; q < p; q++)
    mine.partners += q != me && G.out[q].len;
  for (int q = 0; q < p; q++) {
    char *blk = G.a2a_send + (size_t)q * G.block;
    mpiopt_bsp_hdr h = mine;
    h.stream = q == me ? 0 : G.out[q].len;
    h.flags |= G.flags[q];
    if (q != me && G.out[q].len <= G.inl) {
      h.flags |= MPIOPT_BSP_F_INLINE;
      if (G.out[q].len) memcpy(blk + sizeof h, G.out[q].p, G.out[q].len); /* p is NULL while nothing was queued */
    } else if (q != me) {
      sending = 1;
    }
    memcpy(blk, &h, sizeof h);
  }
  if (p == 1)
    memcpy(G.a2a_recv, G.a2a_send, G.block);
  else
    exchange_blocks(&mine);
  int wild = 0; /* NULL pops somewhere: checked when they are resolved */
  for (int q = 0; q < p; q++)
    wild |= ((const mpiopt_bsp_hdr *)(G.a2a_recv + (size_t)q * G.block))->flags & MPIOPT_BSP_F_WILDPOP;
  check_headers(&mine, wild);
  if (wild) mpiopt_bsp_resolve_pops();

  /* This process's own stream is read in place; it becomes `self` (queued
   * messages point into it until the next sync). */
  mpiopt_bsp_buf t = G.self;
  G.self = G.out[me];
  G.out[me] = t;
  G.out[me].len = 0;

  int any_stream = G.self.len > 0 || sending, any_get = 0, bulk_in = 0;
  G.rma_any = 0;
  for (int q = 0; q < p; q++) {
    const mpiopt_bsp_hdr *h = (const mpiopt_bsp_hdr *)(G.a2a_recv + (size_t)q * G.block);
    G.rma_any |= h->flags & (MPIOPT_BSP_F_RMAGET | MPIOPT_BSP_F_RMAPUT);
    /* gets to answer (q asked this process, itself included) or to receive */
    if ((h->flags | G.flags[q]) & MPIOPT_BSP_F_GETREQ) any_get = 1;
    if (q != me && (h->flags & MPIOPT_BSP_F_BULKPUT)) bulk_in = 1;
    if (q == me) {
      G.stream_of[q] = G.self.p;
      G.stream_len[q] = G.self.len;
      continue;
    }
    G.stream_len[q] = h->stream;
    G.stream_of[q] = (h->flags & MPIOPT_BSP_F_INLINE) ? G.a2a_recv + (size_t)q * G.block + sizeof *h : NULL;
    if (h->stream) any_stream = 1;
  }

  /* The new superstep's queue holds what arrives now (with this tag size). */
  G.nmsgs = G.head = 0;
  G.qbytes = 0;
  G.qtagsize = G.tagsize;
  int nreq = 0;
  if (any_stream || any_get)
    mpiopt_bsp_msg_streams(); /* the streams that were not inline; fills stream_of */
  if (any_get) {
    /* Replies: answer every requester now, from memory untouched by puts. */
    for (int q = 0; q < p; q++) {
      const mpiopt_bsp_hdr *h = (const mpiopt_bsp_hdr *)(G.a2a_recv + (size_t)q * G.block);
      if (!(h->flags & MPIOPT_BSP_F_GETREQ)) continue;
      nreq = serve_gets(q, G.stream_of[q], G.stream_len[q], nreq);
      if (G.rep[q].len > INT_MAX)
        mpiopt_bsp_fail("superstep %u: process %d gets %zu bytes from this process in one superstep; at most %d "
                        "per pair are supported",
                        G.superstep, q, G.rep[q].len, INT_MAX);
      if (q == me || !G.rep[q].len) continue;
      MPI_Isend(G.rep[q].p, (int)G.rep[q].len, MPI_BYTE, q, 0x7ab6, G.comm, mpiopt_bsp_req(nreq++));
    }
    for (int q = 0; q < p; q++) {
      if (q == me || !G.getbytes[q]) continue;
      mpiopt_bsp_buf *rr = &G.rrep[q];
      rr->len = 0;
      mpiopt_bsp_reserve(rr, G.getbytes[q]);
      MPI_Irecv(rr->p, (int)G.getbytes[q], MPI_BYTE, q, 0x7ab6, G.comm, mpiopt_bsp_req(nreq++));
    }
  }
  if ((G.rma_flags & MPIOPT_BSP_F_RMAGET) || G.nbulkget) mpiopt_bsp_plan_gets();
  if (G.nbulkget) nreq = mpiopt_bsp_bulk_get_receives(nreq);
  if (G.rma_any) mpiopt_bsp_rma_run(0); /* one-sided gets: nobody writes in this epoch */
  MPI_Waitall(nreq, G.reqs, MPI_STATUSES_IGNORE);
  if (G.ngets) deliver_gets();
  land_puts(bulk_in);

  for (int q = 0; q < p; q++) {
    G.out[q].len = 0;
    G.lastput[q] = G.lastget[q] = SIZE_MAX;
    G.flags[q] = 0;
  }
  G.nrma = G.nbulk = G.nbulkget = 0;
  G.rmabuf.len = 0;
  G.rma_flags = 0;
  if (mine.npush || mine.npop) mpiopt_bsp_apply_registrations();
  G.tagsize = G.tagsize_next;
  G.ntagset = G.taghash = 0;
  G.superstep++;
}

void bsp_sync(void) {
  mpiopt_bsp_require_active("bsp_sync");
  mpiopt_bsp_exchange(MPIOPT_BSP_VOTE_SYNC);
}
