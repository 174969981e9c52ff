/* A BSPlib example: the inner product of x = (1, 2, ..., n) with itself,
 * the sum of the first n squares (n = 1000 gives 333833500), with x spread
 * cyclically over the processes. Process 0 reads n (default 1000 from the
 * command line) before the SPMD part, as classic BSPlib programs do.
 *   scripts/bspcc -O2 -o bsp_inprod examples/bsp_inprod.c
 *   scripts/bsprun -n 2 ./bsp_inprod 1000 */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

static int n_arg = 1000;

static void spmd(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  long n = n_arg; /* only process 0's is right: share it */
  bsp_push_reg(&n, (int)sizeof n);
  bsp_sync();
  bsp_get(0, &n, 0, &n, (int)sizeof n);
  bsp_sync();
  bsp_pop_reg(&n);

  long long local = 0;
  for (long i = s + 1; i <= n; i += p) local += (long long)i * i;

  long long *part = calloc((size_t)p, sizeof *part);
  bsp_push_reg(part, p * (int)sizeof *part);
  bsp_sync();
  for (int t = 0; t < p; t++) bsp_put(t, &local, part, s * (int)sizeof local, (int)sizeof local);
  bsp_sync();
  long long sum = 0;
  for (int t = 0; t < p; t++) sum += part[t];
  bsp_pop_reg(part);
  bsp_sync();
  if (s == 0) printf("sum of squares 1..%ld = %lld on %d processes\n", n, sum, p);
  free(part);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  if (argc > 1) n_arg = atoi(argv[1]);
  if (n_arg < 0) {
    fprintf(stderr, "bsp_inprod: n must not be negative\n");
    return 1;
  }
  spmd();
  return 0;
}
