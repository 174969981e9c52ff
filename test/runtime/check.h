/* The runtime tests' assertion: CHECK(condition, printf-style message)
 * counts every check and prints (at most 20) failures with this rank. Each
 * test sets check_rank, prints "ok: N checks, 0 failures" at the end (rt.sh
 * requires it) and exits non-zero on a failure. C and C++. */
#ifndef MPIOPT_TEST_CHECK_H
#define MPIOPT_TEST_CHECK_H
#include <stdio.h>

static int checks, failures, check_rank;

#define CHECK(cond, ...)                                                          \
  do {                                                                            \
    checks++;                                                                     \
    if (!(cond) && ++failures <= 20) {                                            \
      fprintf(stderr, "rank %d: FAIL %s:%d: ", check_rank, __FILE__, __LINE__);   \
      fprintf(stderr, __VA_ARGS__);                                               \
      fputc('\n', stderr);                                                        \
    }                                                                             \
  } while (0)

#endif
