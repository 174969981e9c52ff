/* Runtime test (expected to abort): a planned collective or large-vector
 * reduction called with arguments no MPI accepts, or a plan used wrongly,
 * stops the job with a message naming the call (the ctest checks each
 * message). RT_BAD_CASE selects the case; with it unset the program runs
 * one valid call of each kind (for the bad-environment cases). Short
 * reductions go to the MPI unchecked (it checks them: small_root), long
 * ones are checked by the runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include "mpiopt/coll.h"
#include "mpiopt/plan.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *bad = getenv("RT_BAD_CASE");
  if (!bad) bad = "";
  int *c = calloc((size_t)size, sizeof(int)), *d = calloc((size_t)size, sizeof(int));
  int *rc = calloc((size_t)size, sizeof(int)), buf[64] = {0}, out[64] = {0};
  enum { BIG = 100000 };
  int *big = calloc(BIG, sizeof(int)), *bigout = calloc(BIG, sizeof(int));
  for (int j = 0; j < size; j++) {
    c[j] = rc[j] = 1;
    d[j] = j;
  }
  mpiopt_plan plan = NULL;
  if (!strcmp(bad, "count")) {
    c[size - 1] = -1;
    mpiopt_alltoallv_plan_create(c, d, MPI_INT, rc, d, MPI_INT, MPI_COMM_WORLD, &plan);
  } else if (!strcmp(bad, "mismatch")) { /* rank 0 sends 2 ints to the last rank, which expects 1 */
    if (rank == 0) c[size - 1] = 2;
    mpiopt_alltoallv_plan_create(c, d, MPI_INT, rc, d, MPI_INT, MPI_COMM_WORLD, &plan);
  } else if (!strcmp(bad, "type")) {
    mpiopt_alltoallv_cached(buf, c, d, MPI_INT, out, rc, d, MPI_DATATYPE_NULL, MPI_COMM_WORLD);
    mpiopt_alltoallv_plan_create(c, d, MPI_INT, rc, d, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &plan);
  } else if (!strcmp(bad, "inplace")) { /* a plan whose send side differs from its receive side */
    for (int j = 0; j < size; j++) {
      rc[j] = 4;
      d[j] = 4 * j;
    }
    int *sd = calloc((size_t)size, sizeof(int));
    for (int j = 0; j < size; j++) sd[j] = j;
    mpiopt_alltoallv_plan_create(c, sd, MPI_INT, rc, d, MPI_BYTE, MPI_COMM_WORLD, &plan);
    mpiopt_plan_execute(plan, MPI_IN_PLACE, out);
  } else if (!strcmp(bad, "freed")) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    mpiopt_alltoallv_plan_create(c, d, MPI_INT, rc, d, MPI_INT, dup, &plan);
    MPI_Comm_free(&dup);
    mpiopt_plan_execute(plan, buf, out);
  } else if (!strcmp(bad, "agv_count")) {
    mpiopt_allgatherv_plan_create(-2, MPI_INT, rc, d, MPI_INT, MPI_COMM_WORLD, &plan);
  } else if (!strcmp(bad, "agv_mismatch")) { /* the last rank sends 2 ints, everyone expects 1 */
    mpiopt_allgatherv_plan_create(rank == size - 1 ? 2 : 1, MPI_INT, rc, d, MPI_INT, MPI_COMM_WORLD, &plan);
  } else if (!strcmp(bad, "agv_displs")) {
    mpiopt_allgatherv_planned(&plan, buf, 1, MPI_INT, out, rc, d, MPI_INT, MPI_COMM_WORLD); /* the MPI's own */
    mpiopt_allgatherv_planned(&plan, buf, 1, MPI_INT, out, rc, NULL, MPI_INT, MPI_COMM_WORLD);
  } else if (!strcmp(bad, "agv_cached")) {
    mpiopt_allgatherv_cached(buf, 1, MPI_INT, out, NULL, d, MPI_INT, MPI_COMM_WORLD);
  } else if (!strcmp(bad, "noncommutative")) { /* with MPIOPT_ALLREDUCE_ALGO=ring */
    MPI_Op op;
    MPI_Op_create((MPI_User_function *)(void *)abs, 0, &op);
    mpiopt_allreduce(buf, out, 64, MPI_INT, op, MPI_COMM_WORLD);
  } else if (!strcmp(bad, "reduce_count")) {
    mpiopt_reduce(buf, out, -5, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  } else if (!strcmp(bad, "reduce_root")) {
    mpiopt_reduce(big, bigout, BIG, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD);
  } else if (!strcmp(bad, "small_root")) {
    /* The MPI's own error, returned and printed here, then a normal exit
       with status 1: when both ranks die in MPICH's fatal handler at once,
       mpiexec sometimes forwards neither message (about 1 run in 8), and
       an MPI_Abort after the message lost it too (a clean clone's CI run
       printed nothing). The argument check fails before any message moves,
       on every rank, so MPI_Finalize still works. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int err = mpiopt_reduce(buf, out, 64, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD);
    if (err != MPI_SUCCESS) {
      char msg[MPI_MAX_ERROR_STRING];
      int len = 0;
      MPI_Error_string(err, msg, &len);
      if (rank == 0) fprintf(stderr, "mpiopt_reduce returned: %s\n", msg);
      fflush(stderr);
      MPI_Finalize();
      return 1;
    }
  } else if (!strcmp(bad, "allreduce_buf")) {
    mpiopt_allreduce(NULL, bigout, BIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(bad, "comm")) {
    mpiopt_allreduce(buf, out, 64, MPI_INT, MPI_SUM, MPI_COMM_NULL);
  } else {
    mpiopt_alltoallv_plan_create(c, d, MPI_INT, rc, d, MPI_INT, MPI_COMM_WORLD, &plan);
    mpiopt_plan_execute(plan, buf, out);
    mpiopt_plan_free(&plan);
    mpiopt_allgatherv_plan_create(1, MPI_INT, rc, d, MPI_INT, MPI_COMM_WORLD, &plan);
    mpiopt_plan_execute(plan, buf, out);
    mpiopt_alltoallv_cached(buf, c, d, MPI_INT, out, rc, d, MPI_INT, MPI_COMM_WORLD);
    mpiopt_allreduce(buf, out, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mpiopt_reduce(buf, out, 64, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  mpiopt_plan_free(&plan);
  if (rank == 0) printf("not reached unless RT_BAD_CASE is unset\n");
  free(c);
  free(d);
  free(rc);
  free(big);
  free(bigout);
  MPI_Finalize();
  return 0;
}
