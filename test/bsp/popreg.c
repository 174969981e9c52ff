/* Conformance: bsp_pop_reg (issue 17, rules 2 and 3).
 *  - pushes and pops take effect at the sync, in call order by identity: a
 *    pop names the most recent registration of its address that is in
 *    effect or pushed earlier in the same superstep and not yet popped; a
 *    push followed by its pop leaves nothing;
 *  - NULL in a pop is a wildcard: where the other processes pop a real
 *    address at the same position, the NULL pop takes the registration they
 *    name; where every process pops NULL, the most recent registration that
 *    is NULL everywhere goes. Registrations pushed in the same superstep
 *    count. */
#include <bsp.h>
#include <stdio.h>
#include <string.h>
#include "bsp_check.h"

static int p, s;

/* A push and its pop in one superstep leave the earlier registration in
 * effect; a push after a pop of the same address replaces it. */
static void same_superstep(void) {
  long a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0};
  bsp_push_reg(a, (int)sizeof(long)); /* #1: one word */
  bsp_sync();
  bsp_push_reg(a, (int)sizeof a); /* #2, popped at once: #1 stays */
  bsp_pop_reg(a);
  bsp_push_reg(b, (int)sizeof b); /* never in effect */
  bsp_pop_reg(b);
  bsp_sync();
  long w = 100 + s;
  bsp_put((s + 1) % p, &w, a, 0, (int)sizeof w);
  bsp_sync();
  CHECK(a[0] == 100 + (s + p - 1) % p, "a[0] = %ld after a put through the registration left in effect", a[0]);
  bsp_pop_reg(a); /* pops #1 ... */
  bsp_push_reg(a, (int)sizeof a); /* ... and #3, four words, takes its place */
  bsp_sync();
  long v[4] = {1, 2, 3, 4 + s};
  bsp_put((s + 1) % p, v, a, 0, (int)sizeof v);
  bsp_sync();
  CHECK(a[3] == 4 + (s + p - 1) % p, "a[3] = %ld after a put of four words through the new registration", a[3]);
  /* Slots freed by dropped pushes are reused the same way everywhere. */
  long c = -1;
  bsp_push_reg(&c, (int)sizeof c);
  bsp_sync();
  bsp_put((s + 1) % p, &w, &c, 0, (int)sizeof w);
  bsp_sync();
  CHECK(c == 100 + (s + p - 1) % p, "c = %ld after a put through a reused slot", c);
  bsp_pop_reg(&c);
  bsp_pop_reg(a);
  bsp_sync();
}

/* Process 0 registers NULL where the others register real areas (r1, then
 * r2); it pops NULL where they pop r1: its NULL pop must take r1's
 * registration, not the most recent NULL one, so that its puts to NULL
 * still reach r2 on the others. */
static void wildcard_follows_others(void) {
  long r1[2] = {0, 0}, r2[2] = {0, 0};
  bsp_push_reg(s == 0 ? NULL : r1, s == 0 ? 0 : (int)sizeof r1);
  bsp_push_reg(s == 0 ? NULL : r2, s == 0 ? 0 : (int)sizeof r2);
  bsp_sync();
  bsp_pop_reg(s == 0 ? NULL : r1);
  bsp_sync();
  long w = 77;
  if (s == 0)
    for (int q = 1; q < p; q++) bsp_put(q, &w, NULL, 0, (int)sizeof w);
  bsp_sync();
  if (s != 0) {
    CHECK(r2[0] == 77, "r2[0] = %ld: process 0's put to NULL missed r2", r2[0]);
    CHECK(r1[0] == 0, "r1[0] = %ld: process 0's put to NULL landed in the popped r1", r1[0]);
  }
  bsp_pop_reg(s == 0 ? NULL : r2);
  bsp_sync();
  /* The same with the registration pushed in this very superstep. */
  bsp_push_reg(s == 0 ? NULL : r1, s == 0 ? 0 : (int)sizeof r1);
  bsp_pop_reg(s == 0 ? NULL : r1);
  bsp_sync();
}

/* Every process pops NULL: the most recent registration that is NULL on
 * every process goes (here #2 of the three), which leaves the real area
 * between them and the older NULL one. */
static void wildcard_everywhere(void) {
  long z[2] = {0, 0};
  bsp_push_reg(NULL, 0);
  bsp_push_reg(z, (int)sizeof z);
  bsp_push_reg(NULL, 0);
  bsp_sync();
  bsp_pop_reg(NULL);
  bsp_sync();
  long w = 5 + s;
  bsp_put((s + 1) % p, &w, z, 0, (int)sizeof w);
  bsp_sync();
  CHECK(z[0] == 5 + (s + p - 1) % p, "z[0] = %ld after the NULL pop", z[0]);
  bsp_pop_reg(z);
  bsp_pop_reg(NULL); /* the older NULL registration is still there */
  bsp_sync();
  /* and a NULL push popped in the same superstep leaves nothing */
  bsp_push_reg(NULL, 0);
  bsp_pop_reg(NULL);
  bsp_sync();
}

int main(void) {
  bsp_begin(bsp_nprocs());
  p = bsp_nprocs();
  s = bsp_pid();
  check_rank = s;
  same_superstep();
  wildcard_follows_others();
  wildcard_everywhere();
  bsp_check_report();
  bsp_end();
  return 0;
}
