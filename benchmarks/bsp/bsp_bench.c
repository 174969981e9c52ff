/* bspbench-style measurement of the BSPlib layer: the time of a superstep
 * in which every process sends (put, send) or fetches (get) h words of 8
 * bytes, spread cyclically over the processes, for h = 0..HMAX; and the MPI
 * floor measured the same way in the same run (MPI_Barrier, MPI_Alltoall of
 * one word per pair, MPI_Alltoallv of the same h-relation).
 *
 *   bsp_bench OP HMAX ITERS    OP: put | get | send | hpput | alltoallv
 *   prints "h microseconds-per-superstep" for every h, then
 *   "barrier US" and "alltoall US" (process 0).
 *   bsp_bench bulk|bulkget MAXBYTES ITERS: one put (get) of n bytes to (from)
 *   the next process per superstep, n = 1 KiB, 4 KiB, ... MAXBYTES: the
 *   measurement behind the one-sided threshold (MPIOPT_BSP_RMA_MIN).
 * Each h: 5 warm-up supersteps, then the mean of ITERS. */
#include <bsp.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double floor_barrier(int iters) {
  for (int i = 0; i < 10; i++) MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  for (int i = 0; i < iters; i++) MPI_Barrier(MPI_COMM_WORLD);
  return (MPI_Wtime() - t) / iters * 1e6;
}

static double floor_alltoall(int p, int iters) {
  long *a = calloc((size_t)p, sizeof(long)), *b = calloc((size_t)p, sizeof(long));
  for (int i = 0; i < 10; i++) MPI_Alltoall(a, 1, MPI_LONG, b, 1, MPI_LONG, MPI_COMM_WORLD);
  double t = MPI_Wtime();
  for (int i = 0; i < iters; i++) MPI_Alltoall(a, 1, MPI_LONG, b, 1, MPI_LONG, MPI_COMM_WORLD);
  t = (MPI_Wtime() - t) / iters * 1e6;
  free(a);
  free(b);
  return t;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bsp_bench put|get|send|hpput|alltoallv HMAX ITERS\n");
    return 2;
  }
  const char *op = argv[1];
  int hmax = atoi(argv[2]), iters = atoi(argv[3]);
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  if (!strncmp(op, "bulk", 4)) {
    char *a = malloc((size_t)hmax), *b = malloc((size_t)hmax);
    memset(a, s, (size_t)hmax);
    bsp_push_reg(a, hmax);
    bsp_sync();
    for (int n = 1024; n <= hmax; n *= 4) {
      double t0 = 0;
      for (int it = -5; it < iters; it++) {
        if (it == 0) t0 = bsp_time();
        if (op[4] == 'g')
          bsp_get((s + 1) % p, a, 0, b, n);
        else
          bsp_put((s + 1) % p, b, a, 0, n);
        bsp_sync();
      }
      if (s == 0) printf("%d %.4f\n", n, (bsp_time() - t0) / iters * 1e6);
    }
    bsp_end();
    return 0;
  }
  int n = hmax + p; /* words each process may receive */
  double *src = malloc((size_t)n * sizeof(double)), *dst = malloc((size_t)n * sizeof(double));
  double *fetched = malloc((size_t)n * sizeof(double));
  int *cnt = calloc((size_t)p, sizeof(int)), *disp = calloc((size_t)p, sizeof(int));
  int *rcnt = calloc((size_t)p, sizeof(int)), *rdisp = calloc((size_t)p, sizeof(int));
  for (int i = 0; i < n; i++) src[i] = dst[i] = s + i * 1e-3;
  bsp_push_reg(dst, n * (int)sizeof(double));
  bsp_push_reg(src, n * (int)sizeof(double));
  int tag = 0;
  bsp_set_tagsize(&tag);
  bsp_sync();
  for (int i = 0; i < 200; i++) bsp_sync(); /* warm up the layer and MPI */
  int hs[64], nh = 0;
  for (int h = 0; h <= hmax && nh < 64; h = h < 16 ? h + 1 : h < 256 ? h + 16 : h + 128) hs[nh++] = h;
  for (int k = 0; k < nh; k++) {
    int h = hs[k];
    double t0 = 0;
    for (int it = -5; it < iters; it++) {
      if (it == 0) t0 = bsp_time();
      if (!strcmp(op, "alltoallv")) {
        /* The same h-relation with one MPI collective: the data-movement floor. */
        for (int q = 0; q < p; q++) {
          cnt[q] = h / p + ((q - s - 1 + 2 * p) % p < h % p);    /* to q */
          rcnt[q] = h / p + ((s - q - 1 + 2 * p) % p < h % p);   /* from q */
        }
        for (int q = 1; q < p; q++) {
          disp[q] = disp[q - 1] + cnt[q - 1];
          rdisp[q] = rdisp[q - 1] + rcnt[q - 1];
        }
        MPI_Alltoallv(src, cnt, disp, MPI_DOUBLE, dst, rcnt, rdisp, MPI_DOUBLE, MPI_COMM_WORLD);
        continue;
      }
      for (int i = 0; i < h; i++) {
        int q = (s + 1 + i) % p;  /* cyclic over the processes */
        int at = (i / p) * p + s; /* where the word lands (distinct per source) */
        if (op[0] == 'p')
          bsp_put(q, &src[i], dst, at * (int)sizeof(double), (int)sizeof(double));
        else if (op[0] == 'h')
          bsp_hpput(q, &src[i], dst, at * (int)sizeof(double), (int)sizeof(double));
        else if (op[0] == 'g')
          bsp_get(q, src, at * (int)sizeof(double), &fetched[i], (int)sizeof(double));
        else
          bsp_send(q, NULL, &src[i], (int)sizeof(double));
      }
      bsp_sync();
      if (op[0] == 's') { /* receive what was sent, as a program would */
        int st;
        for (bsp_get_tag(&st, NULL); st != -1; bsp_get_tag(&st, NULL)) bsp_move(&dst[0], (int)sizeof(double));
      }
    }
    double t = (bsp_time() - t0) / iters * 1e6;
    if (s == 0) printf("%d %.4f\n", h, t);
  }
  double b = floor_barrier(iters * 4), a = floor_alltoall(p, iters * 4);
  if (s == 0) printf("barrier %.4f\nalltoall %.4f\n", b, a);
  bsp_pop_reg(src);
  bsp_pop_reg(dst);
  bsp_sync();
  bsp_end();
  return 0;
}
