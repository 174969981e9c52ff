/* The table of fusion algorithms and the rule that selects one per flush.
 *
 *   one group                  -> grouped (a single builtin collective)
 *   asynchronous mode          -> grouped (builtin nonblocking collectives)
 *   g >= MPIOPT_LAZY_COMPOSITE_MIN_GROUPS groups and
 *   N <= MPIOPT_LAZY_COMPOSITE_MAX_BYTES bytes -> composite
 *   otherwise                  -> grouped
 *
 * The defaults come from benchmarks/lazy (the "mixed" table): with 2 ranks
 * on shared memory, and with Open MPI at 4 ranks, one composite collective
 * beats two builtin ones from two groups up, for payloads up to tens of KiB;
 * beyond that the library's vectorised builtin reductions win.
 * MPIOPT_LAZY_FUSE=grouped|composite forces one (composite falls back to
 * grouped only in asynchronous mode). */
#include <string.h>

#include "lazy_internal.h"

/* In the order of MPIOPT_LAZY_FUSE's values after "auto" (lazy/queue.c). */
const mpiopt_lazy_algorithm mpiopt_lazy_algorithms[] = {
    {"grouped", mpiopt_lazy_fuse_grouped},
    {"composite", mpiopt_lazy_fuse_composite},
};
const int mpiopt_lazy_nalgorithms = (int)(sizeof mpiopt_lazy_algorithms / sizeof mpiopt_lazy_algorithms[0]);

const mpiopt_lazy_algorithm *mpiopt_lazy_select(const mpiopt_lazy_batch *b, int nonblocking) {
  if (b->ngroups <= 1 || nonblocking) return &mpiopt_lazy_algorithms[0];
  if (mpiopt_lazy_cfg.fuse >= 0) return &mpiopt_lazy_algorithms[mpiopt_lazy_cfg.fuse];
  size_t bytes = 0;
  for (int j = 0; j < b->ngroups; j++) bytes += b->groups[j].used;
  if (b->ngroups >= mpiopt_lazy_cfg.composite_min_groups && bytes <= mpiopt_lazy_cfg.composite_max_bytes)
    return &mpiopt_lazy_algorithms[1];
  return &mpiopt_lazy_algorithms[0];
}
