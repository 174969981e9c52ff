/* Building blocks of the large-vector reductions: see vector.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vector.h"

const char *mpiopt_vec_last = "none";

enum { ENC_DENSE, ENC_BITMAP, ENC_INDEX };
typedef struct {
  uint32_t enc, pad;
  uint64_t nnz;
} header;

#define PIECE ((size_t)1 << 30)
#define MAXREQ 80

static void isend_bytes(mpiopt_vec *v, const void *buf, size_t bytes, int dst, MPI_Request *req, int *k) {
  const unsigned char *p = buf;
  do {
    size_t b = bytes > PIECE ? PIECE : bytes;
    MPI_Isend(p, (int)b, MPI_BYTE, dst, MPIOPT_TAG_REDUCE, v->comm, &req[(*k)++]);
    p += b;
    bytes -= b;
  } while (bytes > 0 && *k < MAXREQ);
}

static void irecv_bytes(mpiopt_vec *v, void *buf, size_t bytes, int src, MPI_Request *req, int *k) {
  unsigned char *p = buf;
  do {
    size_t b = bytes > PIECE ? PIECE : bytes;
    MPI_Irecv(p, (int)b, MPI_BYTE, src, MPIOPT_TAG_REDUCE, v->comm, &req[(*k)++]);
    p += b;
    bytes -= b;
  } while (bytes > 0 && *k < MAXREQ);
}

/* out = in op mine, or mine op in (the left operand first: ranks that
 * compute the same value get the same bits even where the op is not
 * bitwise commutative, as MIN and MAX on signed zeros). */
static void combine(mpiopt_vec *v, const void *in, const void *mine, void *out, size_t n, int mine_first) {
  if (!n) return;
  if (mine_first)
    mpiopt_reduce_local_threads(mine, in, out, n, v->ti, v->oi, v->threads);
  else
    mpiopt_reduce_local_threads(in, mine, out, n, v->ti, v->oi, v->threads);
}

/* The sender's choice: a header and what to send after it. */
static const void *encode(mpiopt_vec *v, const void *sbuf, size_t n, header *h, size_t *bytes) {
  size_t dense = n * v->ext;
  h->enc = ENC_DENSE;
  h->nnz = n;
  *bytes = dense;
  if (v->force_enc == 3 || n == 0) return sbuf;
  int size = v->ti->size;
  double d = v->force_enc ? 0 : mpiopt_sparse_sample(sbuf, n, size, 256);
  if (!v->force_enc && d > v->max_density) return sbuf;
  size_t guess = (size_t)(d * (double)n), limit = v->force_enc ? n : (size_t)(v->max_density * (double)n);
  int index = v->force_enc == 2 ||
              (!v->force_enc && mpiopt_sparse_index_bytes(guess, size) < mpiopt_sparse_bitmap_bytes(n, guess, size));
  unsigned char *dst = mpiopt_coll_scratch(MPIOPT_SCRATCH_C, index ? mpiopt_sparse_index_bytes(n, size)
                                                                    : mpiopt_sparse_bitmap_bytes(n, n, size));
  size_t nnz = index ? mpiopt_sparse_encode_index(sbuf, n, size, dst, limit)
                     : mpiopt_sparse_encode_bitmap(sbuf, n, size, dst, limit);
  if (nnz == (size_t)-1) return sbuf; /* denser than the sample said */
  size_t enc = index ? mpiopt_sparse_index_bytes(nnz, size) : mpiopt_sparse_bitmap_bytes(n, nnz, size);
  if (!v->force_enc && enc >= dense) return sbuf;
  h->enc = index ? ENC_INDEX : ENC_BITMAP;
  h->nnz = nnz;
  *bytes = enc;
  return dst;
}

static size_t payload(const mpiopt_vec *v, const header *h, size_t m) {
  switch (h->enc) {
  case ENC_BITMAP: return mpiopt_sparse_bitmap_bytes(m, (size_t)h->nnz, v->ti->size);
  case ENC_INDEX: return mpiopt_sparse_index_bytes((size_t)h->nnz, v->ti->size);
  default: return m * v->ext;
  }
}

void mpiopt_vec_reduce_xchg(mpiopt_vec *v, const void *sbuf, size_t n, int dst, const void *mine, void *out,
                            size_t m, int src, int mine_first) {
  MPI_Request req[MAXREQ];
  int k = 0;
  if (!v->sparse) {
    unsigned char *tmp = src != MPI_PROC_NULL ? mpiopt_coll_scratch(MPIOPT_SCRATCH_B, m * v->ext) : NULL;
    if (src != MPI_PROC_NULL) irecv_bytes(v, tmp, m * v->ext, src, req, &k);
    if (dst != MPI_PROC_NULL) {
      isend_bytes(v, sbuf, n * v->ext, dst, req, &k);
      mpiopt_coll_count_msg(v->c, v->stat, dst, n * v->ext);
    }
    MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
    if (src != MPI_PROC_NULL) combine(v, tmp, mine, out, m, mine_first);
    return;
  }
  header hin, hout;
  size_t obytes = 0;
  MPI_Request hreq = MPI_REQUEST_NULL;
  if (src != MPI_PROC_NULL) MPI_Irecv(&hin, (int)sizeof hin, MPI_BYTE, src, MPIOPT_TAG_REDUCE, v->comm, &hreq);
  if (dst != MPI_PROC_NULL) {
    const void *p = encode(v, sbuf, n, &hout, &obytes);
    MPI_Isend(&hout, (int)sizeof hout, MPI_BYTE, dst, MPIOPT_TAG_REDUCE, v->comm, &req[k++]);
    isend_bytes(v, p, obytes, dst, req, &k);
    mpiopt_coll_count_msg(v->c, v->stat, dst, obytes + sizeof hout);
  }
  unsigned char *tmp = NULL;
  if (src != MPI_PROC_NULL) {
    MPI_Wait(&hreq, MPI_STATUS_IGNORE);
    tmp = mpiopt_coll_scratch(MPIOPT_SCRATCH_B, payload(v, &hin, m));
    irecv_bytes(v, tmp, payload(v, &hin, m), src, req, &k);
  }
  MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
  if (src == MPI_PROC_NULL) return;
  if (hin.enc == ENC_DENSE) { /* sparse ops are bitwise commutative: either order gives the same bits */
    combine(v, tmp, mine, out, m, 0);
    return;
  }
  if (out != mine) memcpy(out, mine, m * v->ext);
  if (hin.enc == ENC_BITMAP)
    mpiopt_sparse_apply_bitmap(tmp, m, (size_t)hin.nnz, out, v->ti, v->oi);
  else
    mpiopt_sparse_apply_index(tmp, m, (size_t)hin.nnz, out, v->ti, v->oi);
}

void mpiopt_vec_copy_xchg(mpiopt_vec *v, const void *sbuf, size_t n, int dst, void *rbuf, size_t m, int src) {
  MPI_Request req[MAXREQ];
  int k = 0;
  if (src != MPI_PROC_NULL) irecv_bytes(v, rbuf, m * v->ext, src, req, &k);
  if (dst != MPI_PROC_NULL) {
    isend_bytes(v, sbuf, n * v->ext, dst, req, &k);
    mpiopt_coll_count_msg(v->c, v->stat, dst, n * v->ext);
  }
  MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
}

/* --- checking, and the selector ------------------------------------------ */

static void check(const mpiopt_vec_kind *k, const void *sendbuf, const void *recvbuf, int count, MPI_Datatype dt,
                  MPI_Op op, int root, mpiopt_coll_comm *c) {
  const char *bad = NULL;
  if (count < 0)
    bad = "the count is negative";
  else if (dt == MPI_DATATYPE_NULL)
    bad = "the datatype is MPI_DATATYPE_NULL";
  else if (op == MPI_OP_NULL)
    bad = "the op is MPI_OP_NULL";
  else if (root >= 0 && !c->inter && root >= c->size)
    bad = "the root is not a rank of the communicator";
  else if (count > 0 && !sendbuf)
    bad = "the send buffer is NULL";
  else if (count > 0 && !recvbuf && (root < 0 || root == c->rank))
    bad = "the receive buffer is NULL";
  else if (sendbuf == MPI_IN_PLACE && root >= 0 && root != c->rank && !c->inter)
    bad = "MPI_IN_PLACE is only for the root of MPI_Reduce";
  if (bad)
    mpiopt_die(c->comm, "%s at %s:%d: %s (count %d, root %d)", k->who, k->file ? k->file : "?", k->line, bad, count,
               root);
}

int mpiopt_vec_fold(mpiopt_vec *v, const void **mine, void *recvbuf, int rem) {
  int rank = v->rank;
  if (rank >= 2 * rem) return rank - rem;
  if (rank % 2) {
    mpiopt_vec_reduce_xchg(v, *mine, v->n, rank - 1, NULL, NULL, 0, MPI_PROC_NULL, 0);
    return -1;
  }
  mpiopt_vec_reduce_xchg(v, NULL, 0, MPI_PROC_NULL, *mine, recvbuf, v->n, rank + 1, 1);
  *mine = recvbuf;
  return rank / 2;
}

void mpiopt_vec_unfold(mpiopt_vec *v, void *recvbuf, int rem) {
  int rank = v->rank;
  if (rank >= 2 * rem) return;
  if (rank % 2)
    mpiopt_vec_copy_xchg(v, NULL, 0, MPI_PROC_NULL, recvbuf, v->n, rank - 1);
  else
    mpiopt_vec_copy_xchg(v, recvbuf, v->n, rank + 1, NULL, 0, MPI_PROC_NULL);
}

/* The fraction of a message's bytes left after encoding at density d. */
static double encoded_fraction(const mpiopt_vec *v, double d) {
  double size = v->ti->size, bitmap = 1.0 / (8 * size) + d, index = d * (4 + size) / size;
  double f = bitmap < index ? bitmap : index;
  return f < 1 ? f : 1;
}

/* The agreed density (the largest of any rank's sample), or 1 when sampling
 * is off at this site for now: agreed densities too high to encode several
 * times in a row stop the sampling for a while (mpiopt_coll_site_note). */
static double agreed_density(mpiopt_vec *v, const void *data, const char *file, int line) {
  mpiopt_coll_site *s = mpiopt_coll_site_of(MPIOPT_SITE_DENSITY, file, line, v->c->comm);
  if (mpiopt_coll_site_skip(s)) return 1;
  double d = mpiopt_sparse_sample(data, v->n, v->ti->size, 1024);
  MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, v->c->comm);
  mpiopt_coll_site_note(s, d > v->max_density);
  return d;
}

static int settings_read;
static int sparse_mode; /* 0 auto, 1 off, 2 bitmap, 3 index, 4 dense */
static double density_limit = -1;

void mpiopt_vec_settings(void) {
  if (settings_read) return;
  static const char *const modes[] = {"auto", "off", "bitmap", "index", "dense"};
  sparse_mode = mpiopt_env_choice("MPIOPT_SPARSE", modes, 5, 0);
  long d = mpiopt_env_long("MPIOPT_SPARSE_DENSITY", -1, 0, 100);
  density_limit = d >= 0 ? (double)d / 100 : -1;
  settings_read = 1;
}

int mpiopt_vec_select(const mpiopt_vec_kind *k, mpiopt_vec *v, const void *sendbuf, const void *recvbuf, int count,
                      MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm) {
  /* Short vectors go to the MPI at once, at the cost of a table lookup (the
     MPI checks their arguments as it would have). */
  if (count > 0 && dt != MPI_DATATYPE_NULL && comm != MPI_COMM_NULL && k->forced < 0) {
    const mpiopt_type_info *ti = mpiopt_type_lookup(dt);
    double bytes = ti ? (double)count * (double)ti->extent : 0;
    /* (P >= 2: bytes < 2 xbytes is below the ring's crossover too) */
    if (ti && bytes < k->model->min && (k->model->xbytes <= 0 || bytes < 2 * k->model->xbytes)) {
      mpiopt_vec_last = "native";
      return MPIOPT_VEC_NATIVE;
    }
  }
  char who[640];
  snprintf(who, sizeof who, "%s at %s:%d", k->who, k->file ? k->file : "?", k->line);
  mpiopt_coll_comm *c = mpiopt_coll_get(comm, who);
  mpiopt_vec_settings();
  check(k, sendbuf, recvbuf, count, dt, op, root, c);
  const mpiopt_type_info *ti = mpiopt_type_lookup(dt);
  const mpiopt_op_info *oi = mpiopt_op_lookup(op);
  if (!ti || !oi) mpiopt_die(comm, "%s at %s:%d: the %s is not valid", k->who, k->file ? k->file : "?", k->line, ti ? "op" : "datatype");
  MPI_Aint lb = 0, ext = 0;
  MPI_Type_get_extent(dt, &lb, &ext);
  *v = (mpiopt_vec){.c = c, .comm = c->comm, .P = c->size, .rank = c->rank, .root = root, .n = (size_t)count,
                    .ext = (size_t)ext, .ti = ti, .oi = oi, .threads = mpiopt_coll_threads(c)};
  v->max_density = density_limit >= 0 ? density_limit : k->model->density / 100;
  v->force_enc = sparse_mode >= 2 ? sparse_mode - 1 : 0;
  /* Our algorithms copy whole extents: builtin types (a pair type's padding
     is no data) and derived types without holes. */
  int usable = lb == 0 && (ti->code < 1000 || ti->dense);
  int eligible = !c->inter && c->size > 1 && count > 0 && usable && oi->commute;
  static const char *const names[] = {"auto", "native", "binomial", "redscat", "ring"};
  int forced = k->forced;
  int algo = MPIOPT_VEC_NATIVE;
  if (forced > MPIOPT_VEC_NATIVE && !oi->commute && !c->inter && c->size > 1)
    mpiopt_die(comm, "%s at %s:%d: %s=%s cannot run %s: the op is not commutative (only the MPI's own call reduces in "
               "rank order)", k->who, k->file ? k->file : "?", k->line, k->algo_var, names[forced + 1], oi->name);
  v->sparse = eligible && sparse_mode != 1 && mpiopt_sparse_eligible(ti, oi);
  double bytes = (double)count * (double)ext;
  int nodes = 0; /* the nodes the communicator spans, asked only where a branch needs it */
  if (forced >= 0) {
    algo = eligible ? forced : MPIOPT_VEC_NATIVE;
  } else if (eligible && k->model->xbytes > 0 && (nodes = mpiopt_coll_topology(c)->nnodes) > 1) {
    /* across nodes, with a model measured there: the ring from its
       crossover, up to the most nodes measured (the model's comment) */
    if (nodes <= k->model->nodes && bytes >= k->model->xbytes * c->size) algo = MPIOPT_VEC_RING;
  } else if (eligible && bytes >= k->model->min &&
             /* across more nodes than its model was measured on, the MPI's own call (the model's comment) */
             (nodes ? nodes : mpiopt_coll_topology(c)->nnodes) <= (k->model->nodes > 1 ? k->model->nodes : 1)) {
    double d = 1;
    if (v->sparse && sparse_mode != 4)
      d = agreed_density(v, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, k->file, k->line);
    double f = d <= v->max_density ? encoded_fraction(v, d) : 1;
    int best = MPIOPT_VEC_BINOMIAL;
    for (int a = MPIOPT_VEC_REDSCAT; a < MPIOPT_VEC_NALGS; a++)
      if (k->cost[a](k->model, bytes, c->size, v->threads, f) < k->cost[best](k->model, bytes, c->size, v->threads, f))
        best = a;
    if (f < 1 || (k->model->dense > 0 && bytes >= k->model->dense)) algo = best;
  }
  /* (algo is agreed: every rank copies the communicator here or none) */
  if (algo != MPIOPT_VEC_NATIVE) v->comm = mpiopt_coll_private(c);
  v->stat = k->stats[algo];
  mpiopt_vec_last = names[algo + 1];
  mpiopt_coll_count_call(c, v->stat);
  return algo;
}

void mpiopt_vec_model_parse(const char *var, mpiopt_vec_model *m) {
  const char *v = getenv(var);
  if (!v || !*v) return;
  static const char *const keys[] = {"alpha", "beta", "gamma", "min", "dense", "density", "nodes", "xbytes"};
  double *fields[] = {&m->alpha, &m->beta, &m->gamma, &m->min, &m->dense, &m->density, &m->nodes, &m->xbytes};
  const char *s = v;
  while (*s) {
    const char *eq = strchr(s, '=');
    int key = -1;
    for (int i = 0; eq && i < 8; i++)
      if ((size_t)(eq - s) == strlen(keys[i]) && !strncmp(s, keys[i], (size_t)(eq - s))) key = i;
    char *end = NULL;
    double x = key >= 0 ? strtod(eq + 1, &end) : -1;
    if (key < 0 || end == eq + 1 || x < 0 || (*end && *end != ',') || (key == 5 && x > 100))
      mpiopt_die_setting(
                 "%s=%s: expected KEY=VALUE pairs separated by commas, keys alpha, beta, gamma, min, dense, "
                 "density, nodes, xbytes, values not negative (density a percentage)",
                 var, v);
    *fields[key] = x;
    s = *end ? end + 1 : end;
  }
}

const char *mpiopt_coll_last_algorithm(void) { return mpiopt_vec_last; }

int mpiopt_vec_forced(const char *var) {
  static const char *const names[] = {"auto", "native", "binomial", "redscat", "ring"};
  return mpiopt_env_choice(var, names, 5, 0) - 1;
}
