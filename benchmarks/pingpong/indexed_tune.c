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
 * Then the collectives with run lists (families "bcast_indexed",
 * "gather_indexed", "scatter_indexed", "alltoall_indexed"): every rank takes
 * part, one element of the run list per rank (a rank's chunk), the shapes
 * of dtype_tune.c's collectives (tune.h's TUNE_COLL_SHAPES), microseconds
 * per call.
 *
 * Prints one JSON object per family and shape on rank 0:
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

/* The collectives of tune.h with the run list on both sides (the _ix
   templates). */
static const char *const coll_names[TUNE_NCOLL] = {"bcast_indexed", "gather_indexed", "scatter_indexed",
                                                   "alltoall_indexed"};
#define SIDE_IX(NB, BL) bdispls, NB, BL, extent, MPI_DOUBLE, 8
#define CROUND(NB, BL) TUNE_COLL_ROUND(NB, BL, ix, SIDE_IX)
TUNE_COLL_SHAPES(CROUND)

/* The shapes and their rounds: a ping-pong's (which is ignored) or a
   collective's. */
#define PROUND(NB, BL)                                                                                                 \
  static double pround_##NB##_##BL(double *a, double *b, MPI_Datatype t, MPI_Aint extent, int iters, int tpl,         \
                                   int which) {                                                                        \
    (void)b, (void)which;                                                                                              \
    return round_##NB##_##BL(a, t, extent, iters, tpl);                                                                \
  }
TUNE_P2P_SHAPES(PROUND)
#define SHAPE(NB, BL) {NB, BL, pround_##NB##_##BL},
#define CSHAPE(NB, BL) {NB, BL, cround_##NB##_##BL},

/* The run list of NB blocks of BL doubles (its displacements in displs
   and, in bytes, in bdispls, which the templates read). */
static MPI_Datatype build(int nb, int bl, MPI_Aint *extent) {
  MPI_Datatype idx;
  MPI_Aint lb;
  for (int k = 0; k < nb; k++) {
    displs[k] = k * STRIDE(bl) + (k % 3) * bl;
    bdispls[k] = (MPI_Aint)displs[k] * 8;
  }
  MPI_Type_create_indexed_block(nb, bl, displs, MPI_DOUBLE, &idx);
  MPI_Type_commit(&idx);
  MPI_Type_get_extent(idx, &lb, extent);
  return idx;
}

int main(int argc, char **argv) {
  int size, rounds = tune_start(&argc, &argv, "indexed_tune", &size);
  static const struct tune_shape shapes[] = {TUNE_P2P_SHAPES(SHAPE)};
  static const struct tune_shape cshapes[] = {TUNE_COLL_SHAPES(CSHAPE)};
  const int nshapes = (int)(sizeof shapes / sizeof *shapes);
  double *a = calloc((size_t)MAX_DOUBLES, sizeof *a), *g = malloc(sizeof *g * (size_t)rounds),
         *t = malloc(sizeof *t * (size_t)rounds);
  if (!a || !g || !t)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < nshapes; k++) {
    int n = shapes[k].nb * shapes[k].bl;
    tune_type_shape("indexed", &shapes[k], build, TUNE_P2P_ITERS(n), a, (double *)0, 0, rounds, g, t);
  }
  free(a);
  tune_type_collectives(coll_names, cshapes, (int)(sizeof cshapes / sizeof *cshapes), build,
                        (size_t)size * (8192 * 64 + 64), rounds, g, t);
  free(g);
  free(t);
  MPI_Finalize();
  return 0;
}
