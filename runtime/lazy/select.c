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
 * cannot be split). The curve depends on the communicator's size P, so
 * the model holds one curve per size measured, s_P(N), and interpolates
 * between the two sizes around P in log2(P) (the first or last curve
 * beyond the ends). MPICH 4.0: at P = 2 (the development machine, 2 cores,
 * AMD EPYC, medians of 11 alternating rounds, 2026-11-23) composite loses
 * from 12 KiB, comes back above 0 at 32-64 KiB and loses for good by
 * 256 KiB; at P = 16 (a 16-core machine, one rank per core, medians of 3,
 * 2026-11-26) the composite's gain on small batches is three times larger
 * (3-6 us: the builtin collective it saves costs more), and it loses from
 * 8 KiB on, by 19-83 us (no second window at 32-64 KiB), so a 2-rank curve
 * alone would pick the composite for a 32 KiB batch at 16 ranks and lose
 * about 30 us. P = 64 and 256 are simulated (SimGrid SMPI, 16-rank nodes
 * on a fat-tree of 12.5 GB/s, 1 us links, SMPI's 'mpich' collective
 * selector: benchmarks/platforms/cluster4.xml and cluster16.xml, medians of
 * 3, 2026-11-28; docs/simulation.md): between nodes the collective that
 * composite saves costs 15-47 us, so it wins up to 32 KiB, and loses from
 * 64 KiB on (by 12-183 us: the builtin collective splits a large vector).
 * Re-check them on a cluster. Open MPI 4.1 (P = 2 only): composite loses
 * from 2 KiB.
 *
 * MPIOPT_LAZY_MODEL=BYTES:US,... (sizes increasing; one curve for every
 * size) or P@BYTES:US,.../P@BYTES:US,... (curves for increasing P)
 * replaces the built-in curves (scripts/tune --ranks=P measures one),
 * MPIOPT_LAZY_FUSE=grouped|composite forces one algorithm (composite falls
 * back to grouped only in asynchronous mode). The decision depends only on
 * the batch and the communicator's size, which every rank shares, so every
 * rank picks the same algorithm. */
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
    "2@8:1.1,64:1.6,512:1.7,2048:1.25,4096:0.53,8192:0.4,12288:-8,16384:-9,32768:3.5,65536:0.5,262144:-20/"
    "16@8:3.02,64:3.5,512:6.16,2048:6.05,4096:3.12,8192:-4.52,12288:-19.1,16384:-24.1,32768:-29.3,65536:-32.2,"
    "262144:-83.4/"
    "64@8:15,64:24.8,512:26.7,2048:37.1,4096:28.9,8192:18.9,12288:27,16384:16.1,32768:6.02,65536:-34,262144:-183/"
    "256@8:47,64:34,512:35.4,2048:31.9,4096:30.7,8192:39.5,12288:33.7,16384:38.2,32768:16.8,65536:-12,262144:-151";
#endif

#define MPIOPT_LAZY_MODEL_MAX 32 /* points of a curve */
#define MPIOPT_LAZY_CURVES_MAX 8 /* curves, one per communicator size measured */

typedef struct {
  int procs; /* the communicator size it was measured at; 0: any */
  int n;
  struct {
    double bytes, saving;
  } pt[MPIOPT_LAZY_MODEL_MAX];
} curve;

static curve curves[MPIOPT_LAZY_CURVES_MAX];
static int ncurves;

/* The curves around the communicator size asked last (a program's flushes
 * are mostly on one communicator): lo and hi, hi weighing f; lo == hi at a
 * measured size or beyond the ends. Reset when the model is read. */
static struct {
  int procs;
  const curve *lo, *hi;
  double f;
} around = {-1, NULL, NULL, 0};

/* Parse "BYTES:US,..." (from p) into c; the end of the curve, or NULL. */
static const char *parse_curve(const char *p, curve *c) {
  c->n = 0;
  for (;;) {
    char *end;
    double b = strtod(p, &end);
    if (end == p || *end != ':' || b < 0 || (c->n && b <= c->pt[c->n - 1].bytes) || c->n == MPIOPT_LAZY_MODEL_MAX)
      return NULL;
    p = end + 1;
    double s = strtod(p, &end);
    if (end == p || (*end && *end != ',' && *end != '/')) return NULL;
    c->pt[c->n].bytes = b;
    c->pt[c->n++].saving = s;
    if (*end != ',') return end;
    p = end + 1;
  }
}

/* Parse "[P@]BYTES:US,...[/P@BYTES:US,...]": one curve for every size of
   communicator, or curves for increasing sizes P; 0 when malformed. */
static int parse_model(const char *v) {
  ncurves = 0;
  around.procs = -1;
  for (const char *p = v;;) {
    curve *c = &curves[ncurves];
    const char *at = strchr(p, '@'), *colon = strchr(p, ':');
    c->procs = 0;
    if (at && (!colon || at < colon)) {
      char *end;
      long procs = strtol(p, &end, 10);
      if (end != at || procs < 1 || procs > 1 << 24 || (ncurves && procs <= curves[ncurves - 1].procs)) return 0;
      c->procs = (int)procs;
      p = at + 1;
    }
    if ((ncurves && (!c->procs || !curves[0].procs)) || !(p = parse_curve(p, c))) return 0;
    if (++ncurves == MPIOPT_LAZY_CURVES_MAX && *p) return 0;
    if (!*p) return 1;
    if (!*++p) return 0; /* a trailing '/' */
  }
}

void mpiopt_lazy_model_init(void) {
  const char *v = getenv("MPIOPT_LAZY_MODEL");
  if (v && *v) {
    if (!parse_model(v))
      mpiopt_die_setting(
                 "MPIOPT_LAZY_MODEL=%s: expected BYTES:MICROSECONDS pairs separated by commas, sizes "
                 "increasing, at most %d (as ompi-tune prints), optionally as curves P@PAIRS for "
                 "increasing communicator sizes P separated by '/', at most %d",
                 v, MPIOPT_LAZY_MODEL_MAX, MPIOPT_LAZY_CURVES_MAX);
    return;
  }
  if (!parse_model(default_model)) mpiopt_die(MPI_COMM_NULL, "the built-in lazy cost model is malformed");
}

/* A curve's saving at `bytes`, interpolated (constant beyond its ends). */
static double curve_saving(const curve *c, double bytes) {
  if (bytes <= c->pt[0].bytes) return c->pt[0].saving;
  for (int i = 1; i < c->n; i++)
    if (bytes <= c->pt[i].bytes) {
      double f = (bytes - c->pt[i - 1].bytes) / (c->pt[i].bytes - c->pt[i - 1].bytes);
      return c->pt[i - 1].saving + f * (c->pt[i].saving - c->pt[i - 1].saving);
    }
  return c->pt[c->n - 1].saving;
}

/* log2(p), linear between powers of two (exact at them; no libm). */
static double log2p(int p) {
  double k = 0, pow2 = 1;
  for (; pow2 * 2 <= p; pow2 *= 2) k += 1;
  return k + (p - pow2) / pow2;
}

/* Sets `around` for procs: the curve measured at procs, or the two around it,
   weighed in log2 (the latency and bandwidth terms of the collectives grow
   with log2 P); the first or last beyond the ends. */
static void curves_around(int procs) {
  if (around.procs == procs) return;
  around.procs = procs;
  around.lo = around.hi = &curves[procs <= curves[0].procs ? 0 : ncurves - 1];
  around.f = 0;
  for (int i = 1; i < ncurves && procs > curves[0].procs; i++)
    if (procs <= curves[i].procs) {
      around.lo = &curves[procs == curves[i].procs ? i : i - 1];
      around.hi = &curves[i];
      double lo = log2p(curves[i - 1].procs);
      around.f = (log2p(procs) - lo) / (log2p(curves[i].procs) - lo);
      break;
    }
}

/* s_P(N): the saving at `bytes` on procs processes. */
static double saving(int procs, double bytes) {
  curves_around(procs);
  double a = curve_saving(around.lo, bytes);
  return around.lo == around.hi ? a : a + around.f * (curve_saving(around.hi, bytes) - a);
}

/* Would composite beat grouped on ngroups groups of `bytes` bytes in all, on
   procs processes? Each group beyond two is one more small collective. */
static int prefers_composite(int procs, int ngroups, size_t bytes) {
  return saving(procs, (double)bytes) + (ngroups - 2) * saving(procs, 0) > 0;
}

const mpiopt_lazy_algorithm *mpiopt_lazy_select(const mpiopt_lazy_batch *b, int procs, int nonblocking) {
  if (b->ngroups <= 1 || nonblocking) return &mpiopt_lazy_algorithms[0];
  if (mpiopt_lazy_cfg.fuse >= 0) return &mpiopt_lazy_algorithms[mpiopt_lazy_cfg.fuse];
  size_t bytes = 0;
  for (int j = 0; j < b->ngroups; j++) bytes += b->groups[j].used;
  return &mpiopt_lazy_algorithms[prefers_composite(procs, b->ngroups, bytes)];
}
