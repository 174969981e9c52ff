/* aggregate_tune.c: the measurement behind the machine profile's
 * "templates.aggregate" points (scripts/tune): a ping-pong of two messages
 * to one peer (two MPI_Send of half the bytes each, taken by two MPI_Recv)
 * against the one packed message of templates/mpiopt/aggregate.h
 * (mpiopt_agg_send and mpiopt_agg_recv: a header of one int per part, then
 * the parts), in alternating rounds; medians of the rounds, microseconds
 * per one-way group. "bytes" is the packed message's size, its header of
 * 8 bytes included (what ompi-opt's message-aggregation compares), from 8
 * to MPIOPT_AGG_MAX (1024).
 *
 * With more than two ranks, every pair (0,1), (2,3), ... runs the
 * ping-pong at the same time (an odd last rank waits).
 *
 *   mpiexec -n 2 ./aggregate_tune [ROUNDS]
 * Prints one JSON object per size on rank 0:
 *   {"family": "aggregate", "bytes": B, "generic_us": G, "template_us": T} */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiopt/aggregate.h"
#include "tune.h"

/* One round of iters ping-pongs of two parts (n bytes in all) to the
   partner, generic or packed (tpl); microseconds per one-way group. */
static double round_of(int which, void *a, void *b, int n, int iters, int tpl) {
  int peer = rank ^ 1, first = !(rank & 1), i, h = n / 2, r = n - n / 2;
  char *x = a, *y = b;
  MPI_Comm w = MPI_COMM_WORLD;
  double t0;
  (void)which;
  MPI_Barrier(w);
  t0 = MPI_Wtime();
  for (i = 0; i < iters && rank < paired; i++) {
    int turn;
    for (turn = 0; turn < 2; turn++) {
      if ((turn == 0) == first) {
        if (tpl)
          mpiopt_agg_send(2, peer, w, (const void *)x, h, MPI_BYTE, 1, (const void *)(x + h), r, MPI_BYTE, 2);
        else {
          MPI_Send(x, h, MPI_BYTE, peer, 1, w);
          MPI_Send(x + h, r, MPI_BYTE, peer, 2, w);
        }
      } else if (tpl)
        mpiopt_agg_recv(2, peer, w, (void *)y, h, MPI_BYTE, 1, MPI_STATUS_IGNORE, (void *)(y + h), r, MPI_BYTE, 2,
                        MPI_STATUS_IGNORE);
      else {
        MPI_Recv(y, h, MPI_BYTE, peer, 1, w, MPI_STATUS_IGNORE);
        MPI_Recv(y + h, r, MPI_BYTE, peer, 2, w, MPI_STATUS_IGNORE);
      }
    }
  }
  return (MPI_Wtime() - t0) / iters * 1e6 / 2;
}

int main(int argc, char **argv) {
  /* payloads: the packed message is 8 bytes more (its header) */
  static const int sizes[] = {0, 8, 24, 40, 56, 120, 248, 504, 1016};
  const int nsizes = (int)(sizeof sizes / sizeof *sizes);
  int size, rounds = tune_start(&argc, &argv, "aggregate_tune", &size), k;
  char *a = calloc(1024, 1), *b = calloc(1024, 1);
  double *g = malloc(sizeof *g * (size_t)rounds), *t = malloc(sizeof *t * (size_t)rounds);
  if (!a || !b || !g || !t)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (k = 0; k < nsizes; k++)
    tune_measure("aggregate", sizes[k] + 2 * (int)sizeof(int), round_of, 0, a, b, sizes[k], 5000, rounds, g, t);
  free(a);
  free(b);
  free(g);
  free(t);
  MPI_Finalize();
  return 0;
}
