/* Conformance, error cases: BSP_CASE names one programming error; the
 * program must abort with a message naming the process, the call and its
 * arguments (test/bsp/CMakeLists.txt holds the expected messages). Run with
 * at least 2 processes: several errors are disagreements between processes. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is(const char *c) { return !strcmp(getenv("BSP_CASE") ? getenv("BSP_CASE") : "", c); }

int main(void) {
  if (is("before_begin")) return bsp_pid();
  bsp_begin(bsp_nprocs());
  if (is("begin_twice")) bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid(), right = (s + 1) % p;
  long a[1] = {0}, b[4] = {0}, c[2] = {0};
  bsp_push_reg(a, sizeof a);
  bsp_push_reg(b, sizeof b);
  if (is("put_same_superstep")) bsp_put(right, a, b, 0, sizeof(long));
  bsp_sync();
  if (is("put_oob")) bsp_put(right, b, a, 8, 8);
  if (is("get_oob")) bsp_get(right, b, 24, c, 16);
  if (is("put_unreg")) bsp_put(right, a, c, 0, 8);
  if (is("bad_pid")) bsp_put(p + 3, a, b, 0, 8);
  if (is("send_bad_pid")) bsp_send(-1, NULL, a, 8);
  if (is("negative")) bsp_put(right, a, b, -8, 8);
  if (is("pop_unreg")) bsp_pop_reg(c);
  if (is("move_empty")) bsp_move(c, 8);
  if (is("move_negative")) bsp_move(c, -1);
  if (is("move_null")) bsp_move(NULL, 8);
  if (is("qsize_null")) {
    int n = 0;
    bsp_qsize(&n, NULL);
  }
  if (is("hpmove_null")) {
    void *pp = NULL;
    bsp_hpmove(NULL, &pp); /* checked before the (empty) queue is looked at */
  }
  if (is("abort") && s == p - 1) bsp_abort("custom failure %d on %s", 42, "purpose");
  if (is("unsafe_oob")) bsp_put(right, b, b, 24, 16); /* with MPIOPT_BSP_UNSAFE=1: caught where it lands */
  if (is("reg_mismatch")) {
    bsp_push_reg(c, sizeof c);
    if (s == 0) bsp_push_reg(c, sizeof c);
  }
  if (is("pop_mismatch")) bsp_pop_reg(s == 0 ? (void *)a : (void *)b);
  if (is("pop_dropped")) { /* the push popped in its superstep leaves a's one word in effect */
    bsp_push_reg(a, 4 * sizeof(long));
    bsp_pop_reg(a);
    bsp_sync();
    bsp_put(right, b, a, 0, 16);
  }
  if (is("pop_twice")) { /* one registration, two pops */
    bsp_pop_reg(a);
    bsp_pop_reg(a);
  }
  if (is("pop_null_notnull")) { /* process 0 pops NULL where the others pop b's registration, real here */
    bsp_push_reg(s == 0 ? NULL : (void *)c, s == 0 ? 0 : sizeof c);
    bsp_sync();
    bsp_pop_reg(s == 0 ? NULL : (void *)b);
  }
  if (is("pop_null_none")) { /* every process pops NULL; each has a NULL registration, none NULL everywhere */
    bsp_push_reg(s == 0 ? NULL : (void *)c, s == 0 ? 0 : sizeof c);
    bsp_push_reg(s == 0 ? (void *)c : NULL, s == 0 ? sizeof c : 0);
    bsp_sync();
    bsp_pop_reg(NULL);
  }
  if (is("tagsize_mismatch")) {
    int t = s == 0 ? 4 : 8;
    bsp_set_tagsize(&t);
  }
  if (is("tagsize_sequence")) { /* the last values agree, the sequences do not */
    int t = 4;
    if (s == 0) bsp_set_tagsize(&t);
    t = 8;
    bsp_set_tagsize(&t);
  }
  if (is("sync_end") && s == 0) bsp_end();
  bsp_sync();
  if (is("after_end")) {
    bsp_end();
    bsp_sync(); /* process 0 only: the others stopped in bsp_end */
  }
  printf("case %s: no error found\n", getenv("BSP_CASE") ? getenv("BSP_CASE") : "(none)");
  bsp_end();
  return 0;
}
