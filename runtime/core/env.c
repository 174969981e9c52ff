/* Environment variables: see core.h. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

long mpiopt_env_long(const char *name, long def, long lo, long hi) {
  const char *v = getenv(name);
  if (!v || !*v) return def;
  char *end;
  long x = strtol(v, &end, 10);
  if (*end || x < lo || x > hi) mpiopt_die(MPI_COMM_NULL, "%s=%s: expected an integer from %ld to %ld", name, v, lo, hi);
  return x;
}

int mpiopt_env_choice(const char *name, const char *const *names, int n, int def) {
  const char *v = getenv(name);
  if (!v || !*v) return def;
  for (int i = 0; i < n; i++)
    if (strcmp(v, names[i]) == 0) return i;
  char list[512] = "";
  for (int i = 0; i < n; i++) {
    strncat(list, names[i], sizeof list - strlen(list) - 1);
    strncat(list, i + 2 < n ? ", " : i + 1 < n ? " or " : "", sizeof list - strlen(list) - 1);
  }
  mpiopt_die(MPI_COMM_NULL, "%s=%s: expected %s", name, v, list);
}
