/* The selection table of the planned Alltoallv and its cost model's
 * parameters (see alltoallv.h for what each means).
 *
 *   MPIOPT_ALLTOALLV_ALGO   auto | native | pairwise | node | locality
 *   MPIOPT_ALLTOALLV_MODEL  call=US,msg=US,byte=US,zero=US,copy=US,sync=US,inter=X
 *                           (any subset; the rest keep the built-in values)
 *   MPIOPT_ALLTOALLV_TRIAL  N: a plan the model gave another algorithm than
 *                           the MPI's own times it, the MPI's own and the
 *                           pairwise exchange, up to N times each, and
 *                           keeps the fastest (trial.c; default 15, 0
 *                           trusts the model)
 *
 * The built-in parameters were measured on the machine the shipped profiles
 * come from (scripts/tune prints a machine's own as the variable's value). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alltoallv.h"

/* The table: name, statistics kind, needs the node tables, estimate,
 * prepare, execute, destroy. */
const mpiopt_a2av_algorithm mpiopt_a2av_algorithms[MPIOPT_A2AV_NALGS] = {
    [MPIOPT_A2AV_NATIVE] = {"native", MPIOPT_STAT_ALLTOALLV_NATIVE, 0, mpiopt_a2av_native_estimate, NULL,
                            mpiopt_a2av_native_execute, NULL},
    [MPIOPT_A2AV_PAIRWISE] = {"pairwise", MPIOPT_STAT_ALLTOALLV_PAIRWISE, 0, mpiopt_a2av_pairwise_estimate,
                              mpiopt_a2av_pairwise_prepare, mpiopt_a2av_pairwise_execute,
                              mpiopt_a2av_pairwise_destroy},
    [MPIOPT_A2AV_NODE] = {"node", MPIOPT_STAT_ALLTOALLV_NODE, 1, mpiopt_a2av_node_estimate, mpiopt_a2av_node_prepare,
                          mpiopt_a2av_node_execute, mpiopt_a2av_node_destroy},
    [MPIOPT_A2AV_LOCALITY] = {"locality", MPIOPT_STAT_ALLTOALLV_LOCALITY, 1, mpiopt_a2av_locality_estimate,
                              mpiopt_a2av_locality_prepare, mpiopt_a2av_locality_execute,
                              mpiopt_a2av_locality_destroy},
};

/* Built-in parameters, per MPI (SMPI: measured in the simulator, scripts/tune
   --mpi=smpi on node16 at 2 ranks). */
#if defined(SMPI_H)
static mpiopt_a2av_model model = {
    .call = 0, .msg = 0.607, .byte = 5e-5, .zero = 1.2, .copy = 0, .sync = 0.28, .inter = 1};
#elif defined(OPEN_MPI)
static mpiopt_a2av_model model = {
    .call = 0.02, .msg = 0.145, .byte = 9.6e-5, .zero = 0.21, .copy = 4.22e-5, .sync = 0.124, .inter = 1};
#else
static mpiopt_a2av_model model = {
    .call = 0.341, .msg = 0.19, .byte = 1.26e-4, .zero = 0, .copy = 4.22e-5, .sync = 0.129, .inter = 1};
#endif

static void parse_model(const char *v) {
  static const char *const keys[] = {"call", "msg", "byte", "zero", "copy", "sync", "inter"};
  double *fields[] = {&model.call, &model.msg, &model.byte, &model.zero, &model.copy, &model.sync, &model.inter};
  const char *s = v;
  while (*s) {
    const char *eq = strchr(s, '=');
    int k = -1;
    for (int i = 0; eq && i < 7; i++)
      if ((size_t)(eq - s) == strlen(keys[i]) && !strncmp(s, keys[i], (size_t)(eq - s))) k = i;
    char *end = NULL;
    double x = k >= 0 ? strtod(eq + 1, &end) : -1;
    if (k < 0 || end == eq + 1 || x < 0 || (*end && *end != ','))
      mpiopt_die_setting(
                 "MPIOPT_ALLTOALLV_MODEL=%s: expected KEY=VALUE pairs separated by commas, keys call, msg, byte, "
                 "zero, copy, sync, inter, values not negative",
                 v);
    *fields[k] = x;
    s = *end ? end + 1 : end;
  }
  if (model.inter < 1) mpiopt_die_setting("MPIOPT_ALLTOALLV_MODEL=%s: inter must be at least 1", v);
}

const mpiopt_a2av_model *mpiopt_a2av_model_get(void) {
  static int read;
  if (!read) {
    const char *v = getenv("MPIOPT_ALLTOALLV_MODEL");
    if (v && *v) parse_model(v);
    read = 1;
  }
  return &model;
}

int mpiopt_a2av_forced(void) {
  static int forced = -2;
  if (forced == -2) {
    static const char *const names[] = {"auto", "native", "pairwise", "node", "locality"};
    forced = mpiopt_env_choice("MPIOPT_ALLTOALLV_ALGO", names, 5, 0) - 1;
  }
  return forced;
}

long mpiopt_a2av_trial_samples(void) {
  static long n = -1;
  if (n < 0) n = mpiopt_env_long("MPIOPT_ALLTOALLV_TRIAL", 15, 0, 1000);
  return n;
}

/* The planned Alltoallv (and MPI_Alltoall, the same with uniform counts). */
_Static_assert((int)MPIOPT_A2AV_NALGS <= (int)MPIOPT_PLAN_MAX_ALGS, "the plan's choice has room for every algorithm");
const mpiopt_plan_kind mpiopt_plan_alltoallv = {
    "Alltoallv",        "mpiopt_alltoallv_plan",   mpiopt_a2av_algorithms, MPIOPT_A2AV_NALGS, MPIOPT_A2AV_PAIRWISE, 1,
    mpiopt_a2av_forced, mpiopt_a2av_trial_samples, mpiopt_a2av_verify};
