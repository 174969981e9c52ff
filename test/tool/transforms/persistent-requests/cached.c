// persistent-requests (analysis/PersistentPlan.h), per-site caches: a
// blocking send, receive or sendrecv whose request cannot live through a
// loop of its function (a helper's call; a buffer that alternates between
// iterations; a loop a goto leaves) keeps its persistent requests in a
// static cache of its own (templates/mpiopt/persist.h, struct
// mpiopt_pcache), declared after its function's opening brace, where the
// machine profile measured the persistent request faster. Negative cases
// say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-persistent.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-persistent-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --transforms=persistent-requests --profile=%inputs/profile-persistent.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
// RUN: %clang -fsyntax-only -x c++ -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
#include <mpi.h>

#define N 512
static double a[N], b[N];

// SRC: #include <mpiopt/persist.h>

// A helper's exchange: called once per iteration of a loop elsewhere, so
// no request can live through a loop of its own. Both calls keep their
// requests in caches declared on the brace's line.
void exchange(double *u, int right, int left, MPI_Comm comm) {
  // REPORT-DAG: cached.c:[[#@LINE+1]]:3: persistent-requests: MPI_Send through a per-site cache of persistent requests (mpiopt_send_cached) (it is in no loop of exchange, so no request can live through one; the cache, static in exchange, keeps the requests of up to 4 argument lists, keyed by every argument: made at a call whose arguments it does not hold, started and waited for at each, freed at MPI_Finalize; a site that misses more than one call in eight returns to the generic call; the machine profile {{.*}}profile-persistent.json (templates.persistent) measured 1.50 us for the persistent request against 2.00 us for the generic call at 4096 bytes (the message: 4096 bytes)); saves MPI's argument checks and request set-up on each call, for one comparison of the arguments
  MPI_Send(u, N, MPI_DOUBLE, right, 0, comm);
  // REPORT-DAG: cached.c:[[#@LINE+1]]:3: persistent-requests: MPI_Recv through a per-site cache of persistent requests (mpiopt_recv_cached) (it is in no loop of exchange{{.*}}
  MPI_Recv(u, N, MPI_DOUBLE, left, 0, comm, MPI_STATUS_IGNORE);
  // SLOWER: cached.c:[[#@LINE-1]]:3: persistent-requests: not done: MPI_Recv not through a persistent request (it is in no loop of exchange, so no request can live through one; a per-site cache: the machine profile {{.*}}profile-persistent-slower.json (templates.persistent) measured 1.95 us for the persistent request against 2.00 us for the generic call at 4096 bytes (the message: 4096 bytes); a template must be 5% faster)
}
// SRC: void exchange(double *u, int right, int left, MPI_Comm comm) { static struct mpiopt_pcache mpiopt_pcache1_c, mpiopt_pcache2_c;
// SRC:  mpiopt_send_cached(&mpiopt_pcache1_c, u, N, MPI_DOUBLE, right, 0, comm);
// SRC:  mpiopt_recv_cached(&mpiopt_pcache2_c, u, N, MPI_DOUBLE, left, 0, comm, MPI_STATUS_IGNORE);

// Two buffers in turn: the buffers change between iterations, but take two
// values, which a cache holds.
void alternate(int steps, int peer) {
  double *cur = a, *next = b;
  MPI_Status st;
  for (int s = 0; s < steps; s++) {
    // REPORT-DAG: cached.c:[[#@LINE+1]]:5: persistent-requests: MPI_Sendrecv through a per-site cache of persistent requests (mpiopt_sendrecv_cached) (in the loop at line [[#@LINE-1]], sendbuf (cur) may change: {{.*}}; the cache, static in alternate, {{.*}} (templates.persistent_sendrecv) {{.*}}
    MPI_Sendrecv(cur, N, MPI_DOUBLE, peer, 1, next, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st);
    double *t = cur;
    cur = next;
    next = t;
  }
}
// SRC: void alternate(int steps, int peer) { static struct mpiopt_pcache mpiopt_pcache3_c;
// SRC:    mpiopt_sendrecv_cached(&mpiopt_pcache3_c, cur, N, MPI_DOUBLE, peer, 1, next, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st);

// A loop a goto leaves: no block around it could free a request, a cache
// needs none.
int until(int steps, int peer) {
  for (int s = 0; s < steps; s++) {
    // REPORT-DAG: cached.c:[[#@LINE+1]]:5: persistent-requests: MPI_Ssend through a per-site cache of persistent requests (mpiopt_ssend_cached) (its request could live through the loop at line [[#@LINE-1]], but the goto at line [[#@LINE+3]] leaves the loop; the cache, static in until, {{.*}}
    MPI_Ssend(a, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
    if (a[0] < 0)
      goto out;
  }
  return 0;
out:
  return 1;
}
// SRC: int until(int steps, int peer) { static struct mpiopt_pcache mpiopt_pcache4_c;
// SRC:    mpiopt_ssend_cached(&mpiopt_pcache4_c, a, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);

// Negative cases.
// An inline definition with external linkage may not keep a static object
// (C11 6.7.4).
inline void put(int peer) {
  // REPORT-DAG: cached.c:[[#@LINE+1]]:3: persistent-requests: not done: MPI_Send not through a persistent request (it is in no loop of put, so no request can live through one; put is an inline definition with external linkage, which may not keep the static object a per-site cache is (C11 6.7.4))
  MPI_Send(a, N, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD);
}
// SRC: inline void put(int peer) {
// SRC-NEXT:  // REPORT-DAG: {{.*}}
// SRC-NEXT:  MPI_Send(a, N, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD);

void negative(int steps, int peer, MPI_Comm comm) {
  for (int s = 0; s < steps; s++) {
    // The buffer follows the loop's counter: every iteration would miss.
    // REPORT-DAG: cached.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Send not through a persistent request (in the loop at line [[#@LINE-2]], buf (&a[s]) may change: s is assigned at line [[#@LINE-2]], inside the loop; its buf (&a[s]) follows s, the counter of the loop at line [[#@LINE-2]]: a per-site cache would miss on every iteration)
    MPI_Send(&a[s], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    // Wildcard receives stay generic.
    // REPORT-DAG: cached.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Recv not through a persistent request (it receives from MPI_ANY_SOURCE: wildcard receives stay generic)
    MPI_Recv(b, N, MPI_DOUBLE, MPI_ANY_SOURCE, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  // A communicator made anew on each iteration: a new handle every time.
  MPI_Comm c;
  for (int s = 0; s < steps; s++) {
    MPI_Comm_dup(comm, &c);
    // REPORT-DAG: cached.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Send not through a persistent request (in the loop at line [[#@LINE-2]], comm (c) may change: {{.*}}; its comm (c) may be a new handle on each iteration of the loop at line [[#@LINE-2]], which no cached request would match)
    MPI_Send(a, N, MPI_DOUBLE, peer, 0, c);
    MPI_Comm_free(&c);
  }
  // 64 KiB: the profile measured no win.
  // REPORT-DAG: cached.c:[[#@LINE+1]]:3: persistent-requests: not done: MPI_Send not through a persistent request (it is in no loop of negative, so no request can live through one; a per-site cache: the machine profile {{.*}} measured 20.00 us for the persistent request against 20.00 us for the generic call at 65536 bytes (the message: 65536 bytes); a template must be 5% faster)
  MPI_Send(a, 8192, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
  // A collective in no loop: a persistent collective is made by every rank
  // at once; caches keyed by buffer addresses could miss on some ranks only.
  // REPORT-NOT: cached.c:[[#@LINE+1]]:{{.*}}persistent-requests
  MPI_Allreduce(MPI_IN_PLACE, a, 8, MPI_DOUBLE, MPI_SUM, comm);
}
// SRC: void negative(int steps, int peer, MPI_Comm comm) {

// main's calls in no loop run once: no candidates.
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // REPORT-NOT: cached.c:[[#@LINE+1]]:{{.*}}persistent-requests
  MPI_Send(a, N, MPI_DOUBLE, 0, 0, MPI_COMM_SELF);
  MPI_Finalize();
  return 0;
}
// SRC: int main(int argc, char **argv) {

// SLOWER-NOT: persistent-requests: MPI_
