// RUN: %ompi-opt --closed-world --transforms=reduction-fusion --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// RUN: %ompi-opt --closed-world --transforms=reduction-fusion --report %s -- %openmpi_cflags 2>&1 | FileCheck --match-full-lines %s
// A value the root broadcasts itself in both arms under a flag, `if (G)
// MPI_Bcast(&V, ...)` (miniAMR's end_time under use_time;
// analysis/RootBroadcast.h): G holds the root's value on every rank (packed
// and unpacked), and every root write of V is followed by `G = 1`, so when
// G is 0 no rank wrote V and V keeps its value from before. Positive: end.
// Negatives: the flag set apart from the write (late), set back to 0
// (reset), the other ranks write the value before their guard (early),
// the arms guard with different flags (mixed), the others test their flag
// before unpacking it (stale).
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

double end, late, reset, early, mixed, stale;
int use_end, use_late, use_reset, use_early, use_mixed, other, use_stale;
double a = 1, b = 2;

static void sums_end(void) {
  // CHECK-DAG: {{.*}}root-broadcast-guarded.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (end > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void sums_late(void) {
  // CHECK-DAG: {{.*}}root-broadcast-guarded.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (late > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void sums_reset(void) {
  // CHECK-DAG: {{.*}}root-broadcast-guarded.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (reset > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void sums_early(void) {
  // CHECK-DAG: {{.*}}root-broadcast-guarded.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (early > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void sums_mixed(void) {
  // CHECK-DAG: {{.*}}root-broadcast-guarded.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (mixed > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void sums_stale(void) {
  // CHECK-DAG: {{.*}}root-broadcast-guarded.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (stale > 1.0) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  int rank, params[8];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--end")) {
        end = atof(argv[++i]);
        use_end = 1;
      } else if (!strcmp(argv[i], "--late")) {
        late = atof(argv[++i]);
        i++;
        use_late = 1;
      } else if (!strcmp(argv[i], "--reset")) {
        reset = atof(argv[++i]);
        use_reset = 1;
      } else if (!strcmp(argv[i], "--early")) {
        early = atof(argv[++i]);
        use_early = 1;
      } else if (!strcmp(argv[i], "--mixed")) {
        mixed = atof(argv[++i]);
        use_mixed = 1;
      } else if (!strcmp(argv[i], "--stale")) {
        stale = atof(argv[++i]);
        use_stale = 1;
      }
    }
    if (argc > 9)
      use_reset = 0;
    params[0] = use_end;
    params[1] = use_late;
    params[2] = use_reset;
    params[3] = use_early;
    params[4] = use_mixed;
    params[5] = other;
    params[6] = use_stale;
    MPI_Bcast(params, 8, MPI_INT, 0, MPI_COMM_WORLD);
    if (use_end)
      MPI_Bcast(&end, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (use_late)
      MPI_Bcast(&late, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (use_reset)
      MPI_Bcast(&reset, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (use_early)
      MPI_Bcast(&early, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (use_mixed)
      MPI_Bcast(&mixed, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (use_stale)
      MPI_Bcast(&stale, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    if (use_stale)
      MPI_Bcast(&stale, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(params, 8, MPI_INT, 0, MPI_COMM_WORLD);
    use_end = params[0];
    use_late = params[1];
    use_reset = params[2];
    use_early = params[3];
    use_mixed = params[4];
    other = params[5];
    use_stale = params[6];
    if (use_end)
      MPI_Bcast(&end, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (use_late)
      MPI_Bcast(&late, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (use_reset)
      MPI_Bcast(&reset, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    early = 2.0;
    if (use_early)
      MPI_Bcast(&early, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (other)
      MPI_Bcast(&mixed, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  sums_end();
  sums_late();
  sums_reset();
  sums_early();
  sums_mixed();
  sums_stale();
  MPI_Finalize();
  return 0;
}
