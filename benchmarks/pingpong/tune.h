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

/* A round of the datatype tuners (dtype_tune.c, indexed_tune.c): iters
   operations `which` on elements of datatype t (extent bytes apart) in a
   and b, generic or through the template (tpl); microseconds per
   operation. */
typedef double (*tune_type_round_fn)(double *a, double *b, MPI_Datatype t, MPI_Aint extent, int iters, int tpl,
                                     int which);

/* One shape (blocks of block bytes, bytes in all) of one family: both forms
   warmed up, rounds alternating which goes first, the medians reported. */
static inline void tune_type_measure(const char *family, int block, int bytes, tune_type_round_fn fn, double *a,
                                     double *b, MPI_Datatype t, MPI_Aint extent, int iters, int which, int rounds,
                                     double *g, double *tt) {
  int r;
  fn(a, b, t, extent, iters / 4 + 1, 0, which);
  fn(a, b, t, extent, iters / 4 + 1, 1, which);
  for (r = 0; r < rounds; r++) {
    int first = r % 2;
    double x = fn(a, b, t, extent, iters, first, which), y = fn(a, b, t, extent, iters, !first, which);
    g[r] = first ? y : x;
    tt[r] = first ? x : y;
  }
  tune_report(family, block, bytes, g, tt, rounds);
}

/* A shape of the datatype tuners, NB blocks of BL doubles, and its round;
   a tuner's datatype of that shape, committed (its extent in *extent). */
struct tune_shape {
  int nb, bl;
  tune_type_round_fn fn;
};
typedef MPI_Datatype (*tune_build_fn)(int nb, int bl, MPI_Aint *extent);

/* One shape of one family: its datatype built and measured, one JSON line
   on rank 0. */
static inline void tune_type_shape(const char *family, const struct tune_shape *s, tune_build_fn build, int iters,
                                   double *a, double *b, int which, int rounds, double *g, double *t) {
  MPI_Aint extent;
  MPI_Datatype dt = build(s->nb, s->bl, &extent);
  tune_type_measure(family, s->bl * 8, s->nb * s->bl * 8, s->fn, a, b, dt, extent, iters, which, rounds, g, t);
  MPI_Type_free(&dt);
}

/* The point-to-point shapes of the datatype tuners (dtype_tune.c,
   indexed_tune.c): X(NB, BL) for NB blocks of BL doubles. Columns of single
   doubles, 64 B to 256 KiB; 64-byte blocks; 512-byte blocks. */
#define TUNE_P2P_SHAPES(X)                                                                                             \
  X(8, 1) X(64, 1) X(512, 1) X(2048, 1) X(4096, 1) X(8192, 1) X(32768, 1) X(8, 8) X(64, 8) X(256, 8) X(512, 8)      \
      X(1024, 8) X(4096, 8) X(2, 64) X(8, 64) X(32, 64) X(64, 64) X(128, 64) X(512, 64)

/* The collectives' shapes of those tuners: one element of the shape per
   rank, columns of 64 bytes to 64 KiB, 64- and 512-byte blocks to 64 KiB. */
#define TUNE_COLL_SHAPES(X)                                                                                            \
  X(8, 1) X(64, 1) X(512, 1) X(2048, 1) X(8192, 1) X(8, 8) X(64, 8) X(256, 8) X(1024, 8) X(2, 64) X(8, 64) X(32, 64)  \
      X(128, 64)

/* The collectives of the datatype tuners, and a round of one: MPI_Bcast
   from rank 0, MPI_Gather to and MPI_Scatter from rank 0, MPI_Alltoall, of
   one element of the shape per rank (both sides of it), generic or through
   the template mpiopt_<collective>_dtype_FORM with the shape arguments
   SIDE(NB, BL) (which may read extent); microseconds per call (rank 0's
   clock). Defines cround_NB_BL, a tune_type_round_fn. */
enum { TUNE_BCAST, TUNE_GATHER, TUNE_SCATTER, TUNE_ALLTOALL, TUNE_NCOLL };
#define TUNE_COLL_ROUND(NB, BL, FORM, SIDE)                                                                            \
  static double cround_##NB##_##BL(double *a, double *b, MPI_Datatype t, MPI_Aint extent, int iters, int tpl,         \
                                   int which) {                                                                        \
    MPI_Comm w = MPI_COMM_WORLD;                                                                                       \
    double t0;                                                                                                         \
    int i;                                                                                                             \
    (void)extent;                                                                                                      \
    MPI_Barrier(w);                                                                                                    \
    t0 = MPI_Wtime();                                                                                                  \
    for (i = 0; i < iters; i++) {                                                                                      \
      if (which == TUNE_BCAST)                                                                                         \
        tpl ? mpiopt_bcast_dtype_##FORM(a, 1, t, 0, w, SIDE(NB, BL)) : MPI_Bcast(a, 1, t, 0, w);                       \
      else if (which == TUNE_GATHER)                                                                                   \
        tpl ? mpiopt_gather_dtype_##FORM(a, 1, t, b, 1, t, 0, w, SIDE(NB, BL), SIDE(NB, BL))                           \
            : MPI_Gather(a, 1, t, b, 1, t, 0, w);                                                                      \
      else if (which == TUNE_SCATTER)                                                                                  \
        tpl ? mpiopt_scatter_dtype_##FORM(b, 1, t, a, 1, t, 0, w, SIDE(NB, BL), SIDE(NB, BL))                          \
            : MPI_Scatter(b, 1, t, a, 1, t, 0, w);                                                                     \
      else                                                                                                             \
        tpl ? mpiopt_alltoall_dtype_##FORM(a, 1, t, b, 1, t, w, SIDE(NB, BL), SIDE(NB, BL))                            \
            : MPI_Alltoall(a, 1, t, b, 1, t, w);                                                                       \
    }                                                                                                                  \
    return (MPI_Wtime() - t0) / iters * 1e6;                                                                           \
  }

/* Iterations of a collective's round for n doubles per rank. */
#define TUNE_COLL_ITERS(n) ((n) <= 64 ? 1000 : (n) <= 512 ? 200 : (n) <= 2048 ? 50 : 20)

/* Each collective (family names[c]) on each shape, in alternating rounds;
   the buffers hold one element of the shape per rank, one extent apart
   (doubles of them in all). */
static inline void tune_type_collectives(const char *const names[TUNE_NCOLL], const struct tune_shape *shapes,
                                         int nshapes, tune_build_fn build, size_t doubles, int rounds, double *g,
                                         double *t) {
  double *a = (double *)calloc(doubles, sizeof *a), *b = (double *)calloc(doubles, sizeof *b);
  int c, k;
  if (!a || !b)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (c = 0; c < TUNE_NCOLL; c++)
    for (k = 0; k < nshapes; k++)
      tune_type_shape(names[c], &shapes[k], build, TUNE_COLL_ITERS(shapes[k].nb * shapes[k].bl), a, b, c, rounds, g,
                      t);
  free(a);
  free(b);
}

/* Iterations of a round for a message of n doubles. */
#define TUNE_P2P_ITERS(n) ((n) <= 64 ? 2000 : (n) <= 4096 ? 200 : (n) <= 8192 ? 60 : 20)

/* The ping-pong of those tuners: iters round trips in every pair of ranks,
   the statement SEND on one side and RECV on the other (each with the
   other's rank in peer_); returns microseconds per one-way message (rank
   0's clock). */
#define TUNE_PINGPONG(iters, SEND, RECV)                                                                               \
  do {                                                                                                                 \
    int base_ = rank & ~1;                                                                                             \
    double t0_;                                                                                                        \
    MPI_Barrier(MPI_COMM_WORLD);                                                                                       \
    t0_ = MPI_Wtime();                                                                                                 \
    for (int i_ = 0; rank < paired && i_ < (iters); i_++)                                                              \
      for (int r_ = base_; r_ < base_ + 2; r_++) {                                                                     \
        if (rank == r_) {                                                                                              \
          int peer_ = r_ ^ 1;                                                                                          \
          SEND;                                                                                                        \
        } else if (rank == (r_ ^ 1)) {                                                                                 \
          int peer_ = r_;                                                                                              \
          RECV;                                                                                                        \
        }                                                                                                              \
      }                                                                                                                \
    return (MPI_Wtime() - t0_) / (iters) / 2 * 1e6;                                                                    \
  } while (0)

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
