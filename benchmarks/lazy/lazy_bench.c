/* lazy_bench.c: micro-benchmarks of the lazy reduction runtime.
 *
 *   queue     ns to queue one deferred reduction (no flush inside the timing)
 *   fuse K    K single-double MPI_Allreduce calls vs K deferred ones + one flush
 *   mixed G   G reductions of distinct (datatype, op) groups, one flush, with
 *             the algorithm given by MPIOPT_LAZY_FUSE (grouped / composite)
 *   solo      one deferred reduction per flush (the adaptive policy's case)
 *             vs plain MPI_Allreduce
 *   size N    two groups per flush: a SUM of N doubles and a MAX of one
 *             long (the measurement behind the grouped/composite cost model
 *             of runtime/lazy/select.c; run it with MPIOPT_LAZY_FUSE set)
 *
 *   run: mpiexec -n P ./lazy_bench MODE [K] [ITERATIONS]
 * Prints "MODE K plain_us lazy_us" (microseconds per iteration) on rank 0;
 * for "queue": "queue 0 0 ns_per_op". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiopt/lazy.h"

#define MAXK 64

static double now(void) { return MPI_Wtime(); }

/* "size N": plain (two MPI_Allreduce) and deferred (two operations, one flush). */
static int size_mode(int rank, int n, int iters) {
  if (n < 1 || n > (1 << 22) || iters < 1) {
    if (!rank) fprintf(stderr, "usage: lazy_bench size N (1..%d doubles) [ITERATIONS]\n", 1 << 22);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double *in = malloc(sizeof *in * (size_t)n), *out = malloc(sizeof *out * (size_t)n), t[2];
  long lin = rank, lout = 0;
  if (!in || !out) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < n; i++) in[i] = i + rank;
  for (int pass = 0; pass < 2; pass++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (int it = 0; it < iters; it++) {
      if (pass == 0) {
        MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&lin, &lout, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
      } else {
        mpiopt_lazy_allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        mpiopt_lazy_allreduce(&lin, &lout, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        mpiopt_lazy_wait(out);
      }
      in[it % n] += out[0] * 1e-300 + (double)lout * 1e-300;
    }
    double el = (now() - t0) / iters * 1e6;
    MPI_Reduce(&el, &t[pass], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  }
  if (!rank) printf("size %d %.3f %.3f\n", n, t[0], t[1]);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *mode = argc > 1 ? argv[1] : "fuse";
  int k = argc > 2 ? atoi(argv[2]) : 4;
  int iters = argc > 3 ? atoi(argv[3]) : 2000;
  if (!strcmp(mode, "size")) return size_mode(rank, k, iters);
  if (k < 1 || k > MAXK || iters < 1) {
    if (!rank) fprintf(stderr, "usage: lazy_bench queue|fuse|mixed|solo [K (1..%d)] [ITERATIONS]\n", MAXK);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double in[MAXK], out[MAXK];
  long lin[MAXK], lout[MAXK];
  int iin[MAXK], iout[MAXK];
  float fin[MAXK], fout[MAXK];
  for (int i = 0; i < MAXK; i++) in[i] = i + rank, lin[i] = i, iin[i] = i, fin[i] = (float)i;
  double plain = 0, lazy = 0;
  double sink = 0;

  if (!strcmp(mode, "queue")) {
    /* Batches of 1000 queued operations; only the queueing is timed. */
    enum { B = 1000 };
    static double qin[B], qout[B];
    for (int i = 0; i < B; i++) qin[i] = i;
    double t = 0;
    int rounds = iters / 10 + 1;
    for (int r = 0; r < rounds; r++) {
      double t0 = now();
      for (int i = 0; i < B; i++) mpiopt_lazy_allreduce(&qin[i], &qout[i], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      t += now() - t0;
      mpiopt_lazy_flush(MPI_COMM_WORLD);
      mpiopt_lazy_wait(&qout[0]);
      sink += qout[B - 1];
    }
    double ns = 1e9 * t / ((double)rounds * B), mx;
    MPI_Reduce(&ns, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (!rank) printf("queue 0 0 %.1f\n", mx);
    MPI_Finalize();
    return 0;
  }

  for (int pass = 0; pass < 2; pass++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (int it = 0; it < iters; it++) {
      if (!strcmp(mode, "fuse") || !strcmp(mode, "solo")) {
        int n = !strcmp(mode, "solo") ? 1 : k;
        for (int i = 0; i < n; i++) {
          if (pass == 0)
            MPI_Allreduce(&in[i], &out[i], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
          else
            mpiopt_lazy_allreduce(&in[i], &out[i], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        if (pass == 1) mpiopt_lazy_wait(&out[0]);
        sink += out[n - 1];
      } else { /* mixed: cycle through (double,SUM) (long,MAX) (int,MIN) (float,PROD) ... */
        for (int i = 0; i < k; i++) {
          int g = i % 8;
          MPI_Op op = (g / 4) ? MPI_MAX : MPI_SUM;
          void *s, *d;
          MPI_Datatype dt;
          switch (g % 4) {
          case 0: s = &in[i]; d = &out[i]; dt = MPI_DOUBLE; op = g < 4 ? MPI_SUM : MPI_MIN; break;
          case 1: s = &lin[i]; d = &lout[i]; dt = MPI_LONG; break;
          case 2: s = &iin[i]; d = &iout[i]; dt = MPI_INT; break;
          default: s = &fin[i]; d = &fout[i]; dt = MPI_FLOAT; break;
          }
          if (pass == 0)
            MPI_Allreduce(s, d, 1, dt, op, MPI_COMM_WORLD);
          else
            mpiopt_lazy_allreduce(s, d, 1, dt, op, MPI_COMM_WORLD);
        }
        if (pass == 1) mpiopt_lazy_flush(MPI_COMM_WORLD), mpiopt_lazy_wait(&out[0]);
        sink += out[0];
      }
    }
    double t = (now() - t0) / iters * 1e6, mx;
    MPI_Reduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (pass == 0) plain = mx; else lazy = mx;
  }
  if (!rank) printf("%s %d %.3f %.3f\n", mode, k, plain, lazy);
  if (sink == -1) printf("%g\n", sink);
  MPI_Finalize();
  return 0;
}
