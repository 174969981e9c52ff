/* Conformance: bulk synchronous message passing (BSMP).
 *  - bsp_set_tagsize is collective, returns the previous value and takes
 *    effect in the next superstep (messages already queued keep theirs);
 *  - bsp_send copies tag and payload at the call; empty tags and payloads
 *    are allowed; bsp_hpsend reads the payload at the sync;
 *  - bsp_qsize counts the queue; bsp_get_tag reports -1 on an empty queue;
 *  - bsp_move copies at most the buffer's size; bsp_hpmove hands out
 *    pointers into the queue;
 *  - unread messages are dropped at the next sync. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bsp_check.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  check_rank = s;
  int st, n, nb;

  /* Empty queue, tag size 0 by default. */
  bsp_get_tag(&st, NULL);
  CHECK(st == -1, "empty queue: status %d", st);
  bsp_qsize(&n, &nb);
  CHECK(n == 0 && nb == 0, "empty qsize %d %d", n, nb);

  /* Tag size 0, empty payloads: the message still counts. */
  for (int q = 0; q < p; q++) bsp_send(q, NULL, NULL, 0);
  bsp_sync();
  bsp_qsize(&n, &nb);
  CHECK(n == p && nb == 0, "empty messages: qsize %d %d", n, nb);
  bsp_get_tag(&st, NULL);
  CHECK(st == 0, "empty message: status %d", st);

  /* Set the tag size: the previous one is returned; it applies next
   * superstep. Every process sets it twice here, the same values in the
   * same order (collective), and the last one counts. */
  int ts = 16;
  bsp_set_tagsize(&ts);
  CHECK(ts == 0, "previous tag size %d", ts);
  ts = (int)sizeof(int);
  bsp_set_tagsize(&ts);
  CHECK(ts == 16, "previous tag size %d (set earlier in the superstep)", ts);
  bsp_sync(); /* the empty messages are dropped here */
  bsp_qsize(&n, &nb);
  CHECK(n == 0, "unread messages not dropped: %d", n);

  /* Tagged messages of different sizes to everybody; payload copied at the call. */
  double payload[64];
  for (int q = 0; q < p; q++) {
    int tag = 100 * s + q;
    int len = 1 + (s + q) % 7;
    for (int i = 0; i < len; i++) payload[i] = s * 1000 + q * 10 + i;
    bsp_send(q, &tag, payload, len * (int)sizeof(double));
    tag = -1;
    memset(payload, 0, sizeof payload);
  }
  /* and a large message to the right neighbour */
  int right = (s + 1) % p, left = (s + p - 1) % p;
  int *large = malloc(100000 * sizeof(int));
  for (int i = 0; i < 100000; i++) large[i] = s + i;
  int ltag = 7777;
  bsp_send(right, &ltag, large, 100000 * (int)sizeof(int));
  bsp_sync();
  bsp_qsize(&n, &nb);
  int want_bytes = 100000 * (int)sizeof(int);
  for (int q = 0; q < p; q++) want_bytes += (1 + (q + s) % 7) * (int)sizeof(double);
  CHECK(n == p + 1 && nb == want_bytes, "qsize %d %d, want %d %d", n, nb, p + 1, want_bytes);
  int seen = 0, bad = 0, got_large = 0;
  int tag;
  for (bsp_get_tag(&st, &tag); st != -1; bsp_get_tag(&st, &tag)) {
    if (tag == 7777) {
      CHECK(st == 100000 * (int)sizeof(int), "large status %d", st);
      int *buf = malloc((size_t)st);
      bsp_move(buf, st);
      for (int i = 0; i < 100000; i++) bad += buf[i] != left + i;
      free(buf);
      got_large++;
      continue;
    }
    int from = tag / 100, to = tag % 100;
    CHECK(to == s && from >= 0 && from < p, "tag %d", tag);
    int len = 1 + (from + s) % 7;
    CHECK(st == len * (int)sizeof(double), "status %d from %d", st, from);
    double buf[8] = {0};
    bsp_move(buf, 2 * (int)sizeof(double)); /* a short buffer: at most 2 doubles copied */
    CHECK(buf[0] == from * 1000 + s * 10 && (len < 2 || buf[1] == buf[0] + 1) && buf[2] == 0,
          "payload from %d: %g %g %g", from, buf[0], buf[1], buf[2]);
    seen |= 1 << from;
  }
  CHECK(seen == (1 << p) - 1 && got_large == 1 && bad == 0, "seen %x, large %d, bad %d", seen, got_large, bad);
  free(large);

  /* The tag size changes for the next superstep only: messages sent now
   * still carry 4-byte tags. */
  int ts2 = 8;
  bsp_set_tagsize(&ts2);
  CHECK(ts2 == (int)sizeof(int), "previous tag size %d", ts2);
  int t4 = 40 + s;
  bsp_send(right, &t4, &t4, (int)sizeof t4);
  bsp_sync();
  long long t8 = 0;
  bsp_get_tag(&st, &t8);
  CHECK(st == (int)sizeof(int) && (int)t8 == 40 + left && (t8 >> 32) == 0, "4-byte tag %lld", t8);
  /* hpsend reads the payload at the sync; hpmove hands out pointers. */
  long long tag8 = 0x123456789abcLL + s;
  int hp = 1;
  bsp_hpsend(right, &tag8, &hp, (int)sizeof hp);
  hp = 500 + s;
  bsp_sync();
  void *tp, *pp;
  int len = bsp_hpmove(&tp, &pp);
  CHECK(len == (int)sizeof(int), "hpmove length %d", len);
  if (len == (int)sizeof(int)) {
    long long tg;
    memcpy(&tg, tp, 8);
    CHECK(tg == 0x123456789abcLL + left, "8-byte tag %llx", tg);
    CHECK(*(int *)pp == 500 + left, "hpsend payload %d", *(int *)pp);
    CHECK(((size_t)pp & 7) == 0, "payload pointer %p not aligned", pp);
  }
  CHECK(bsp_hpmove(&tp, &pp) == -1, "hpmove on an empty queue");

  /* Many small messages (many records in one stream). */
  for (int i = 0; i < 5000; i++) {
    long long tg = i;
    bsp_send(right, &tg, &i, (int)sizeof i);
  }
  bsp_sync();
  bsp_qsize(&n, &nb);
  CHECK(n == 5000 && nb == 5000 * (int)sizeof(int), "5000 messages: %d %d", n, nb);
  long sum = 0;
  for (int i = 0; i < 5000; i++) {
    int v;
    bsp_move(&v, (int)sizeof v);
    sum += v;
  }
  CHECK(sum == 5000L * 4999 / 2, "sum %ld", sum);
  ts = 0;
  bsp_set_tagsize(&ts);
  bsp_sync();
  bsp_check_report();
  bsp_end();
  return 0;
}
