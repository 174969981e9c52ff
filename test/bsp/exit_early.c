/* Error cases: a process leaves while the others wait for it. The layer
 * must stop every process with a message instead of leaving them blocked.
 *   BSP_CASE=input:   bsp_init, then process 0 rejects its input and exits
 *                     before bsp_begin (the BSPedupack idiom for bad input);
 *   BSP_CASE=midway:  the last process exits between bsp_begin and bsp_end. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void spmd(void) {
  bsp_begin(bsp_nprocs());
  if (!strcmp(getenv("BSP_CASE"), "midway") && bsp_pid() == bsp_nprocs() - 1) exit(0);
  bsp_sync();
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  if (!strcmp(getenv("BSP_CASE"), "input")) {
    printf("Sorry, not enough processors available.\n");
    exit(1);
  }
  spmd();
  return 0;
}
