/* Geometric growth of the runtime's arrays: see core.h. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

void *mpiopt_grow_raw(void *p, size_t *cap, size_t need, size_t elem, size_t first) {
  if (need <= *cap) return p;
  size_t n = *cap ? *cap : first ? first : 8;
  while (n < need) n *= 2;
  void *q = realloc(p, n * elem);
  if (!q) mpiopt_die(MPI_COMM_NULL, "out of memory growing an array to %zu elements of %zu bytes", n, elem);
  *cap = n;
  return q;
}

void *mpiopt_grow_array(void *p, size_t *cap, size_t need, size_t elem, size_t first) {
  size_t old = *cap;
  if (need <= old) return p;
  char *q = mpiopt_grow_raw(p, cap, need, elem, first);
  memset(q + old * elem, 0, (*cap - old) * elem);
  return q;
}
