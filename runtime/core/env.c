/* Environment variables: see core.h. */
#include "core.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

extern char **environ;

/* Every MPIOPT_ variable of the project: the runtime's and the tools' (a
   program often runs with ompi-cc's in its environment), so that a
   misspelt one is reported (test/docs/check_docs.py checks that each
   variable docs/runtime.md lists is here). */
static const char *const known[] = {
    "MPIOPT_ALLGATHERV_ALGO", "MPIOPT_ALLGATHERV_TRIAL", "MPIOPT_ALLREDUCE_ALGO", "MPIOPT_ALLREDUCE_MODEL",
    "MPIOPT_ALLTOALLV_ALGO", "MPIOPT_ALLTOALLV_MODEL", "MPIOPT_ALLTOALLV_TRIAL", "MPIOPT_BSP_BULK_MIN",
    "MPIOPT_BSP_EXCHANGE", "MPIOPT_BSP_INLINE", "MPIOPT_BSP_RMA_MAX", "MPIOPT_BSP_RMA_MIN", "MPIOPT_BSP_SYNC",
    "MPIOPT_BSP_UNSAFE", "MPIOPT_BUILD_DIR", "MPIOPT_CC_ACTIVE", "MPIOPT_CC_FORCE_COPY", "MPIOPT_CC_PROGRAM",
    "MPIOPT_CC_TIMEOUT", "MPIOPT_CC_VIA_WRAPPER", "MPIOPT_CC_WHOLE_PROGRAM", "MPIOPT_CHECK", "MPIOPT_CHECK_TIMEOUT",
    "MPIOPT_FUZZ_MPI_INCLUDE", "MPIOPT_FUZZ_VERBOSE",
    "MPIOPT_LAZY", "MPIOPT_LAZY_ADAPT", "MPIOPT_LAZY_ASYNC", "MPIOPT_LAZY_BACKOFF", "MPIOPT_LAZY_BACKOFF_MAX",
    "MPIOPT_LAZY_FUSE", "MPIOPT_LAZY_MODEL", "MPIOPT_LAZY_SOLO", "MPIOPT_LAZY_STATS", "MPIOPT_OPT",
    "MPIOPT_OPT_FLAGS", "MPIOPT_PLAN_AFTER", "MPIOPT_PLAN_CACHE", "MPIOPT_PROFILE", "MPIOPT_RANKS_PER_NODE",
    "MPIOPT_REDUCE_ALGO", "MPIOPT_REDUCE_MODEL", "MPIOPT_RESOURCE_DIR", "MPIOPT_SPARSE", "MPIOPT_SPARSE_DENSITY",
    "MPIOPT_STATS", "MPIOPT_TEST_LIBFUZZER", "MPIOPT_TEST_SANITIZE", "MPIOPT_THREADS", "MPIOPT_THREADS_OVERSUBSCRIBE",
};

/* This process's rank in MPI_COMM_WORLD and the world's size (-1 and 0
   before MPI_Init or after MPI_Finalize). */
static void world(int *rank, int *size) {
  int inited = 0, finalized = 0;
  *rank = -1;
  *size = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (inited && !finalized) {
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
  }
}

void mpiopt_die_setting(const char *fmt, ...) {
  int rank, size;
  world(&rank, &size);
  /* Every rank reads the same environment: rank 0 says it and stops the
     job; the others say it only if they are still running two seconds on
     (a setting only they see). */
  if (rank > 0 && size > 1) {
    struct timespec t = {2, 0};
    nanosleep(&t, NULL);
  }
  va_list ap;
  va_start(ap, fmt);
  mpiopt_vdie(MPI_COMM_NULL, fmt, ap);
}

/* The edit distance of a and b (for the nearest known name). */
static size_t distance(const char *a, const char *b) {
  size_t n = strlen(b), row[64];
  if (n >= 63) return 99;
  for (size_t j = 0; j <= n; j++) row[j] = j;
  for (size_t i = 1; a[i - 1]; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= n; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[n];
}

void mpiopt_env_check_names(void) {
  static int done;
  int rank, size;
  if (done) return;
  done = 1;
  world(&rank, &size);
  if (rank > 0) return; /* one warning, from rank 0 (or the process alone) */
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
    char name[64];
    if (strncmp(*e, "MPIOPT_", 7) != 0 || len >= sizeof name) continue;
    memcpy(name, *e, len);
    name[len] = 0;
    const char *near = NULL;
    size_t best = 4, i;
    for (i = 0; i < sizeof known / sizeof *known; i++) {
      if (strcmp(name, known[i]) == 0) break;
      size_t d = distance(name, known[i]);
      if (d < best) best = d, near = known[i];
    }
    if (i < sizeof known / sizeof *known) continue;
    if (near)
      fprintf(stderr, "mpiopt: warning: %s is not a variable of OMPI's runtime and is ignored (did you mean %s?)\n",
              name, near);
    else
      fprintf(stderr, "mpiopt: warning: %s is not a variable of OMPI's runtime and is ignored\n", name);
  }
}

long mpiopt_env_long(const char *name, long def, long lo, long hi) {
  mpiopt_env_check_names();
  const char *v = getenv(name);
  if (!v || !*v) return def;
  char *end;
  long x = strtol(v, &end, 10);
  if (*end || x < lo || x > hi) mpiopt_die_setting("%s=%s: expected an integer from %ld to %ld", name, v, lo, hi);
  return x;
}

int mpiopt_env_bool(const char *name, int def) {
  static const char *const yes[] = {"1", "yes", "on", "true"}, *const no[] = {"0", "no", "off", "false"};
  mpiopt_env_check_names();
  const char *v = getenv(name);
  if (!v || !*v) return def;
  for (int i = 0; i < 4; i++) {
    if (strcasecmp(v, yes[i]) == 0) return 1;
    if (strcasecmp(v, no[i]) == 0) return 0;
  }
  mpiopt_die_setting("%s=%s: expected 1, yes, on or true, or 0, no, off or false", name, v);
}

int mpiopt_env_choice(const char *name, const char *const *names, int n, int def) {
  mpiopt_env_check_names();
  const char *v = getenv(name);
  if (!v || !*v) return def;
  for (int i = 0; i < n; i++)
    if (strcmp(v, names[i]) == 0) return i;
  char list[512] = "";
  for (int i = 0; i < n; i++) {
    strncat(list, names[i], sizeof list - strlen(list) - 1);
    strncat(list, i + 2 < n ? ", " : i + 1 < n ? " or " : "", sizeof list - strlen(list) - 1);
  }
  mpiopt_die_setting("%s=%s: expected %s", name, v, list);
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
