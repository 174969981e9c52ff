/* tune.h: what the tuners of the call templates share (dtype_tune.c,
 * persist_tune.c, peer_tune.c; scripts/tune compiles each with this header
 * beside it): the start (MPI, the rank, the pairs of ranks, the number of
 * rounds), the alternating rounds of a generic call against its template,
 * and the JSON line of their medians that the profile takes. */
#ifndef MPIOPT_TUNE_H
#define MPIOPT_TUNE_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int paired; /* ranks below this one have a partner */
static int rank;

static inline int tune_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The medians of rounds generic (g) and template (t) times as one JSON line
   on rank 0: {"family": ..., "block": BLOCK (where BLOCK > 0), "bytes": ...,
   "generic_us": ..., "template_us": ...}. */
static inline void tune_report(const char *family, int block, int bytes, double *g, double *t, int rounds) {
  qsort(g, (size_t)rounds, sizeof *g, tune_cmp);
  qsort(t, (size_t)rounds, sizeof *t, tune_cmp);
  if (rank)
    return;
  if (block > 0)
    printf("{\"family\": \"%s\", \"block\": %d, \"bytes\": %d, \"generic_us\": %.3f, \"template_us\": %.3f}\n", family,
           block, bytes, g[rounds / 2], t[rounds / 2]);
  else
    printf("{\"family\": \"%s\", \"bytes\": %d, \"generic_us\": %.3f, \"template_us\": %.3f}\n", family, bytes,
           g[rounds / 2], t[rounds / 2]);
}

/* A round: iters operations of `which` on n bytes (or elements), generic
   or through the template (tpl); microseconds per operation. */
typedef double (*tune_round_fn)(int which, void *a, void *b, int n, int iters, int tpl);

/* One family at one size: both forms warmed up, rounds alternating which
   goes first, the medians reported. */
static inline void tune_measure(const char *family, int bytes, tune_round_fn fn, int which, void *a, void *b, int n,
                         int iters, int rounds, double *g, double *t) {
  int r;
  fn(which, a, b, n, iters / 4 + 1, 0);
  fn(which, a, b, n, iters / 4 + 1, 1);
  for (r = 0; r < rounds; r++) {
    int tfirst = r % 2;
    double x = fn(which, a, b, n, iters, tfirst), y = fn(which, a, b, n, iters, !tfirst);
    g[r] = tfirst ? y : x;
    t[r] = tfirst ? x : y;
  }
  tune_report(family, 0, bytes, g, t, rounds);
}

/* MPI started, the rank and the pairs set; the rounds (the first argument,
   15 by default), checked with the size: a usage line naming the program
   and MPI_Abort otherwise. */
static inline int tune_start(int *argc, char ***argv, const char *name, int *size) {
  int rounds = *argc > 1 ? atoi((*argv)[1]) : 15;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  paired = *size & ~1;
  if (*size < 2 || rounds < 1) {
    if (!rank)
      fprintf(stderr, "usage: mpiexec -n 2 (or more) %s [ROUNDS >= 1]\n", name);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return rounds;
}

#endif /* MPIOPT_TUNE_H */
