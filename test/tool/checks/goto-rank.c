// The per-rank runs follow goto within a function (forward out of a block,
// back to make a loop: the step budget bounds it) and do loops whose trip
// count depends on the rank, iteration by iteration. Negatives: a do loop
// every rank runs alike; an error path whose goto hangs on a value no run
// knows (not followed: silent).
// RUN: %ompi-opt --check --checks=collective-sequence %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>
static int x, y;
/* goto forward out of a root-only block: rank 0 skips the barrier */
void skip_barrier(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    goto done;
  MPI_Barrier(MPI_COMM_WORLD);
done:
  // CHECK: {{.*}}goto-rank.c:[[#@LINE+1]]:3: warning: with 2 processes, ranks 0 call MPI_Bcast (line [[#@LINE+1]]) as their 1st collective but ranks 1 call MPI_Barrier (line [[#@LINE-2]]): every rank of a communicator must issue the same collectives in the same order [ompi-collective-sequence]
  MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
}
/* error path with goto, same on every rank: silent */
int cleanup(void) {
  int rank, err = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (x > 100) {
    err = 1;
    goto fn_exit;
  }
  MPI_Barrier(MPI_COMM_WORLD);
fn_exit:
  return err;
}
/* backward goto loop: rank 1 runs 3 barriers, others 2 */
void back(void) {
  int rank, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
again:
  // CHECK: {{.*}}goto-rank.c:[[#@LINE+1]]:3: warning: with 2 processes, ranks 1 call MPI_Barrier (line [[#@LINE+1]]) as their 3rd collective but ranks 0 call none (their path ends at line {{[0-9]+}}): every rank of a communicator must issue the same collectives [ompi-collective-sequence]
  MPI_Barrier(MPI_COMM_WORLD);
  n++;
  if (n < 2 + (rank == 1))
    goto again;
}
/* do-while with rank-dependent trip count */
void dowhile(void) {
  int rank, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  do {
    // CHECK: {{.*}}goto-rank.c:[[#@LINE+1]]:5: warning: with 2 processes, ranks 1 call MPI_Allreduce (line [[#@LINE+1]]) as their 2nd collective but ranks 0 call none (their path ends at line {{[0-9]+}}): every rank of a communicator must issue the same collectives [ompi-collective-sequence]
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    n++;
  } while (n < rank + 1);
}
/* do-while alike on every rank: silent */
void dowhile_ok(void) {
  int size, n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  do {
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    n++;
  } while (n < size);
}
