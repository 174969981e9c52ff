/* Runtime test: semantics of the lazy queue.
 *  - 10,000 pending operations on one communicator, one flush;
 *  - an input that is an earlier pending result (the runtime flushes first);
 *  - two communicators flushed independently;
 *  - a communicator freed with work pending (delivered by MPI_Comm_free);
 *  - reduce with a NULL receive buffer off the root, waited for with NULL;
 *  - a datatype and an op freed with a reduction pending on them, then made
 *    again with other sizes (MPI may reuse the handles): MPI_Type_free and
 *    MPI_Op_free deliver first, and the runtime forgets their records;
 *  - reduce of more than 2 KiB to the last rank, two groups of them (MPICH
 *    4.0 and 4.1 crash on MPI_Reduce(MPI_IN_PLACE) at a root other than 0:
 *    the runtime hands its packed inputs over as a send buffer there);
 *  - the adaptive policy: a site that always flushes alone goes immediate,
 *    with unchanged results;
 *  - a result still pending at MPI_Finalize is delivered (printed after it).
 * Prints "ok: N checks, 0 failures"; exits non-zero on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include "mpiopt/lazy.h"
#include "check.h"

static int rank, size;

static long tri(long n) { return n * (n + 1) / 2; } /* sum of 1..n */

static void add_longs(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int size = 0;
  MPI_Type_size(*dt, &size);
  long *a = in, *b = inout;
  for (long i = 0; i < (long)*len * size / (long)sizeof(long); i++) b[i] += a[i];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check_rank = rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int lazy_on = !getenv("MPIOPT_LAZY") || atoi(getenv("MPIOPT_LAZY")) != 0;

  /* 10,000 pending operations, mixed int sums and double maxima. */
  enum { N = 10000 };
  long *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
  double *din = malloc(N * sizeof *din), *dout = malloc(N * sizeof *dout);
  mpiopt_lazy_reset_stats();
  for (int i = 0; i < N; i++) {
    in[i] = i + rank;
    din[i] = (double)(i * (rank + 1));
    if (i % 2) mpiopt_lazy_allreduce(&in[i], &out[i], 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    else mpiopt_lazy_allreduce(&din[i], &dout[i], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  mpiopt_lazy_stats_t st;
  mpiopt_lazy_get_stats(&st);
  CHECK(!lazy_on || st.queued == N, "%llu of %d queued", st.queued, N);
  mpiopt_lazy_flush(MPI_COMM_WORLD);
  mpiopt_lazy_wait(&out[1]);
  mpiopt_lazy_wait(&dout[0]);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    if (i % 2 && out[i] != (long)i * size + tri(size - 1)) bad++;
    if (!(i % 2) && dout[i] != (double)(i * size)) bad++;
  }
  CHECK(bad == 0, "%d of %d results wrong after one flush", bad, N);
  mpiopt_lazy_get_stats(&st);
  CHECK(!lazy_on || st.max_fused == N, "largest flush fused %llu", st.max_fused);

  /* Dependency: the second input is the first result. */
  long a = rank + 1, b = -1, c = -1;
  mpiopt_lazy_allreduce(&a, &b, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  mpiopt_lazy_allreduce(&b, &c, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  mpiopt_lazy_wait(&c);
  CHECK(b == tri(size), "b = %ld", b);
  CHECK(c == tri(size) * size, "c = %ld (input was a pending result)", c);

  /* Two communicators: flushing one leaves the other pending. */
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  long x = 1, y = 2, rx = 0, ry = 0;
  mpiopt_lazy_allreduce(&x, &rx, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  mpiopt_lazy_allreduce(&y, &ry, 1, MPI_LONG, MPI_SUM, dup);
  mpiopt_lazy_flush(dup);
  mpiopt_lazy_wait(&ry);
  CHECK(ry == 2L * size, "ry = %ld", ry);
  CHECK(!lazy_on || mpiopt_lazy_pending(&rx, sizeof rx), "rx delivered by a flush of another communicator");
  mpiopt_lazy_wait(&rx);
  CHECK(rx == size, "rx = %ld", rx);
  CHECK(!mpiopt_lazy_pending(&rx, sizeof rx), "rx still pending after wait");

  /* MPI_Reduce: NULL receive buffer off the root; every rank waits alike. */
  int v = rank + 1, total = -1;
  int *recv = rank == 0 ? &total : NULL;
  mpiopt_lazy_reduce(&v, recv, 1, MPI_INT, MPI_SUM, 0, dup);
  mpiopt_lazy_wait(recv);
  if (rank == 0) CHECK(total == tri(size), "reduce total = %d", total);
  MPI_Comm_free(&dup);

  /* Handles freed with work pending, then made again with other sizes. */
  for (int round = 0; round < 2; round++) {
    int width = round ? 5 : 3;
    MPI_Datatype t;
    MPI_Op op;
    MPI_Type_contiguous(width, MPI_LONG, &t);
    MPI_Type_commit(&t);
    MPI_Op_create(add_longs, 1, &op);
    long in[10], out[10] = {0};
    for (int i = 0; i < 10; i++) in[i] = rank + i;
    mpiopt_lazy_allreduce(in, out, 2, t, op, MPI_COMM_WORLD);
    MPI_Type_free(&t);
    MPI_Op_free(&op);
    CHECK(!mpiopt_lazy_pending(out, sizeof out), "round %d: MPI_Type_free did not deliver the pending result", round);
    int bad = 0;
    for (int i = 0; i < 2 * width; i++) bad += out[i] != (long)size * i + tri(size - 1);
    CHECK(bad == 0, "round %d: %d of %d elements wrong after the datatype was freed", round, bad, 2 * width);
  }

  /* MPI_Reduce of 600 doubles and 600 longs to the last rank. */
  {
    enum { M = 600 };
    double *dv = malloc(M * sizeof *dv), *dr = malloc(M * sizeof *dr);
    long *lv = malloc(M * sizeof *lv), *lr = malloc(M * sizeof *lr);
    for (int i = 0; i < M; i++) {
      dv[i] = i + rank;
      lv[i] = 2L * i + rank;
    }
    mpiopt_lazy_reduce(dv, dr, M, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD);
    mpiopt_lazy_reduce(lv, lr, M, MPI_LONG, MPI_SUM, size - 1, MPI_COMM_WORLD);
    mpiopt_lazy_wait(dr);
    mpiopt_lazy_wait(lr);
    int bad = 0;
    for (int i = 0; rank == size - 1 && i < M; i++)
      bad += dr[i] != (double)i * size + tri(size - 1) || lr[i] != 2L * i * size + tri(size - 1);
    CHECK(bad == 0, "reduce of %d elements to rank %d: %d wrong", M, size - 1, bad);
    free(dv);
    free(dr);
    free(lv);
    free(lr);
  }

  /* One result written on two communicators: the later write wins (the
   * runtime delivers the earlier communicator's result first). */
  {
    MPI_Comm other;
    MPI_Comm_dup(MPI_COMM_WORLD, &other);
    long one = 1, two = 2, res = 0;
    mpiopt_lazy_allreduce(&one, &res, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    mpiopt_lazy_allreduce(&two, &res, 1, MPI_LONG, MPI_SUM, other);
    mpiopt_lazy_wait(&res);
    CHECK(res == 2L * size, "result written on two communicators: %ld, want %ld", res, 2L * size);
    MPI_Comm_free(&other);
  }

  /* A communicator freed with work pending on it: MPI_Comm_free delivers it
   * first (the attribute's delete callback), and a communicator that MPI
   * gives the same handle later starts afresh (its own rank and size). Twice,
   * so a reused handle is exercised. */
  for (int round = 0; round < 2; round++) {
    MPI_Comm part;
    MPI_Comm_split(MPI_COMM_WORLD, round == 0 ? 0 : rank % 2, rank, &part);
    int prank, psize;
    MPI_Comm_rank(part, &prank);
    MPI_Comm_size(part, &psize);
    long mine = prank + 1, sum = -1;
    mpiopt_lazy_allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, part);
    MPI_Comm_free(&part);
    CHECK(!mpiopt_lazy_pending(&sum, sizeof sum), "round %d: still pending after MPI_Comm_free", round);
    CHECK(sum == tri(psize), "round %d: sum over the freed communicator = %ld, want %ld", round, sum, tri(psize));
  }

  /* Adaptive: a site that always flushes alone is executed at once after a
   * few flushes; results are the same either way. */
  mpiopt_lazy_reset_stats();
  long s = 0, acc = 0;
  for (int it = 0; it < 200; it++) {
    long mine = it + rank;
    mpiopt_lazy_allreduce(&mine, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    mpiopt_lazy_wait(&s);
    acc += s;
  }
  long want = 0;
  for (int it = 0; it < 200; it++) want += (long)it * size + tri(size - 1);
  CHECK(acc == want, "adaptive loop sum %ld, want %ld", acc, want);
  mpiopt_lazy_get_stats(&st);
  const char *adapt = getenv("MPIOPT_LAZY_ADAPT");
  if (lazy_on && !(adapt && atoi(adapt) == 0))
    CHECK(st.immediate > 100 && st.queued >= 8, "adaptive: %llu immediate, %llu deferred", st.immediate, st.queued);
  else if (lazy_on)
    CHECK(st.immediate == 0, "MPIOPT_LAZY_ADAPT=0 but %llu immediate", st.immediate);

  /* Pending at MPI_Finalize: delivered by the finalize flush. */
  long last = rank + 10, lastsum = -1;
  mpiopt_lazy_allreduce(&last, &lastsum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  int fails = failures;
  MPI_Allreduce(MPI_IN_PLACE, &fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  CHECK(lastsum == 10L * size + tri(size - 1), "result pending at MPI_Finalize: %ld", lastsum);
  if (!rank) printf("%s: %d checks, %d failures\n", fails || failures ? "FAIL" : "ok", checks, fails + failures);
  free(in); free(out); free(din); free(dout);
  return fails || failures;
}
