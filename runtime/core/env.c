/* Environment variables: see core.h. */
#include "core.h"

#include <stdio.h>
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

/* Started by the other MPI's launcher, an MPI program runs as several
 * singletons, each "process 0 of 1": the launcher's own variables say how
 * many processes it started. */
void mpiopt_check_launcher(const char *who) {
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1) return;
  static const struct {
    const char *size, *rank, *launcher, *built_for_other;
  } launchers[] = {
      {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "Open MPI's mpirun", "mpicc.openmpi"},
      {"PMI_SIZE", "PMI_RANK", "MPICH's mpiexec (Hydra)", "mpicc.mpich"},
  };
#ifdef OPEN_MPI
  const size_t own = 0;
#else
  const size_t own = 1;
#endif
  if (getenv(launchers[own].size)) return; /* our own launcher started this process */
  for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
    if (i == own) continue;
    const char *n = getenv(launchers[i].size), *r = getenv(launchers[i].rank);
    if (!n || atol(n) <= 1) continue;
    if (r) rank = atoi(r);
    if (rank == 0)
      fprintf(stderr,
              "%s: error: %s started %s processes, but each runs alone (MPI_COMM_WORLD has 1 process): the "
              "program was built for another MPI. Start it with that MPI's launcher (bsprun: BSPRUN_MPI=%s), or "
              "build it for this one (bspcc with BSPCC_MPICC=%s)\n",
              who, launchers[i].launcher, n, i == 0 ? "mpich" : "openmpi", launchers[i].built_for_other);
    exit(1);
  }
}
