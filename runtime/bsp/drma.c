/* BSPlib on MPI: direct remote memory access (bsp_put, bsp_hpput, bsp_get,
 * bsp_hpget, MulticoreBSP's bsp_direct_get).
 *
 * bsp_put copies its source into the destination's stream at the call; a
 * put that continues the previous put to the same process and area (next
 * offset) is appended to that record, so a loop of word puts costs one
 * header. bsp_hpput records the source and copies it at the sync. bsp_get
 * appends a request to the owner's stream and remembers the destination;
 * consecutive gets of consecutive words are merged the same way. Every get
 * is listed in issue order too (getord), whatever its owner, so that the
 * sync writes the results in that order. With the one-sided exchange,
 * transfers of at least MPIOPT_BSP_RMA_MIN bytes are set aside for
 * MPI_Put/MPI_Get instead (exchange_rma.c); a one-sided put leaves a marker
 * in the destination's stream, so that the destination knows where it
 * falls in the order of the puts it receives. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bsp_internal.h"

#define G mpiopt_bsp_g

static inline uint32_t rec_word(int kind, int slot) { return (uint32_t)kind << 28 | (uint32_t)slot; }

/* A bad put or get: the message names the call with its arguments. */
static void bad_access(const char *call, int is_get, long pid, const void *src, const void *dst, size_t off,
                       size_t n, const char *why) __attribute__((noreturn, cold));
static void bad_access(const char *call, int is_get, long pid, const void *src, const void *dst, size_t off,
                       size_t n, const char *why) {
  if (is_get)
    mpiopt_bsp_fail("%s(pid=%ld, src=%p, offset=%zu, dst=%p, nbytes=%zu): %s", call, pid, src, off, dst, n, why);
  mpiopt_bsp_fail("%s(pid=%ld, src=%p, dst=%p, offset=%zu, nbytes=%zu): %s", call, pid, src, dst, off, n, why);
}

/* The registration of the local address that names the remote area of a
 * put (its dst) or get (its src), checked against the remote bounds. */
static inline int checked_slot(long pid, const void *reg_addr, size_t off, size_t n, const char *call,
                               const void *src, const void *dst, int is_get) {
  if (!G.active) mpiopt_bsp_require_active(call);
  int s = mpiopt_bsp_lookup(reg_addr);
  if (G.unsafe && s >= 0) return s;
  char why[400];
  if (pid < 0 || pid >= G.p) {
    snprintf(why, sizeof why, "process %ld does not exist (0..%d)", pid, G.p - 1);
    bad_access(call, is_get, pid, src, dst, off, n, why);
  }
  if (s < 0) {
    snprintf(why, sizeof why, "%p is not a registered address (bsp_push_reg)", reg_addr);
    for (int i = 0; i < G.npushed; i++)
      if (G.regs[G.pushed[i]].addr == reg_addr)
        snprintf(why, sizeof why,
                 "%p is registered in this superstep; the registration takes effect at the next bsp_sync",
                 reg_addr);
    bad_access(call, is_get, pid, src, dst, off, n, why);
  }
  size_t size = G.rsize[(size_t)s * G.p + pid];
  if (off > size || n > size - off) {
    snprintf(why, sizeof why,
             "bytes %zu..%zu are outside the %zu bytes that process %ld registered for %p (registration #%u)", off,
             off + n, size, pid, reg_addr, G.regs[s].seq);
    bad_access(call, is_get, pid, src, dst, off, n, why);
  }
  return s;
}

/* Extend the record at r (a put or get request of `word`) by c bytes if it
 * ends at offset off. */
static inline int extend(char *r, uint32_t word, uint64_t off, size_t c) {
  mpiopt_bsp_rec h = mpiopt_bsp_rec_read(r);
  if (h.word != word || h.off + h.n != off || h.n + c > MPIOPT_BSP_CHUNK) return 0;
  uint32_t len = h.n + (uint32_t)c;
  memcpy(r + 4, &len, 4);
  return 1;
}

/* Room for a put record of n payload bytes in pid's stream, merged with the
 * previous record when it continues it (and is the stream's last). Returns
 * where the payload goes. */
static inline char *put_space(int pid, int slot, size_t off, size_t n) {
  mpiopt_bsp_buf *b = &G.out[pid];
  size_t at = G.lastput[pid];
  uint32_t word = rec_word(MPIOPT_BSP_PUT, slot);
  if (at != SIZE_MAX && b->len - at == MPIOPT_BSP_REC + mpiopt_bsp_rec_read(b->p + at).n &&
      extend(b->p + at, word, off, n)) {
    mpiopt_bsp_reserve(b, n);
    char *dst = b->p + b->len;
    b->len += n;
    return dst;
  }
  mpiopt_bsp_reserve(b, MPIOPT_BSP_REC + n);
  char *r = b->p + b->len;
  mpiopt_bsp_rec_write(r, word, (uint32_t)n, off);
  G.lastput[pid] = b->len;
  b->len += MPIOPT_BSP_REC + n;
  return r + MPIOPT_BSP_REC;
}

/* A put whose data travels apart from the stream (one-sided or bulk): the
 * source is copied to rmabuf now (bsp_hpput: at the sync), and a marker of
 * the given kind goes in the stream for each piece the data travels in. */
static void put_apart(long pid, int s, const void *src, size_t off, size_t n, int hp, int kind) {
  size_t at0 = G.rmabuf.len;
  mpiopt_bsp_reserve(&G.rmabuf, n);
  if (hp) {
    G.fix = mpiopt_bsp_grow(G.fix, &G.capfix, G.nfix + 1, sizeof *G.fix);
    G.fix[G.nfix++] = (mpiopt_bsp_fixup){-1, at0, src, n};
  } else {
    memcpy(G.rmabuf.p + at0, src, n);
  }
  G.rmabuf.len += n;
  if (kind == MPIOPT_BSP_RMAPUT) {
    G.rma = mpiopt_bsp_grow(G.rma, &G.caprma, G.nrma + 1, sizeof *G.rma);
    G.rma[G.nrma++] = (mpiopt_bsp_rmaop){(int)pid, s, off, n, NULL, at0, 0};
    G.rma_flags |= MPIOPT_BSP_F_RMAPUT;
  } else {
    G.flags[pid] |= MPIOPT_BSP_F_BULKPUT;
  }
  mpiopt_bsp_buf *b = &G.out[pid];
  for (size_t at = 0; at < n; at += MPIOPT_BSP_CHUNK) {
    size_t c = MPIOPT_BSP_PIECE(n, at);
    mpiopt_bsp_reserve(b, MPIOPT_BSP_REC);
    mpiopt_bsp_rec_write(b->p + b->len, rec_word(kind, s), (uint32_t)c, off + at);
    b->len += MPIOPT_BSP_REC;
    if (kind == MPIOPT_BSP_BULKPUT) {
      G.bulk = mpiopt_bsp_grow(G.bulk, &G.capbulk, G.nbulk + 1, sizeof *G.bulk);
      G.bulk[G.nbulk++] = (mpiopt_bsp_bulkop){(int)pid, at0 + at, c};
    }
  }
}

void mpiopt_bsp_put_at(long pid, const void *src, const void *dst, size_t off, size_t n, int hp, const char *call) {
  int s = checked_slot(pid, dst, off, n, call, src, dst, 0);
  if (n == 0) return;
  if (pid != G.pid && mpiopt_bsp_use_rma(n) && G.raddr[(size_t)s * G.p + pid]) {
    put_apart(pid, s, src, off, n, hp, MPIOPT_BSP_RMAPUT);
    return;
  }
  if (pid != G.pid && mpiopt_bsp_use_bulk(n)) {
    put_apart(pid, s, src, off, n, hp, MPIOPT_BSP_BULKPUT);
    return;
  }
  while (n) {
    size_t c = n < MPIOPT_BSP_CHUNK ? n : MPIOPT_BSP_CHUNK;
    char *to = put_space((int)pid, s, off, c);
    if (hp) {
      G.fix = mpiopt_bsp_grow(G.fix, &G.capfix, G.nfix + 1, sizeof *G.fix);
      G.fix[G.nfix++] = (mpiopt_bsp_fixup){(int)pid, (size_t)(to - G.out[pid].p), src, c};
    } else {
      memcpy(to, src, c);
    }
    src = (const char *)src + c;
    off += c;
    n -= c;
  }
}

/* Append a get to the issue-order list. */
static inline void list_get(char *dst, size_t n, int owner, int bulk, size_t stage) {
  G.getord = mpiopt_bsp_grow(G.getord, &G.capgets, G.ngets + 1, sizeof *G.getord);
  G.getord[G.ngets++] = (mpiopt_bsp_getdst){dst, n, owner, bulk, stage};
}

/* A bulk get: a request of its own for each piece (never merged: the
 * owner answers each alone), placed at the sync (mpiopt_bsp_plan_gets). */
static void get_bulk(long pid, int s, size_t off, char *dst, size_t n) {
  mpiopt_bsp_buf *b = &G.out[pid];
  G.flags[pid] |= MPIOPT_BSP_F_GETREQ;
  for (size_t at = 0; at < n; at += MPIOPT_BSP_CHUNK) {
    size_t c = MPIOPT_BSP_PIECE(n, at);
    mpiopt_bsp_reserve(b, MPIOPT_BSP_REC);
    mpiopt_bsp_rec_write(b->p + b->len, rec_word(MPIOPT_BSP_BULKGET, s), (uint32_t)c, off + at);
    b->len += MPIOPT_BSP_REC;
    list_get(dst + at, c, (int)pid, 1, 0);
    G.nbulkget++;
  }
  G.lastget[pid] = G.lastput[pid] = SIZE_MAX;
}

void mpiopt_bsp_get_at(long pid, const void *src, size_t off, void *dst, size_t n, const char *call) {
  int s = checked_slot(pid, src, off, n, call, src, dst, 1);
  if (n == 0) return;
  if (pid != G.pid && mpiopt_bsp_use_rma(n) && G.raddr[(size_t)s * G.p + pid]) {
    G.rma = mpiopt_bsp_grow(G.rma, &G.caprma, G.nrma + 1, sizeof *G.rma);
    G.rma_flags |= MPIOPT_BSP_F_RMAGET;
    G.rma[G.nrma++] = (mpiopt_bsp_rmaop){(int)pid, s, off, n, NULL, SIZE_MAX, G.ngets};
    list_get(dst, n, (int)pid, 0, 0); /* placed at the sync (mpiopt_bsp_plan_gets) */
    return;
  }
  if (pid != G.pid && mpiopt_bsp_use_bulk(n)) {
    get_bulk(pid, s, off, dst, n);
    return;
  }
  mpiopt_bsp_buf *b = &G.out[pid];
  G.flags[pid] |= MPIOPT_BSP_F_GETREQ;
  while (n) {
    size_t c = n < MPIOPT_BSP_CHUNK ? n : MPIOPT_BSP_CHUNK;
    /* Merge with the previous request when both sides continue it and no
     * other get came between (the results are written in issue order). */
    uint32_t word = rec_word(MPIOPT_BSP_GETREQ, s);
    mpiopt_bsp_getdst *last = G.ngets ? &G.getord[G.ngets - 1] : NULL;
    if (last && last->owner == pid && last->stage == MPIOPT_BSP_GET_MSG && last->dst + last->n == (char *)dst &&
        G.lastget[pid] != SIZE_MAX && G.lastget[pid] + MPIOPT_BSP_REC == b->len &&
        extend(b->p + G.lastget[pid], word, off, c)) {
      last->n += c;
    } else {
      mpiopt_bsp_reserve(b, MPIOPT_BSP_REC);
      mpiopt_bsp_rec_write(b->p + b->len, word, (uint32_t)c, off);
      G.lastget[pid] = b->len;
      b->len += MPIOPT_BSP_REC;
      G.lastput[pid] = SIZE_MAX;
      list_get((char *)dst, c, (int)pid, 0, MPIOPT_BSP_GET_MSG);
    }
    G.getbytes[pid] += c;
    dst = (char *)dst + c;
    off += c;
    n -= c;
  }
}

#define NONNEG(call, what, v)                                                                             \
  do {                                                                                                    \
    if ((v) < 0) {                                                                                        \
      mpiopt_bsp_require_active(call);                                                                    \
      mpiopt_bsp_fail("%s(pid=%d, ..., %s=%d): negative %s", call, pid, what, (int)(v), what);            \
    }                                                                                                     \
  } while (0)

void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes) {
  NONNEG("bsp_put", "offset", offset);
  NONNEG("bsp_put", "nbytes", nbytes);
  mpiopt_bsp_put_at(pid, src, dst, (size_t)offset, (size_t)nbytes, 0, "bsp_put");
}

void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes) {
  NONNEG("bsp_hpput", "offset", offset);
  NONNEG("bsp_hpput", "nbytes", nbytes);
  mpiopt_bsp_put_at(pid, src, dst, (size_t)offset, (size_t)nbytes, 1, "bsp_hpput");
}

void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes) {
  NONNEG("bsp_get", "offset", offset);
  NONNEG("bsp_get", "nbytes", nbytes);
  mpiopt_bsp_get_at(pid, src, (size_t)offset, dst, (size_t)nbytes, "bsp_get");
}

void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes) {
  NONNEG("bsp_hpget", "offset", offset);
  NONNEG("bsp_hpget", "nbytes", nbytes);
  mpiopt_bsp_get_at(pid, src, (size_t)offset, dst, (size_t)nbytes, "bsp_hpget");
}
