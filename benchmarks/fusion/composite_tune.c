/* composite_tune: what one collective with a composite op costs against as
 * many builtin collectives as it has segments (the "fusion.composite" part
 * of a machine profile, written by scripts/tune).
 *
 * For LANES segments (2..4) and a packed size of BYTES bytes, it times
 *   separate:  LANES MPI_Allreduce calls on long long, ops alternating
 *              MPI_SUM and MPI_MAX, BYTES / LANES bytes each;
 *   composite: one MPI_Allreduce of one element of a contiguous BYTES-byte
 *              type with a user-defined op that applies each segment's op,
 *              as ompi-opt generates it (here the layout is read from
 *              variables, not constants: a little slower, so the profile
 *              errs on the side of the builtin collectives).
 * Each pair is timed in alternating rounds; rank 0 prints, per pair, one
 * JSON object with the medians in microseconds per operation.
 * Usage: composite_tune [ROUNDS] [MAXBYTES] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXLANES 4

static int nlanes, lane_count;

static void composite(void *in, void *inout, int *len, MPI_Datatype *type) {
  const unsigned char *x = (const unsigned char *)in;
  unsigned char *y = (unsigned char *)inout;
  int bytes = nlanes * lane_count * 8;
  (void)type;
  for (int e = 0; e < *len; e++, x += bytes, y += bytes)
    for (int l = 0; l < nlanes; l++)
      for (int i = 0; i < lane_count; i++) {
        long long a, b;
        int at = (l * lane_count + i) * 8;
        memcpy(&a, x + at, 8);
        memcpy(&b, y + at, 8);
        if (l % 2 == 0)
          b = (long long)((unsigned long long)a + (unsigned long long)b);
        else if (a > b)
          b = a;
        memcpy(y + at, &b, 8);
      }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Seconds per operation of ITERS operations (max over ranks). */
static double timed(int composite_form, int iters, long long *buf, MPI_Datatype type, MPI_Op op) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  for (int k = 0; k < iters; k++) {
    if (composite_form) {
      MPI_Allreduce(MPI_IN_PLACE, buf, 1, type, op, MPI_COMM_WORLD);
    } else {
      for (int l = 0; l < nlanes; l++)
        MPI_Allreduce(MPI_IN_PLACE, buf + l * lane_count, lane_count, MPI_LONG_LONG, l % 2 ? MPI_MAX : MPI_SUM,
                      MPI_COMM_WORLD);
    }
  }
  t = (MPI_Wtime() - t) / iters;
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

int main(int argc, char **argv) {
  int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 15, maxbytes = argc > 2 ? atoi(argv[2]) : 16384;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rounds < 1 || maxbytes < 16) {
    if (rank == 0)
      fprintf(stderr, "composite_tune: ROUNDS must be >= 1 and MAXBYTES >= 16\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long long *buf = malloc((size_t)maxbytes + MAXLANES * 8);
  double *sep = malloc(sizeof(double) * (size_t)rounds), *comp = malloc(sizeof(double) * (size_t)rounds);
  MPI_Op op;
  MPI_Op_create(composite, 1, &op);
  for (nlanes = 2; nlanes <= MAXLANES; nlanes++)
    for (int bytes = nlanes * 8; bytes <= maxbytes; bytes *= 4) {
      lane_count = bytes / (8 * nlanes);
      int total = nlanes * lane_count * 8;
      MPI_Datatype type;
      MPI_Type_contiguous(total, MPI_BYTE, &type);
      MPI_Type_commit(&type);
      for (int i = 0; i < nlanes * lane_count; i++)
        buf[i] = rank + i;
      /* About 20 ms per timing: iterations from a first estimate. */
      double est = timed(0, 20, buf, type, op);
      int iters = (int)(0.02 / (est > 1e-7 ? est : 1e-7));
      if (iters < 20)
        iters = 20;
      MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
      for (int r = 0; r < rounds; r++) {
        sep[r] = timed(0, iters, buf, type, op);
        comp[r] = timed(1, iters, buf, type, op);
      }
      if (rank == 0)
        printf("{\"lanes\": %d, \"bytes\": %d, \"separate_us\": %.3f, \"composite_us\": %.3f}\n", nlanes, total,
               median(sep, rounds) * 1e6, median(comp, rounds) * 1e6);
      fflush(stdout);
      MPI_Type_free(&type);
    }
  MPI_Op_free(&op);
  free(buf);
  free(sep);
  free(comp);
  MPI_Finalize();
  return 0;
}
