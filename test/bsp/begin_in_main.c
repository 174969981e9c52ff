/* Conformance: bsp_begin as the first statement of main (no bsp_init),
 * asking for fewer processes than were started: the others stop at once. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include "bsp_check.h"

int main(void) {
  int want = bsp_nprocs() > 1 ? bsp_nprocs() - 1 : 1;
  bsp_begin(want);
  check_rank = bsp_pid();
  CHECK(bsp_nprocs() == want, "asked for %d, got %d", want, bsp_nprocs());
  bsp_sync();
  bsp_check_report();
  bsp_end();
  return 0;
}
