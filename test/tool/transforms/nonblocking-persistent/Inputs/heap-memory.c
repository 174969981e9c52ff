// An allocator and a free of another file (hypre's hypre_CAlloc and
// hypre_Free have this shape): heap-requests.c's requests live in memory
// from here, known through the program's facts.
#include <mpi.h>
#include <stdlib.h>

void *other_calloc(size_t count, size_t size) {
  void *ptr = NULL;
  if (count * size > 0) {
    ptr = calloc(count, size);
    if (ptr == NULL)
      abort();
  }
  return (char *)ptr;
}

void other_free(char *ptr) {
  if (ptr)
    free(ptr);
}

// Keeps what it is given: not a free.
static void *kept;
void other_keep(void *ptr) {
  kept = ptr;
  free(ptr);
}

// Returns memory of a static pool, not a fresh object: heap-requests.c's
// pool_wrapper, which returns what this returns, is not fresh either (the
// first round of the facts assumes it is; the later rounds must not keep
// that answer).
static MPI_Request pool[8];
void *other_pool(void) { return pool; }
MPI_Request *other_pool_request(int i) { return &pool[i]; }
