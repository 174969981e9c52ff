/* ring.c: a periodic 1-D chain of processes whose every step sends each
 * neighbour three small messages (a header of two ints, K boundary values,
 * one flux value), written as adjacent MPI_Send and MPI_Recv statements
 * (even ranks send first): what message-aggregation packs into one
 * message per neighbour and step. -DHAND is the hand-optimised build: the
 * three parts in one struct, sent as one message of bytes. Between the
 * exchanges each rank updates W values (-DW=..., default 2000), so the
 * step is not all communication.
 *
 *   mpicc [-DK=4] [-DW=2000] [-DHAND] ring.c; mpiexec -n P ./ring STEPS
 * Prints "P K W seconds_per_step checksum" on rank 0 (the slowest rank's
 * time); the checksum is the same in every build. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef K
#define K 4
#endif
#ifndef W
#define W 2000
#endif

#ifdef HAND
struct parts {
  int head[2];
  double edge[K];
  double flux;
};
#endif

static double work[W];

int main(int argc, char **argv) {
  int rank, size, steps, step, i, right, left, hr[2] = {0, 0}, hl[2] = {0, 0};
  int head[2];
  double edge[K], flux = 0, er[K], el[K], fr = 0, fl = 0, sum = 0, t0, t, tmax;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  steps = argc > 1 ? atoi(argv[1]) : 1000;
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  for (i = 0; i < W; i++)
    work[i] = (rank + i) % 7;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (step = 0; step < steps; step++) {
    head[0] = step;
    head[1] = rank;
    for (i = 0; i < K; i++)
      edge[i] = work[i % W] + step;
    flux = work[W - 1];
#ifdef HAND
    {
      struct parts out, inl, inr;
      out.head[0] = head[0], out.head[1] = head[1], out.flux = flux;
      for (i = 0; i < K; i++)
        out.edge[i] = edge[i];
      if (rank % 2 == 0) {
        MPI_Send(&out, sizeof out, MPI_BYTE, right, 1, MPI_COMM_WORLD);
        MPI_Recv(&inl, sizeof inl, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, sizeof out, MPI_BYTE, left, 4, MPI_COMM_WORLD);
        MPI_Recv(&inr, sizeof inr, MPI_BYTE, right, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(&inl, sizeof inl, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, sizeof out, MPI_BYTE, right, 1, MPI_COMM_WORLD);
        MPI_Recv(&inr, sizeof inr, MPI_BYTE, right, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, sizeof out, MPI_BYTE, left, 4, MPI_COMM_WORLD);
      }
      hl[0] = inl.head[0], hl[1] = inl.head[1], fl = inl.flux;
      hr[0] = inr.head[0], hr[1] = inr.head[1], fr = inr.flux;
      for (i = 0; i < K; i++)
        el[i] = inl.edge[i], er[i] = inr.edge[i];
    }
#else
    if (rank % 2 == 0) {
      MPI_Send(head, 2, MPI_INT, right, 1, MPI_COMM_WORLD);
      MPI_Send(edge, K, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
      MPI_Send(&flux, 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
      MPI_Recv(hl, 2, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(el, K, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&fl, 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(head, 2, MPI_INT, left, 4, MPI_COMM_WORLD);
      MPI_Send(edge, K, MPI_DOUBLE, left, 5, MPI_COMM_WORLD);
      MPI_Send(&flux, 1, MPI_DOUBLE, left, 6, MPI_COMM_WORLD);
      MPI_Recv(hr, 2, MPI_INT, right, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(er, K, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&fr, 1, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(hl, 2, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(el, K, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&fl, 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(head, 2, MPI_INT, right, 1, MPI_COMM_WORLD);
      MPI_Send(edge, K, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
      MPI_Send(&flux, 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
      MPI_Recv(hr, 2, MPI_INT, right, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(er, K, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&fr, 1, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(head, 2, MPI_INT, left, 4, MPI_COMM_WORLD);
      MPI_Send(edge, K, MPI_DOUBLE, left, 5, MPI_COMM_WORLD);
      MPI_Send(&flux, 1, MPI_DOUBLE, left, 6, MPI_COMM_WORLD);
    }
#endif
    /* the update: the boundary values in, a sweep over the rank's values */
    work[0] = (el[0] + er[K - 1] + fl + fr + hl[0] + hr[1]) * 0.25;
    for (i = 1; i < W - 1; i++)
      work[i] = 0.5 * work[i] + 0.25 * (work[i - 1] + work[i + 1]);
    sum += work[0] + hl[1] + hr[0];
  }
  t = (MPI_Wtime() - t0) / steps;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  t = sum;
  MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d %d %d %.3e %.6e\n", size, K, W, tmax, sum);
  MPI_Finalize();
  return 0;
}
