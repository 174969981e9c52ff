/* aggregate_tune.c: the measurement behind the machine profile's
 * "templates.aggregate", "templates.aggregate3" and "templates.aggregate4"
 * points (scripts/tune): a ping-pong of two, three or four messages to one
 * peer (MPI_Send of equal parts, taken by as many MPI_Recv) against the one
 * packed message of templates/mpiopt/aggregate.h (mpiopt_agg_send and
 * mpiopt_agg_recv: a header of one int per part, then the parts), in
 * alternating rounds; medians of the rounds, microseconds per one-way
 * group. "bytes" is the packed message's size, its header included (what
 * ompi-opt's message-aggregation compares), from 8 (two parts; 12 and 16
 * with three and four) to MPIOPT_AGG_MAX (1024).
 *
 * With more than two ranks, every pair (0,1), (2,3), ... runs the
 * ping-pong at the same time (an odd last rank waits).
 *
 * And "templates.aggregate_bcast", "aggregate_bcast3" and
 * "aggregate_bcast4": two, three or four MPI_Bcast of equal parts on
 * MPI_COMM_WORLD against the one broadcast of mpiopt_agg_bcast (no
 * header: "bytes" is the parts' sum, 4 to 1024), the root taking turns
 * round the ranks from one group to the next (so a group waits for the
 * last one to arrive, as a program's next use of the values would);
 * microseconds per group.
 *
 *   mpiexec -n 2 ./aggregate_tune [ROUNDS]
 * Prints one JSON object per family and size on rank 0:
 *   {"family": "aggregate3", "bytes": B, "generic_us": G, "template_us": T} */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiopt/aggregate.h"
#include "tune.h"

/* The parts of n bytes in k pieces (the last takes the rest). */
static void cut(int n, int k, int *at, int *len) {
  int j;
  for (j = 0; j < k; j++) {
    at[j] = j * (n / k);
    len[j] = j + 1 < k ? n / k : n - j * (n / k);
  }
}

/* One round of iters ping-pongs of k parts (n bytes in all) to the
   partner, generic or packed (tpl); microseconds per one-way group. */
static double round_of(int k, void *a, void *b, int n, int iters, int tpl) {
  int peer = rank ^ 1, first = !(rank & 1), i, j, at[4], len[4];
  char *x = a, *y = b;
  MPI_Comm w = MPI_COMM_WORLD;
  double t0;
  cut(n, k, at, len);
  MPI_Barrier(w);
  t0 = MPI_Wtime();
  for (i = 0; i < iters && rank < paired; i++) {
    int turn;
    for (turn = 0; turn < 2; turn++) {
      if ((turn == 0) == first) {
        if (tpl && k == 2)
          mpiopt_agg_send(2, peer, w, (const void *)x, len[0], MPI_BYTE, 1, (const void *)(x + at[1]), len[1],
                          MPI_BYTE, 2);
        else if (tpl && k == 3)
          mpiopt_agg_send(3, peer, w, (const void *)x, len[0], MPI_BYTE, 1, (const void *)(x + at[1]), len[1],
                          MPI_BYTE, 2, (const void *)(x + at[2]), len[2], MPI_BYTE, 3);
        else if (tpl)
          mpiopt_agg_send(4, peer, w, (const void *)x, len[0], MPI_BYTE, 1, (const void *)(x + at[1]), len[1],
                          MPI_BYTE, 2, (const void *)(x + at[2]), len[2], MPI_BYTE, 3, (const void *)(x + at[3]),
                          len[3], MPI_BYTE, 4);
        else
          for (j = 0; j < k; j++)
            MPI_Send(x + at[j], len[j], MPI_BYTE, peer, j + 1, w);
      } else if (tpl && k == 2)
        mpiopt_agg_recv(2, peer, w, (void *)y, len[0], MPI_BYTE, 1, MPI_STATUS_IGNORE, (void *)(y + at[1]), len[1],
                        MPI_BYTE, 2, MPI_STATUS_IGNORE);
      else if (tpl && k == 3)
        mpiopt_agg_recv(3, peer, w, (void *)y, len[0], MPI_BYTE, 1, MPI_STATUS_IGNORE, (void *)(y + at[1]), len[1],
                        MPI_BYTE, 2, MPI_STATUS_IGNORE, (void *)(y + at[2]), len[2], MPI_BYTE, 3, MPI_STATUS_IGNORE);
      else if (tpl)
        mpiopt_agg_recv(4, peer, w, (void *)y, len[0], MPI_BYTE, 1, MPI_STATUS_IGNORE, (void *)(y + at[1]), len[1],
                        MPI_BYTE, 2, MPI_STATUS_IGNORE, (void *)(y + at[2]), len[2], MPI_BYTE, 3, MPI_STATUS_IGNORE,
                        (void *)(y + at[3]), len[3], MPI_BYTE, 4, MPI_STATUS_IGNORE);
      else
        for (j = 0; j < k; j++)
          MPI_Recv(y + at[j], len[j], MPI_BYTE, peer, j + 1, w, MPI_STATUS_IGNORE);
    }
  }
  return (MPI_Wtime() - t0) / iters * 1e6 / 2;
}

/* One round of iters groups of k broadcasts of n bytes in all, generic or
   fused (tpl); microseconds per group. */
static double bcast_round(int k, void *a, void *b, int n, int iters, int tpl) {
  int size, i, j, at[4], len[4];
  char *x = a;
  MPI_Comm w = MPI_COMM_WORLD;
  double t0;
  (void)b;
  MPI_Comm_size(w, &size);
  cut(n, k, at, len);
  MPI_Barrier(w);
  t0 = MPI_Wtime();
  for (i = 0; i < iters; i++) {
    int root = i % size;
    if (tpl && k == 2)
      mpiopt_agg_bcast(2, root, w, (void *)x, len[0], MPI_BYTE, (void *)(x + at[1]), len[1], MPI_BYTE);
    else if (tpl && k == 3)
      mpiopt_agg_bcast(3, root, w, (void *)x, len[0], MPI_BYTE, (void *)(x + at[1]), len[1], MPI_BYTE,
                       (void *)(x + at[2]), len[2], MPI_BYTE);
    else if (tpl)
      mpiopt_agg_bcast(4, root, w, (void *)x, len[0], MPI_BYTE, (void *)(x + at[1]), len[1], MPI_BYTE,
                       (void *)(x + at[2]), len[2], MPI_BYTE, (void *)(x + at[3]), len[3], MPI_BYTE);
    else
      for (j = 0; j < k; j++)
        MPI_Bcast(x + at[j], len[j], MPI_BYTE, root, w);
  }
  return (MPI_Wtime() - t0) / iters * 1e6;
}

int main(int argc, char **argv) {
  /* the packed messages' sizes, their headers (one int per part) included */
  static const int sizes[] = {8, 16, 32, 48, 64, 128, 256, 512, 1024};
  static const int bsizes[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024};
  static const char *const families[] = {"aggregate", "aggregate3", "aggregate4"};
  static const char *const bfamilies[] = {"aggregate_bcast", "aggregate_bcast3", "aggregate_bcast4"};
  const int nsizes = (int)(sizeof sizes / sizeof *sizes);
  int size, rounds = tune_start(&argc, &argv, "aggregate_tune", &size), k, parts;
  char *a = calloc(1024, 1), *b = calloc(1024, 1);
  double *g = malloc(sizeof *g * (size_t)rounds), *t = malloc(sizeof *t * (size_t)rounds);
  if (!a || !b || !g || !t)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (parts = 2; parts <= 4; parts++)
    for (k = 0; k < nsizes; k++)
      if (sizes[k] >= parts * (int)sizeof(int))
        tune_measure(families[parts - 2], sizes[k], round_of, parts, a, b, sizes[k] - parts * (int)sizeof(int), 5000,
                     rounds, g, t);
  for (parts = 2; parts <= 4; parts++)
    for (k = 0; k < (int)(sizeof bsizes / sizeof *bsizes); k++)
      if (bsizes[k] >= parts)
        tune_measure(bfamilies[parts - 2], bsizes[k], bcast_round, parts, a, b, bsizes[k], 5000, rounds, g, t);
  free(a);
  free(b);
  free(g);
  free(t);
  MPI_Finalize();
  return 0;
}
