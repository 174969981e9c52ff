// An allocator and a free of another file (hypre's hypre_CAlloc and
// hypre_Free have this shape): heap-requests.c's requests live in memory
// from here, known through the program's facts.
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
