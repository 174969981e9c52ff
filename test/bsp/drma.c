/* Conformance: registration, put and get (DRMA).
 *  - registration is collective and ordered, takes effect at the next sync,
 *    sizes may differ per process, NULL/0 is allowed;
 *  - the same address may be registered repeatedly: the most recent counts,
 *    pop removes the most recent, and a pop takes effect at the sync;
 *  - bsp_put copies its source at the call; data lands at the sync, after
 *    every get has read its source; bsp_get returns the value at the end of
 *    the superstep; hpput/hpget complete by the end of the sync;
 *  - many small puts and gets (merged records), puts to oneself, large
 *    transfers (beyond the inline block: messages or one-sided), strided
 *    patterns and zero-byte transfers. */
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bsp_check.h"

#define BIG (1 << 18) /* longs: 2 MiB */

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  check_rank = s;
  int right = (s + 1) % p, left = (s + p - 1) % p;

  /* Sizes differ per process; process 0 registers NULL for the second area. */
  int a[16], b[16];
  for (int i = 0; i < 16; i++) a[i] = b[i] = -1;
  bsp_push_reg(a, (int)sizeof a);
  bsp_push_reg(s == 0 ? NULL : b, s == 0 ? 0 : (int)sizeof b);
  bsp_sync();
  int v = 100 + s;
  bsp_put(right, &v, a, 0, (int)sizeof v);
  v = 999; /* the put copied its source at the call */
  CHECK(a[0] == -1, "a put landed before the sync");
  bsp_sync();
  CHECK(a[0] == 100 + left, "a[0] = %d, want %d", a[0], 100 + left);
  /* only processes that registered b can name it */
  if (s != 0 && right != 0) bsp_put(right, &s, b, 4, (int)sizeof s);
  bsp_sync();
  if (s != 0 && left != 0) CHECK(b[1] == left, "b[1] = %d, want %d", b[1], left);

  /* A put and a get on the same word in one superstep: the get sees the
   * value at the end of the superstep's computation, before any put. */
  a[2] = 1000 + s;
  int got = -5, got_hp = -5;
  bsp_get(right, a, 2 * (int)sizeof(int), &got, (int)sizeof got);
  bsp_hpget(right, a, 2 * (int)sizeof(int), &got_hp, (int)sizeof got_hp);
  int w = 2000 + s;
  bsp_put(right, &w, a, 2 * (int)sizeof(int), (int)sizeof w);
  a[2] = 1500 + s; /* after the get was issued: this is what it returns */
  bsp_sync();
  CHECK(got == 1500 + right, "get returned %d, want %d", got, 1500 + right);
  CHECK(got_hp == 1500 + right, "hpget returned %d, want %d", got_hp, 1500 + right);
  CHECK(a[2] == 2000 + left, "a[2] = %d, want %d", a[2], 2000 + left);

  /* hpput reads its source at the sync. */
  int hv = 1;
  bsp_hpput(right, &hv, a, 3 * (int)sizeof(int), (int)sizeof hv);
  hv = 300 + s;
  bsp_sync();
  CHECK(a[3] == 300 + left, "hpput delivered %d, want %d", a[3], 300 + left);

  /* Registering the same address again: the newest registration (larger
   * here) counts; popping it restores the older one at the next sync. */
  int big_a[64];
  (void)big_a;
  bsp_push_reg(a, (int)sizeof a); /* same size: pushes a second registration of a */
  bsp_sync();
  bsp_pop_reg(a);
  /* still usable in this superstep: the pop takes effect at the sync */
  int z = 7;
  bsp_put(right, &z, a, 15 * (int)sizeof(int), (int)sizeof z);
  bsp_sync();
  CHECK(a[15] == 7, "put during the pop's superstep: %d", a[15]);
  bsp_put(right, &z, a, 14 * (int)sizeof(int), (int)sizeof z); /* the first registration remains */
  bsp_sync();
  CHECK(a[14] == 7, "put after popping the newer registration: %d", a[14]);

  /* Registration takes effect at the next sync; a put in the same
   * superstep as the push is an error (tested in errors.c). */
  long *big = malloc(BIG * sizeof(long)), *src = malloc(BIG * sizeof(long)), *dst = malloc(BIG * sizeof(long));
  for (int i = 0; i < BIG; i++) {
    big[i] = -1;
    src[i] = (long)s * BIG + i;
  }
  bsp_push_reg(big, BIG * (int)sizeof(long));
  bsp_sync();

  /* One large put to the right neighbour, a large get from the left. */
  bsp_put(right, src, big, 0, BIG * (int)sizeof(long));
  for (int i = 0; i < BIG; i++) src[i] = -7; /* copied at the call */
  bsp_sync();
  int bad = 0;
  for (int i = 0; i < BIG; i++) bad += big[i] != (long)left * BIG + i;
  CHECK(bad == 0, "large put: %d wrong words", bad);
  bsp_get(left, big, 0, dst, BIG * (int)sizeof(long));
  bsp_sync();
  long want_left_of_left = (long)((left + p - 1) % p);
  bad = 0;
  for (int i = 0; i < BIG; i++) bad += dst[i] != want_left_of_left * BIG + i;
  CHECK(bad == 0, "large get: %d wrong words", bad);

  /* Many word puts to every process, contiguous and strided, and word gets. */
  for (int q = 0; q < p; q++)
    for (int i = 0; i < 1000; i++) {
      long x = 1000000L * s + i;
      bsp_put(q, &x, big, (s * 1000 + i) * (int)sizeof(long), (int)sizeof x); /* contiguous: merged */
      bsp_put(q, &x, big, (200000 + 2 * (s * 1000 + i)) * (int)sizeof(long), (int)sizeof x); /* strided */
    }
  bsp_put(right, src, big, 0, 0); /* zero bytes: nothing happens */
  bsp_sync();
  bad = 0;
  for (int q = 0; q < p; q++)
    for (int i = 0; i < 1000; i++) {
      bad += big[q * 1000 + i] != 1000000L * q + i;
      bad += big[200000 + 2 * (q * 1000 + i)] != 1000000L * q + i;
    }
  CHECK(bad == 0, "word puts: %d wrong", bad);
  for (int i = 0; i < 3000; i++) dst[i] = -3;
  for (int i = 0; i < 1000; i++) bsp_get(left, big, (right * 1000 + i) * (int)sizeof(long), &dst[i], (int)sizeof(long));
  for (int i = 0; i < 1000; i++) bsp_get(s, big, (200000 + 2 * i) * (int)sizeof(long), &dst[1000 + 2 * i], (int)sizeof(long));
  bsp_sync();
  bad = 0;
  for (int i = 0; i < 1000; i++) {
    bad += dst[i] != 1000000L * right + i;
    bad += dst[1000 + 2 * i] != (long)i; /* from process 0's puts (q = 0, i) */
    bad += dst[1001 + 2 * i] != -3;
  }
  CHECK(bad == 0, "word gets: %d wrong", bad);

  /* Many registrations pushed and popped in a loop (slots are reused). */
  for (int round = 0; round < 50; round++) {
    int tmp[4] = {0, 0, 0, 0};
    bsp_push_reg(tmp, (int)sizeof tmp);
    bsp_sync();
    bsp_put(right, &round, tmp, (round % 4) * (int)sizeof(int), (int)sizeof round);
    bsp_pop_reg(tmp);
    bsp_sync();
    CHECK(tmp[round % 4] == round, "round %d: %d", round, tmp[round % 4]);
  }

  bsp_pop_reg(big);
  bsp_pop_reg(s == 0 ? NULL : b);
  bsp_pop_reg(a);
  bsp_sync();
  bsp_check_report();
  bsp_end();
  free(big);
  free(src);
  free(dst);
  return 0;
}
