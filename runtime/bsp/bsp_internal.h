/* Internal state of the BSPlib layer (runtime/bsp/). Not installed.
 *
 * A superstep's communication is recorded in one byte stream per
 * destination process (arrays grown geometrically and reused, never a list
 * of allocations): put records carry their payload, get requests name the
 * remote area, send records carry tag and payload, and a one-sided put
 * leaves a marker where it was issued. bsp_sync ships the streams
 * (exchange_*.c), lets each owner answer the get requests from its memory
 * as it is before anything lands, writes the get results in issue order,
 * then lands the puts by source and issue order and queues the messages
 * (sync.c). */
#ifndef MPIOPT_BSP_INTERNAL_H
#define MPIOPT_BSP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mpi.h>

#include "bsp.h"

/* A growable byte array. */
typedef struct {
  char *p;
  size_t len, cap;
} mpiopt_bsp_buf;

/* Stream records. PUT, GETREQ, RMAPUT, BULKPUT, BULKGET and BULKHERE: u32
 * (kind << 28 | slot), u32 nbytes, u64 offset, then (PUT) the payload;
 * RMAPUT and BULKPUT mark where a one-sided or bulk put was issued (its
 * data travels apart), BULKGET is a get whose reply travels alone
 * (exchange_bulk.c); the receiver turns the marker of a bulk put it
 * received straight into place into BULKHERE. SEND: u32 (kind << 28), u32
 * payload bytes, then the tag and the payload, each padded to 8 bytes so
 * that bsp_hpmove hands out aligned pointers. */
enum {
  MPIOPT_BSP_PUT = 1,
  MPIOPT_BSP_GETREQ = 2,
  MPIOPT_BSP_SEND = 3,
  MPIOPT_BSP_RMAPUT = 4,
  MPIOPT_BSP_BULKPUT = 5,
  MPIOPT_BSP_BULKGET = 6,
  MPIOPT_BSP_BULKHERE = 7
};
#define MPIOPT_BSP_REC 16
#define MPIOPT_BSP_SENDREC 8
#define MPIOPT_BSP_SLOT_MASK 0x0fffffffu
#define MPIOPT_BSP_CHUNK ((size_t)1 << 30) /* larger transfers are split */
/* The length of the piece of an n-byte transfer that starts at byte at. */
#define MPIOPT_BSP_PIECE(n, at) ((n) - (at) < MPIOPT_BSP_CHUNK ? (n) - (at) : MPIOPT_BSP_CHUNK)
#define MPIOPT_BSP_PAD8(n) (((n) + 7) & ~(size_t)7)

/* A record's header, read from or written to a stream (unaligned). */
typedef struct {
  uint32_t word; /* kind << 28 | slot */
  uint32_t n;    /* payload bytes (PUT, SEND) or bytes asked for (GETREQ) */
  uint64_t off;  /* PUT, GETREQ */
} mpiopt_bsp_rec;

static inline mpiopt_bsp_rec mpiopt_bsp_rec_read(const char *r) {
  mpiopt_bsp_rec h = {0, 0, 0};
  memcpy(&h.word, r, 4);
  memcpy(&h.n, r + 4, 4);
  if (h.word >> 28 != MPIOPT_BSP_SEND) memcpy(&h.off, r + 8, 8);
  return h;
}

static inline void mpiopt_bsp_rec_write(char *r, uint32_t word, uint32_t n, uint64_t off) {
  memcpy(r, &word, 4);
  memcpy(r + 4, &n, 4);
  if (word >> 28 != MPIOPT_BSP_SEND) memcpy(r + 8, &off, 8);
}

/* The bytes the record takes in the stream, with messages of tagsize-byte tags. */
static inline size_t mpiopt_bsp_rec_size(mpiopt_bsp_rec h, size_t tagsize) {
  switch (h.word >> 28) {
  case MPIOPT_BSP_PUT: return MPIOPT_BSP_REC + h.n;
  case MPIOPT_BSP_SEND: return MPIOPT_BSP_SENDREC + MPIOPT_BSP_PAD8(tagsize) + MPIOPT_BSP_PAD8(h.n);
  default: return MPIOPT_BSP_REC;
  }
}

/* A get of this process, in issue order (every owner, itself included):
 * where its data goes and where it comes from. */
typedef struct {
  char *dst;
  size_t n;
  int owner;
  int bulk;          /* its reply travels alone (exchange_bulk.c) */
  size_t stage;      /* MPIOPT_BSP_GET_MSG: the next n bytes of the owner's reply;
                        MPIOPT_BSP_GET_DIRECT: one-sided or bulk, straight into dst;
                        else one-sided or bulk, at this offset of getstage */
} mpiopt_bsp_getdst;
#define MPIOPT_BSP_GET_MSG SIZE_MAX
#define MPIOPT_BSP_GET_DIRECT (SIZE_MAX - 1)

/* An address range [lo, hi) of this process's memory, for overlap tests. */
typedef struct {
  uintptr_t lo, hi;
  size_t idx;
  int mark;          /* overlaps another range of the set */
} mpiopt_bsp_span;

/* bsp_hpput / bsp_hpsend: the source is read at the sync, into the stream. */
typedef struct {
  int pid;           /* -1: a one-sided put's copy in rmabuf */
  size_t at;
  const void *src;
  size_t n;
} mpiopt_bsp_fixup;

/* A bulk put of this process: its data, at rmabuf + at, travels alone. */
typedef struct {
  int pid;
  size_t at, n;
} mpiopt_bsp_bulkop;

/* A large put or get done with MPI one-sided communication (exchange_rma.c). */
typedef struct {
  int pid, slot;
  size_t off, n;
  char *local;       /* get: where the data goes (set at the sync) */
  size_t at;         /* put: offset of the copy in rmabuf; get: SIZE_MAX */
  size_t ord;        /* get: its index in getord */
} mpiopt_bsp_rmaop;

typedef struct {
  const char *addr;
  size_t size;
  int prev;          /* the registration of the same address it hides, or -1 */
  int state;         /* MPIOPT_BSP_REG_* */
  int attached;      /* to the one-sided windows */
  uint32_t seq;      /* 1 + number of bsp_push_reg calls before this one (same everywhere) */
} mpiopt_bsp_reg;
/* PUSHED: pushed this superstep; POPPED: in effect, popped this superstep;
 * DROPPED: pushed and popped this superstep (it leaves nothing). */
enum { MPIOPT_BSP_REG_FREE, MPIOPT_BSP_REG_LIVE, MPIOPT_BSP_REG_PUSHED, MPIOPT_BSP_REG_POPPED, MPIOPT_BSP_REG_DROPPED };

/* The metadata every process sends every other process at every sync, in
 * the same all-to-all block as the small streams. Besides the stream size it
 * carries everything the processes must agree on, so that disagreement is
 * found in the same collective. */
typedef struct {
  uint32_t vote;     /* MPIOPT_BSP_VOTE_* */
  uint32_t flags;    /* MPIOPT_BSP_F_* */
  uint32_t npush, npop;
  uint64_t pophash;  /* of the sequence numbers of the popped registrations */
  uint64_t tagsize_next;
  uint64_t stream;   /* bytes of the stream to the receiver */
  uint32_t superstep;
  uint32_t first_pop; /* sequence number of the first popped registration, or 0 */
  uint32_t ntagset;   /* bsp_set_tagsize calls this superstep */
  uint32_t taghash;   /* of the values they set, in call order */
  uint32_t partners;  /* the processes the sender has a stream for (the adaptive sync's density) */
} mpiopt_bsp_hdr;
enum { MPIOPT_BSP_VOTE_SYNC = 1, MPIOPT_BSP_VOTE_END = 2 };
#define MPIOPT_BSP_F_INLINE 1u  /* the stream follows the header in the block */
#define MPIOPT_BSP_F_GETREQ 2u  /* the stream holds get requests */
#define MPIOPT_BSP_F_RMAGET 4u  /* the sender has one-sided gets this superstep */
#define MPIOPT_BSP_F_RMAPUT 8u  /* ... one-sided puts */
#define MPIOPT_BSP_F_WILDPOP 16u /* the sender popped NULL this superstep (resolved at the sync) */
#define MPIOPT_BSP_F_BULKPUT 32u /* the stream holds bulk puts */

/* Exchange algorithms for the part of a superstep that is not inline. */
enum { MPIOPT_BSP_EX_AUTO, MPIOPT_BSP_EX_MSG, MPIOPT_BSP_EX_RMA, MPIOPT_BSP_EX_BULK };
/* How the headers of a sync travel. */
enum { MPIOPT_BSP_SYNC_ALLTOALL, MPIOPT_BSP_SYNC_SPARSE, MPIOPT_BSP_SYNC_CENSUS, MPIOPT_BSP_SYNC_ADAPTIVE };

typedef struct {
  const char *msg_tag;
  const char *payload;
  size_t n;
} mpiopt_bsp_msg;

typedef struct {
  int active;        /* between bsp_begin and bsp_end */
  int begun, ended;
  int mpi_by_us;     /* we called MPI_Init, so we finalize */
  int unsafe;
  MPI_Comm comm;
  int p, pid;
  double t0;
  uint32_t superstep;

  /* outgoing */
  mpiopt_bsp_buf *out;       /* [p] streams; out[pid] is the process's own */
  size_t *lastput;           /* [p] offset of the last put record, for coalescing, or SIZE_MAX */
  size_t *lastget;           /* [p] offset of the last get request, for merging, or SIZE_MAX */
  mpiopt_bsp_getdst *getord; /* every get, in issue order */
  size_t ngets, capgets;
  size_t *getbytes;          /* [p] bytes asked of each owner as messages */
  size_t *getcur;            /* [p] delivery cursor in each owner's reply */
  mpiopt_bsp_buf getstage;   /* one-sided get data that cannot go straight to place */
  mpiopt_bsp_span *spans;    /* scratch for overlap tests */
  size_t capspans;
  uint32_t *flags;           /* [p] MPIOPT_BSP_F_GETREQ per destination */
  mpiopt_bsp_fixup *fix;
  size_t nfix, capfix;

  /* the all-to-all block: header + inline stream per process */
  size_t block, inl;
  char *a2a_send, *a2a_recv;
  /* incoming */
  mpiopt_bsp_buf *in;        /* [p] streams that did not fit inline */
  mpiopt_bsp_buf self;       /* last superstep's own stream (messages point into it) */
  mpiopt_bsp_buf *rep;       /* [p] get replies to send */
  mpiopt_bsp_buf *rrep;      /* [p] get replies received */
  MPI_Request *reqs;         /* at least [2p] */
  size_t capreqs;
  char **stream_of;          /* [p] where each source's stream is, this sync */
  size_t *stream_len;        /* [p] */

  /* registrations */
  mpiopt_bsp_reg *regs;
  int nregs, capregs;
  int *freeslots;
  int nfree;
  size_t capfree;
  int *pushed, npushed, cappushed; /* pending, in call order */
  int *popped, npopped, cappopped; /* slots, in call order; -1: a NULL pop not yet resolved */
  int wildpops;              /* NULL pops this superstep */
  uint64_t pophash;
  uint32_t nseq;
  size_t *rsize;             /* [capregs * p]: size of each registration on each process */
  MPI_Aint *raddr;           /* [capregs * p]: its address in the window, 0 if not attached
                                (then transfers to it go as messages) */
  uintptr_t *mapkey;         /* address -> most recent live registration; key = address + 1 */
  int *mapval;
  size_t mapcap, mapused;
  const void *cache_addr;    /* last looked-up address */
  int cache_slot;

  /* BSMP */
  size_t tagsize, tagsize_next;
  uint32_t ntagset, taghash; /* bsp_set_tagsize this superstep: calls, hash of their values */
  size_t qtagsize;           /* the tag size of the queued messages (when they were sent) */
  mpiopt_bsp_msg *msgs;
  size_t nmsgs, head, capmsgs, qbytes;

  /* exchange */
  int exchange;              /* MPIOPT_BSP_EX_* (MPIOPT_BSP_EXCHANGE) */
  size_t rma_min, rma_max;   /* transfers of rma_min..rma_max bytes go one-sided */
  size_t bulk_min;           /* other transfers of bulk_min bytes or more go alone */
  mpiopt_bsp_bulkop *bulk;   /* this superstep's bulk puts, in issue order */
  size_t nbulk, capbulk;
  size_t nbulkget;           /* this superstep's bulk gets */
  int sync;                  /* MPIOPT_BSP_SYNC_* (MPIOPT_BSP_SYNC) */
  uint64_t edges;            /* adaptive sync: the pairs with a stream at the last sync (agreed) */
  unsigned char *sparse_got; /* [p] scratch of the sparse sync */
  MPI_Win win;               /* dynamic window over every registration (one-sided only) */
  int have_win;
  mpiopt_bsp_rmaop *rma;
  size_t nrma, caprma;
  mpiopt_bsp_buf rmabuf;     /* the data of one-sided and bulk puts */
  uint32_t rma_flags;        /* this process's MPIOPT_BSP_F_RMAGET/RMAPUT this superstep */
  uint32_t rma_any;          /* the same, of every process */
} mpiopt_bsp_state;

extern mpiopt_bsp_state mpiopt_bsp_g;


/* core.c */
void mpiopt_bsp_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void mpiopt_bsp_fail_collective(int reporter, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void mpiopt_bsp_require_active(const char *call);
void *mpiopt_bsp_grow(void *p, size_t *cap, size_t need, size_t elem);
/* Room for request number nreq in the sync's request array (grown; the
 * requests posted so far are handles and may move). */
static inline MPI_Request *mpiopt_bsp_req(int nreq) {
  mpiopt_bsp_g.reqs = (MPI_Request *)mpiopt_bsp_grow(mpiopt_bsp_g.reqs, &mpiopt_bsp_g.capreqs, (size_t)nreq + 1,
                                                     sizeof *mpiopt_bsp_g.reqs);
  return &mpiopt_bsp_g.reqs[nreq];
}
void mpiopt_bsp_reserve(mpiopt_bsp_buf *b, size_t extra);
void mpiopt_bsp_begin_sized(long maxprocs, const char *call);
void mpiopt_bsp_start_mpi(void);

/* reg.c */
int mpiopt_bsp_lookup(const void *addr); /* live registration of addr, or -1 */
void mpiopt_bsp_push(const void *addr, size_t size, const char *call);
void mpiopt_bsp_apply_registrations(void);
void mpiopt_bsp_resolve_pops(void); /* collective: NULL pops take the registration they name */

/* drma.c / bsmp.c */
void mpiopt_bsp_put_at(long pid, const void *src, const void *dst, size_t off, size_t n, int hp, const char *call);
void mpiopt_bsp_get_at(long pid, const void *src, size_t off, void *dst, size_t n, const char *call);
void mpiopt_bsp_send_at(long pid, const void *tag, const void *payload, size_t n, int hp, const char *call);
void mpiopt_bsp_set_tagsize_at(size_t *tagsize, const char *call);
void mpiopt_bsp_queue_message(const char *rec, size_t n);

/* sync.c */
void mpiopt_bsp_exchange(uint32_t vote);

/* exchange_msg.c / exchange_rma.c / select.c */
void mpiopt_bsp_msg_streams(void);
int mpiopt_bsp_rma_start(void); /* 0: no one-sided communication here */
void mpiopt_bsp_rma_stop(void);
int mpiopt_bsp_rma_attach(int slot); /* 0: this MPI could not attach the area */
void mpiopt_bsp_rma_detach(int slot);
void mpiopt_bsp_rma_run(int puts); /* 0: the get epoch, 1: the put epoch */
int mpiopt_bsp_use_rma(size_t n);
int mpiopt_bsp_use_bulk(size_t n);

/* sync_sparse.c: the blocks of a sync without the all-to-all; 0 when the
 * headers disagree (then every process falls back to the all-to-all). */
int mpiopt_bsp_sparse_blocks(const mpiopt_bsp_hdr *mine);
/* What every process must agree on at a sync, as mpiopt_bsp_nagree words
 * whose MPI_MIN over the processes gives each field's minimum and maximum
 * (sync_sparse.c); and, given that minimum, whether they agree: if so the
 * blocks of the pairs that sent nothing (got[q] == 0) are written as
 * silent and 1 is returned, else 0 (the all-to-all then names the
 * disagreement). */
extern const int mpiopt_bsp_nagree;
/* Send this process's block to each process it has a stream for (header
 * and inline stream; Issend if synchronous, else Isend), into G.reqs from
 * 0; returns how many. */
int mpiopt_bsp_send_blocks(int tag, int synchronous);
void mpiopt_bsp_agreement(const mpiopt_bsp_hdr *h, uint64_t *v);
int mpiopt_bsp_agreed(const mpiopt_bsp_hdr *mine, const uint64_t *out, const unsigned char *got);
/* sync_census.c: the same without polling (one allreduce of the counts
 * and the agreement, then blocking receives); the same result. */
int mpiopt_bsp_census_blocks(const mpiopt_bsp_hdr *mine);

/* exchange_bulk.c */
void mpiopt_bsp_mark_overlaps(mpiopt_bsp_span *s, size_t n);
void mpiopt_bsp_plan_gets(void); /* where each one-sided or bulk get's data goes */
int mpiopt_bsp_bulk_get_receives(int nreq);
int mpiopt_bsp_bulk_get_send(int to, const char *from, size_t n, int nreq);
/* Post the sends and receives of the bulk puts' data and, when stage_rma,
 * of the one-sided puts' data as messages (staged in rrep[source]). */
int mpiopt_bsp_bulk_puts(int nreq, int stage_rma);
void mpiopt_bsp_select_init(void);

#endif
