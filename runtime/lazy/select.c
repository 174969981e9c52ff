/* The table of fusion algorithms and the rule that selects one per flush.
 *
 *   one group                  -> grouped (a single builtin collective)
 *   asynchronous mode          -> grouped (builtin nonblocking collectives)
 *   otherwise                  -> the cheaper by the cost model below
 *
 * Cost model. For a batch of two groups, one of N bytes, the saving of
 * "composite" over "grouped" is s(N) = T_grouped(N) - T_composite(N), in
 * microseconds, measured at a few sizes (benchmarks/lazy/lazy_bench.c, mode
 * "size"; scripts/tune measures the machine it runs on) and interpolated
 * linearly between them (constant beyond the ends). A batch of g groups and
 * N bytes in all runs g - 2 more builtin collectives under "grouped", each
 * costing about s of the smallest size (one small collective, the
 * composite's own cost there being a copy of a few bytes), so
 *
 *   composite  iff  s(N) + (g - 2) * s(smallest) > 0.
 *
 * s(N) is large and positive for small batches (one collective instead of
 * two), and turns negative where the library's builtin collectives have
 * the better algorithm or protocol for a large vector (they can split it,
 * reduce with vectorised ops and pipeline; a composite's single element
 * cannot be split): with MPICH 4.0 on this machine from 12 KiB (the curve
 * comes back above 0 at 32-64 KiB and falls for good by 256 KiB), with
 * Open MPI 4.1 from 2 KiB. Both ranks-count terms (latency log2(p) per
 * collective, the composite's unsplit element log2(p) per byte) scale
 * together under recursive doubling, so the rule is used at every size of
 * communicator; measure at the ranks you run (scripts/tune --ranks=P) where
 * that does not hold.
 *
 * The default curves were measured on the development machine (2 cores,
 * AMD EPYC, 2 ranks, medians of 11 alternating rounds, 2026-11-23);
 * MPIOPT_LAZY_MODEL=BYTES:US,... (sizes increasing) replaces the curve,
 * MPIOPT_LAZY_FUSE=grouped|composite forces one algorithm (composite falls
 * back to grouped only in asynchronous mode). The decision depends only on
 * the batch, which every rank shares, so every rank picks the same
 * algorithm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lazy_internal.h"

/* In the order of MPIOPT_LAZY_FUSE's values after "auto" (lazy/queue.c). */
const mpiopt_lazy_algorithm mpiopt_lazy_algorithms[] = {
    {"grouped", mpiopt_lazy_fuse_grouped},
    {"composite", mpiopt_lazy_fuse_composite},
};
const int mpiopt_lazy_nalgorithms = (int)(sizeof mpiopt_lazy_algorithms / sizeof mpiopt_lazy_algorithms[0]);

#ifdef OPEN_MPI
static const char default_model[] =
    "8:0.4,64:0.35,512:0.3,2048:-0.13,4096:-5.4,8192:-0.7,12288:0.5,16384:0.9,32768:-0.2,65536:-11,262144:-210";
#else
static const char default_model[] =
    "8:1.1,64:1.6,512:1.7,2048:1.25,4096:0.53,8192:0.4,12288:-8,16384:-9,32768:3.5,65536:0.5,262144:-20";
#endif

#define MPIOPT_LAZY_MODEL_MAX 32 /* points of the curve */

static struct {
  double bytes, saving;
} model[MPIOPT_LAZY_MODEL_MAX];
static int nmodel;

/* Parse "BYTES:US,..." into the model; 0 when malformed. */
static int parse_model(const char *v) {
  nmodel = 0;
  for (const char *p = v; *p;) {
    char *end;
    double b = strtod(p, &end);
    if (end == p || *end != ':' || b < 0 || (nmodel && b <= model[nmodel - 1].bytes) ||
        nmodel == MPIOPT_LAZY_MODEL_MAX)
      return 0;
    p = end + 1;
    double s = strtod(p, &end);
    if (end == p || (*end && *end != ',')) return 0;
    model[nmodel].bytes = b;
    model[nmodel++].saving = s;
    p = *end ? end + 1 : end;
    if (*end && !*p) return 0;
  }
  return nmodel > 0;
}

void mpiopt_lazy_model_init(void) {
  const char *v = getenv("MPIOPT_LAZY_MODEL");
  if (v && *v) {
    if (!parse_model(v))
      mpiopt_die(MPI_COMM_NULL,
                 "MPIOPT_LAZY_MODEL=%s: expected BYTES:MICROSECONDS pairs separated by commas, sizes "
                 "increasing, at most %d (as scripts/tune prints)",
                 v, MPIOPT_LAZY_MODEL_MAX);
    return;
  }
  if (!parse_model(default_model)) mpiopt_die(MPI_COMM_NULL, "the built-in lazy cost model is malformed");
}

/* s(N): the measured saving, interpolated. */
static double saving(double bytes) {
  if (bytes <= model[0].bytes) return model[0].saving;
  for (int i = 1; i < nmodel; i++)
    if (bytes <= model[i].bytes) {
      double f = (bytes - model[i - 1].bytes) / (model[i].bytes - model[i - 1].bytes);
      return model[i - 1].saving + f * (model[i].saving - model[i - 1].saving);
    }
  return model[nmodel - 1].saving;
}

/* Would composite beat grouped on ngroups groups of `bytes` bytes in all? */
static int prefers_composite(int ngroups, size_t bytes) {
  return saving((double)bytes) + (ngroups - 2) * model[0].saving > 0;
}

const mpiopt_lazy_algorithm *mpiopt_lazy_select(const mpiopt_lazy_batch *b, int nonblocking) {
  if (b->ngroups <= 1 || nonblocking) return &mpiopt_lazy_algorithms[0];
  if (mpiopt_lazy_cfg.fuse >= 0) return &mpiopt_lazy_algorithms[mpiopt_lazy_cfg.fuse];
  size_t bytes = 0;
  for (int j = 0; j < b->ngroups; j++) bytes += b->groups[j].used;
  return &mpiopt_lazy_algorithms[prefers_composite(b->ngroups, bytes)];
}
