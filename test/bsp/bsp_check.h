/* Shared by the BSPlib conformance programs: CHECK (test/runtime/check.h)
 * with the BSP process number, and the closing line rt.sh requires. */
#ifndef BSP_CHECK_H
#define BSP_CHECK_H
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include "../runtime/check.h"

/* Every process's failures are summed on process 0 with a put, so the one
 * "ok:" line covers them all. Call it in a superstep of its own. */
static void bsp_check_report(void) {
  int p = bsp_nprocs(), s = bsp_pid();
  int *all = calloc((size_t)p, 2 * sizeof(int));
  bsp_push_reg(all, p * 2 * (int)sizeof(int));
  bsp_sync();
  int mine[2] = {checks, failures};
  bsp_put(0, mine, all, s * 2 * (int)sizeof(int), 2 * (int)sizeof(int));
  bsp_sync();
  if (s == 0) {
    int c = 0, f = 0;
    for (int q = 0; q < p; q++) {
      c += all[2 * q];
      f += all[2 * q + 1];
    }
    printf("ok: %d checks, %d failures\n", c, f);
    fflush(stdout);
    if (f) bsp_abort("%d of %d checks failed", f, c);
  }
  bsp_pop_reg(all);
  bsp_sync();
  free(all);
}
#endif
