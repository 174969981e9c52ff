// broadcast-fusion (analysis/BroadcastPlan.h): adjacent MPI_Bcast
// statements from one root on one communicator become one broadcast of
// their parts, at points every rank runs alike, where the later calls'
// arguments read nothing the earlier ones write and the machine profile
// measured the fused broadcast faster. Negative cases say why the tool
// leaves the calls as they are.
// RUN: %ompi-opt --report --profile=%inputs/profile-bcast.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-bcast-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --transforms=broadcast-fusion --profile=%inputs/profile-bcast.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>
#include <stdlib.h>

// SRC: #include <mpiopt/aggregate.h>
static double big[200];

typedef struct {
  int a, b;
} pair_t;

// A forwarding wrapper: its calls are judged as the MPI call they make.
static int my_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return MPI_Bcast(buf, count, type, root, comm);
}

static int *slots[2];

static void broadcast_some(int n, MPI_Comm comm) {
  // Not done: slots[0] may point anywhere, slots itself included, which
  // the second call reads before the first one's part arrives.
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: not done: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] (MPI_INT, MPI_INT) stay separate (the buffer of the broadcast at line [[#@LINE+1]] (slots[0]) is not known to be one object {{.*}})
  MPI_Bcast(slots[0], n, MPI_INT, 0, comm);
  MPI_Bcast(slots[1], n, MPI_INT, 0, comm);
}

static void broadcast_pair(int *p, int *q, MPI_Comm comm) {
  // p and q point into one array (the one call passes arr, arr + 1): the
  // parts overlap, and the later one lands last, as the separate calls
  // left it.
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] (MPI_INT, MPI_INT) as one broadcast
  MPI_Bcast(p, 2, MPI_INT, 0, comm);
  MPI_Bcast(q, 2, MPI_INT, 0, comm);
}

int main(int argc, char **argv) {
  int rank, size, n = 0, iters = 0, arr[4] = {0, 0, 0, 0}, other[2] = {0, 0};
  double tol = 0;
  long len = 0;
  pair_t pr = {0, 0};
  MPI_Datatype pair_type;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Type_contiguous(2, MPI_INT, &pair_type);
  MPI_Type_commit(&pair_type);
  if (rank == 0) {
    n = 10;
    iters = 3;
    tol = 1e-3;
    len = 1L << 33;
  }
  // Parameters read on the root, one call each: one broadcast.
  // REPORT-DAG: broadcast.c:[[#@LINE+2]]:3: broadcast-fusion: 5 MPI_Bcast at lines [[#@LINE+2]]-[[#@LINE+6]] (MPI_INT, MPI_INT, MPI_DOUBLE, MPI_LONG, MPI_INT) as one broadcast (adjacent statements from the same root on the same communicator, at a point every rank runs alike, so every process replaces the same 5 broadcasts by one; the later ones' arguments read nothing the earlier ones write; 40 bytes in all; the machine profile {{.*}}profile-bcast.json (templates.aggregate_bcast4) measured 1.30 us for one fused broadcast against 3.00 us for four broadcasts of its parts at 1024 bytes (the message: 40 bytes)); saves 4 of 5 broadcasts per execution
  // SLOWER-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: not done: 5 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+5]] (MPI_INT, MPI_INT, MPI_DOUBLE, MPI_LONG, MPI_INT) stay separate (the machine profile {{.*}}profile-bcast-slower.json (templates.aggregate_bcast) measured 1.20 us for one fused broadcast against 1.00 us for two broadcasts of its parts at 4 bytes (the message: 40 bytes); the fused broadcast must be 5% faster)
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&tol, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(&len, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Bcast(arr, 4, MPI_INT, 0, MPI_COMM_WORLD);
  // SRC: {{ +}}mpiopt_agg_bcast(5, 0, MPI_COMM_WORLD, (void *)(&n), (int)(1), (MPI_Datatype)(MPI_INT), (void *)(&iters), (int)(1), (MPI_Datatype)(MPI_INT), (void *)(&tol), (int)(1), (MPI_Datatype)(MPI_DOUBLE), (void *)(&len), (int)(1), (MPI_Datatype)(MPI_LONG), (void *)(arr), (int)(4), (MPI_Datatype)(MPI_INT));

  // An element's address is no read of the array: one broadcast, whose
  // later part lands last where the parts overlap.
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] (MPI_INT, MPI_INT) as one broadcast
  MPI_Bcast(arr, 3, MPI_INT, size - 1, MPI_COMM_WORLD);
  MPI_Bcast(&arr[1], 2, MPI_INT, size - 1, MPI_COMM_WORLD);

  // Through a forwarding wrapper: the same.
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] (MPI_INT, MPI_INT) as one broadcast
  my_bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  my_bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);

  // Sizes known only at run time: one call, which makes the separate ones
  // above 1 KiB.
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] (MPI_DOUBLE, MPI_INT) as one broadcast ({{.*}}; sizes known only at run time (above 1024 bytes in all, the template makes the separate calls); the machine profile {{.*}} (the message: a size known only at run time)); saves 1 of 2 broadcasts per execution
  MPI_Bcast(big, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(other, 2, MPI_INT, 0, MPI_COMM_WORLD);

  // Not done: the count-then-payload protocol (the second reads n, which
  // the first writes on every process but the root).
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: not done: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] (MPI_INT, MPI_DOUBLE) stay separate (the broadcast at line [[#@LINE+2]] reads n, which the broadcast at line [[#@LINE+1]] writes on the other processes: one broadcast evaluates every argument before any part arrives)
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(big, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  // Not done: 1600 bytes, more than one fused broadcast carries.
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: not done: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] (MPI_DOUBLE, MPI_INT) stay separate (1608 bytes in all: more than 1024, the most one fused broadcast carries {{.*}})
  MPI_Bcast(big, 200, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(other, 2, MPI_INT, 0, MPI_COMM_WORLD);

  // Not done: a derived datatype (its data need not lie in the buffer).
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: not done: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] stay separate (the datatype pair_type is not a predefined one)
  MPI_Bcast(&pr, 1, pair_type, 0, MPI_COMM_WORLD);
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);

  // Not done: different roots are two broadcasts that cannot be one.
  // REPORT-DAG: broadcast.c:[[#@LINE+2]]:3: broadcast-fusion: not done: MPI_Bcast stays as written (no other MPI_Bcast from the same root on the same communicator is next to it {{.*}})
  // REPORT-DAG: broadcast.c:[[#@LINE+2]]:3: broadcast-fusion: not done: MPI_Bcast stays as written (no other MPI_Bcast from the same root {{.*}})
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&iters, 1, MPI_INT, size - 1, MPI_COMM_WORLD);

  // Not done: the root runs one arm and the others the other; each arm
  // would have to be fused alike, which nothing here proves.
  if (rank == 0) {
    // REPORT-DAG: broadcast.c:[[#@LINE+1]]:5: broadcast-fusion: not done: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] (MPI_INT, MPI_INT) stay separate (every process must fuse the same broadcasts, but the branch at line [[#@LINE-1]] may go different ways on different ranks: {{.*}})
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    n++;
  }

  // Not done: an argument with side effects (evaluated once, in order, by
  // the separate calls).
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:3: broadcast-fusion: not done: 2 MPI_Bcast at lines [[#@LINE+1]]-[[#@LINE+2]] stay separate (an argument (iters++) has side effects {{.*}})
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&len, iters++, MPI_LONG, 0, MPI_COMM_WORLD);

  slots[0] = &other[0];
  slots[1] = &other[1];
  // Written with casts to void: the same; the result kept: a call alone.
  // REPORT-DAG: broadcast.c:[[#@LINE+2]]:9: broadcast-fusion: 2 MPI_Bcast at lines [[#@LINE+2]]-[[#@LINE+3]] (MPI_INT, MPI_INT) as one broadcast
  // SRC: {{ +}}(void)mpiopt_agg_bcast(2, 0, MPI_COMM_WORLD, (void *)(&n), (int)(1), (MPI_Datatype)(MPI_INT), (void *)(&iters), (int)(1), (MPI_Datatype)(MPI_INT));
  (void)MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  (void)MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // REPORT-DAG: broadcast.c:[[#@LINE+1]]:12: broadcast-fusion: not done: MPI_Bcast stays as written (it is no statement of a block (its value is used, or it is the body of an if or a loop without braces): only adjacent statements of one block are fused)
  int rc = MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
  n += rc;
  broadcast_some(1, MPI_COMM_WORLD);
  broadcast_pair(arr, arr + 1, MPI_COMM_WORLD);
  MPI_Type_free(&pair_type);
  MPI_Finalize();
  return n + iters + (int)len == 0;
}
