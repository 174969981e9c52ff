/* plankton.c: a miniature Lagrangian-ensemble water-column model, after the
 * plankton code of the CFL paper (Section 5.2): a 500-layer column,
 * phytoplankton and zooplankton particles split among the ranks, modules
 * Move, Energy, Nutrients and Evolve for each, and replicated environment
 * variables that every module updates by global reductions.
 *
 * Per time step: 27 reductions (Allreduce of per-layer arrays and scalars,
 * SUM/MAX/MIN over double, long and int) between 3 force points (the
 * environment updates after the phytoplankton and the zooplankton, and the
 * diagnostics). Each module writes its reductions straight into static
 * environment variables, which a later module reads, as in the original
 * code: the pattern static fusion cannot see and lazy deferral can.
 *
 *   build: mpicc plankton.c -lm            original: 27 collectives per step
 *          mpicc -DHAND plankton.c -lm     hand-optimised: the reductions of each
 *                                          phase packed by type/op: 6 per step
 *          ompi-cc plankton.c -lm          deferred by ompi-opt, fused by the runtime
 *   run:   mpiexec -n P ./plankton [STEPS [PARTICLES]]
 * Prints on rank 0: "steps seconds syncs_per_step checksum" (syncs counted
 * at the source's collective calls; the runtime's count is in
 * MPIOPT_LAZY_STATS=1). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define L 500
#define NH 16

typedef struct {
  int layer;
  double biomass, energy;
  unsigned seed;
} particle;

static particle *phyto, *zoo;
static int nphyto, nzoo;
static long nsync; /* collectives issued by this source, per rank */

/* Environment: the same on every rank. */
static double nutrient[L], light[L];
/* Phytoplankton reductions (phase A). */
static double p_count[L], p_depth, p_deepest, p_absorbed[L], p_energy, p_uptake_n[L], p_uptake_p[L], p_uptake;
static long p_births, p_deaths;
static double p_biomass;
/* Zooplankton reductions (phase B). */
static double z_count[L], z_depth, z_deepest, z_grazed[L], z_energy, z_excreted[L], z_excreted_total;
static long z_births, z_deaths;
static double z_biomass;
/* Diagnostics (phase C). */
static double d_max_biomass, d_min_energy, d_mean_energy;
static long d_alive, d_hist[NH];
static int d_max_layer_count;

static unsigned lcg(unsigned *s) { return *s = *s * 1664525u + 1013904223u; }

#ifdef HAND
/* The hand-optimised build packs each phase's reductions by (type, op). */
static double pack_sum[4 * L + 16];
static double pack_max[4];
#endif

/* ---- phytoplankton modules -------------------------------------------- */
static void phyto_move(void) {
  double count[L] = {0}, depth = 0, deepest = 0;
  for (int i = 0; i < nphyto; i++) {
    particle *q = &phyto[i];
    int step = (int)(lcg(&q->seed) >> 29) % 3 - 1;
    q->layer += step + (q->biomass > 1.5);
    q->layer = q->layer < 0 ? 0 : q->layer >= L ? L - 1 : q->layer;
    count[q->layer] += 1;
    depth += q->layer;
    deepest = q->layer > deepest ? q->layer : deepest;
  }
#ifndef HAND
  MPI_Allreduce(count, p_count, L, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&depth, &p_depth, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&deepest, &p_deepest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  nsync += 3;
#endif
#ifdef HAND
  memcpy(pack_sum, count, sizeof count);
  pack_sum[4 * L] = depth;
  pack_max[0] = deepest;
#endif
}

static void phyto_energy(void) {
  double absorbed[L] = {0}, energy = 0;
  for (int i = 0; i < nphyto; i++) {
    particle *q = &phyto[i];
    double e = light[q->layer] * q->biomass * 0.01;
    q->energy += e;
    absorbed[q->layer] += e;
    energy += q->energy;
  }
#ifndef HAND
  MPI_Allreduce(absorbed, p_absorbed, L, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&energy, &p_energy, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  nsync += 2;
#endif
#ifdef HAND
  memcpy(pack_sum + L, absorbed, sizeof absorbed);
  pack_sum[4 * L + 1] = energy;
#endif
}

static void phyto_nutrients(void) {
  double un[L] = {0}, up[L] = {0}, total = 0;
  for (int i = 0; i < nphyto; i++) {
    particle *q = &phyto[i];
    double want = q->biomass * 0.002, have = nutrient[q->layer] * 0.001;
    double u = want < have ? want : have;
    q->biomass += u;
    un[q->layer] += u;
    up[q->layer] += 0.1 * u;
    total += u;
  }
#ifndef HAND
  MPI_Allreduce(un, p_uptake_n, L, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(up, p_uptake_p, L, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&total, &p_uptake, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  nsync += 3;
#endif
#ifdef HAND
  memcpy(pack_sum + 2 * L, un, sizeof un);
  memcpy(pack_sum + 3 * L, up, sizeof up);
  pack_sum[4 * L + 2] = total;
#endif
}

static void phyto_evolve(void) {
  long births = 0, deaths = 0;
  double biomass = 0;
  for (int i = 0; i < nphyto; i++) {
    particle *q = &phyto[i];
    q->energy *= 0.98;
    if (q->energy > 2.0) births++, q->energy -= 1.0, q->biomass *= 0.5;
    if (q->energy < 0.01) deaths++, q->biomass = 0.5, q->energy = 0.5;
    biomass += q->biomass;
  }
#ifndef HAND
  MPI_Allreduce(&births, &p_births, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&deaths, &p_deaths, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&biomass, &p_biomass, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  nsync += 3;
#endif
#ifdef HAND
  pack_sum[4 * L + 3] = (double)births;
  pack_sum[4 * L + 4] = (double)deaths;
  pack_sum[4 * L + 5] = biomass;
  double gmax[1];
  MPI_Allreduce(MPI_IN_PLACE, pack_sum, 4 * L + 6, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(pack_max, gmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  nsync += 2;
  memcpy(p_count, pack_sum, sizeof p_count);
  memcpy(p_absorbed, pack_sum + L, sizeof p_absorbed);
  memcpy(p_uptake_n, pack_sum + 2 * L, sizeof p_uptake_n);
  memcpy(p_uptake_p, pack_sum + 3 * L, sizeof p_uptake_p);
  p_depth = pack_sum[4 * L];
  p_energy = pack_sum[4 * L + 1];
  p_uptake = pack_sum[4 * L + 2];
  p_births = (long)pack_sum[4 * L + 3];
  p_deaths = (long)pack_sum[4 * L + 4];
  p_biomass = pack_sum[4 * L + 5];
  p_deepest = gmax[0];
#endif
}

/* Force point 1: the environment after the phytoplankton. */
static double environment_after_phyto(void) {
  double shade = 0;
  for (int l = 0; l < L; l++) {
    nutrient[l] -= p_uptake_n[l] + 0.01 * p_uptake_p[l];
    nutrient[l] = nutrient[l] < 0 ? 0 : nutrient[l];
    shade += p_count[l] * 1e-4 + p_absorbed[l] * 1e-6;
    light[l] = 100.0 * exp(-0.02 * l - shade);
  }
  return p_depth / (p_count[0] + 1) + p_deepest + p_energy * 1e-6 + p_uptake + (double)(p_births - p_deaths) +
         p_biomass * 1e-6;
}

/* ---- zooplankton modules ------------------------------------------------ */
static void zoo_move(void) {
  double count[L] = {0}, depth = 0, deepest = 0;
  for (int i = 0; i < nzoo; i++) {
    particle *q = &zoo[i];
    int step = (int)(lcg(&q->seed) >> 28) % 5 - 2;
    q->layer += step;
    q->layer = q->layer < 0 ? 0 : q->layer >= L ? L - 1 : q->layer;
    count[q->layer] += 1;
    depth += q->layer;
    deepest = q->layer > deepest ? q->layer : deepest;
  }
#ifndef HAND
  MPI_Allreduce(count, z_count, L, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&depth, &z_depth, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&deepest, &z_deepest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  nsync += 3;
#endif
#ifdef HAND
  memcpy(pack_sum, count, sizeof count);
  pack_sum[3 * L] = depth;
  pack_max[0] = deepest;
#endif
}

static void zoo_energy(void) {
  double grazed[L] = {0}, energy = 0;
  for (int i = 0; i < nzoo; i++) {
    particle *q = &zoo[i];
    double g = p_count[q->layer] * 0.001 * q->biomass;
    q->energy += g;
    grazed[q->layer] += g;
    energy += q->energy;
  }
#ifndef HAND
  MPI_Allreduce(grazed, z_grazed, L, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&energy, &z_energy, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  nsync += 2;
#endif
#ifdef HAND
  memcpy(pack_sum + L, grazed, sizeof grazed);
  pack_sum[3 * L + 1] = energy;
#endif
}

static void zoo_nutrients(void) {
  double ex[L] = {0}, total = 0;
  for (int i = 0; i < nzoo; i++) {
    particle *q = &zoo[i];
    double e = q->energy * 0.01;
    q->energy -= e;
    ex[q->layer] += e;
    total += e;
  }
#ifndef HAND
  MPI_Allreduce(ex, z_excreted, L, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&total, &z_excreted_total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  nsync += 2;
#endif
#ifdef HAND
  memcpy(pack_sum + 2 * L, ex, sizeof ex);
  pack_sum[3 * L + 2] = total;
#endif
}

static void zoo_evolve(void) {
  long births = 0, deaths = 0;
  double biomass = 0;
  for (int i = 0; i < nzoo; i++) {
    particle *q = &zoo[i];
    q->energy *= 0.97;
    if (q->energy > 3.0) births++, q->energy -= 1.5;
    if (q->energy < 0.01) deaths++, q->energy = 0.5;
    biomass += q->biomass;
  }
#ifndef HAND
  MPI_Allreduce(&births, &z_births, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&deaths, &z_deaths, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&biomass, &z_biomass, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  nsync += 3;
#endif
#ifdef HAND
  pack_sum[3 * L + 3] = (double)births;
  pack_sum[3 * L + 4] = (double)deaths;
  pack_sum[3 * L + 5] = biomass;
  double gmax[1];
  MPI_Allreduce(MPI_IN_PLACE, pack_sum, 3 * L + 6, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(pack_max, gmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  nsync += 2;
  memcpy(z_count, pack_sum, sizeof z_count);
  memcpy(z_grazed, pack_sum + L, sizeof z_grazed);
  memcpy(z_excreted, pack_sum + 2 * L, sizeof z_excreted);
  z_depth = pack_sum[3 * L];
  z_energy = pack_sum[3 * L + 1];
  z_excreted_total = pack_sum[3 * L + 2];
  z_births = (long)pack_sum[3 * L + 3];
  z_deaths = (long)pack_sum[3 * L + 4];
  z_biomass = pack_sum[3 * L + 5];
  z_deepest = gmax[0];
#endif
}

/* Force point 2: the environment after the zooplankton. */
static double environment_after_zoo(void) {
  for (int l = 0; l < L; l++)
    nutrient[l] += z_excreted[l] + 0.001 * (z_grazed[l] + z_count[l]);
  return z_depth / (z_count[0] + 1) + z_deepest + z_energy * 1e-6 + z_excreted_total +
         (double)(z_births - z_deaths) + z_biomass * 1e-6;
}

/* ---- diagnostics ------------------------------------------------------- */
static void diagnostics(void) {
  double maxb = 0, mine = 1e300, sume = 0;
  long alive = 0, hist[NH] = {0};
  int maxcount = 0, count[L] = {0};
  for (int i = 0; i < nphyto; i++) {
    particle *q = &phyto[i];
    maxb = q->biomass > maxb ? q->biomass : maxb;
    mine = q->energy < mine ? q->energy : mine;
    sume += q->energy;
    alive += q->biomass > 0.1;
    int h = (int)(q->energy * 4);
    hist[h < 0 ? 0 : h >= NH ? NH - 1 : h]++;
    int c = ++count[q->layer];
    maxcount = c > maxcount ? c : maxcount; /* branch-free in every build (see bench.py) */
  }
#ifndef HAND
  MPI_Allreduce(&maxb, &d_max_biomass, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &d_min_energy, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&sume, &d_mean_energy, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&alive, &d_alive, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&maxcount, &d_max_layer_count, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(hist, d_hist, NH, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  nsync += 6;
#endif
#ifdef HAND
  double s[NH + 2] = {sume, (double)alive}, m[3] = {maxb, -mine, (double)maxcount};
  for (int h = 0; h < NH; h++)
    s[2 + h] = (double)hist[h];
  MPI_Allreduce(MPI_IN_PLACE, s, NH + 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, m, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  nsync += 2;
  d_mean_energy = s[0];
  d_alive = (long)s[1];
  for (int h = 0; h < NH; h++)
    d_hist[h] = (long)s[2 + h];
  d_max_biomass = m[0];
  d_min_energy = -m[1];
  d_max_layer_count = (int)m[2];
#endif
}

/* Force point 3: the step's diagnostics. */
static double report(void) {
  double h = 0;
  for (int i = 0; i < NH; i++)
    h += (double)d_hist[i] * i;
  return d_max_biomass + d_min_energy + d_mean_energy * 1e-6 + (double)d_alive + d_max_layer_count + h * 1e-3;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  long total = argc > 2 ? atol(argv[2]) : 20000;
  if (steps < 1 || total < size) {
    if (rank == 0)
      fprintf(stderr, "usage: plankton [STEPS [PARTICLES]] (STEPS >= 1, PARTICLES >= ranks)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  nphyto = (int)(total * (rank + 1) / size - total * rank / size);
  nzoo = nphyto / 4;
  phyto = malloc(sizeof *phyto * (size_t)nphyto);
  zoo = malloc(sizeof *zoo * (size_t)(nzoo + 1));
  if (!phyto || !zoo) {
    fprintf(stderr, "plankton: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  long first = total * rank / size;
  for (int i = 0; i < nphyto; i++)
    phyto[i] = (particle){(int)((first + i) % 60), 1.0, 1.0, (unsigned)(first + i) * 2654435761u};
  for (int i = 0; i < nzoo; i++)
    zoo[i] = (particle){(int)((first + i) % 100), 2.0, 1.0, (unsigned)(first + i) * 40503u + 7};
  for (int l = 0; l < L; l++)
    nutrient[l] = 10.0 + 0.02 * l, light[l] = 100.0 * exp(-0.02 * l);

  double check = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; s++) {
    phyto_move();
    phyto_energy();
    phyto_nutrients();
    phyto_evolve();
    check += environment_after_phyto();
    zoo_move();
    zoo_energy();
    zoo_nutrients();
    zoo_evolve();
    check += environment_after_zoo();
    diagnostics();
    check += report();
  }
  double t = MPI_Wtime() - t0, tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d %.6f %.1f %.9e\n", steps, tmax, (double)nsync / steps, check);
  free(phyto);
  free(zoo);
  MPI_Finalize();
  return 0;
}
