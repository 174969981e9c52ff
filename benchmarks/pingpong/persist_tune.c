/* persist_tune.c: the measurement behind the machine profile's
 * "templates.persistent", "templates.persistent_ssend" and
 * "templates.persistent_sendrecv" points (scripts/tune). Ranks 0 and 1
 * exchange a contiguous message of B bytes (MPI_BYTE) in a loop, through
 * the generic calls and through the persistent templates of
 * templates/mpiopt/persist.h called as ompi-opt calls them (one struct
 * mpiopt_persist per call site, living through the loop), in alternating
 * rounds; medians of the rounds, microseconds per one-way message:
 *   persistent          a ping-pong of MPI_Send and MPI_Recv;
 *   persistent_ssend    a ping-pong of MPI_Ssend and MPI_Recv;
 *   persistent_sendrecv both ranks MPI_Sendrecv with each other;
 *   persistent_nonblocking
 *                       a halo exchange: both ranks post four MPI_Irecv and
 *                       four MPI_Isend of B bytes each to the other (tags
 *                       0-3) and complete them with one MPI_Waitall,
 *                       generic and through a function's cache of
 *                       templates/mpiopt/nbpersist.h; microseconds per
 *                       message sent.
 * Sizes from 0 bytes to 16 MiB (the halo exchange to 2 MiB).
 *
 * Then, where the MPI has persistent collectives (MPI-4, or Open MPI 4's
 * MPIX_ forms: MPIOPT_PCOLL), every rank calls MPI_Allreduce, MPI_Reduce,
 * MPI_Bcast, MPI_Allgather and MPI_Alltoall (families
 * "persistent_allreduce" and so on; bytes: the count x 8 of each rank's
 * contribution, 8 bytes to 1 MiB) and MPI_Barrier ("persistent_barrier",
 * 0 bytes), generic and through the persistent templates, microseconds per
 * call (no allgather where its template calls MPI_Allgather: MPICH).
 *
 * With more than two ranks, every pair (0,1), (2,3), ... runs at the same
 * time (an odd last rank waits), as in dtype_tune.c.
 *
 *   mpiexec -n 2 ./persist_tune [ROUNDS]
 * Prints one JSON object per family and size on rank 0:
 *   {"family": "persistent", "bytes": B, "generic_us": G, "template_us": T} */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiopt/nbpersist.h"
#include "mpiopt/persist.h"
#include "tune.h"

enum { PINGPONG, SSEND, SENDRECV, HALO, NFAM };
static const char *const family_names[NFAM] = {"persistent", "persistent_ssend", "persistent_sendrecv",
                                               "persistent_nonblocking"};
enum { HALO_MSGS = 4 };

/* One halo exchange of HALO_MSGS messages of n bytes each way with peer,
   from a (HALO_MSGS x n bytes) into b, generic or through c. */
static void halo_exchange(struct mpiopt_nbcache *c, char *a, char *b, int n, int peer, int tpl) {
  MPI_Request r[2 * HALO_MSGS];
  MPI_Status st[2 * HALO_MSGS];
  int k;
  for (k = 0; k < HALO_MSGS; k++)
    tpl ? mpiopt_irecv_nb(c, b + (size_t)k * n, n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &r[k])
        : MPI_Irecv(b + (size_t)k * n, n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &r[k]);
  for (k = 0; k < HALO_MSGS; k++)
    tpl ? mpiopt_isend_nb(c, a + (size_t)k * n, n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &r[HALO_MSGS + k])
        : MPI_Isend(a + (size_t)k * n, n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &r[HALO_MSGS + k]);
  tpl ? mpiopt_waitall_nb(c, 2 * HALO_MSGS, r, st) : MPI_Waitall(2 * HALO_MSGS, r, st);
}

/* One round of iters exchanges of n bytes in family f, generic or through
   the templates; microseconds per one-way message (rank 0's clock). */
static double round_of(int f, void *a, void *b, int n, int iters, int tpl) {
  struct mpiopt_persist ps = MPIOPT_PERSIST_INIT, pr = MPIOPT_PERSIST_INIT;
  int peer = rank ^ 1, first = !(rank & 1), i;
  MPI_Comm w = MPI_COMM_WORLD;
  double t0;
  MPI_Barrier(w);
  t0 = MPI_Wtime();
  for (i = 0; rank < paired && i < iters; i++) {
    if (f == HALO) {
      static struct mpiopt_nbcache c; /* one per program, as ompi-opt declares one per function */
      halo_exchange(&c, (char *)a, (char *)b, n, peer, tpl);
      continue;
    }
    if (f == SENDRECV) {
      if (tpl)
        mpiopt_sendrecv_persistent(&ps, a, n, MPI_BYTE, peer, 0, b, n, MPI_BYTE, peer, 0, w, MPI_STATUS_IGNORE);
      else
        MPI_Sendrecv(a, n, MPI_BYTE, peer, 0, b, n, MPI_BYTE, peer, 0, w, MPI_STATUS_IGNORE);
      continue;
    }
    if (!first) {
      if (tpl)
        mpiopt_recv_persistent(&pr, b, n, MPI_BYTE, peer, 0, w, MPI_STATUS_IGNORE);
      else
        MPI_Recv(b, n, MPI_BYTE, peer, 0, w, MPI_STATUS_IGNORE);
    }
    if (tpl)
      f == SSEND ? mpiopt_ssend_persistent(&ps, a, n, MPI_BYTE, peer, 0, w)
                 : mpiopt_send_persistent(&ps, a, n, MPI_BYTE, peer, 0, w);
    else
      f == SSEND ? MPI_Ssend(a, n, MPI_BYTE, peer, 0, w) : MPI_Send(a, n, MPI_BYTE, peer, 0, w);
    if (first) {
      if (tpl)
        mpiopt_recv_persistent(&pr, b, n, MPI_BYTE, peer, 0, w, MPI_STATUS_IGNORE);
      else
        MPI_Recv(b, n, MPI_BYTE, peer, 0, w, MPI_STATUS_IGNORE);
    }
  }
  t0 = (MPI_Wtime() - t0) / iters * 1e6;
  mpiopt_persist_free(&ps);
  mpiopt_persist_free(&pr);
  return f == SENDRECV ? t0 : f == HALO ? t0 / HALO_MSGS : t0 / 2;
}

#if MPIOPT_PCOLL
enum { NCOLL = 6 };
static const char *const coll_names[NCOLL] = {"persistent_allreduce", "persistent_reduce", "persistent_bcast",
                                              "persistent_allgather", "persistent_alltoall", "persistent_barrier"};

/* One round of iters calls of collective c on n doubles per rank (the
   receive buffer holds size x n), generic or through the template;
   microseconds per call (rank 0's clock). */
static double coll_round(int c, void *a, void *b, int n, int iters, int tpl) {
  struct mpiopt_persist p = MPIOPT_PERSIST_INIT;
  MPI_Comm w = MPI_COMM_WORLD;
  double t0;
  int i;
  MPI_Barrier(w);
  t0 = MPI_Wtime();
  for (i = 0; i < iters; i++) {
    if (c == 0)
      tpl ? mpiopt_allreduce_persistent(&p, a, b, n, MPI_DOUBLE, MPI_SUM, w)
          : MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, w);
    else if (c == 1)
      tpl ? mpiopt_reduce_persistent(&p, a, b, n, MPI_DOUBLE, MPI_SUM, 0, w)
          : MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, w);
    else if (c == 2)
      tpl ? mpiopt_bcast_persistent(&p, a, n, MPI_DOUBLE, 0, w) : MPI_Bcast(a, n, MPI_DOUBLE, 0, w);
    else if (c == 3)
      tpl ? mpiopt_allgather_persistent(&p, a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w)
          : MPI_Allgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w);
    else if (c == 4)
      tpl ? mpiopt_alltoall_persistent(&p, b, n, MPI_DOUBLE, a, n, MPI_DOUBLE, w)
          : MPI_Alltoall(b, n, MPI_DOUBLE, a, n, MPI_DOUBLE, w);
    else
      tpl ? mpiopt_barrier_persistent(&p, w) : MPI_Barrier(w);
  }
  t0 = (MPI_Wtime() - t0) / iters * 1e6;
  mpiopt_persist_free(&p);
  return t0;
}

static void measure_collectives(int size, int rounds, double *g, double *t) {
  static const int counts[] = {1, 16, 256, 4096, 131072};
  const int ncounts = (int)(sizeof counts / sizeof *counts);
  double *a = calloc((size_t)counts[ncounts - 1] * (size_t)size, sizeof *a);
  double *b = calloc((size_t)counts[ncounts - 1] * (size_t)size, sizeof *b);
  int c, k;
  if (!a || !b) MPI_Abort(MPI_COMM_WORLD, 1);
  for (c = 0; c < NCOLL; c++)
    for (k = 0; k < (c == 5 ? 1 : ncounts) && (c != 3 || MPIOPT_PCOLL_ALLGATHER); k++) {
      int n = counts[k];
      tune_measure(coll_names[c], c == 5 ? 0 : n * 8, coll_round, c, a, b, n, n <= 256 ? 1000 : n <= 4096 ? 100 : 10,
              rounds, g, t);
    }
  free(a);
  free(b);
}
#endif

int main(int argc, char **argv) {
  static const int sizes[] = {0, 8, 64, 512, 4096, 32768, 262144, 2097152, 16777216};
  const int nsizes = (int)(sizeof sizes / sizeof *sizes);
  int size, rounds = tune_start(&argc, &argv, "persist_tune", &size), f, k;
  char *a, *b;
  double *g, *t;
  a = calloc((size_t)sizes[nsizes - 1], 1);
  b = calloc((size_t)sizes[nsizes - 1], 1);
  g = malloc(sizeof *g * (size_t)rounds);
  t = malloc(sizeof *t * (size_t)rounds);
  if (!a || !b || !g || !t) MPI_Abort(MPI_COMM_WORLD, 1);
  for (f = 0; f < NFAM; f++)
    for (k = 0; k < nsizes && (f != HALO || sizes[k] * HALO_MSGS <= sizes[nsizes - 1]); k++) {
      int n = sizes[k];
      tune_measure(family_names[f], n, round_of, f, a, b, n, n <= 4096 ? 2000 : n <= 262144 ? 200 : n <= 2097152 ? 20 : 4,
              rounds, g, t);
    }
  free(a);
  free(b);
#if MPIOPT_PCOLL
  measure_collectives(size, rounds, g, t);
#endif
  free(g);
  free(t);
  MPI_Finalize();
  return 0;
}
