/* Conformance: a program written against MulticoreBSP for C (it includes
 * <mcbsp.h>: unsigned process numbers, size_t sizes, (size_t)-1 for an
 * empty queue, bsp_direct_get where MPI one-sided communication exists). */
#include <mcbsp.h>
#include <stdio.h>
#include <stdlib.h>
#include "bsp_check.h"

static void spmd(void) {
  bsp_begin(bsp_nprocs());
  bsp_pid_t s = bsp_pid();
  bsp_nprocs_t p = bsp_nprocs();
  check_rank = (int)s;
  size_t x[4] = {s, s * 10u, 0, 0};
  bsp_push_reg(x, sizeof x);
  bsp_sync();
  bsp_pid_t right = (s + 1) % p;
  bsp_put(right, &x[0], x, 2 * sizeof(size_t), sizeof(size_t));
  size_t got = 0;
  bsp_get(right, x, sizeof(size_t), &got, sizeof got);
  bsp_sync();
  CHECK(x[2] == (s + p - 1) % p, "put: %zu", x[2]);
  CHECK(got == right * 10u, "get: %zu", got);
  if (getenv("BSP_TEST_DIRECT_GET")) {
    size_t d = 0;
    bsp_direct_get(right, x, sizeof(size_t), &d, sizeof d);
    CHECK(d == right * 10u, "direct_get: %zu", d);
  }
  bsp_sync();
  size_t status = 0, ts = sizeof(unsigned);
  bsp_set_tagsize(&ts);
  CHECK(ts == 0, "previous tag size %zu", ts);
  bsp_get_tag(&status, NULL);
  CHECK(status == (size_t)-1, "empty queue status %zu", status);
  bsp_sync();
  unsigned tag = s;
  bsp_send(right, &tag, x, sizeof x);
  bsp_sync();
  bsp_nprocs_t packets = 0;
  bsp_size_t bytes = 0;
  bsp_qsize(&packets, &bytes);
  CHECK(packets == 1 && bytes == sizeof x, "qsize %u %zu", packets, bytes);
  void *tp, *pp;
  bsp_size_t len = bsp_hpmove(&tp, &pp);
  CHECK(len == sizeof x && *(unsigned *)tp == (s + p - 1) % p, "hpmove %zu", len);
  bsp_pop_reg(x);
  bsp_sync();
  bsp_check_report();
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  spmd();
  return 0;
}
