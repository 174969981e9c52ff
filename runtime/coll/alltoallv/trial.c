/* The check of a plan's algorithm by timing (MPIOPT_ALLTOALLV_TRIAL,
 * MPIOPT_ALLGATHERV_TRIAL).
 *
 * A model is a model: a copy through the node's segment costs far more per
 * byte once the data no longer fits in the cache, and the MPI's large
 * messages far less per byte than its small ones. So a plan the model gave
 * another algorithm than the MPI's own (unforced) tries it against the
 * MPI's own collective and, for an Alltoallv, the pairwise exchange (the
 * kind's alt) in its first executions:
 *   1. each candidate once, timed only to size the check (first touch);
 *   2. one MPI_Allreduce (MAX) of that round's time: every rank runs the
 *      same number of rounds, as many as fit in about 10 ms, at least 3
 *      and at most N (MPIOPT_ALLTOALLV_TRIAL=N, default 15; 0: no check);
 *   3. the rounds, each candidate once per round in turn;
 *   4. one MPI_Allreduce (MAX) of every execution's time: the slowest
 *      rank's time of each execution, the same on every rank; the candidate
 *      with the smallest median stays for good, but one that is not the
 *      MPI's own must beat it by 3% (within the noise, the MPI's own).
 * Every timed execution starts at a barrier of the plan's private
 * communicator, as the benchmarks time a call: without it a candidate that
 * ends with the ranks apart (a ring, a pipelined exchange) charges its skew
 * to the next candidate. On 16 ranks in 4 emulated nodes (2026-11-26) the
 * check without the barrier kept the node algorithm for an Allgatherv of
 * 1 MiB per rank that then ran 1.4x slower than MPI_Allgatherv, and a
 * 2,560-byte Alltoallv 1.15x; with the barrier the Alltoallv wins (0.87x)
 * and the Allgatherv still loses (1.23x, 3 rounds). Every
 * execution moves the same bytes to the same places: the check costs time,
 * never results. */
#include <stdlib.h>
#include <string.h>

#include "alltoallv.h"

enum { MAXC = 3 };
#define BUDGET_US 10000.0
#define MARGIN 0.97

struct mpiopt_a2av_trial {
  int n, algo[MAXC];   /* the candidates: the model's choice, the MPI's own, pairwise */
  void *data[MAXC];    /* their data (p->data holds the one executing) */
  int step, total;     /* executions done, and in all (known after step 1) */
  int rounds;
  double warm;         /* this rank's time of step 1 (us) */
  double *times;       /* [n * rounds]: candidate k's time in round r at k * rounds + r */
};

void mpiopt_a2av_trial_start(mpiopt_plan_s *p) {
  const mpiopt_plan_kind *k = p->kind;
  long most = k->trial_samples();
  if (p->algo == 0 || most == 0) return;
  struct mpiopt_a2av_trial *t = calloc(1, sizeof *t);
  if (!t) mpiopt_die(p->c->comm, "out of memory planning an %s", k->coll);
  t->algo[t->n] = p->algo;
  t->data[t->n++] = p->data;
  t->algo[t->n++] = 0; /* the MPI's own */
  if (k->alt >= 0 && p->algo != k->alt) {
    p->data = NULL;
    if (k->algs[k->alt].prepare) k->algs[k->alt].prepare(p);
    t->algo[t->n] = k->alt;
    t->data[t->n++] = p->data;
    p->data = t->data[0];
  }
  t->total = t->n;
  p->trial = t;
}

void mpiopt_a2av_trial_free(mpiopt_plan_s *p) {
  struct mpiopt_a2av_trial *t = p->trial;
  for (int k = 0; k < t->n; k++) {
    const mpiopt_a2av_algorithm *a = &p->kind->algs[t->algo[k]];
    p->data = t->data[k];
    if (a->destroy) a->destroy(p);
  }
  p->data = NULL;
  free(t->times);
  free(t);
  p->trial = NULL;
}

/* Step 2: the number of rounds, the same on every rank. */
static void size_rounds(mpiopt_plan_s *p, struct mpiopt_a2av_trial *t) {
  MPI_Allreduce(MPI_IN_PLACE, &t->warm, 1, MPI_DOUBLE, MPI_MAX, p->c->priv);
  long most = p->kind->trial_samples();
  double fit = BUDGET_US / (t->warm > 0 ? t->warm : 1e-3);
  long rounds = fit >= (double)most ? most : (long)fit;
  if (rounds < 3) rounds = most < 3 ? most : 3;
  t->rounds = (int)rounds;
  t->total = t->n * (1 + t->rounds);
  t->times = malloc(sizeof(double) * (size_t)(t->n * t->rounds));
  if (!t->times) mpiopt_die(p->c->comm, "out of memory planning an %s", p->kind->coll);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Step 4: the candidate that stays (its index). */
static int decide(mpiopt_plan_s *p, struct mpiopt_a2av_trial *t) {
  MPI_Allreduce(MPI_IN_PLACE, t->times, t->n * t->rounds, MPI_DOUBLE, MPI_MAX, p->c->priv);
  double med[MAXC];
  for (int k = 0; k < t->n; k++) {
    double *v = t->times + k * t->rounds;
    qsort(v, (size_t)t->rounds, sizeof *v, cmp_double);
    med[k] = t->rounds % 2 ? v[t->rounds / 2] : 0.5 * (v[t->rounds / 2 - 1] + v[t->rounds / 2]);
  }
  int win = 1; /* the MPI's own, unless another beats it clearly */
  for (int k = 0; k < t->n; k++)
    if (k != 1 && med[k] < MARGIN * med[1] && med[k] < med[win]) win = k;
  return win;
}

void mpiopt_a2av_trial_execute(mpiopt_plan_s *p, const void *sendbuf, void *recvbuf) {
  struct mpiopt_a2av_trial *t = p->trial;
  int k = t->step % t->n;
  const mpiopt_a2av_algorithm *alg = &p->kind->algs[t->algo[k]];
  p->data = t->data[k];
  mpiopt_coll_count_call(p->c, alg->stat);
  MPI_Barrier(p->c->priv);
  double t0 = MPI_Wtime();
  alg->execute(p, sendbuf, recvbuf);
  double us = (MPI_Wtime() - t0) * 1e6;
  p->data = t->data[0];
  if (t->step < t->n)
    t->warm += us;
  else
    t->times[k * t->rounds + (t->step - t->n) / t->n] = us;
  t->step++;
  if (t->step == t->n) size_rounds(p, t);
  if (t->step < t->total) return;
  int win = decide(p, t);
  mpiopt_coll_count_trial(p->c, win == 0);
  if (mpiopt_coll_cfg.stats && win != 0) {
    mpiopt_coll_stats[p->kind->algs[p->algo].stat].plans--;
    mpiopt_coll_stats[p->kind->algs[t->algo[win]].stat].plans++;
  }
  void *keep = t->data[win];
  t->data[win] = NULL; /* not destroyed with the others */
  int algo = t->algo[win];
  t->algo[win] = 0; /* the MPI's own: no destroy */
  mpiopt_a2av_trial_free(p);
  p->algo = algo;
  p->data = keep;
}
