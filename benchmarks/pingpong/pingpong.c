/* pingpong.c: the OMPI paper's Fig. 5 in miniature: ranks 0 and 1 exchange
 * one column of an N x LD matrix of doubles, sent and received with
 * MPI_Type_vector(N, 1, LD, MPI_DOUBLE), back and forth.
 *
 *   build: mpicc -DN=512 pingpong.c        the datatype engine
 *          ompi-cc -DN=512 pingpong.c      compiled pack loops, where the
 *                                          machine profile says they win
 *   run:   mpiexec -n 2 ./pingpong [ITERATIONS]
 * Prints on rank 0: "N bytes microseconds_per_one_way_message checksum".
 *
 * With -DINDEXED, a run list instead of the column: N single doubles at
 * the column's displacements moved on by 0, 1 or 2 doubles in turn
 * (MPI_Type_create_indexed_block(N, 1, displs, MPI_DOUBLE): no stride
 * describes them; ompi-cc's _ix templates read them from a table).
 *
 * With -DCOLLECTIVE (and the column or -DINDEXED), every rank's element
 * is gathered to rank 0 with MPI_Gather and scattered back with
 * MPI_Scatter, the datatype on both sides (the collectives' _nd or _ix
 * templates); microseconds per gather and scatter.
 *
 * With -DCONTIGUOUS, N contiguous doubles (MPI_DOUBLE; N may be 0) from and
 * into buffers that stay where they are: the latency and bandwidth of the
 * generic calls, which ompi-cc runs through persistent requests where the
 * machine profile says they win (persistent-requests). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 512
#endif
#define LD 64
#ifdef CONTIGUOUS
#define LEN ((long)N + 1)
#else
#define LEN ((long)N * LD)
#endif

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iters = argc > 1 ? atoi(argv[1]) : 1000;
  if (size < 2 || iters < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 2 pingpong [ITERATIONS >= 1]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double *a = malloc(sizeof *a * (size_t)LEN);
  if (!a)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (long i = 0; i < LEN; i++)
    a[i] = (double)(i % 1000) + rank;
#ifdef CONTIGUOUS
  double *b = calloc((size_t)N + 1, sizeof *b);
  if (!b)
    MPI_Abort(MPI_COMM_WORLD, 1);
#else
  MPI_Datatype col;
#ifdef INDEXED
  int displs[N];
  for (int i = 0; i < N; i++)
    displs[i] = i * LD + i % 3;
  MPI_Type_create_indexed_block(N, 1, displs, MPI_DOUBLE, &col);
#else
  MPI_Type_vector(N, 1, LD, MPI_DOUBLE, &col);
#endif
  MPI_Type_commit(&col);
#endif
#ifdef COLLECTIVE
  MPI_Aint lb, extent;
  MPI_Type_get_extent(col, &lb, &extent);
  double *all = calloc((size_t)size * (size_t)(extent / 8) + 8, sizeof *all);
  if (!all)
    MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  MPI_Status st;
  double t0 = 0;
  for (int it = -iters / 10 - 1; it < iters; it++) { /* the first tenth warms up */
    if (it == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
    }
#ifdef CONTIGUOUS
    if (rank == 0) {
      MPI_Send(a, N, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(b, N, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &st);
    } else if (rank == 1) {
      MPI_Recv(b, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &st);
      MPI_Send(a, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
#elif defined(COLLECTIVE)
    MPI_Gather(&a[it & 7], 1, col, all, 1, col, 0, MPI_COMM_WORLD);
    MPI_Scatter(all, 1, col, &a[(it + 3) & 7], 1, col, 0, MPI_COMM_WORLD);
    (void)st;
#else
    if (rank == 0) {
      MPI_Send(&a[it & 7], 1, col, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&a[(it + 1) & 7], 1, col, 1, 0, MPI_COMM_WORLD, &st);
    } else if (rank == 1) {
      MPI_Recv(&a[(it + 3) & 7], 1, col, 0, 0, MPI_COMM_WORLD, &st);
      MPI_Send(&a[(it + 5) & 7], 1, col, 0, 0, MPI_COMM_WORLD);
    }
#endif
  }
#ifdef COLLECTIVE
  double us = (MPI_Wtime() - t0) / iters * 1e6;
  free(all);
#else
  double us = (MPI_Wtime() - t0) / iters / 2 * 1e6;
#endif
  double check = 0;
#ifdef CONTIGUOUS
  for (long i = 0; i < (long)N; i++)
    check += b[i];
  free(b);
#else
  for (long i = 0; i < (long)N * LD; i++)
    check += a[i];
  MPI_Type_free(&col);
#endif
  if (rank == 0)
    printf("%d %d %.3f %.1f\n", N, N * 8, us, check);
  free(a);
  MPI_Finalize();
  return 0;
}
