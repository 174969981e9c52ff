/* An allocator and a free (hypre_memory.c's shape): halo.c's requests live
 * in memory from here, which the link knows through the program's facts. */
#include "mem.h"
#include <stdio.h>
#include <stdlib.h>

void *mem_calloc(size_t count, size_t size) {
  void *ptr = NULL;
  if (count * size > 0) {
    ptr = calloc(count, size);
    if (ptr == NULL) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
  }
  return (char *)ptr;
}

void mem_free(char *ptr) {
  if (ptr)
    free(ptr);
}
