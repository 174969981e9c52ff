/* Conformance: the program's life. bsp_nprocs is valid before bsp_begin
 * (and the header's fast bsp_pid()/bsp_nprocs() agree with the functions);
 * bsp_init lets bsp_begin live outside main (only process 0 runs main's code
 * before it: it reads the process count, the others receive it); bsp_begin
 * with more processes than exist gives what exists; bsp_time runs forward;
 * only process 0 continues after bsp_end, where bsp_nprocs gives the size
 * of the finished parallel section. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include "bsp_check.h"

static int P;      /* set by process 0's main only */
static int main_ran;

static void spmd(void) {
  bsp_begin(P);
  int p = bsp_nprocs(), s = bsp_pid();
  check_rank = s;
  CHECK(p >= 1 && s >= 0 && s < p, "pid %d of %d", s, p);
  /* bsp_pid() and bsp_nprocs() are a load in the header; the names alone
   * still name the functions, which agree. */
  int (*pid_fn)(void) = bsp_pid, (*nprocs_fn)(void) = bsp_nprocs;
  CHECK(pid_fn() == s && nprocs_fn() == p, "the functions give %d of %d, the header %d of %d", pid_fn(),
        nprocs_fn(), s, p);
  CHECK(s == 0 || !main_ran, "process %d ran main's code before bsp_begin", s);
  CHECK(s != 0 || main_ran, "process 0 did not run main");
  double t0 = bsp_time();
  CHECK(t0 >= 0, "bsp_time %g", t0);
  bsp_sync();
  CHECK(bsp_time() >= t0, "bsp_time went back");
  /* every process took part in the supersteps: count them by puts */
  int *seen = calloc((size_t)p, sizeof(int));
  bsp_push_reg(seen, p * (int)sizeof(int));
  bsp_sync();
  int one = 1;
  for (int q = 0; q < p; q++) bsp_put(q, &one, seen, s * (int)sizeof(int), (int)sizeof(int));
  bsp_sync();
  for (int q = 0; q < p; q++) CHECK(seen[q] == 1, "process %d missing", q);
  bsp_pop_reg(seen);
  bsp_check_report();
  bsp_end();
  if (s != 0) {
    printf("FAIL: process %d continued after bsp_end\n", s);
    exit(1);
  }
  /* The process that continues: bsp_nprocs is the finished section's size. */
  if (bsp_nprocs() != p) {
    printf("FAIL: bsp_nprocs after bsp_end = %d, want %d\n", bsp_nprocs(), p);
    exit(1);
  }
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  main_ran = 1;
  int avail = bsp_nprocs(); /* before bsp_begin: what can be started */
  if (avail < 1) {
    printf("FAIL: bsp_nprocs before bsp_begin = %d\n", avail);
    return 1;
  }
  P = avail + 3; /* more than exist: the standard gives what exists */
  spmd();
  printf("process 0 continues after bsp_end\n");
  return 0;
}
