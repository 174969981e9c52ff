/* BSPlib on MPI, exchange algorithm "bulk": a put or get of at least
 * MPIOPT_BSP_BULK_MIN bytes that does not go one-sided travels as a message
 * of its own, straight into place where the order of writes allows, instead
 * of inside the pair's stream (which the receiver stages whole and then
 * copies out).
 *
 *   put: the source is copied at the call (bsp_hpput: at the sync) into
 *        rmabuf, a buffer reused from superstep to superstep, and a BULKPUT
 *        marker goes in the stream where the put was issued. The
 *        destination receives the data straight into the registration when
 *        the put overlaps no other put into it this superstep (it then turns
 *        the marker into BULKHERE); else into rrep[source], landed in order
 *        with the stream. Its receives are posted after the get results are
 *        written, so a put still lands after every get source is read and
 *        after every get result.
 *   get: the owner sends straight from the registration (nothing writes
 *        there before the replies are complete), and the requester receives
 *        straight into the destination when it overlaps no registration and
 *        no other get of the superstep (as a direct one-sided get), else into
 *        getstage, copied to place in issue order.
 * Each piece is at most 1 GiB; pieces and their markers are in issue order
 * per pair, and MPI does not reorder messages of one tag between a pair.
 *
 * Cost model, one transfer of n bytes:
 *     T_bulk = 2 * alpha + n * beta + n * gamma   (put; a get: 2 alpha + n beta,
 *                                                  and no copy at all)
 *     T_msg  = n * beta + 2 * n * gamma           (inside the stream, exchange_msg.c)
 * and the receiver needs no staging buffer of n bytes: bulk pays once
 * n * gamma exceeds a message latency, and at every size where the first
 * touch of a fresh staging buffer costs page faults. select.c holds the
 * measured threshold. */
#include <stdlib.h>
#include <string.h>

#include "bsp_internal.h"

#define G mpiopt_bsp_g
#define TAG_PUT 0x7ab9
#define TAG_GET 0x7aba
#define TAG_RMAPUT 0x7ab8

/* Mark every span that overlaps another (sorting the spans): walking them
 * by start, a span that starts before the furthest end so far overlaps the
 * span that reaches there, and every member of a run of such spans overlaps
 * some other member. */
static int by_lo(const void *a, const void *b) {
  uintptr_t x = ((const mpiopt_bsp_span *)a)->lo, y = ((const mpiopt_bsp_span *)b)->lo;
  return x < y ? -1 : x > y;
}

void mpiopt_bsp_mark_overlaps(mpiopt_bsp_span *s, size_t n) {
  if (n < 2) { /* nothing to sort (s may be NULL) */
    if (n) s[0].mark = 0;
    return;
  }
  qsort(s, n, sizeof *s, by_lo);
  uintptr_t reach = 0;
  size_t first = 0;
  for (size_t i = 0; i < n; i++) {
    s[i].mark = 0;
    if (i && s[i].lo < reach) {
      s[i].mark = s[first].mark = 1;
    } else {
      first = i;
    }
    if (s[i].hi > reach) reach = s[i].hi;
  }
}

/* Does [p, p + n) overlap a registration of this process? */
static int in_registration(const char *p, size_t n) {
  for (int k = 0; k < G.nregs; k++) {
    const mpiopt_bsp_reg *r = &G.regs[k];
    if (r->state != MPIOPT_BSP_REG_FREE && r->addr && p < r->addr + r->size && r->addr < p + n) return 1;
  }
  return 0;
}

/* A one-sided or bulk get goes straight to its destination when nothing
 * else can touch that memory during the sync or be ordered against it: the
 * destination overlaps no registration of this process (which another
 * process may be reading, or putting into) and no other get of this
 * process. Otherwise it lands in getstage and is copied to place in issue
 * order with the other gets. */
void mpiopt_bsp_plan_gets(void) {
  G.spans = mpiopt_bsp_grow(G.spans, &G.capspans, G.ngets, sizeof *G.spans);
  for (size_t k = 0; k < G.ngets; k++) {
    uintptr_t lo = (uintptr_t)G.getord[k].dst;
    G.spans[k] = (mpiopt_bsp_span){lo, lo + G.getord[k].n, k, 0};
  }
  mpiopt_bsp_mark_overlaps(G.spans, G.ngets);
  size_t staged = 0;
  for (size_t i = 0; i < G.ngets; i++) {
    mpiopt_bsp_getdst *e = &G.getord[G.spans[i].idx];
    if (e->stage == MPIOPT_BSP_GET_MSG) continue;
    if (!G.spans[i].mark && !in_registration(e->dst, e->n)) {
      e->stage = MPIOPT_BSP_GET_DIRECT;
    } else {
      e->stage = staged;
      staged += e->n;
    }
  }
  G.getstage.len = 0;
  mpiopt_bsp_reserve(&G.getstage, staged);
  for (size_t k = 0; k < G.nrma; k++) {
    mpiopt_bsp_rmaop *o = &G.rma[k];
    if (o->at != SIZE_MAX) continue;
    const mpiopt_bsp_getdst *e = &G.getord[o->ord];
    o->local = e->stage == MPIOPT_BSP_GET_DIRECT ? e->dst : G.getstage.p + e->stage;
  }
}

/* The requester's side of its bulk gets, in issue order (after planning). */
int mpiopt_bsp_bulk_get_receives(int nreq) {
  for (size_t k = 0; k < G.ngets; k++) {
    const mpiopt_bsp_getdst *e = &G.getord[k];
    if (!e->bulk) continue;
    char *to = e->stage == MPIOPT_BSP_GET_DIRECT ? e->dst : G.getstage.p + e->stage;
    MPI_Irecv(to, (int)e->n, MPI_BYTE, e->owner, TAG_GET, G.comm, mpiopt_bsp_req(nreq));
    nreq++;
  }
  return nreq;
}

/* The owner's side of one bulk get: straight from the registration. */
int mpiopt_bsp_bulk_get_send(int to, const char *from, size_t n, int nreq) {
  MPI_Isend(from, (int)n, MPI_BYTE, to, TAG_GET, G.comm, mpiopt_bsp_req(nreq));
  return nreq + 1;
}

/* Receive the put data that travels apart from src's stream: bulk puts
 * (into place where the marker says BULKHERE, else staged in rrep[src]) and,
 * when stage_rma, one-sided puts sent as messages (staged), in marker order. */
static int receive_puts(int src, int stage_rma, int nreq) {
  const char *st = G.stream_of[src];
  size_t len = G.stream_len[src], total = 0;
  for (size_t i = 0; i < len;) { /* first the room, so that no posted receive moves */
    mpiopt_bsp_rec h = mpiopt_bsp_rec_read(st + i);
    uint32_t kind = h.word >> 28;
    if (kind == MPIOPT_BSP_BULKPUT || (stage_rma && kind == MPIOPT_BSP_RMAPUT)) total += h.n;
    i += mpiopt_bsp_rec_size(h, G.tagsize);
  }
  mpiopt_bsp_buf *b = &G.rrep[src];
  b->len = 0;
  mpiopt_bsp_reserve(b, total);
  for (size_t i = 0; i < len;) {
    mpiopt_bsp_rec h = mpiopt_bsp_rec_read(st + i);
    uint32_t kind = h.word >> 28;
    i += mpiopt_bsp_rec_size(h, G.tagsize);
    char *to;
    if (kind == MPIOPT_BSP_BULKHERE) {
      to = (char *)G.regs[h.word & MPIOPT_BSP_SLOT_MASK].addr + h.off; /* checked by the overlap sweep */
    } else if (kind == MPIOPT_BSP_BULKPUT || (stage_rma && kind == MPIOPT_BSP_RMAPUT)) {
      to = b->p + b->len;
      b->len += h.n;
    } else {
      continue;
    }
    MPI_Irecv(to, (int)h.n, MPI_BYTE, src, kind == MPIOPT_BSP_RMAPUT ? TAG_RMAPUT : TAG_PUT, G.comm, mpiopt_bsp_req(nreq));
    nreq++;
  }
  return nreq;
}

int mpiopt_bsp_bulk_puts(int nreq, int stage_rma) {
  for (int q = 0; q < G.p; q++) {
    if (q == G.pid) continue;
    const mpiopt_bsp_hdr *h = (const mpiopt_bsp_hdr *)(G.a2a_recv + (size_t)q * G.block);
    if ((h->flags & MPIOPT_BSP_F_BULKPUT) || (stage_rma && (h->flags & MPIOPT_BSP_F_RMAPUT)))
      nreq = receive_puts(q, stage_rma, nreq);
  }
  for (size_t k = 0; k < G.nbulk; k++) {
    const mpiopt_bsp_bulkop *o = &G.bulk[k];
    MPI_Isend(G.rmabuf.p + o->at, (int)o->n, MPI_BYTE, o->pid, TAG_PUT, G.comm, mpiopt_bsp_req(nreq));
    nreq++;
  }
  for (size_t k = 0; stage_rma && k < G.nrma; k++) {
    const mpiopt_bsp_rmaop *o = &G.rma[k];
    if (o->at == SIZE_MAX) continue;
    for (size_t at = 0; at < o->n; at += MPIOPT_BSP_CHUNK) {
      int c = (int)MPIOPT_BSP_PIECE(o->n, at);
      MPI_Isend(G.rmabuf.p + o->at + at, c, MPI_BYTE, o->pid, TAG_RMAPUT, G.comm, mpiopt_bsp_req(nreq));
      nreq++;
    }
  }
  return nreq;
}
