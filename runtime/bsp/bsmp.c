/* BSPlib on MPI: bulk synchronous message passing (bsp_set_tagsize,
 * bsp_send, bsp_hpsend, bsp_qsize, bsp_get_tag, bsp_move, bsp_hpmove).
 *
 * A message is a record in the destination's stream (tag and payload
 * padded to 8 bytes). At the sync the received records are indexed in an
 * array (the queue) that points into the receive buffers, which stay
 * untouched until the next sync, so bsp_hpmove hands out pointers without
 * copying and unread messages simply disappear at the next sync. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "bsp_internal.h"

#define G mpiopt_bsp_g

void mpiopt_bsp_set_tagsize_at(size_t *tagsize, const char *call) {
  mpiopt_bsp_require_active(call);
  if (!tagsize) mpiopt_bsp_fail("%s(NULL)", call);
  size_t want = *tagsize;
  *tagsize = G.tagsize_next; /* the value before this call */
  G.tagsize_next = want;
  /* Collective: every process sets the same values in the same order in a
   * superstep (compared at the sync, even when the last values agree). */
  G.ntagset++;
  G.taghash = (G.taghash ^ (uint32_t)want ^ (uint32_t)((uint64_t)want >> 32)) * 16777619u + 0x9e3779b9u;
}

void bsp_set_tagsize(int *tag_nbytes) {
  mpiopt_bsp_require_active("bsp_set_tagsize");
  if (!tag_nbytes) mpiopt_bsp_fail("bsp_set_tagsize(NULL)");
  if (*tag_nbytes < 0) mpiopt_bsp_fail("bsp_set_tagsize(&tag_nbytes=%d): negative tag size", *tag_nbytes);
  size_t t = (size_t)*tag_nbytes;
  mpiopt_bsp_set_tagsize_at(&t, "bsp_set_tagsize");
  *tag_nbytes = (int)t;
}

void mpiopt_bsp_send_at(long pid, const void *tag, const void *payload, size_t n, int hp, const char *call) {
  if (!G.active) mpiopt_bsp_require_active(call);
  if (!G.unsafe) {
    if (pid < 0 || pid >= G.p)
      mpiopt_bsp_fail("%s(pid=%ld, tag=%p, payload=%p, nbytes=%zu): process %ld does not exist (0..%d)", call, pid,
                      tag, payload, n, pid, G.p - 1);
    if (n > UINT32_MAX)
      mpiopt_bsp_fail("%s(pid=%ld, tag=%p, payload=%p, nbytes=%zu): messages are limited to %u bytes", call, pid,
                      tag, payload, n, UINT32_MAX);
    if ((!tag && G.tagsize) || (!payload && n))
      mpiopt_bsp_fail("%s(pid=%ld, tag=%p, payload=%p, nbytes=%zu): NULL %s", call, pid, tag, payload, n,
                      !payload && n ? "payload" : "tag (the tag size is not 0)");
  }
  size_t tpad = MPIOPT_BSP_PAD8(G.tagsize), ppad = MPIOPT_BSP_PAD8(n);
  mpiopt_bsp_buf *b = &G.out[pid];
  mpiopt_bsp_reserve(b, MPIOPT_BSP_SENDREC + tpad + ppad);
  char *r = b->p + b->len;
  mpiopt_bsp_rec_write(r, (uint32_t)MPIOPT_BSP_SEND << 28, (uint32_t)n, 0);
  if (G.tagsize) memcpy(r + MPIOPT_BSP_SENDREC, tag, G.tagsize);
  char *pl = r + MPIOPT_BSP_SENDREC + tpad;
  if (hp && n) {
    G.fix = mpiopt_bsp_grow(G.fix, &G.capfix, G.nfix + 1, sizeof *G.fix);
    G.fix[G.nfix++] = (mpiopt_bsp_fixup){(int)pid, (size_t)(pl - b->p), payload, n};
  } else if (n) {
    memcpy(pl, payload, n);
  }
  b->len += MPIOPT_BSP_SENDREC + tpad + ppad;
  G.lastput[pid] = SIZE_MAX;
}

void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes) {
  if (payload_nbytes < 0) {
    mpiopt_bsp_require_active("bsp_send");
    mpiopt_bsp_fail("bsp_send(pid=%d, tag=%p, payload=%p, nbytes=%d): negative size", pid, tag, payload,
                    payload_nbytes);
  }
  mpiopt_bsp_send_at(pid, tag, payload, (size_t)payload_nbytes, 0, "bsp_send");
}

void bsp_hpsend(int pid, const void *tag, const void *payload, int payload_nbytes) {
  if (payload_nbytes < 0) {
    mpiopt_bsp_require_active("bsp_hpsend");
    mpiopt_bsp_fail("bsp_hpsend(pid=%d, tag=%p, payload=%p, nbytes=%d): negative size", pid, tag, payload,
                    payload_nbytes);
  }
  mpiopt_bsp_send_at(pid, tag, payload, (size_t)payload_nbytes, 1, "bsp_hpsend");
}

/* Called by the sync for each received send record (rec points at it). */
void mpiopt_bsp_queue_message(const char *rec, size_t n) {
  G.msgs = mpiopt_bsp_grow(G.msgs, &G.capmsgs, G.nmsgs + 1, sizeof *G.msgs);
  G.msgs[G.nmsgs++] = (mpiopt_bsp_msg){rec + MPIOPT_BSP_SENDREC,
                                       rec + MPIOPT_BSP_SENDREC + MPIOPT_BSP_PAD8(G.qtagsize), n};
  G.qbytes += n;
}

/* The first queued message, or NULL. */
static const mpiopt_bsp_msg *first(const char *call) {
  mpiopt_bsp_require_active(call);
  return G.head == G.nmsgs ? NULL : &G.msgs[G.head];
}

static void dequeue(void) {
  G.qbytes -= G.msgs[G.head].n;
  G.head++;
}

/* bsp_get_tag of both APIs: the first message's payload size (SIZE_MAX on
 * an empty queue) and its tag copied to `tag`. */
static size_t get_tag(const void *status, void *tag) {
  if (!status) mpiopt_bsp_fail("bsp_get_tag(status=NULL, tag=%p)", tag);
  const mpiopt_bsp_msg *m = first("bsp_get_tag");
  if (!m) return SIZE_MAX;
  if (G.qtagsize) {
    if (!tag) mpiopt_bsp_fail("bsp_get_tag(status=%p, tag=NULL): the tag size is %zu", status, G.qtagsize);
    memcpy(tag, m->msg_tag, G.qtagsize);
  }
  return m->n;
}

/* bsp_move of both APIs: copy at most max bytes of the first message's
 * payload and dequeue it (`shown` is the argument as the caller gave it). */
static void move(void *payload, size_t max, long long shown) {
  mpiopt_bsp_require_active("bsp_move");
  if (!payload && max > 0)
    mpiopt_bsp_fail("bsp_move(payload=NULL, nbytes=%lld): no buffer to receive the payload", shown);
  const mpiopt_bsp_msg *m = first("bsp_move");
  if (!m) mpiopt_bsp_fail("bsp_move(payload=%p, nbytes=%lld): the message queue is empty", payload, shown);
  size_t c = max < m->n ? max : m->n;
  if (c) memcpy(payload, m->payload, c);
  dequeue();
}

/* bsp_hpmove of both APIs: the payload size, SIZE_MAX on an empty queue. */
static size_t hpmove(void **tag_ptr, void **payload_ptr) {
  mpiopt_bsp_require_active("bsp_hpmove");
  if (!tag_ptr || !payload_ptr)
    mpiopt_bsp_fail("bsp_hpmove(tag_ptr=%p, payload_ptr=%p): an output pointer is NULL", (void *)tag_ptr,
                    (void *)payload_ptr);
  const mpiopt_bsp_msg *m = first("bsp_hpmove");
  if (!m) return SIZE_MAX;
  *tag_ptr = (void *)m->msg_tag;
  *payload_ptr = (void *)m->payload;
  size_t n = m->n;
  dequeue();
  return n;
}

static int clamp_int(size_t n) { return n > INT32_MAX ? INT32_MAX : (int)n; }

/* Both output pointers of bsp_qsize must be given. */
static void qsize_check(const void *nmessages, const void *accum_nbytes) {
  mpiopt_bsp_require_active("bsp_qsize");
  if (!nmessages || !accum_nbytes)
    mpiopt_bsp_fail("bsp_qsize(nmessages=%p, accum_nbytes=%p): an output pointer is NULL", nmessages, accum_nbytes);
}

void bsp_qsize(int *nmessages, int *accum_nbytes) {
  qsize_check(nmessages, accum_nbytes);
  *nmessages = clamp_int(G.nmsgs - G.head);
  *accum_nbytes = clamp_int(G.qbytes);
}

void bsp_get_tag(int *status, void *tag) {
  size_t n = get_tag(status, tag);
  *status = n == SIZE_MAX ? -1 : clamp_int(n);
}

void bsp_move(void *payload, int reception_nbytes) {
  mpiopt_bsp_require_active("bsp_move");
  if (reception_nbytes < 0) /* the message would be lost */
    mpiopt_bsp_fail("bsp_move(payload=%p, nbytes=%d): the reception size is negative", payload, reception_nbytes);
  move(payload, (size_t)reception_nbytes, reception_nbytes);
}

int bsp_hpmove(void **tag_ptr, void **payload_ptr) {
  size_t n = hpmove(tag_ptr, payload_ptr);
  return n == SIZE_MAX ? -1 : clamp_int(n);
}

/* MulticoreBSP forms. */
void mpiopt_mcbsp_set_tagsize(size_t *tag_nbytes) { mpiopt_bsp_set_tagsize_at(tag_nbytes, "bsp_set_tagsize"); }

void mpiopt_mcbsp_send(unsigned int pid, const void *tag, const void *payload, size_t payload_nbytes) {
  mpiopt_bsp_send_at(pid, tag, payload, payload_nbytes, 0, "bsp_send");
}

void mpiopt_mcbsp_hpsend(unsigned int pid, const void *tag, const void *payload, size_t payload_nbytes) {
  mpiopt_bsp_send_at(pid, tag, payload, payload_nbytes, 1, "bsp_hpsend");
}

void mpiopt_mcbsp_qsize(unsigned int *nmessages, size_t *accum_nbytes) {
  qsize_check(nmessages, accum_nbytes);
  *nmessages = (unsigned int)(G.nmsgs - G.head);
  *accum_nbytes = G.qbytes;
}

void mpiopt_mcbsp_get_tag(size_t *status, void *tag) {
  size_t n = get_tag(status, tag);
  *status = n;
}

void mpiopt_mcbsp_move(void *payload, size_t reception_nbytes) {
  move(payload, reception_nbytes, reception_nbytes > LLONG_MAX ? -1 : (long long)reception_nbytes);
}

size_t mpiopt_mcbsp_hpmove(void **tag_ptr, void **payload_ptr) { return hpmove(tag_ptr, payload_ptr); }
