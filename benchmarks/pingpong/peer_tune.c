/* peer_tune.c: the measurement behind the machine profile's
 * "templates.null", "templates.null_sendrecv", "templates.self_sendrecv",
 * "templates.self_replace", "templates.self_sendrecv_miss" and
 * "templates.sendrecv_pair" points
 * (scripts/tune): the generic calls against the templates of
 * templates/mpiopt/peer.h (and the pairing of sendrecv-pairing), in
 * alternating rounds;
 * medians of the rounds, microseconds per call:
 *   null            MPI_Send to MPI_PROC_NULL, then MPI_Recv from it (per call);
 *   null_sendrecv   a ping-pong of MPI_Sendrecv whose other side is
 *                   MPI_PROC_NULL (ranks 0 and 1; per one-way message);
 *   self_sendrecv   MPI_Sendrecv of each rank with itself;
 *   self_replace    MPI_Sendrecv_replace of each rank with itself;
 *   self_sendrecv_miss  ranks 0 and 1 exchange with MPI_Sendrecv, against
 *                   mpiopt_sendrecv_self with the same (other) peer: the cost
 *                   of the template's check where the peers are known only at
 *                   run time and are not the caller (per exchange);
 *   self_sendrecv_check the same check alone, in one process (no exchange
 *                   follows): the template's tests of the peers against an
 *                   empty loop (bytes 0; per call): the cost of a miss
 *                   without the exchange's run-to-run noise;
 *   sendrecv_pair   ranks 0 and 1 exchange messages, one with MPI_Send then
 *                   MPI_Recv, the other with MPI_Recv then MPI_Send, against
 *                   both calling MPI_Sendrecv (sendrecv-pairing; per exchange).
 * Sizes from 0 bytes to 16 MiB (MPI_BYTE; "null": 0 and 16 MiB, whose
 * calls move nothing).
 *
 * With more than two ranks, every pair (0,1), (2,3), ... runs the
 * ping-pong at the same time (an odd last rank waits); every rank sends to
 * itself.
 *
 *   mpiexec -n 2 ./peer_tune [ROUNDS]
 * Prints one JSON object per family and size on rank 0:
 *   {"family": "self_sendrecv", "bytes": B, "generic_us": G, "template_us": T} */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiopt/peer.h"
#include "tune.h"

enum { NULLP2P, NULLSR, SELFSR, SELFREP, PAIR, MISS, CHECK, NFAM };
static const char *const family_names[NFAM] = {"null",          "null_sendrecv",      "self_sendrecv",
                                               "self_replace",  "sendrecv_pair",      "self_sendrecv_miss",
                                               "self_sendrecv_check"};
static volatile int sink;

/* One round of iters calls of family f on n bytes, generic or through the
   templates (tpl); microseconds per call (rank 0's clock). */
static double round_of(int f, void *a, void *b, int n, int iters, int tpl) {
  int peer = rank ^ 1, first = !(rank & 1), i, P = MPI_PROC_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Status st;
  double t0;
  MPI_Barrier(w);
  t0 = MPI_Wtime();
  for (i = 0; i < iters; i++) {
    if (f == NULLP2P) {
      tpl ? mpiopt_send_null(a, n, MPI_BYTE, P, 0, w) : MPI_Send(a, n, MPI_BYTE, P, 0, w);
      tpl ? mpiopt_recv_null(b, n, MPI_BYTE, P, 0, w, &st) : MPI_Recv(b, n, MPI_BYTE, P, 0, w, &st);
    } else if (f == SELFSR) {
      tpl ? mpiopt_sendrecv_self(a, n, MPI_BYTE, rank, 0, b, n, MPI_BYTE, rank, 0, w, &st)
          : MPI_Sendrecv(a, n, MPI_BYTE, rank, 0, b, n, MPI_BYTE, rank, 0, w, &st);
    } else if (f == SELFREP) {
      tpl ? mpiopt_sendrecv_replace_self(a, n, MPI_BYTE, rank, 0, rank, 0, w, &st)
          : MPI_Sendrecv_replace(a, n, MPI_BYTE, rank, 0, rank, 0, w, &st);
    } else if (f == CHECK) {
      /* Peers equal but not the caller (rank + 1: never this rank): the
         check returns before any MPI call. */
      int other = rank + 1, sz = 0;
      sink += tpl ? mpiopt_self_ok(a, n, other, 0, b, n, other, 0, w, MPI_BYTE, &sz) : (other == rank);
    } else if (f == MISS) {
      if (rank >= paired)
        continue;
      tpl ? mpiopt_sendrecv_self(a, n, MPI_BYTE, peer, 0, b, n, MPI_BYTE, peer, 0, w, &st)
          : MPI_Sendrecv(a, n, MPI_BYTE, peer, 0, b, n, MPI_BYTE, peer, 0, w, &st);
    } else if (f == PAIR) {
      if (rank >= paired)
        continue;
      if (tpl)
        MPI_Sendrecv(a, n, MPI_BYTE, peer, 0, b, n, MPI_BYTE, peer, 0, w, &st);
      else if (first) {
        MPI_Send(a, n, MPI_BYTE, peer, 0, w);
        MPI_Recv(b, n, MPI_BYTE, peer, 0, w, &st);
      } else {
        MPI_Recv(b, n, MPI_BYTE, peer, 0, w, &st);
        MPI_Send(a, n, MPI_BYTE, peer, 0, w);
      }
    } else if (rank < paired) {
      int d = first ? peer : P, s = first ? P : peer;
      tpl ? mpiopt_sendrecv_null(a, n, MPI_BYTE, d, 0, b, n, MPI_BYTE, s, 0, w, &st)
          : MPI_Sendrecv(a, n, MPI_BYTE, d, 0, b, n, MPI_BYTE, s, 0, w, &st);
      tpl ? mpiopt_sendrecv_null(a, n, MPI_BYTE, s, 0, b, n, MPI_BYTE, d, 0, w, &st)
          : MPI_Sendrecv(a, n, MPI_BYTE, s, 0, b, n, MPI_BYTE, d, 0, w, &st);
    }
  }
  t0 = (MPI_Wtime() - t0) / iters * 1e6;
  return f == NULLP2P || f == NULLSR ? t0 / 2 : t0;
}

int main(int argc, char **argv) {
  static const int sizes[] = {0, 8, 64, 512, 4096, 32768, 262144, 2097152, 16777216};
  const int nsizes = (int)(sizeof sizes / sizeof *sizes);
  int size, rounds = tune_start(&argc, &argv, "peer_tune", &size), f, k;
  char *a, *b;
  double *g, *t;
  a = calloc((size_t)sizes[nsizes - 1], 1);
  b = calloc((size_t)sizes[nsizes - 1], 1);
  g = malloc(sizeof *g * (size_t)rounds);
  t = malloc(sizeof *t * (size_t)rounds);
  if (!a || !b || !g || !t) MPI_Abort(MPI_COMM_WORLD, 1);
  for (f = 0; f < NFAM; f++)
    for (k = 0; k < nsizes; k++) {
      int n = sizes[k];
      if ((f == NULLP2P && n != 0 && n != sizes[nsizes - 1]) || (f == CHECK && n != 0))
        continue;
      if (f == CHECK) {
        tune_measure(family_names[f], n, round_of, f, a, b, n, 1000000, rounds, g, t);
        continue;
      }
      tune_measure(family_names[f], n, round_of, f, a, b, n,
                   n <= 4096 ? 2000 : n <= 262144 ? 200 : n <= 2097152 ? 20 : 4, rounds, g, t);
    }
  free(a);
  free(b);
  free(g);
  free(t);
  MPI_Finalize();
  return 0;
}
