// persistent-requests (analysis/PersistentPlan.h): blocking sends,
// receives and sendrecvs in loops whose buffers, counts, datatypes, peers,
// tags and communicator stay the same on every iteration run through a
// persistent request made once per run of the loop
// (templates/mpiopt/persist.h), where the machine profile measured the
// persistent request faster at the message's size. The request is freed
// after the loop and before each return in it. Negative cases say why the
// tool leaves a call generic; some calls keep their requests in per-site
// caches instead (cached.c).
// RUN: %ompi-opt --report --profile=%inputs/profile-persistent.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-persistent-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=NOPROFILE %s
// RUN: %ompi-opt --transforms=persistent-requests --profile=%inputs/profile-persistent.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

#define N 512
static double a[N], b[N];
void unknown(double *);

// SRC: #include <mpiopt/persist.h>

// A time loop of a ring exchange: four call sites, four requests.
int ring(int steps) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int s = 0; s < steps; s++) {
    a[0] = s;
    if (rank % 2 == 0) {
      // REPORT-DAG: persistent.c:[[#@LINE+3]]:7: persistent-requests: MPI_Send through a persistent request made once per run of the loop at line [[#@LINE-3]] (mpiopt_send_persistent) (its buffers, counts, datatypes, peers, tags and communicator are the same on every iteration; the request is made at the first call, started and waited for at each, and freed after the loop; the machine profile {{.*}}profile-persistent.json (templates.persistent) measured 1.50 us for the persistent request against 2.00 us for the generic call at 4096 bytes (the message: 4096 bytes)); saves MPI's argument checks and request set-up on each call, for one comparison of the arguments
      // SLOWER: persistent.c:[[#@LINE+2]]:7: persistent-requests: not done: MPI_Send not through a persistent request (the machine profile {{.*}}profile-persistent-slower.json (templates.persistent) measured 1.95 us for the persistent request against 2.00 us for the generic call at 4096 bytes (the message: 4096 bytes); a template must be 5% faster)
      // NOPROFILE: persistent.c:[[#@LINE+1]]:7: persistent-requests: not done: MPI_Send not through a persistent request (no machine profile is loaded (a persistent request is used only where a measurement shows it faster))
      MPI_Send(a, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
      // REPORT-DAG: persistent.c:[[#@LINE+1]]:7: persistent-requests: MPI_Recv through a persistent request made once per run of the loop at line [[#@LINE-7]] (mpiopt_recv_persistent) {{.*}}
      MPI_Recv(b, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(b, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(a, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
    }
  }
  return 0;
}
// SRC:  { struct mpiopt_persist mpiopt_preq1_p = MPIOPT_PERSIST_INIT, mpiopt_preq2_p = MPIOPT_PERSIST_INIT, mpiopt_preq3_p = MPIOPT_PERSIST_INIT, mpiopt_preq4_p = MPIOPT_PERSIST_INIT; for (int s = 0; s < steps; s++) {
// SRC:      mpiopt_send_persistent(&mpiopt_preq1_p, a, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
// SRC:      mpiopt_recv_persistent(&mpiopt_preq2_p, b, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// SRC-NEXT:    } else {
// SRC-NEXT:      mpiopt_recv_persistent(&mpiopt_preq3_p, b, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// SRC-NEXT:      mpiopt_send_persistent(&mpiopt_preq4_p, a, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
// SRC-NEXT:    }
// SRC-NEXT:  } mpiopt_persist_free(&mpiopt_preq1_p); mpiopt_persist_free(&mpiopt_preq2_p); mpiopt_persist_free(&mpiopt_preq3_p); mpiopt_persist_free(&mpiopt_preq4_p); }

// Nested loops: the request lives through the outer one (the inner loop's
// body gets no block). A return inside frees it first; a break needs
// nothing.
int nested(int outer, int inner, int stop) {
  MPI_Status st;
  for (int o = 0; o < outer; o++)
    for (int i = 0; i < inner; i++) {
      // REPORT-DAG: persistent.c:[[#@LINE+1]]:7: persistent-requests: MPI_Sendrecv through a persistent request made once per run of the loop at line [[#@LINE-2]] (mpiopt_sendrecv_persistent) (its buffers, counts, datatypes, peers, tags and communicator are the same on every iteration of the 2 loops around it; the request is made at the first call, started and waited for at each, and freed after the loop and before each return in it; the machine profile {{.*}} (templates.persistent_sendrecv) measured 2.00 us for the persistent request against 3.00 us for the generic call at 4096 bytes (the message: 64 bytes)); saves {{.*}}
      MPI_Sendrecv(a, 8, MPI_DOUBLE, 0, 1, b, 8, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, &st);
      if (b[0] > stop)
        return 1;
      if (b[1] > stop)
        break;
    }
  return 0;
}
// SRC:  { struct mpiopt_persist mpiopt_preq5_p = MPIOPT_PERSIST_INIT; for (int o = 0; o < outer; o++)
// SRC-NEXT:    { for (int i = 0; i < inner; i++) {
// SRC:      mpiopt_sendrecv_persistent(&mpiopt_preq5_p, a, 8, MPI_DOUBLE, 0, 1, b, 8, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, &st);
// SRC-NEXT:      if (b[0] > stop)
// SRC-NEXT:        { mpiopt_persist_free(&mpiopt_preq5_p); return 1; }
// SRC-NEXT:      if (b[1] > stop)
// SRC-NEXT:        break;
// SRC-NEXT:    } } mpiopt_persist_free(&mpiopt_preq5_p); }
// SRC-NEXT:  return 0;

// A loop body without braces gets them; the synchronous mode has its own
// measurement.
void synchronous(int steps, int peer) {
  for (int s = 0; s < steps; s++)
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: MPI_Ssend through a persistent request made once per run of the loop at line [[#@LINE-1]] (mpiopt_ssend_persistent) {{.*}} (templates.persistent_ssend) measured 3.00 us for the persistent request against 4.00 us for the generic call at 4096 bytes (the message: 32 bytes)); saves {{.*}}
    MPI_Ssend(a, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
}
// SRC:  { struct mpiopt_persist mpiopt_preq6_p = MPIOPT_PERSIST_INIT; for (int s = 0; s < steps; s++)
// SRC-NEXT:    // REPORT-DAG: {{.*}}
// SRC-NEXT:    { mpiopt_ssend_persistent(&mpiopt_preq6_p, a, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD); } mpiopt_persist_free(&mpiopt_preq6_p); }

// The buffer's contents change in the loop (a persistent send reads them at
// each start); the peer is a local nothing writes in the loop.
void contents(int steps, int peer) {
  int p = peer;
  for (int s = 0; s < steps; s++) {
    unknown(a);
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: MPI_Send through a persistent request made once per run of the loop at line [[#@LINE-2]] (mpiopt_send_persistent) {{.*}} measured 0.40 us for the persistent request against 0.60 us for the generic call at 64 bytes (the message: 8 bytes)); saves {{.*}}
    MPI_Send(a, 1, MPI_DOUBLE, p, 0, MPI_COMM_WORLD);
  }
}
// SRC:    mpiopt_send_persistent(&mpiopt_preq7_p, a, 1, MPI_DOUBLE, p, 0, MPI_COMM_WORLD);

// A halo exchange on a Cartesian grid: the peers come from MPI_Cart_shift
// and the communicator from MPI_Cart_create, which write them before they
// return (their addresses go nowhere else), and the column's datatype is
// built and committed before the loop; the message's size is the
// datatype's data (8 doubles).
void cartesian(int steps) {
  int dims[2] = {0, 0}, periods[2] = {0, 0}, north, south, west, east;
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_shift(grid, 0, 1, &north, &south);
  MPI_Datatype column;
  MPI_Type_vector(8, 1, 16, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  for (int s = 0; s < steps; s++) {
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: MPI_Sendrecv through a persistent request made once per run of the loop at line [[#@LINE-1]] (mpiopt_sendrecv_persistent) {{.*}} measured 2.00 us for the persistent request against 3.00 us for the generic call at 4096 bytes (the message: 64 bytes)); saves {{.*}}
    MPI_Sendrecv(a, 1, column, north, 0, b, 1, column, south, 0, grid, MPI_STATUS_IGNORE);
    // The peers change in the loop (between two pairs: a per-site cache).
    MPI_Cart_shift(grid, 1, s % 2, &west, &east);
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: MPI_Sendrecv through a per-site cache of persistent requests (mpiopt_sendrecv_cached) (in the loop at line [[#@LINE-5]], dest (west) may change: west is set by MPI_Cart_shift at line [[#@LINE-1]], inside the loop; the cache, static in cartesian, {{.*}}
    MPI_Sendrecv(a, 8, MPI_DOUBLE, west, 1, b, 8, MPI_DOUBLE, east, 1, grid, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&column);
  MPI_Comm_free(&grid);
}
// SRC:    mpiopt_sendrecv_persistent(&mpiopt_preq8_p, a, 1, column, north, 0, b, 1, column, south, 0, grid, MPI_STATUS_IGNORE);
// SRC-NEXT:    // The peers change in the loop (between two pairs: a per-site cache).
// SRC-NEXT:    MPI_Cart_shift(grid, 1, s % 2, &west, &east);

// Reductions fused in a loop, the last in a macro's argument: fusion
// rewrites them, and persistent-requests leaves them alone (it used to
// rename the call inside the macro's argument too: overlapping rewrites).
#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != MPI_SUCCESS)                                                                                         \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                                                    \
  } while (0)
void fused_in_macro(int steps, MPI_Comm comm) {
  MPI_Comm dup;
  MPI_Comm_dup(comm, &dup);
  long x = 1, y = 2, rx, ry;
  for (int s = 0; s < steps; s++) {
    MPI_Allreduce(&x, &rx, 1, MPI_LONG, MPI_BXOR, dup);
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-1]], [[#@LINE+1]]) into one {{.*}}
    CHECK(MPI_Allreduce(&y, &ry, 1, MPI_LONG, MPI_BXOR, dup));
    x += rx + ry;
  }
  MPI_Comm_free(&dup);
}
// Negative cases.
void negative(int steps, int peer, MPI_Comm comm) {
  int *pp = &peer;
  for (int s = 0; s < steps; s++) {
    // The buffer moves.
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Send not through a persistent request (in the loop at line [[#@LINE-2]], buf (&a[s]) may change: s is assigned at line [[#@LINE-2]], inside the loop; its buf (&a[s]) follows s, the counter of the loop at line [[#@LINE-2]]: a per-site cache would miss on every iteration)
    MPI_Send(&a[s], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    // The peer changes.
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Send not through a persistent request (in the loop at line {{[0-9]+}}, dest (s % 2) may change: {{.*}}; its dest (s % 2) follows s, the counter of the loop at line {{[0-9]+}}: a per-site cache would miss on every iteration)
    MPI_Send(a, 1, MPI_DOUBLE, s % 2, 0, MPI_COMM_WORLD);
    // The peer is read through a pointer: a per-site cache (cached.c).
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: MPI_Send through a per-site cache of persistent requests (mpiopt_send_cached) (in the loop at line {{[0-9]+}}, dest (*pp) may change: {{.*}}
    MPI_Send(a, 1, MPI_DOUBLE, *pp, 0, MPI_COMM_WORLD);
    // Wildcard receives stay generic.
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Recv not through a persistent request (it receives from MPI_ANY_SOURCE: wildcard receives stay generic)
    MPI_Recv(b, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Recv not through a persistent request (it receives from MPI_ANY_TAG: wildcard receives stay generic)
    MPI_Recv(b, 1, MPI_DOUBLE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // 64 KiB: the profile measured no win.
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Send not through a persistent request (the machine profile {{.*}} (templates.persistent) measured 20.00 us for the persistent request against 20.00 us for the generic call at 65536 bytes (the message: 65536 bytes); a template must be 5% faster)
    MPI_Send(a, 8192, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    // A size known at run time: the profile's worst point decides.
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Send not through a persistent request (the machine profile {{.*}} measured 20.00 us for the persistent request against 20.00 us for the generic call at 65536 bytes (the message: a size known only at run time); a template must be 5% faster)
    MPI_Send(a, steps, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    // Beyond every size measured.
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Ssend not through a persistent request (the machine profile {{.*}} has no measurement of templates.persistent_ssend for 8192 bytes)
    MPI_Ssend(a, 1024, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
  }
  // The datatype is freed and rebuilt in the loop.
  MPI_Datatype t;
  for (int s = 0; s < steps; s++) {
    MPI_Type_contiguous(2, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Send not through a persistent request (in the loop at line [[#@LINE-3]], datatype (t) may change: t is set by MPI_Type_contiguous at line [[#@LINE-2]], inside the loop; its datatype (t) may be a new handle on each iteration of the loop at line [[#@LINE-3]], which no cached request would match)
    MPI_Send(a, 1, t, peer, 0, MPI_COMM_WORLD);
    MPI_Type_free(&t);
  }
  // The communicator is freed and duplicated in the loop.
  MPI_Comm c;
  MPI_Comm_dup(comm, &c);
  for (int s = 0; s < steps; s++) {
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Send not through a persistent request (in the loop at line [[#@LINE-1]], comm (c) may change: c is set by MPI_Comm_free at line [[#@LINE+2]], inside the loop; its comm (c) may be a new handle on each iteration of the loop at line [[#@LINE-1]], which no cached request would match)
    MPI_Send(a, 1, MPI_DOUBLE, peer, 0, c);
    MPI_Comm_free(&c);
    MPI_Comm_dup(comm, &c);
  }
  MPI_Comm_free(&c);
  // A goto leaves the loop past the release: a per-site cache (cached.c).
  for (int s = 0; s < steps; s++) {
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: MPI_Send through a per-site cache of persistent requests (mpiopt_send_cached) (its request could live through the loop at line [[#@LINE-1]], but the goto at line [[#@LINE+3]] leaves the loop; {{.*}}
    MPI_Send(a, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    if (a[0] < 0)
      goto out;
  }
out:
  // MPI_Finalize in the loop: nothing could be released after it, but a
  // per-site cache is released by MPI_Finalize itself.
  for (int s = 0; s < steps; s++) {
    // REPORT-DAG: persistent.c:[[#@LINE+1]]:5: persistent-requests: MPI_Send through a per-site cache of persistent requests (mpiopt_send_cached) (its request could live through the loop at line [[#@LINE-1]], but MPI_Finalize may run in the loop (the call at line [[#@LINE+3]]), after which nothing could be released; {{.*}}
    MPI_Send(a, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    if (s == 3) {
      MPI_Finalize();
      return;
    }
  }
  // No loop: a per-site cache keeps the request for the next call of
  // negative (cached.c).
  // REPORT-DAG: persistent.c:[[#@LINE+1]]:3: persistent-requests: MPI_Send through a per-site cache of persistent requests (mpiopt_send_cached) (it is in no loop of negative, {{.*}}
  MPI_Send(a, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
}

// REPORT-NOT: persistent-requests: MPI_Allreduce

// SLOWER-NOT: persistent-requests: MPI_
// NOPROFILE-NOT: persistent-requests: MPI_
