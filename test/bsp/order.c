/* Conformance: the order in which a sync writes (issue 17, rule 1), the same
 * on every exchange path and at every size:
 *   1. every get source is read first (a process's area may be a get source
 *      for another process and the destination of its own get);
 *   2. then each process writes its get results in the order it issued the
 *      gets, its own pid included: a later get wins where destinations
 *      overlap;
 *   3. only then does put data land, by source process and, within a source,
 *      in issue order; a put into one's own memory overlapping a get's
 *      destination ends with the put's data.
 * Each case runs at three sizes: one word (inline in the all-to-all block),
 * 8 KiB (a message stream) and 128 KiB (one-sided in the default window;
 * MPIOPT_BSP_EXCHANGE=rma sends every size one-sided). */
#include "bsp_check.h"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 16384 /* longs: 128 KiB */

static long *A, *B, *X, *Y, *Z, *D, *P;
static int p, s, right, cur_n; /* cur_n: the size of the case, for messages */

static long val(int tag, int pid, int i) { return (long)tag * 100000000L + (long)pid * 1000000L + i; }

static void fill(long *v, int n, int tag, int pid) {
  for (int i = 0; i < n; i++)
    v[i] = val(tag, pid, i);
}

/* The first index of from..to-1 where v differs from tag/pid's pattern, or -1. */
static int differs(const long *v, int from, int to, int tag, int pid) {
  for (int i = from; i < to; i++)
    if (v[i] != val(tag, pid, i))
      return i;
  return -1;
}

/* v[from..to-1] holds tag/pid's pattern. */
#define EXPECT(v, from, to, tag, pid, what)                                                                            \
  do {                                                                                                                 \
    int at_ = differs(v, from, to, tag, pid);                                                                          \
    CHECK(at_ < 0, "n=%d, %s (elements %d..%d): element %d is %ld, want %ld", cur_n, what, from, to - 1, at_,          \
          at_ < 0 ? 0L : (v)[at_], val(tag, pid, at_ < 0 ? 0 : at_));                                                  \
  } while (0)

/* Rule 2: gets with overlapping destinations land in issue order. */
static void gets_in_issue_order(int n) {
  int bytes = n * (int)sizeof(long);
  fill(A, n, 1, s);
  fill(B, n, 2, s);
  bsp_get(right, A, 0, D, bytes);
  bsp_get(s, B, 0, D, bytes);
  bsp_sync();
  EXPECT(D, 0, n, 2, s, "a get from oneself issued after a get from the right");
  bsp_get(s, B, 0, D, bytes);
  bsp_get(right, A, 0, D, bytes);
  bsp_sync();
  EXPECT(D, 0, n, 1, right, "a get from the right issued after a get from oneself");
  /* A get into memory nothing else touches (it may go straight to place). */
  bsp_get(right, A, 0, P, bytes);
  bsp_sync();
  EXPECT(P, 0, n, 1, right, "a get alone into unregistered memory");
  /* Half overlapping: the second get wins on the overlap only. */
  if (n > 1) {
    bsp_get(right, A, 0, D, bytes);
    bsp_get(s, B, bytes / 2, D + n / 2, bytes / 2);
    bsp_sync();
    EXPECT(D, 0, n / 2, 1, right, "the part of the first get that the second does not cover");
    EXPECT(D, n / 2, n, 2, s, "the second get's part");
  }
}

/* Rule 1: an area is read as a get source before any get result lands in
 * it: every process gets its right neighbour's X into its own X. */
static void sources_read_first(int n) {
  int bytes = n * (int)sizeof(long);
  fill(X, n, 3, s);
  bsp_get(right, X, 0, X, bytes);
  bsp_sync();
  EXPECT(X, 0, n, 3, right, "a get into an area that is another process's get source");
  /* and the same with a put landing in the source too: the get reads first */
  fill(X, n, 4, s);
  fill(P, n, 5, s);
  bsp_get(right, X, 0, Y, bytes);
  bsp_put(right, P, X, 0, bytes);
  bsp_sync();
  EXPECT(Y, 0, n, 4, right, "a get whose source a put overwrites in the same superstep");
  EXPECT(X, 0, n, 5, (s + p - 1) % p, "the put into the get's source");
}

/* Rule 3, oneself: a put into one's own memory that overlaps a get's
 * destination ends with the put's data, whichever was issued first. */
static void own_put_after_gets(int n) {
  int bytes = n * (int)sizeof(long);
  fill(Y, n, 6, s);
  fill(P, n, 7, s);
  bsp_get(right, Y, 0, X, bytes);
  bsp_put(s, P, X, 0, bytes);
  bsp_sync();
  EXPECT(X, 0, n, 7, s, "a put to oneself after a get into the same place");
  fill(P, n, 8, s);
  bsp_put(s, P, X, 0, bytes);
  bsp_get(right, Y, 0, X, bytes);
  bsp_sync();
  EXPECT(X, 0, n, 8, s, "a put to oneself before a get into the same place");
}

/* Rule 3: puts land by source process, and within a source in issue order,
 * whatever path each takes. Every process puts into process 0's Z. */
static void puts_by_source(int n) {
  int bytes = n * (int)sizeof(long);
  /* within a source: a large put, then a one-word put over its start */
  fill(P, n, 9, s);
  long w = val(10, s, 0);
  if (s == p - 1) {
    bsp_put(0, P, Z, 0, bytes);
    bsp_put(0, &w, Z, 0, (int)sizeof w);
  }
  bsp_sync();
  if (s == 0) {
    EXPECT(Z, 0, 1, 10, p - 1, "a one-word put after a larger one from the same source");
    if (n > 1)
      EXPECT(Z, 1, n, 9, p - 1, "the rest of the larger put");
  }
  /* the word first, then the large put over it */
  if (s == p - 1) {
    bsp_put(0, &w, Z, 0, (int)sizeof w);
    bsp_put(0, P, Z, 0, bytes);
  }
  bsp_sync();
  if (s == 0)
    EXPECT(Z, 0, n, 9, p - 1, "a larger put after a one-word put from the same source");
  /* across sources: odd processes put one word, even ones n words; the last
   * process wins word 0, the last even one the rest */
  fill(P, n, 11, s);
  bsp_put(0, P, Z, 0, s % 2 ? (int)sizeof(long) : bytes);
  bsp_sync();
  if (s == 0) {
    EXPECT(Z, 0, 1, 11, p - 1, "word 0, put by every process");
    int last_even = (p - 1) % 2 ? p - 2 : p - 1;
    if (n > 1)
      EXPECT(Z, 1, n, 11, last_even, "the rest, put by the even processes");
  }
}

int main(void) {
  bsp_begin(bsp_nprocs());
  p = bsp_nprocs();
  s = bsp_pid();
  check_rank = s;
  right = (s + 1) % p;
  long **areas[] = {&A, &B, &X, &Y, &Z, &D, &P};
  for (size_t k = 0; k < sizeof areas / sizeof *areas; k++)
    *areas[k] = calloc(MAXN, sizeof(long));
  int bytes = MAXN * (int)sizeof(long);
  bsp_push_reg(A, bytes);
  bsp_push_reg(B, bytes);
  bsp_push_reg(X, bytes);
  bsp_push_reg(Y, bytes);
  bsp_push_reg(Z, bytes);
  bsp_sync();
  const int sizes[] = {1, 1024, MAXN};
  for (int k = 0; k < 3; k++) {
    cur_n = sizes[k];
    gets_in_issue_order(sizes[k]);
    sources_read_first(sizes[k]);
    own_put_after_gets(sizes[k]);
    puts_by_source(sizes[k]);
  }
  bsp_check_report();
  bsp_end();
  for (size_t k = 0; k < sizeof areas / sizeof *areas; k++)
    free(*areas[k]);
  return 0;
}
