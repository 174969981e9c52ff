/* dtype_tune.c: the measurement behind the machine profile's
 * "templates.vector" points (scripts/tune). A ping-pong between ranks 0 and
 * 1 of a strided shape, NB blocks of BL doubles each, block starts STRIDE
 * doubles apart (MPI_Type_vector(NB, BL, STRIDE, MPI_DOUBLE)), sent and
 * received with the derived type (generic) and through the templates of
 * templates/mpiopt/dtype.h called as ompi-opt calls them (the shape as
 * constants), in alternating rounds; medians of the rounds, microseconds
 * per one-way message.
 *
 * Three block sizes: single doubles (8 bytes: a matrix column, the costliest
 * shape for a datatype engine), 64-byte and 512-byte blocks (the rows of a
 * 3-D stencil's face; an engine that copies blocks well may beat the
 * template there while losing on columns). Each is measured at message
 * sizes from 64 bytes (the smallest with two blocks) to 256 KiB. The
 * profile keys its points by block size, and ompi-opt reads the points of
 * the block sizes around a shape's.
 *
 * With more than two ranks, every pair (0,1), (2,3), ... runs its ping-pong
 * at the same time (an odd last rank waits), so the figures are those of a
 * machine as loaded as a program with that many ranks per node loads it:
 * the copies a template adds cost more when every core is copying. Tune
 * with the ranks per node the programs will run with.
 *
 *   mpiexec -n 2 ./dtype_tune [ROUNDS]
 * Then the collectives with derived types (families "bcast", "gather",
 * "scatter", "alltoall"): every rank takes part, one element of the shape
 * per rank (B bytes: a rank's chunk), microseconds per call; columns of 64
 * bytes to 64 KiB, 64- and 512-byte blocks to 64 KiB.
 *
 * Prints one JSON object per family and shape on rank 0:
 *   {"family": "vector", "block": BB, "bytes": B, "generic_us": G, "template_us": T} */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiopt/dtype.h"
#include "tune.h"

/* Block starts: 64 doubles apart for blocks up to 8 doubles, 4 blocks'
   length apart above. */
#define STRIDE(BL) ((BL) <= 8 ? 64 : 4 * (BL))
#define EXTENT(NB, BL) (((NB)-1) * STRIDE(BL) * 8 + (BL) * 8)
#define MAX_DOUBLES (32768 * 64)


/* One round: iters round trips of the shape, generic or through the
   template; microseconds per one-way message (rank 0's clock). */
#define ROUND(NB, BL)                                                                                                  \
  static double round_##NB##_##BL(double *a, double *b, MPI_Datatype t, MPI_Aint extent, int iters, int tpl,         \
                                  int which) {                                                                         \
    (void)b, (void)extent, (void)which;                                                                                \
    TUNE_PINGPONG(iters,                                                                                               \
                  (tpl ? mpiopt_send_dtype(a, 1, t, peer_, 0, MPI_COMM_WORLD, NB, BL, STRIDE(BL) * 8, EXTENT(NB, BL),  \
                                           MPI_DOUBLE, 8, 0)                                                           \
                       : MPI_Send(a, 1, t, peer_, 0, MPI_COMM_WORLD)),                                                 \
                  (tpl ? mpiopt_recv_dtype(a, 1, t, peer_, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, NB, BL,               \
                                           STRIDE(BL) * 8, EXTENT(NB, BL), MPI_DOUBLE, 8)                              \
                       : MPI_Recv(a, 1, t, peer_, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)));                             \
  }
TUNE_P2P_SHAPES(ROUND)

/* The collectives of tune.h with the shape on both sides (the _nd
   templates). */
static const char *const coll_names[TUNE_NCOLL] = {"bcast", "gather", "scatter", "alltoall"};
#define SHAPE_ND(NB, BL) 0, 1, 0, NB, BL, STRIDE(BL) * 8, EXTENT(NB, BL), MPI_DOUBLE, 8
#define CROUND(NB, BL) TUNE_COLL_ROUND(NB, BL, nd, SHAPE_ND)
TUNE_COLL_SHAPES(CROUND)

/* The shapes and their rounds: ROUND's (which is ignored) or CROUND's. */
#define SHAPE(NB, BL) {NB, BL, round_##NB##_##BL},
#define CSHAPE(NB, BL) {NB, BL, cround_##NB##_##BL},

/* The strided shape of NB blocks of BL doubles. */
static MPI_Datatype build(int nb, int bl, MPI_Aint *extent) {
  MPI_Datatype col;
  MPI_Type_vector(nb, bl, STRIDE(bl), MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  *extent = EXTENT(nb, bl);
  return col;
}

int main(int argc, char **argv) {
  int size, rounds = tune_start(&argc, &argv, "dtype_tune", &size);
  static const struct tune_shape shapes[] = {TUNE_P2P_SHAPES(SHAPE)};
  static const struct tune_shape cshapes[] = {TUNE_COLL_SHAPES(CSHAPE)};
  const int nshapes = (int)(sizeof shapes / sizeof *shapes);
  double *a = calloc((size_t)MAX_DOUBLES, sizeof *a), *g = malloc(sizeof *g * (size_t)rounds),
         *t = malloc(sizeof *t * (size_t)rounds);
  if (!a || !g || !t) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < nshapes; k++) {
    int n = shapes[k].nb * shapes[k].bl;
    tune_type_shape("vector", &shapes[k], build, TUNE_P2P_ITERS(n), a, (double *)0, 0, rounds, g, t);
  }
  free(a);
  tune_type_collectives(coll_names, cshapes, (int)(sizeof cshapes / sizeof *cshapes), build,
                        (size_t)size * (EXTENT(8192, 1) / 8), rounds, g, t);
  free(g);
  free(t);
  MPI_Finalize();
  return 0;
}
