/* indexed_tune.c: the measurement behind the machine profile's
 * "templates.indexed" points (scripts/tune). A ping-pong between ranks 0
 * and 1 of a run list: MPI_Type_create_indexed_block(NB, BL, displs,
 * MPI_DOUBLE) whose block starts are not evenly spaced (STRIDE(BL) doubles
 * apart, each moved on by 0, 1 or 2 blocks in turn, so no stride describes
 * them), sent and received with the derived type (generic) and through the
 * run-list templates of templates/mpiopt/dtype.h called as ompi-opt calls
 * them (a table of byte displacements, the rest as constants), in
 * alternating rounds; medians of the rounds, microseconds per one-way
 * message. The block sizes and message sizes are those of dtype_tune.c's
 * "vector" points (tune.h's TUNE_P2P_SHAPES): an engine may treat an indexed type otherwise than a
 * vector (it cannot predict the next block's start), and so may win or lose
 * at other sizes.
 *
 * With more than two ranks every pair (0,1), (2,3), ... runs at once, as in
 * dtype_tune.c.
 *
 *   mpiexec -n 2 ./indexed_tune [ROUNDS]
 *
 * Prints one JSON object per shape on rank 0:
 *   {"family": "indexed", "block": BB, "bytes": B, "generic_us": G, "template_us": T} */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiopt/dtype.h"
#include "tune.h"

#define STRIDE(BL) ((BL) <= 8 ? 64 : 4 * (BL))
#define MAX_BLOCKS 32768
#define MAX_DOUBLES (MAX_BLOCKS * 64 + 64)

static int displs[MAX_BLOCKS];       /* in doubles, for MPI */
static MPI_Aint bdispls[MAX_BLOCKS]; /* in bytes, for the template */

/* One round: iters round trips, generic or through the template;
   microseconds per one-way message (rank 0's clock). */
#define ROUND(NB, BL)                                                                                                  \
  static double round_##NB##_##BL(double *a, MPI_Datatype t, MPI_Aint extent, int iters, int tpl) {                    \
    TUNE_PINGPONG(iters,                                                                                               \
                  (tpl ? mpiopt_send_dtype_ix(a, 1, t, peer_, 0, MPI_COMM_WORLD, bdispls, NB, BL, extent, MPI_DOUBLE, \
                                              8, 0)                                                                    \
                       : MPI_Send(a, 1, t, peer_, 0, MPI_COMM_WORLD)),                                                 \
                  (tpl ? mpiopt_recv_dtype_ix(a, 1, t, peer_, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, bdispls, NB, BL,   \
                                              extent, MPI_DOUBLE, 8)                                                   \
                       : MPI_Recv(a, 1, t, peer_, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)));                             \
  }
TUNE_P2P_SHAPES(ROUND)

typedef double (*round_fn)(double *, MPI_Datatype, MPI_Aint, int, int);
struct shape {
  int nb, bl;
  round_fn fn;
};
#define SHAPE(NB, BL) {NB, BL, round_##NB##_##BL},

/* One shape: its type built, both forms warmed up, rounds alternating which
   goes first, the medians printed as one JSON line on rank 0. */
static void measure(const struct shape *s, int iters, double *a, int rounds, double *g, double *t) {
  MPI_Datatype idx;
  MPI_Aint lb, extent;
  for (int b = 0; b < s->nb; b++) {
    displs[b] = b * STRIDE(s->bl) + (b % 3) * s->bl;
    bdispls[b] = (MPI_Aint)displs[b] * 8;
  }
  MPI_Type_create_indexed_block(s->nb, s->bl, displs, MPI_DOUBLE, &idx);
  MPI_Type_commit(&idx);
  MPI_Type_get_extent(idx, &lb, &extent);
  s->fn(a, idx, extent, iters / 4 + 1, 0);
  s->fn(a, idx, extent, iters / 4 + 1, 1);
  for (int r = 0; r < rounds; r++) {
    int first = r % 2;
    double x = s->fn(a, idx, extent, iters, first), y = s->fn(a, idx, extent, iters, !first);
    g[r] = first ? y : x;
    t[r] = first ? x : y;
  }
  tune_report("indexed", s->bl * 8, s->nb * s->bl * 8, g, t, rounds);
  MPI_Type_free(&idx);
}

int main(int argc, char **argv) {
  int size, rounds = tune_start(&argc, &argv, "indexed_tune", &size);
  static const struct shape shapes[] = {TUNE_P2P_SHAPES(SHAPE)};
  const int nshapes = (int)(sizeof shapes / sizeof *shapes);
  double *a = calloc((size_t)MAX_DOUBLES, sizeof *a), *g = malloc(sizeof *g * (size_t)rounds),
         *t = malloc(sizeof *t * (size_t)rounds);
  (void)size;
  if (!a || !g || !t)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < nshapes; k++) {
    int n = shapes[k].nb * shapes[k].bl;
    measure(&shapes[k], TUNE_P2P_ITERS(n), a, rounds, g, t);
  }
  free(a);
  free(g);
  free(t);
  MPI_Finalize();
  return 0;
}
