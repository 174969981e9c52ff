/* The selection table of the planned Allgatherv (see allgatherv.h).
 *
 *   MPIOPT_ALLGATHERV_ALGO   auto | native | node
 *   MPIOPT_ALLGATHERV_TRIAL  N: a plan the model gave the node algorithm
 *                            times it against MPI_Allgatherv up to N times
 *                            each and keeps the faster (the MPI's own
 *                            unless the other beats it by 3%; default 15,
 *                            0 trusts the model)
 *
 * The cost model's parameters are the planned Alltoallv's
 * (MPIOPT_ALLTOALLV_MODEL). */
#include "allgatherv.h"

/* The table: name, statistics kind, needs the node tables, estimate,
 * prepare, execute, destroy. */
const mpiopt_a2av_algorithm mpiopt_agv_algorithms[MPIOPT_AGV_NALGS] = {
    [MPIOPT_AGV_NATIVE] = {"native", MPIOPT_STAT_ALLGATHERV_NATIVE, 0, mpiopt_agv_native_estimate, NULL,
                           mpiopt_agv_native_execute, NULL},
    [MPIOPT_AGV_NODE] = {"node", MPIOPT_STAT_ALLGATHERV_NODE, 0, mpiopt_agv_node_estimate, mpiopt_agv_node_prepare,
                         mpiopt_agv_node_execute, mpiopt_agv_node_destroy},
};

static int forced(void) {
  static int f = -2;
  if (f == -2) {
    static const char *const names[] = {"auto", "native", "node"};
    f = mpiopt_env_choice("MPIOPT_ALLGATHERV_ALGO", names, 3, 0) - 1;
  }
  return f;
}

static long trial_samples(void) {
  static long n = -1;
  if (n < 0) n = mpiopt_env_long("MPIOPT_ALLGATHERV_TRIAL", 15, 0, 1000);
  return n;
}

_Static_assert((int)MPIOPT_AGV_NALGS <= (int)MPIOPT_PLAN_MAX_ALGS, "the plan's choice has room for every algorithm");
const mpiopt_plan_kind mpiopt_plan_allgatherv = {
    "Allgatherv", "mpiopt_allgatherv_plan", mpiopt_agv_algorithms, MPIOPT_AGV_NALGS, -1, 0, forced, trial_samples,
    mpiopt_agv_verify};
