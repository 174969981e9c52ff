// nonblocking-persistent (analysis/NonblockingPlan.h): the MPI_Isend,
// MPI_Issend and MPI_Irecv calls a function may run more than once, whose
// request variables are local to it and used only by nonblocking starts,
// waits and tests, assignments and comparisons, run through the function's
// cache of persistent requests (templates/mpiopt/nbpersist.h), and every
// wait and test on those variables through its template with the same
// cache, where the machine profile measured the persistent request faster.
// Negative cases say why the tool leaves a call as written.
// RUN: %ompi-opt --report --profile=%inputs/profile-nonblocking.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-nonblocking.json %s -- %openmpi_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=NOPROFILE %s
// RUN: %ompi-opt --report --profile=%inputs/profile-nonblocking.json %s -- %mpich_cflags | FileCheck --check-prefix=ONCE %s
// RUN: %ompi-opt --transforms=nonblocking-persistent --profile=%inputs/profile-nonblocking.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
// RUN: %clang -fsyntax-only -x c++ -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
#include <mpi.h>

#define N 512
static double top_in[N], top_out[N], bot_in[N], bot_out[N];

// SRC: #include <mpiopt/nbpersist.h>

// A helper's halo exchange through an array of requests with constant
// indices, completed by one MPI_Waitall: every call through the cache.
// SRC-LABEL: void halo(int up, int down, MPI_Comm comm) { static struct mpiopt_nbcache mpiopt_nbc1_c;
void halo(int up, int down, MPI_Comm comm) {
  MPI_Request r[4];
  // REPORT-DAG: halo.c:[[#@LINE+2]]:3: nonblocking-persistent: MPI_Irecv through halo's cache of persistent requests (mpiopt_irecv_nb) (its request variable 'r' is local to halo and only nonblocking starts, waits and tests, assignments and comparisons use it, so the one wait or test on it, rewritten alike, is the only completion{{.*}}at 4096 bytes{{.*}}
  // SRC: mpiopt_irecv_nb(&mpiopt_nbc1_c, top_in, N, MPI_DOUBLE, up, 0, comm, &r[0]);
  MPI_Irecv(top_in, N, MPI_DOUBLE, up, 0, comm, &r[0]);
  // SRC: mpiopt_irecv_nb(&mpiopt_nbc1_c, bot_in, N, MPI_DOUBLE, down, 1, comm, &r[1]);
  MPI_Irecv(bot_in, N, MPI_DOUBLE, down, 1, comm, &r[1]);
  // SRC: mpiopt_isend_nb(&mpiopt_nbc1_c, top_out, N, MPI_DOUBLE, up, 1, comm, r + 2);
  MPI_Isend(top_out, N, MPI_DOUBLE, up, 1, comm, r + 2);
  // SRC: mpiopt_issend_nb(&mpiopt_nbc1_c, bot_out, N, MPI_DOUBLE, down, 0, comm, &r[3]);
  MPI_Issend(bot_out, N, MPI_DOUBLE, down, 0, comm, &r[3]);
  // SRC: mpiopt_waitall_nb(&mpiopt_nbc1_c, 4, r, MPI_STATUSES_IGNORE);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
}

// Scalar requests in main's time loop, each waited for; a comparison with
// MPI_REQUEST_NULL and an assignment of it are uses the templates keep.
int main(int argc, char **argv) {
  int rank, size, it;
  MPI_Request rs = MPI_REQUEST_NULL, rr;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Outside any loop, main's start runs once: no candidate, no note.
  // ONCE-NOT: halo.c:[[#@LINE+1]]:{{.*}}nonblocking-persistent
  MPI_Irecv(top_in, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rr);
  MPI_Wait(&rr, MPI_STATUS_IGNORE);
  for (it = 0; it < 10; it++) {
    halo((rank + 1) % size, (rank + size - 1) % size, MPI_COMM_WORLD);
    // REPORT-DAG: halo.c:[[#@LINE+2]]:5: nonblocking-persistent: MPI_Irecv through main's cache of persistent requests (mpiopt_irecv_nb) (its request variable 'rr' {{.*}} the 2 waits and tests on it{{.*}}
    // SRC: mpiopt_irecv_nb(&mpiopt_nbc{{[0-9]+}}_c, bot_in, 8, MPI_DOUBLE, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &rr);
    MPI_Irecv(bot_in, 8, MPI_DOUBLE, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &rr);
    // SRC: mpiopt_isend_nb(&mpiopt_nbc{{[0-9]+}}_c, bot_out, 8, MPI_DOUBLE, (rank + 1) % size, 7, MPI_COMM_WORLD, &rs);
    MPI_Isend(bot_out, 8, MPI_DOUBLE, (rank + 1) % size, 7, MPI_COMM_WORLD, &rs);
    // SRC: if (rs != MPI_REQUEST_NULL) mpiopt_wait_nb(&mpiopt_nbc{{[0-9]+}}_c, &rs, MPI_STATUS_IGNORE);
    if (rs != MPI_REQUEST_NULL) MPI_Wait(&rs, MPI_STATUS_IGNORE);
    // SRC: mpiopt_wait_nb(&mpiopt_nbc{{[0-9]+}}_c, &rr, &st);
    MPI_Wait(&rr, &st);
    rs = MPI_REQUEST_NULL;
  }
  MPI_Finalize();
  return 0;
}

// A neighbour loop: peers, buffers and requests read from arrays by the
// counter, completed by MPI_Waitany and MPI_Testall.
// SRC-LABEL: void neighbours(int n, const int *peer, double (*in)[8], double (*out)[8]) { static struct mpiopt_nbcache mpiopt_nbc{{[0-9]+}}_c;
void neighbours(int n, const int *peer, double (*in)[8], double (*out)[8]) {
  MPI_Request req[12];
  int i, idx, flag = 0;
  for (i = 0; i < n; i++)
    // REPORT-DAG: halo.c:[[#@LINE+2]]:5: nonblocking-persistent: MPI_Irecv through neighbours's cache of persistent requests (mpiopt_irecv_nb){{.*}}the 2 waits and tests{{.*}}at 64 bytes{{.*}}
    // SRC: mpiopt_irecv_nb(&mpiopt_nbc{{[0-9]+}}_c, in[i], 8, MPI_DOUBLE, peer[i], i, MPI_COMM_WORLD, &req[i]);
    MPI_Irecv(in[i], 8, MPI_DOUBLE, peer[i], i, MPI_COMM_WORLD, &req[i]);
  for (i = 0; i < n; i++)
    // SRC: mpiopt_isend_nb(&mpiopt_nbc{{[0-9]+}}_c, out[i], 8, MPI_DOUBLE, peer[i], i, MPI_COMM_WORLD, &req[n + i]);
    MPI_Isend(out[i], 8, MPI_DOUBLE, peer[i], i, MPI_COMM_WORLD, &req[n + i]);
  for (i = 0; i < n; i++)
    // SRC: mpiopt_waitany_nb(&mpiopt_nbc{{[0-9]+}}_c, n, req, &idx, MPI_STATUS_IGNORE);
    MPI_Waitany(n, req, &idx, MPI_STATUS_IGNORE);
  while (!flag)
    // SRC: mpiopt_testall_nb(&mpiopt_nbc{{[0-9]+}}_c, n, req + n, &flag, MPI_STATUSES_IGNORE);
    MPI_Testall(n, req + n, &flag, MPI_STATUSES_IGNORE);
}

// MPI_Test completes (MPI's model calls it nonblocking, but it starts
// nothing): it is rewritten with the cache like the waits.
// SRC-LABEL: void tested(double *u, int peer) { static struct mpiopt_nbcache mpiopt_nbc{{[0-9]+}}_c;
void tested(double *u, int peer) {
  MPI_Request r;
  int flag = 0;
  // REPORT-DAG: halo.c:[[#@LINE+2]]:3: nonblocking-persistent: MPI_Isend through tested's cache of persistent requests (mpiopt_isend_nb) (its request variable 'r' {{.*}}so the one wait or test on it{{.*}}
  // SRC: mpiopt_isend_nb(&mpiopt_nbc{{[0-9]+}}_c, u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &r);
  MPI_Isend(u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &r);
  // SRC: while (!flag) mpiopt_test_nb(&mpiopt_nbc{{[0-9]+}}_c, &r, &flag, MPI_STATUS_IGNORE);
  while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
}

void finish(MPI_Request *r);

// Negative: the request goes to another function, which may complete or
// free it where no template restores MPI_REQUEST_NULL.
void escapes(double *u, int peer) {
  MPI_Request r;
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Isend not through a persistent request (the request variable 'r' is passed to finish at line [[#@LINE+2]], which the templates cannot follow)
  MPI_Isend(u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &r);
  finish(&r);
}

// Negative: MPI_Request_free would free the cache's request.
void freed(double *u, int peer) {
  MPI_Request r;
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Isend not through a persistent request (the request variable 'r' is passed to MPI_Request_free at line [[#@LINE+2]], which the templates cannot follow)
  MPI_Isend(u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
}

// Negative: a copy of the request could be completed by a call the tool
// does not rewrite.
void copied(double *u, int peer) {
  MPI_Request r, q;
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Isend not through a persistent request (the request variable 'r' is used at line [[#@LINE+2]] in a way the templates cannot follow (only nonblocking starts, waits and tests, assignments to it and comparisons))
  MPI_Isend(u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &r);
  q = r;
  MPI_Wait(&q, MPI_STATUS_IGNORE);
}

// Negative: a parameter's request belongs to the caller too.
void param(double *u, int peer, MPI_Request *r) {
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Isend not through a persistent request (its request variable 'r' is a parameter: another function may complete or free the request)
  MPI_Isend(u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, r);
}

// Negative: an array of arrays of requests passed in is a parameter too.
void grid_param(double *u, int peer, int g, MPI_Request req[4][8]) {
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (its request variable 'req' is a parameter: another function may complete or free the request)
  MPI_Irecv(u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &(req[g][1]));
}

// An array of arrays of requests local to the function: through the cache.
void grid(double *u, int peer, int steps) {
  MPI_Request req[2][2];
  int g;
  for (g = 0; g < steps; g++) {
    // REPORT-DAG: halo.c:[[#@LINE+2]]:5: nonblocking-persistent: MPI_Irecv through grid's cache of persistent requests (mpiopt_irecv_nb) (its request variable 'req' {{.*}}
    // SRC: mpiopt_irecv_nb(&mpiopt_nbc{{[0-9]+}}_c, u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &(req[g % 2][0]));
    MPI_Irecv(u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &(req[g % 2][0]));
    // SRC: mpiopt_wait_nb(&mpiopt_nbc{{[0-9]+}}_c, &req[g % 2][0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[g % 2][0], MPI_STATUS_IGNORE);
  }
}

struct exchange {
  MPI_Request req[2];
};

// Negative: a struct member may be completed anywhere the struct goes.
void member(struct exchange *x, double *u, int peer) {
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (its request (&x->req[0]) is not a variable of its function: a struct member or memory behind a pointer may be completed where the tool does not see it)
  MPI_Irecv(u, 4, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &x->req[0]);
  MPI_Wait(&x->req[0], MPI_STATUS_IGNORE);
}

// Negative: wildcard receives stay generic; a message of 64 KiB, where the
// profile measured no gain, too.
void wildcard_and_large(double *u, double *big) {
  MPI_Request r[2];
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (it receives from MPI_ANY_SOURCE: wildcard receives stay generic)
  MPI_Irecv(u, 4, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r[0]);
  // REPORT-DAG: halo.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Isend not through a persistent request ({{.*}}65536 bytes{{.*}})
  MPI_Isend(big, 8192, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
}

// Without a profile nothing is measured: every candidate stays as written.
// NOPROFILE-NOT: nonblocking-persistent: MPI_Isend through
// NOPROFILE: nonblocking-persistent: not done: MPI_Irecv not through a persistent request ({{.*}}
