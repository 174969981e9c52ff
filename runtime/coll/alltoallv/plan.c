/* Planned Alltoallv: creating, executing and freeing a plan (see
 * mpiopt/plan.h and alltoallv.h).
 *
 * Creating a plan is collective over the communicator:
 *   1. the arguments are checked locally (a bad one stops the job with a
 *      message naming the call and the argument);
 *   2. one MPI_Alltoall of the byte counts checks that every pair of ranks
 *      agrees on what it exchanges (MPI requires matching type signatures;
 *      a mismatch is named, where MPI would truncate or read short);
 *   3. the node topology (first time on the communicator) and one
 *      MPI_Allgather within the node of every member's byte counts, when a
 *      node-aware algorithm may run;
 *   4. every algorithm's estimate, made the same on every rank by one
 *      MPI_Allreduce (MAX): the smallest wins, unless MPIOPT_ALLTOALLV_ALGO
 *      forces one;
 *   5. the chosen algorithm prepares its schedule (the node algorithm
 *      reserves the node's shared segment).
 * Executing does only what the schedule says.
 *
 * The model's choice is then checked by timing (trial.c): a plan executes
 * through its check first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alltoallv.h"

/* Pulls this member out of the archive for code written by ompi-opt (see
 * core/linked.c). */
const int mpiopt_plan_linked = 1;

#define xcalloc(n, size, comm) mpiopt_coll_calloc(n, size, comm, "creating an Alltoallv plan")

const char *mpiopt_plan_where(const char *file, int line) {
  static char buf[512];
  if (file)
    snprintf(buf, sizeof buf, "%s:%d", file, line);
  else
    snprintf(buf, sizeof buf, "(unknown call site)");
  return buf;
}

/* Check one side's arguments and fill it in. */
static void side_init(const mpiopt_plan_kind *k, mpiopt_a2av_side *s, const char *which, const int *counts,
                      const int *displs, MPI_Datatype type, int P, MPI_Comm comm, const char *file, int line) {
  const char *at = mpiopt_plan_where(file, line), *who = k->who;
  if (!counts) mpiopt_die(comm, "%s at %s: the %scounts array is NULL", who, at, which);
  if (!displs) mpiopt_die(comm, "%s at %s: the %sdispls array is NULL", who, at, which);
  if (type == MPI_DATATYPE_NULL)
    mpiopt_die(comm, "%s at %s: the %stype is MPI_DATATYPE_NULL", who, at, which);
  for (int j = 0; j < P; j++)
    if (counts[j] < 0)
      mpiopt_die(comm, "%s at %s: %scounts[%d] is negative (%d)", who, at, which, j, counts[j]);
  s->counts = xcalloc((size_t)P, sizeof(int), comm);
  s->displs = xcalloc((size_t)P, sizeof(int), comm);
  s->bytes = xcalloc((size_t)P, sizeof(long long), comm);
  memcpy(s->counts, counts, sizeof(int) * (size_t)P);
  memcpy(s->displs, displs, sizeof(int) * (size_t)P);
  MPI_Aint lb = 0, tlb = 0, textent = 0;
  if (MPI_Type_size(type, &s->size) != MPI_SUCCESS || MPI_Type_get_extent(type, &lb, &s->extent) != MPI_SUCCESS ||
      MPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS)
    mpiopt_die(comm, "%s at %s: the %stype is not a valid datatype", who, at, which);
  s->dense = s->size > 0 && lb == 0 && tlb == 0 && s->extent == s->size && textent == s->size;
  int ni, na, nd, combiner;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  s->type = type;
  if (combiner != MPI_COMBINER_NAMED) {
    MPI_Type_dup(type, &s->type); /* the program may free its own */
    s->owned = 1;
  }
  for (int j = 0; j < P; j++) s->bytes[j] = (long long)s->counts[j] * s->size;
}

static void side_free(mpiopt_a2av_side *s) {
  if (s->owned) PMPI_Type_free(&s->type); /* the runtime's own: not a force point */
  free(s->counts);
  free(s->displs);
  free(s->bytes);
  memset(s, 0, sizeof *s);
}

/* Step 2 of an Alltoallv plan: every pair agrees on its bytes. */
void mpiopt_a2av_verify(mpiopt_plan_s *p) {
  mpiopt_coll_comm *c = p->c;
  long long *got = xcalloc((size_t)p->P, sizeof(long long), c->comm);
  MPI_Alltoall(p->s.bytes, 1, MPI_LONG_LONG, got, 1, MPI_LONG_LONG, c->priv);
  for (int j = 0; j < p->P; j++)
    if (got[j] != p->r.bytes[j])
      mpiopt_die(c->comm,
                 "MPI_Alltoallv at %s: rank %d sends %lld bytes to rank %d, which expects %lld (recvcounts[%d] = %d "
                 "elements of %d bytes): the send and receive type signatures must match",
                 mpiopt_plan_where(p->file, p->line), j, got[j], p->rank, p->r.bytes[j], j, p->r.counts[j], p->r.size);
  free(got);
}

/* Step 3: the node's byte tables. */
static void gather_node(mpiopt_plan_s *p) {
  mpiopt_coll_comm *c = p->c;
  const mpiopt_coll_topo *t = mpiopt_coll_topology(c);
  size_t P = (size_t)p->P, L = (size_t)t->lsize;
  long long *mine = xcalloc(2 * P, sizeof(long long), c->comm);
  long long *all = xcalloc(2 * P * L, sizeof(long long), c->comm);
  memcpy(mine, p->s.bytes, P * sizeof(long long));
  memcpy(mine + P, p->r.bytes, P * sizeof(long long));
  MPI_Allgather(mine, (int)(2 * P), MPI_LONG_LONG, all, (int)(2 * P), MPI_LONG_LONG, t->node);
  p->nsb = xcalloc(L * P, sizeof(long long), c->comm);
  p->nrb = xcalloc(L * P, sizeof(long long), c->comm);
  for (size_t l = 0; l < L; l++) {
    memcpy(p->nsb + l * P, all + l * 2 * P, P * sizeof(long long));
    memcpy(p->nrb + l * P, all + l * 2 * P + P, P * sizeof(long long));
  }
  free(mine);
  free(all);
}

/* Step 4: the algorithm every rank takes. */
static int choose(mpiopt_plan_s *p, int forced) {
  const mpiopt_a2av_model *m = mpiopt_a2av_model_get();
  const mpiopt_plan_kind *k = p->kind;
  double est[MPIOPT_PLAN_MAX_ALGS];
  for (int a = 0; a < k->nalgs; a++) {
    const mpiopt_a2av_algorithm *alg = &k->algs[a];
    est[a] = (alg->node_aware && !p->nsb) ? -1 : alg->estimate(p, m);
    if (est[a] < 0) est[a] = 1e300; /* cannot run here: never chosen */
  }
  MPI_Allreduce(MPI_IN_PLACE, est, k->nalgs, MPI_DOUBLE, MPI_MAX, p->c->priv);
  if (forced >= 0) {
    if (est[forced] < 1e300) return forced;
    if (p->rank == 0)
      fprintf(stderr, "mpiopt: warning: the forced algorithm %s cannot run the MPI_%s at %s; it runs %s\n",
              k->algs[forced].name, k->coll, mpiopt_plan_where(p->file, p->line), k->algs[0].name);
    return 0;
  }
  int best = 0; /* the MPI's own */
  for (int a = 1; a < k->nalgs; a++)
    if (est[a] < est[best]) best = a;
  return best;
}

mpiopt_plan_s *mpiopt_plan_new(const mpiopt_plan_kind *kind, const int *sendcounts, const int *sdispls,
                               MPI_Datatype sendtype, const int *recvcounts, const int *rdispls,
                               MPI_Datatype recvtype, MPI_Comm comm, int alltoall, const char *file, int line) {
  char who[640];
  snprintf(who, sizeof who, "%s at %s", kind->who, mpiopt_plan_where(file, line));
  mpiopt_coll_comm *c = mpiopt_coll_get(comm, who);
  mpiopt_coll_private(c); /* every rank creates the plan: its messages go there */
  mpiopt_plan_s *p = xcalloc(1, sizeof *p, comm);
  p->kind = kind;
  p->c = c;
  p->file = file;
  p->line = line;
  p->rank = c->rank;
  p->alltoall = alltoall;
  if (c->inter)
    MPI_Comm_remote_size(comm, &p->P);
  else
    p->P = c->size;
  side_init(kind, &p->s, "send", sendcounts, sdispls, sendtype, p->P, comm, file, line);
  side_init(kind, &p->r, "recv", recvcounts, rdispls, recvtype, p->P, comm, file, line);
  p->inplace_ok = !kind->send_side ||
                  (sendtype == recvtype && !memcmp(sendcounts, recvcounts, sizeof(int) * (size_t)p->P) &&
                   !memcmp(sdispls, rdispls, sizeof(int) * (size_t)p->P));
  mpiopt_coll_retain(c);
  p->id = c->next_plan_id++;
  int forced = kind->forced();
  (void)kind->trial_samples(); /* a bad setting stops every run, not only those that check */
  if (c->inter || p->P == 1) {
    if (p->P == 1 && p->s.bytes[0] != p->r.bytes[0])
      mpiopt_die(comm, "MPI_%s at %s: this rank sends itself %lld bytes but expects %lld", kind->coll,
                 mpiopt_plan_where(file, line), p->s.bytes[0], p->r.bytes[0]);
    p->algo = 0; /* an intercommunicator, or one rank: the MPI's own */
  } else {
    kind->verify(p);
    if (forced < 0 || kind->algs[forced].node_aware) gather_node(p);
    p->algo = choose(p, forced);
  }
  const mpiopt_a2av_algorithm *alg = &kind->algs[p->algo];
  if (alg->prepare) alg->prepare(p);
  if (forced < 0) mpiopt_a2av_trial_start(p);
  free(p->nsb);
  free(p->nrb);
  p->nsb = p->nrb = NULL;
  if (mpiopt_coll_cfg.stats) mpiopt_coll_stats[alg->stat].plans++;
  return p;
}

mpiopt_plan_s *mpiopt_a2av_plan_new(const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                                    const int *recvcounts, const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                                    int alltoall, const char *file, int line) {
  return mpiopt_plan_new(&mpiopt_plan_alltoallv, sendcounts, sdispls, sendtype, recvcounts, rdispls, recvtype, comm,
                         alltoall, file, line);
}

void mpiopt_a2av_plan_delete(mpiopt_plan_s *p) {
  if (p->trial)
    mpiopt_a2av_trial_free(p); /* freed before the check decided: every candidate's data */
  else if (p->kind->algs[p->algo].destroy)
    p->kind->algs[p->algo].destroy(p);
  side_free(&p->s);
  side_free(&p->r);
  mpiopt_coll_release(p->c);
  free(p);
}

int mpiopt_a2av_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf) {
  if (p->c->dead)
    mpiopt_die(MPI_COMM_WORLD, "mpiopt_plan_execute (MPI_%s plan of %s): its communicator was freed", p->kind->coll,
               mpiopt_plan_where(p->file, p->line));
  if (sendbuf == MPI_IN_PLACE && !p->inplace_ok)
    mpiopt_die(p->c->comm,
               "mpiopt_plan_execute (plan of %s): MPI_IN_PLACE needs a plan created with the receive counts, "
               "displacements and datatype as its send ones",
               mpiopt_plan_where(p->file, p->line));
  if (p->trial) {
    mpiopt_a2av_trial_execute(p, sendbuf, recvbuf);
    return MPI_SUCCESS;
  }
  const mpiopt_a2av_algorithm *alg = &p->kind->algs[p->algo];
  mpiopt_coll_count_call(p->c, alg->stat);
  alg->execute(p, sendbuf, recvbuf);
  return MPI_SUCCESS;
}

void mpiopt_a2av_pack(const mpiopt_plan_s *p, const mpiopt_a2av_side *s, const void *buf, int j,
                      unsigned char *dst) {
  long long n = s->bytes[j];
  if (n == 0) return;
  const unsigned char *src = mpiopt_a2av_at(s, buf, j);
  if (s->dense) {
    memcpy(dst, src, (size_t)n);
    return;
  }
  int pos = 0;
  MPI_Pack(src, s->counts[j], s->type, dst, (int)n, &pos, p->c->priv);
  if (pos != n) mpiopt_die(p->c->comm, "MPI_Pack of %lld bytes wrote %d", n, pos);
}

void mpiopt_a2av_unpack(const mpiopt_plan_s *p, const unsigned char *src, void *recvbuf, int j) {
  const mpiopt_a2av_side *r = &p->r;
  long long n = r->bytes[j];
  if (n == 0) return;
  unsigned char *dst = mpiopt_a2av_at(r, recvbuf, j);
  if (r->dense) {
    if (dst != src) memcpy(dst, src, (size_t)n);
    return;
  }
  int pos = 0;
  MPI_Unpack(src, (int)n, &pos, dst, r->counts[j], r->type, p->c->priv);
}

/* --- the public entry points ------------------------------------------------ */

int mpiopt_alltoallv_plan_create_at(const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                                    const int *recvcounts, const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                                    mpiopt_plan *plan, const char *file, int line) {
  if (!plan) mpiopt_die(comm, "mpiopt_alltoallv_plan_create at %s: the plan pointer is NULL", mpiopt_plan_where(file, line));
  *plan = mpiopt_a2av_plan_new(sendcounts, sdispls, sendtype, recvcounts, rdispls, recvtype, comm, 0, file, line);
  return MPI_SUCCESS;
}

/* MPI_Alltoall's arguments as Alltoallv's: uniform counts, consecutive blocks. */
static void uniform(int count, int P, int *counts, int *displs) {
  for (int j = 0; j < P; j++) {
    counts[j] = count;
    displs[j] = j * count;
  }
}

int mpiopt_alltoall_plan_create_at(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, mpiopt_plan *plan, const char *file, int line) {
  if (!plan) mpiopt_die(comm, "mpiopt_alltoall_plan_create at %s: the plan pointer is NULL", mpiopt_plan_where(file, line));
  char who[640];
  snprintf(who, sizeof who, "mpiopt_alltoall_plan at %s", mpiopt_plan_where(file, line));
  mpiopt_coll_comm *c = mpiopt_coll_get(comm, who);
  int P = c->size;
  if (c->inter) MPI_Comm_remote_size(comm, &P);
  if (sendcount < 0 || recvcount < 0)
    mpiopt_die(comm, "mpiopt_alltoall_plan at %s: the %scount is negative (%d)", mpiopt_plan_where(file, line),
               sendcount < 0 ? "send" : "recv", sendcount < 0 ? sendcount : recvcount);
  if ((long long)P * (sendcount > recvcount ? sendcount : recvcount) > 0x7fffffffLL)
    mpiopt_die(comm, "mpiopt_alltoall_plan at %s: %d ranks x %d elements overflow an int displacement",
               mpiopt_plan_where(file, line), P, sendcount > recvcount ? sendcount : recvcount);
  int *a = xcalloc(4 * (size_t)P, sizeof(int), comm);
  uniform(sendcount, P, a, a + P);
  uniform(recvcount, P, a + 2 * P, a + 3 * P);
  *plan = mpiopt_a2av_plan_new(a, a + P, sendtype, a + 2 * P, a + 3 * P, recvtype, comm, 1, file, line);
  free(a);
  return MPI_SUCCESS;
}

int mpiopt_plan_execute(mpiopt_plan plan, const void *sendbuf, void *recvbuf) {
  if (!plan) mpiopt_die(MPI_COMM_WORLD, "mpiopt_plan_execute: the plan is NULL");
  return mpiopt_a2av_execute(plan, sendbuf, recvbuf);
}

/* A planned call's first call runs the MPI's own collective and leaves this
 * mark: the plan is made at the second call, so a loop that runs once pays
 * no planning (every rank counts its calls at the site alike). */
static struct mpiopt_plan_s first_call;

int mpiopt_plan_free(mpiopt_plan *plan) {
  if (plan && *plan == &first_call) {
    *plan = NULL;
    return MPI_SUCCESS;
  }
  if (plan && *plan) {
    mpiopt_a2av_plan_delete(*plan);
    *plan = NULL;
  }
  return MPI_SUCCESS;
}

const char *mpiopt_plan_algorithm(mpiopt_plan plan) {
  return plan && plan != &first_call ? plan->kind->algs[plan->algo].name : "none";
}

/* A planned call's bookkeeping (mpiopt_plan_begin): 1 when this call is
 * the site's first and runs the MPI's own collective; otherwise 0, *plan
 * then a plan to execute or NULL (to be made: the second call, or a call
 * that changed to or from MPI_IN_PLACE, as every rank does alike). */
int mpiopt_plan_begin(mpiopt_plan *plan, int inplace) {
  if (!*plan) {
    *plan = &first_call;
    return 1;
  }
  if (*plan == &first_call)
    *plan = NULL;
  else if ((*plan)->for_inplace != inplace)
    mpiopt_plan_free(plan);
  return 0;
}

int mpiopt_alltoallv_planned_at(mpiopt_plan *plan, const void *sendbuf, const int *sendcounts, const int *sdispls,
                                MPI_Datatype sendtype, void *recvbuf, const int *recvcounts, const int *rdispls,
                                MPI_Datatype recvtype, MPI_Comm comm, const char *file, int line) {
  int inplace = sendbuf == MPI_IN_PLACE;
  if (mpiopt_plan_begin(plan, inplace))
    return MPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  if (!*plan) {
    if (inplace) /* the send arguments are ignored: the receive ones stand for them */
      *plan = mpiopt_a2av_plan_new(recvcounts, rdispls, recvtype, recvcounts, rdispls, recvtype, comm, 0, file, line);
    else
      *plan = mpiopt_a2av_plan_new(sendcounts, sdispls, sendtype, recvcounts, rdispls, recvtype, comm, 0, file, line);
    (*plan)->for_inplace = inplace;
  }
  return mpiopt_a2av_execute(*plan, sendbuf, recvbuf);
}

int mpiopt_alltoall_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file,
                               int line) {
  int inplace = sendbuf == MPI_IN_PLACE;
  if (mpiopt_plan_begin(plan, inplace))
    return MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (!*plan) {
    if (inplace)
      mpiopt_alltoall_plan_create_at(recvcount, recvtype, recvcount, recvtype, comm, plan, file, line);
    else
      mpiopt_alltoall_plan_create_at(sendcount, sendtype, recvcount, recvtype, comm, plan, file, line);
    (*plan)->for_inplace = inplace;
  }
  return mpiopt_a2av_execute(*plan, sendbuf, recvbuf);
}
