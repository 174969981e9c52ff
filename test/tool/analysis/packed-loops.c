// RUN: %ompi-opt --closed-world --transforms=reduction-fusion --report %s -- %mpich_cflags 2>&1 | FileCheck --match-full-lines %s
// RUN: %ompi-opt --closed-world --transforms=reduction-fusion --report %s -- %openmpi_cflags 2>&1 | FileCheck --match-full-lines %s
// Memory of structs the root fills, packs into a buffer of doubles with a
// running index, broadcasts, and the other ranks unpack field by field in
// the same order (miniAMR's objects; analysis/RootBroadcast.h): after the
// if every rank holds the root's elements. Positive: good. Negatives: the
// fields unpacked in another order (order), a field the root writes but
// does not pack (unpacked), a long through a double (lossy), a count that
// is not the fields times n (count), a packed field written after the pack
// (after), a call of another file's code between the pack and its
// broadcast (called), an unpack loop bounded by another variable (bound).
#include <mpi.h>
#include <stdlib.h>

typedef struct {
  int kind;
  double cen[2];
  long big;
  int extra;
} item;

item *good, *order, *unpacked, *lossy, *count, *after, *called, *bound;
int n, m;
double a = 1, b = 2;
void note(void);

static void use_good(void) {
  // CHECK-DAG: {{.*}}packed-loops.c:[[#@LINE+3]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}}
  if (good[0].kind > 0 && good[1].cen[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void use_order(void) {
  // CHECK-DAG: {{.*}}packed-loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (order[0].kind > 0 && order[1].cen[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void use_unpacked(void) {
  // CHECK-DAG: {{.*}}packed-loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (unpacked[0].kind > 0 && unpacked[1].cen[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void use_lossy(void) {
  // CHECK-DAG: {{.*}}packed-loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (lossy[0].kind > 0 && lossy[1].cen[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void use_count(void) {
  // CHECK-DAG: {{.*}}packed-loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (count[0].kind > 0 && count[1].cen[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void use_after(void) {
  // CHECK-DAG: {{.*}}packed-loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (after[0].kind > 0 && after[1].cen[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void use_called(void) {
  // CHECK-DAG: {{.*}}packed-loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (called[0].kind > 0 && called[1].cen[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void use_bound(void) {
  // CHECK-DAG: {{.*}}packed-loops.c:[[#@LINE+2]]:5: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it{{.*}}
  if (bound[0].kind > 0 && bound[1].cen[1] > 0.5) {
    MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  int rank, i, o, params[2];
  double *buf;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    n = argc > 1 ? atoi(argv[1]) : 2;
    m = n + (argc > 2);
    params[0] = n;
    params[1] = m;
    MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
    n = params[0];
    m = params[1];
  }
  if (rank == 0) {
    good = malloc(n * sizeof(item));
    for (o = 0; o < n; o++) {
      good[o].kind = o + argc;
      good[o].cen[0] = 0.5 * argc;
      good[o].cen[1] = 1.5;
    }
    buf = malloc(3 * n * sizeof(double));
    for (i = o = 0; o < n; o++) {
      buf[i++] = (double) good[o].kind;
      buf[i++] = good[o].cen[0];
      buf[i++] = good[o].cen[1];
    }
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    good = malloc(n * sizeof(item));
    buf = malloc(3 * n * sizeof(double));
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < n; o++) {
      good[o].kind = (int) buf[i++];
      good[o].cen[0] = buf[i++];
      good[o].cen[1] = buf[i++];
    }
  }
  free(buf);
  if (rank == 0) {
    order = malloc(n * sizeof(item));
    for (o = 0; o < n; o++) {
      order[o].kind = o + argc;
      order[o].cen[0] = 0.5 * argc;
      order[o].cen[1] = 1.5;
    }
    buf = malloc(3 * n * sizeof(double));
    for (i = o = 0; o < n; o++) {
      buf[i++] = (double) order[o].kind;
      buf[i++] = order[o].cen[0];
      buf[i++] = order[o].cen[1];
    }
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    order = malloc(n * sizeof(item));
    buf = malloc(3 * n * sizeof(double));
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < n; o++) {
      order[o].kind = (int) buf[i++];
      order[o].cen[1] = buf[i++];
      order[o].cen[0] = buf[i++];
    }
  }
  free(buf);
  if (rank == 0) {
    unpacked = malloc(n * sizeof(item));
    for (o = 0; o < n; o++) {
      unpacked[o].kind = o + argc;
      unpacked[o].cen[0] = 0.5 * argc;
      unpacked[o].cen[1] = 1.5;
      unpacked[o].extra = argc;
    }
    buf = malloc(3 * n * sizeof(double));
    for (i = o = 0; o < n; o++) {
      buf[i++] = (double) unpacked[o].kind;
      buf[i++] = unpacked[o].cen[0];
      buf[i++] = unpacked[o].cen[1];
    }
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    unpacked = malloc(n * sizeof(item));
    buf = malloc(3 * n * sizeof(double));
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < n; o++) {
      unpacked[o].kind = (int) buf[i++];
      unpacked[o].cen[0] = buf[i++];
      unpacked[o].cen[1] = buf[i++];
    }
  }
  free(buf);
  if (rank == 0) {
    lossy = malloc(n * sizeof(item));
    for (o = 0; o < n; o++) {
      lossy[o].kind = o + argc;
      lossy[o].cen[0] = 0.5 * argc;
      lossy[o].cen[1] = 1.5;
      lossy[o].big = argc;
    }
    buf = malloc(4 * n * sizeof(double));
    for (i = o = 0; o < n; o++) {
      buf[i++] = (double) lossy[o].kind;
      buf[i++] = lossy[o].cen[0];
      buf[i++] = lossy[o].cen[1];
      buf[i++] = (double) lossy[o].big;
    }
    MPI_Bcast(buf, 4 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    lossy = malloc(n * sizeof(item));
    buf = malloc(4 * n * sizeof(double));
    MPI_Bcast(buf, 4 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < n; o++) {
      lossy[o].kind = (int) buf[i++];
      lossy[o].cen[0] = buf[i++];
      lossy[o].cen[1] = buf[i++];
      lossy[o].big = (long) buf[i++];
    }
  }
  free(buf);
  if (rank == 0) {
    count = malloc(n * sizeof(item));
    for (o = 0; o < n; o++) {
      count[o].kind = o + argc;
      count[o].cen[0] = 0.5 * argc;
      count[o].cen[1] = 1.5;
    }
    buf = malloc(3 * n * sizeof(double));
    for (i = o = 0; o < n; o++) {
      buf[i++] = (double) count[o].kind;
      buf[i++] = count[o].cen[0];
      buf[i++] = count[o].cen[1];
    }
    MPI_Bcast(buf, 2 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    count = malloc(n * sizeof(item));
    buf = malloc(3 * n * sizeof(double));
    MPI_Bcast(buf, 2 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < n; o++) {
      count[o].kind = (int) buf[i++];
      count[o].cen[0] = buf[i++];
      count[o].cen[1] = buf[i++];
    }
  }
  free(buf);
  if (rank == 0) {
    after = malloc(n * sizeof(item));
    for (o = 0; o < n; o++) {
      after[o].kind = o + argc;
      after[o].cen[0] = 0.5 * argc;
      after[o].cen[1] = 1.5;
    }
    buf = malloc(3 * n * sizeof(double));
    for (i = o = 0; o < n; o++) {
      buf[i++] = (double) after[o].kind;
      buf[i++] = after[o].cen[0];
      buf[i++] = after[o].cen[1];
    }
    after[0].kind = rank + 1;
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    after = malloc(n * sizeof(item));
    buf = malloc(3 * n * sizeof(double));
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < n; o++) {
      after[o].kind = (int) buf[i++];
      after[o].cen[0] = buf[i++];
      after[o].cen[1] = buf[i++];
    }
  }
  free(buf);
  if (rank == 0) {
    called = malloc(n * sizeof(item));
    for (o = 0; o < n; o++) {
      called[o].kind = o + argc;
      called[o].cen[0] = 0.5 * argc;
      called[o].cen[1] = 1.5;
    }
    buf = malloc(3 * n * sizeof(double));
    for (i = o = 0; o < n; o++) {
      buf[i++] = (double) called[o].kind;
      buf[i++] = called[o].cen[0];
      buf[i++] = called[o].cen[1];
    }
    note();
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    called = malloc(n * sizeof(item));
    buf = malloc(3 * n * sizeof(double));
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < n; o++) {
      called[o].kind = (int) buf[i++];
      called[o].cen[0] = buf[i++];
      called[o].cen[1] = buf[i++];
    }
  }
  free(buf);
  if (rank == 0) {
    bound = malloc(n * sizeof(item));
    for (o = 0; o < n; o++) {
      bound[o].kind = o + argc;
      bound[o].cen[0] = 0.5 * argc;
      bound[o].cen[1] = 1.5;
    }
    buf = malloc(3 * n * sizeof(double));
    for (i = o = 0; o < n; o++) {
      buf[i++] = (double) bound[o].kind;
      buf[i++] = bound[o].cen[0];
      buf[i++] = bound[o].cen[1];
    }
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    bound = malloc(n * sizeof(item));
    buf = malloc(3 * n * sizeof(double));
    MPI_Bcast(buf, 3 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < m; o++) {
      bound[o].kind = (int) buf[i++];
      bound[o].cen[0] = buf[i++];
      bound[o].cen[1] = buf[i++];
    }
  }
  free(buf);
  use_good();
  use_order();
  use_unpacked();
  use_lossy();
  use_count();
  use_after();
  use_called();
  use_bound();
  MPI_Finalize();
  return 0;
}
