// reduction-fusion: independent MPI_Allreduce / MPI_Reduce calls fused into
// one collective. Checks the report and the rewritten source.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// The output compiles without warnings with both MPIs:
// RUN: %ompi-opt %s -o %t.openmpi.c -- %openmpi_cflags
// RUN: diff %t.c %t.openmpi.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>

#define N 16
double a[N][N], var[N], s1, s2;

// The variance loop of the CFL paper with its reductions inline; the second
// reuses the first one's send buffer, which is safe because each input is
// packed where its call was.
void variance(void) {
  int i, j;
  for (i = 0; i < N; i++) {
    double s = 0.0;
    for (j = 0; j < N; j++)
      s += a[i][j];
    MPI_Allreduce(&s, &s1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* sum */
    s = 0.0;
    for (j = 0; j < N; j++)
      s += a[i][j] * a[i][j];
    // REPORT-DAG: {{.*}}fusion.c:[[#@LINE+1]]:5: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-4]], [[#@LINE+1]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (&s -> &s1, &s -> &s2); the 2 statements in between touch no result and hold no jump and no MPI call other than fused reductions); saves 1 collective per execution
    MPI_Allreduce(&s, &s2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    var[i] = (s2 - s1 * s1 / N) / (N - 1);
  }
}
// SRC:      double mpiopt_fuse1_buf[2];
// SRC-NEXT:      __builtin_memcpy(&mpiopt_fuse1_buf[0], &s, 1 * sizeof(double)); /* sum */
// SRC-NEXT:      s = 0.0;
// SRC:      { /* ompi-opt: 2 MPI_Allreduce calls (lines {{[0-9, ]+}}) fused into one */
// SRC-NEXT:        __builtin_memcpy(&mpiopt_fuse1_buf[1], &s, 1 * sizeof(double));
// SRC-NEXT:        MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// SRC-NEXT:        __builtin_memcpy(&s1, &mpiopt_fuse1_buf[0], 1 * sizeof(double));
// SRC-NEXT:        __builtin_memcpy(&s2, &mpiopt_fuse1_buf[1], 1 * sizeof(double));
// SRC-NEXT:      }
// SRC-NEXT:      var[i] = (s2 - s1 * s1 / N) / (N - 1);

// Three scalars, error codes kept: every result variable gets the code.
int three(int x, int y, int z) {
  int sx = 0, sy = 0, sz = 0, rc1, rc2, rc3;
  rc1 = MPI_Allreduce(&x, &sx, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  rc2 = MPI_Allreduce(&y, &sy, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  // REPORT-DAG: {{.*}}fusion.c:[[#@LINE+1]]:9: reduction-fusion: fused 3 MPI_Allreduce calls (lines [[#@LINE-2]], [[#@LINE-1]], [[#@LINE+1]]) into one of 3 x MPI_INT with MPI_SUM on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (&x -> &sx, &y -> &sy, &z -> &sz); nothing in between); saves 2 collectives per execution
  rc3 = MPI_Allreduce(&z, &sz, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return (rc1 | rc2 | rc3) ? -1 : sx + sy + sz;
}
// SRC:      int mpiopt_fuse2_buf[3];
// SRC-NEXT:   __builtin_memcpy(&mpiopt_fuse2_buf[0], &x, 1 * sizeof(int));
// SRC-NEXT:   __builtin_memcpy(&mpiopt_fuse2_buf[1], &y, 1 * sizeof(int));
// SRC:        { /* ompi-opt: 3 MPI_Allreduce calls (lines {{[0-9, ]+}}) fused into one */
// SRC-NEXT:     __builtin_memcpy(&mpiopt_fuse2_buf[2], &z, 1 * sizeof(int));
// SRC-NEXT:     int mpiopt_fuse2_rc = MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse2_buf, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SRC-NEXT:     __builtin_memcpy(&sx, &mpiopt_fuse2_buf[0], 1 * sizeof(int));
// SRC-NEXT:     __builtin_memcpy(&sy, &mpiopt_fuse2_buf[1], 1 * sizeof(int));
// SRC-NEXT:     __builtin_memcpy(&sz, &mpiopt_fuse2_buf[2], 1 * sizeof(int));
// SRC-NEXT:     rc1 = mpiopt_fuse2_rc;
// SRC-NEXT:     rc2 = mpiopt_fuse2_rc;
// SRC-NEXT:     rc3 = mpiopt_fuse2_rc;
// SRC-NEXT:   }

// Arrays, MPI_IN_PLACE, and two kinds (sum, max) interleaved: one fused call
// per (op, datatype), crossing each other.
void arrays(double *out) {
  double lo[4] = {1, 2, 3, 4}, hi[3] = {5, 6, 7}, rlo[4], rhi[3], inplace[2] = {8, 9};
  int cnt[2] = {1, 2}, rcnt[2], big = 3, rbig;
  MPI_Allreduce(lo, rlo, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(cnt, rcnt, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, inplace, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // REPORT-DAG: {{.*}}fusion.c:[[#@LINE+1]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-2]], [[#@LINE+1]]) into one of 3 x MPI_INT with MPI_MAX on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (cnt -> rcnt, &big -> &rbig); the statement in between touches no result and holds no jump and no MPI call other than fused reductions); saves 1 collective per execution
  MPI_Allreduce(&big, &rbig, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  // REPORT-DAG: {{.*}}fusion.c:[[#@LINE+1]]:3: reduction-fusion: fused 3 MPI_Allreduce calls (lines [[#@LINE-5]], [[#@LINE-3]], [[#@LINE+1]]) into one of 9 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (lo -> rlo, MPI_IN_PLACE -> inplace, hi -> rhi); the 2 statements in between touch no result and hold no jump and no MPI call other than fused reductions); saves 2 collectives per execution
  MPI_Allreduce(hi, rhi, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  out[0] = rlo[3] + rhi[2] + inplace[1] + rcnt[1] + rbig;
}
// SRC:      double mpiopt_fuse3_buf[9];
// SRC-NEXT:   __builtin_memcpy(&mpiopt_fuse3_buf[0], lo, 4 * sizeof(double));
// SRC-NEXT:   int mpiopt_fuse4_buf[3];
// SRC-NEXT:   __builtin_memcpy(&mpiopt_fuse4_buf[0], cnt, 2 * sizeof(int));
// SRC-NEXT:   __builtin_memcpy(&mpiopt_fuse3_buf[4], inplace, 2 * sizeof(double));
// SRC:        { /* ompi-opt: 2 MPI_Allreduce calls (lines {{[0-9, ]+}}) fused into one */
// SRC-NEXT:     __builtin_memcpy(&mpiopt_fuse4_buf[2], &big, 1 * sizeof(int));
// SRC-NEXT:     MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse4_buf, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
// SRC-NEXT:     __builtin_memcpy(rcnt, &mpiopt_fuse4_buf[0], 2 * sizeof(int));
// SRC-NEXT:     __builtin_memcpy(&rbig, &mpiopt_fuse4_buf[2], 1 * sizeof(int));
// SRC-NEXT:   }
// SRC:        { /* ompi-opt: 3 MPI_Allreduce calls (lines {{[0-9, ]+}}) fused into one */
// SRC-NEXT:     __builtin_memcpy(&mpiopt_fuse3_buf[6], hi, 3 * sizeof(double));
// SRC-NEXT:     MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse3_buf, 9, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// SRC-NEXT:     __builtin_memcpy(rlo, &mpiopt_fuse3_buf[0], 4 * sizeof(double));
// SRC-NEXT:     __builtin_memcpy(inplace, &mpiopt_fuse3_buf[4], 2 * sizeof(double));
// SRC-NEXT:     __builtin_memcpy(rhi, &mpiopt_fuse3_buf[6], 3 * sizeof(double));
// SRC-NEXT:   }

// MPI_Reduce with one root: the results are written on the root only, as
// the original calls wrote them.
void reduce_to_root(long x, long y, long *out) {
  long rx = 0, ry = 0;
  MPI_Reduce(&x, &rx, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  // REPORT-DAG: {{.*}}fusion.c:[[#@LINE+1]]:3: reduction-fusion: fused 2 MPI_Reduce calls (lines [[#@LINE-1]], [[#@LINE+1]]) into one of 2 x MPI_LONG with MPI_SUM on MPI_COMM_WORLD (same communicator, op and datatype and root; distinct buffers (&x -> &rx, &y -> &ry); nothing in between); saves 1 collective per execution
  MPI_Reduce(&y, &ry, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  *out = rx + ry;
}
// SRC:      long mpiopt_fuse5_buf[2];
// SRC-NEXT:   __builtin_memcpy(&mpiopt_fuse5_buf[0], &x, 1 * sizeof(long));
// SRC:        { /* ompi-opt: 2 MPI_Reduce calls (lines {{[0-9, ]+}}) fused into one */
// SRC-NEXT:     __builtin_memcpy(&mpiopt_fuse5_buf[1], &y, 1 * sizeof(long));
// SRC-NEXT:     int mpiopt_fuse5_rank;
// SRC-NEXT:     MPI_Comm_rank(MPI_COMM_WORLD, &mpiopt_fuse5_rank);
// SRC-NEXT:     MPI_Reduce(mpiopt_fuse5_rank == (0) ? MPI_IN_PLACE : mpiopt_fuse5_buf, mpiopt_fuse5_rank == (0) ? mpiopt_fuse5_buf : (void *)0, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
// SRC-NEXT:     if (mpiopt_fuse5_rank == (0)) {
// SRC-NEXT:       __builtin_memcpy(&rx, &mpiopt_fuse5_buf[0], 1 * sizeof(long));
// SRC-NEXT:       __builtin_memcpy(&ry, &mpiopt_fuse5_buf[1], 1 * sizeof(long));
// SRC-NEXT:     }
// SRC-NEXT:   }
// Between the calls: a loop bounded by a parameter, a branch on data, and a
// C library call; none touches a result, so the calls still fuse.
#include <stdio.h>
void busy(int n, double *v) {
  double t = 0, m = 0, rt, rm;
  int j;
  for (j = 0; j < n; j++)
    t += v[j];
  MPI_Allreduce(&t, &rt, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (j = 0; j < n; j++)
    if (v[j] > m)
      m = v[j];
  printf("local max %g\n", m);
  // REPORT-DAG: {{.*}}fusion.c:[[#@LINE+1]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-5]], [[#@LINE+1]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (&t -> &rt, &m -> &rm); the 2 statements in between touch no result and hold no jump and no MPI call other than fused reductions); saves 1 collective per execution
  MPI_Allreduce(&m, &rm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  v[0] = rt + rm;
}

// Each rank sums its own share (the loop bounds depend on the rank): every
// rank still reaches both calls, so they fuse.
void share(const double *data, int m, double *out) {
  int rank, size, j;
  double s = 0, g1, g2;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int jmin = m * rank / size, jmax = m * (rank + 1) / size;
  for (j = jmin; j < jmax; j++)
    s += data[j];
  MPI_Allreduce(&s, &g1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  s = 0;
  for (j = jmin; j < jmax; j++)
    s += data[j] * data[j];
  // REPORT-DAG: {{.*}}fusion.c:[[#@LINE+1]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-4]], [[#@LINE+1]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (&s -> &g1, &s -> &g2); the 2 statements in between touch no result and hold no jump and no MPI call other than fused reductions); saves 1 collective per execution
  MPI_Allreduce(&s, &g2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *out = g2 - g1 * g1 / m;
}

// Counts known only at run time, the same at both calls: the buffer is a
// small array, or the heap when the counts are large.
void runtime_counts(const double *in, double *out, int n, int m) {
  double ga[512], gb[512];
  MPI_Allreduce(in, ga, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  // REPORT-DAG: {{.*}}fusion.c:[[#@LINE+1]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-1]], [[#@LINE+1]]) into one of (n) + (m + 1) x MPI_DOUBLE with MPI_MAX on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (in -> ga, in -> gb); nothing in between); saves 1 collective per execution
  MPI_Allreduce(in, gb, m + 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  out[0] = ga[0] + gb[m];
}
// SRC:      double mpiopt_fuse{{[0-9]+}}_small[256];
// SRC-NEXT:   double *mpiopt_fuse[[ID:[0-9]+]]_buf = ((n) + (m + 1)) <= 256 ? mpiopt_fuse[[ID]]_small : (double *)__builtin_malloc(sizeof(double) * (unsigned long)((n) + (m + 1)));
// SRC-NEXT:   if (!mpiopt_fuse[[ID]]_buf)
// SRC-NEXT:     MPI_Abort(MPI_COMM_WORLD, 1);
// SRC-NEXT:   __builtin_memcpy(&mpiopt_fuse[[ID]]_buf[0], in, (n) * sizeof(double));
// SRC:        { /* ompi-opt: 2 MPI_Allreduce calls (lines {{[0-9, ]+}}) fused into one */
// SRC-NEXT:     __builtin_memcpy(&mpiopt_fuse[[ID]]_buf[(n)], in, (m + 1) * sizeof(double));
// SRC-NEXT:     MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse[[ID]]_buf, (int)((n) + (m + 1)), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
// SRC-NEXT:     __builtin_memcpy(ga, &mpiopt_fuse[[ID]]_buf[0], (n) * sizeof(double));
// SRC-NEXT:     __builtin_memcpy(gb, &mpiopt_fuse[[ID]]_buf[(n)], (m + 1) * sizeof(double));
// SRC-NEXT:     if (mpiopt_fuse[[ID]]_buf != mpiopt_fuse[[ID]]_small)
// SRC-NEXT:       __builtin_free(mpiopt_fuse[[ID]]_buf);
// SRC-NEXT:   }

// Negative cases are in negative.c.
