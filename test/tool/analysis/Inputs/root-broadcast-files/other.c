/* The other file of root-broadcast-files.c: it writes neither global, but
   report() calls back into the main file's check_bound, which writes
   bound. */
#include <stdio.h>

extern int level, bound;
int check_bound(void);

void report(void) {
  if (check_bound())
    printf("%d %d\n", level, bound);
}
