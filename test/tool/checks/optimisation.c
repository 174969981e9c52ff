// --check, the missed-optimisation checks: fusable-reductions and
// deferrable-reductions (what reduction-fusion and lazy-deferral would do),
// persistent-candidate and alltoallv-plan. Negative cases: dependent
// reductions, point-to-point calls whose arguments change per iteration,
// MPI_Alltoallv whose counts are rewritten in the loop, a count the loop
// assigns.
// RUN: %ompi-opt --check --checks=fusable-reductions %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=FUSE %s
// RUN: %ompi-opt --check --checks=deferrable-reductions %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=DEFER %s
// The findings are the analyses', whatever --transforms selects (it used to
// drop them with --transforms=none):
// RUN: %ompi-opt --check --transforms=none --checks=fusable-reductions %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=FUSE %s
// RUN: %ompi-opt --check --transforms=none --checks=deferrable-reductions %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=DEFER %s
// RUN: %ompi-opt --check --checks=persistent-candidate %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=PERSIST %s
// RUN: %ompi-opt --check --checks=alltoallv-plan %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=remark: --check-prefix=PLAN %s
// The checks only report: the source is not changed.
// RUN: cp %s %t.c && %ompi-opt --check %t.c -- %mpich_cflags > /dev/null && diff %s %t.c
#include <mpi.h>
#include <stdlib.h>

static double a, b, c, d, x;
static double total;

void fusable(void) {
  MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // FUSE: {{.*}}optimisation.c:[[#@LINE+1]]:3: remark: fuse 2 MPI_Allreduce calls (lines [[#@LINE-1]], [[#@LINE+1]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD (saves 1 collective per execution; ompi-opt --in-place or ompi-cc does it) [ompi-fusable-reductions]
  MPI_Allreduce(&c, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  x = b + d;
}

// Neither fusable nor deferrable: each result is read at once, the second
// reduction's input is the first one's result.
void dependent(void) {
  MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  x = b;
  MPI_Allreduce(&x, &c, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  x = c;
}

// The result is read only later (in another function): the runtime can defer it.
void accumulate(double v) {
  // DEFER: {{.*}}optimisation.c:[[#@LINE+1]]:3: remark: defer MPI_Allreduce(&v -> &total) to the lazy runtime: {{.*}} (saves one collective per reduction that joins it before the next force point; ompi-opt --in-place or ompi-cc does it) [ompi-deferrable-reductions]
  MPI_Allreduce(&v, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
double report(void) { return total; }

double halo[64], out[64];
int scounts[4], sdispls[4], rcounts[4], rdispls[4];

void loops(int steps) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int s = 0; s < steps; s++) {
    // PERSIST: {{.*}}optimisation.c:[[#@LINE+1]]:5: remark: MPI_Send in the loop at line [[#@LINE-1]] has the same buffer, count, datatype, peer, tag and communicator on every iteration: a persistent request (MPI_Send_init before the loop, MPI_Start and MPI_Wait in it) sets the message up once [ompi-persistent-candidate]
    MPI_Send(halo, 64, MPI_DOUBLE, (rank + 1) % 4, 0, MPI_COMM_WORLD);
    MPI_Send(&halo[s], 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);       // the buffer moves: not persistent
    MPI_Send(halo, 1, MPI_DOUBLE, 1, s, MPI_COMM_WORLD);           // the tag changes: not persistent
    // PLAN: {{.*}}optimisation.c:[[#@LINE+1]]:5: remark: the counts and displacements of this MPI_Alltoallv do not change in the loop at line [[#@LINE-5]]: its communication plan can be computed once before the loop (a planned Alltoallv; ompi-cc plans it where the machine profile measured that faster) [ompi-alltoallv-plan]
    MPI_Alltoallv(halo, scounts, sdispls, MPI_DOUBLE, out, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  for (int s = 0; s < steps; s++) {
    // PLAN: {{.*}}optimisation.c:[[#@LINE+1]]:5: remark: the counts and displacements of this MPI_Allgatherv do not change in the loop at line [[#@LINE-1]]: its communication plan can be computed once before the loop (a planned Allgatherv; ompi-cc plans it where the machine profile measured that faster) [ompi-alltoallv-plan]
    MPI_Allgatherv(halo, 1, MPI_DOUBLE, out, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Allgatherv(halo, s, MPI_DOUBLE, out, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD); // the send count changes: not reported
  }
  for (int s = 0; s < steps; s++) {
    scounts[s % 4] = s;                                            // the plan changes: not reported
    MPI_Alltoallv(halo, scounts, sdispls, MPI_DOUBLE, out, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
  }
}

// Heap arrays: a pointer that only ever holds fresh memory (malloc) and is
// only subscripted and given to MPI calls reaches an array nothing else
// does: only writes through it change the array. Written in the loop, or
// reached through another pointer too: not reported.
void heap(int P, int steps) {
  int *sc = malloc(sizeof(int) * P), *sd = malloc(sizeof(int) * P), *shared = malloc(sizeof(int) * P);
  int *alias = shared;
  for (int j = 0; j < P; j++) {
    sc[j] = shared[j] = 1;
    sd[j] = j;
  }
  for (int s = 0; s < steps; s++) {
    // PLAN: {{.*}}optimisation.c:[[#@LINE+1]]:5: remark: the counts and displacements of this MPI_Alltoallv do not change in the loop at line [[#@LINE-1]]: {{.*}} [ompi-alltoallv-plan]
    MPI_Alltoallv(halo, sc, sd, MPI_DOUBLE, out, sc, sd, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  for (int s = 0; s < steps; s++) {
    sc[0] = s % 2;                                                 // written: not reported
    MPI_Alltoallv(halo, sc, sd, MPI_DOUBLE, out, sc, sd, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  for (int s = 0; s < steps; s++) {
    alias[0] = s % 2;                                              // through another pointer: not reported
    MPI_Alltoallv(halo, shared, sd, MPI_DOUBLE, out, shared, sd, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  free(sc);
  free(sd);
  free(shared);
}

// Arguments known only at run time are still the same in every iteration
// when nothing in the loop assigns them (parameters, locals set before the
// loop); a count the loop assigns is not.
void runtime_args(double *buf, int n, int peer, int steps) {
  int tag = n % 7, len = n;
  for (int s = 0; s < steps; s++) {
    // PERSIST: {{.*}}optimisation.c:[[#@LINE+1]]:5: remark: MPI_Recv in the loop at line [[#@LINE-1]] has the same buffer, count, datatype, peer, tag and communicator on every iteration: a persistent request (MPI_Recv_init before the loop, MPI_Start and MPI_Wait in it) sets the message up once [ompi-persistent-candidate]
    MPI_Recv(buf, n, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, len, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD); // len changes below: not persistent
    len = len / 2 + 1;
  }
}

// Interprocedural: calls in helpers the time loop calls (halo_exchange()
// through step()). Every argument is fixed for the run (static or
// rank-relative, buffers of static storage); a helper's local buffer lives
// per call and is not reported, nor are counts the calling loop rewrites.
static double edge[8], ghost[8];
static int acounts[4] = {2, 2, 2, 2}, adispls[4] = {0, 2, 4, 6}, bcounts[4], bdispls[4];

static void halo_exchange(void) {
  int rank;
  double local[8] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // PERSIST: {{.*}}optimisation.c:[[#@LINE+1]]:3: remark: MPI_Send in halo_exchange(), which the loop at line [[#@LINE+17]] of time_loop (through step()) calls, has the same buffer, count, datatype, peer, tag and communicator on every call (static or rank-relative arguments, buffers of static storage): a persistent request (MPI_Send_init before that loop, MPI_Start and MPI_Wait here) sets the message up once [ompi-persistent-candidate]
  MPI_Send(edge, 8, MPI_DOUBLE, (rank + 1) % 4, 3, MPI_COMM_WORLD);
  // PERSIST: {{.*}}optimisation.c:[[#@LINE+1]]:3: remark: MPI_Recv in halo_exchange(), which the loop at line [[#@LINE+15]] of time_loop (through step()) calls, {{.*}}
  MPI_Recv(ghost, 8, MPI_DOUBLE, (rank + 3) % 4, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(local, 8, MPI_DOUBLE, (rank + 1) % 4, 4, MPI_COMM_WORLD); // a local buffer: not reported
  // PLAN: {{.*}}optimisation.c:[[#@LINE+1]]:3: remark: the counts and displacements of this MPI_Alltoallv in halo_exchange(), which the loop at line [[#@LINE+12]] of time_loop (through step()) calls, are arrays nothing in that loop changes: its communication plan can be computed once before the loop (a planned Alltoallv) [ompi-alltoallv-plan]
  MPI_Alltoallv(edge, acounts, adispls, MPI_DOUBLE, ghost, acounts, adispls, MPI_DOUBLE, MPI_COMM_WORLD);
}

static void redistribute(void) {
  // The loop that calls this rewrites bcounts: not reported.
  MPI_Alltoallv(edge, bcounts, bdispls, MPI_DOUBLE, ghost, bcounts, bdispls, MPI_DOUBLE, MPI_COMM_WORLD);
}

static void step(void) { halo_exchange(); }

void time_loop(int steps) {
  for (int s = 0; s < steps; s++)
    step();
  for (int s = 0; s < steps; s++) {
    bcounts[s % 4] = s;
    redistribute();
  }
}
