/* The program's memory layer, as hypre's hypre_CAlloc and hypre_Free. */
#ifndef MEM_H
#define MEM_H
#include <stddef.h>
void *mem_calloc(size_t count, size_t size);
void mem_free(char *ptr);
long halo(int it, int nn);
#endif
