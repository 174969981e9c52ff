/* MPIOPT_STATS=1: per collective kind and algorithm, the calls, plans, and
 * the messages and bytes this rank sent to other nodes and within its node
 * (as the runtime's algorithms sent them; a native call counts its nonzero
 * pairs, as the MPI's own pairwise exchange would send them). At
 * MPI_Finalize rank 0 prints one line per kind that ran: the calls and
 * plans of the rank that made the most, the messages and bytes of all
 * ranks together, and the private duplicates every rank made. */
#include <stdio.h>

#include "coll_internal.h"

mpiopt_coll_stat mpiopt_coll_stats[MPIOPT_STAT_KINDS];

static const char *const names[MPIOPT_STAT_KINDS] = {
    "alltoallv native",   "alltoallv pairwise", "alltoallv node",    "alltoallv locality",
    "allgatherv native",  "allgatherv node",
    "reduce native",      "reduce binomial",    "reduce redscat",    "reduce ring",
    "allreduce native",   "allreduce binomial", "allreduce redscat", "allreduce ring",
};

void mpiopt_coll_count_call(mpiopt_coll_comm *c, int kind) {
  if (!mpiopt_coll_cfg.stats) return;
  if (!c->inter) mpiopt_coll_topology(c);
  mpiopt_coll_stats[kind].calls++;
}

/* The plans' checks by timing: [0] another won, [1] the model's choice (plans, counted
 * by rank 0 of the plan's communicator, summed at MPI_Finalize). */
static long long trials[2];

/* Private duplicates made by this rank (state.c). */
long long mpiopt_coll_copies;

void mpiopt_coll_count_trial(mpiopt_coll_comm *c, int kept) {
  if (mpiopt_coll_cfg.stats && c->rank == 0) trials[kept ? 1 : 0]++;
}

void mpiopt_coll_stats_print(void) {
  enum { F = 6 };
  long long mine[MPIOPT_STAT_KINDS * F], all[MPIOPT_STAT_KINDS * F];
  for (int k = 0; k < MPIOPT_STAT_KINDS; k++) {
    const mpiopt_coll_stat *s = &mpiopt_coll_stats[k];
    long long v[F] = {s->calls, s->plans, s->inter_msgs, s->inter_bytes, s->intra_msgs, s->intra_bytes};
    for (int i = 0; i < F; i++) mine[k * F + i] = v[i];
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long long most[MPIOPT_STAT_KINDS * F];
  MPI_Reduce(mine, all, MPIOPT_STAT_KINDS * F, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(mine, most, MPIOPT_STAT_KINDS * F, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  long long counts[3] = {trials[0], trials[1], mpiopt_coll_copies}, checks[3];
  MPI_Reduce(counts, checks, 3, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  for (int k = 0; k < MPIOPT_STAT_KINDS; k++) {
    all[k * F] = most[k * F];
    all[k * F + 1] = most[k * F + 1];
  }
  fprintf(stderr, "mpiopt: stats: %-20s %8s %6s %12s %14s %12s %14s\n", "collective", "calls", "plans",
          "inter msgs", "inter bytes", "intra msgs", "intra bytes");
  for (int k = 0; k < MPIOPT_STAT_KINDS; k++) {
    const long long *v = all + k * F;
    if (v[0] == 0 && v[1] == 0) continue;
    fprintf(stderr, "mpiopt: stats: %-20s %8lld %6lld %12lld %14lld %12lld %14lld\n", names[k], v[0], v[1],
            v[2], v[3], v[4], v[5]);
  }
  if (checks[0] + checks[1])
    fprintf(stderr, "mpiopt: stats: plans checked by timing: %lld kept the model's choice, %lld took another\n",
            checks[1], checks[0]);
  fprintf(stderr, "mpiopt: stats: private communicators made for the runtime's messages: %lld (all ranks)\n",
          checks[2]);
  fflush(stderr);
}
