// nonblocking-persistent with requests in globals: a global request array
// or pointer whose every use in the program is a nonblocking start, a wait
// or test, an assignment (for a pointer: of a fresh allocation or null), a
// comparison, a free or a test keeps one cache per variable,
// mpiopt_nbg_<name>, weak so that every file of the program that uses the
// variable shares one object; every completion on it, in every file, goes
// through that cache. For a global with external linkage the program's
// facts (--whole-program, ompi-cc's link) must say every file that names
// it uses it only so ("requests": null); a global of one file (static)
// needs only that file.
// Negative cases say why the tool leaves a call as written.
// RUN: %ompi-opt --whole-program --report --profile=%inputs/profile-nonblocking.json %s %S/Inputs/global-requests-util.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-nonblocking.json %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=ALONE %s
// RUN: %ompi-opt --whole-program --facts-out=%t.facts.json %s %S/Inputs/global-requests-util.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=FACTS %s < %t.facts.json
// RUN: %ompi-opt --program-facts=%t.facts.json --transforms=nonblocking-persistent --profile=%inputs/profile-nonblocking.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %ompi-opt --program-facts=%t.facts.json --transforms=nonblocking-persistent --profile=%inputs/profile-nonblocking.json %S/Inputs/global-requests-util.c -o %t.util.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=UTIL %s < %t.util.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.util.c
// RUN: %if openmpi %{ %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c %}
// Without a profile in which the request wins, nothing changes, in either file:
// RUN: %ompi-opt --program-facts=%t.facts.json --transforms=nonblocking-persistent %S/Inputs/global-requests-util.c -o %t.plain.c -- %mpich_cflags
// RUN: diff %S/Inputs/global-requests-util.c %t.plain.c
#include <mpi.h>
#include <stdlib.h>

// Only 'kept' is used other than by starts and completions:
// FACTS: "requests": {
// FACTS-NEXT: "kept": "in global-requests-util.c: the request variable 'kept' is passed to keep at line {{[0-9]+}}, which the templates cannot follow"
// FACTS-NEXT: },

// SRC: __attribute__((weak)) struct mpiopt_nbcache mpiopt_nbg_request;
// SRC: __attribute__((weak)) struct mpiopt_nbcache mpiopt_nbg_s_req;
// SRC: static struct mpiopt_nbcache mpiopt_nbg_local_reqs;
// UTIL: __attribute__((weak)) struct mpiopt_nbcache mpiopt_nbg_s_req;
// UTIL: mpiopt_waitany_nb(&mpiopt_nbg_s_req, n, s_req, &which, &status);

#define N 64
MPI_Request *request, *s_req;
MPI_Request kept[2];
int max_req;
static MPI_Request local_reqs[4];
static double in[4][N], out[4][N];

void grow_requests(int n);
void finish_sends(int n);
void hand_kept(void);

// The receives and their completion here; the sends' completion is in the
// other file (finish_sends).
void post_receives(int n, const int *peer, MPI_Comm comm) {
  int which;
  MPI_Status status;
  for (int i = 0; i < n; i++)
    // REPORT-DAG: global-requests.c:[[#@LINE+4]]:5: nonblocking-persistent: MPI_Irecv through the cache of persistent requests of 'request' (mpiopt_irecv_nb) (its request variable 'request' is a global whose every use in the program (the facts of every file that names it) is a nonblocking start, a wait or test (each rewritten with one cache for 'request', a weak object every such file declares), a fresh allocation or null assigned to it, a free or a test of it{{.*}}
    // Alone, the other files of the program may do anything with it:
    // ALONE: global-requests.c:[[#@LINE+2]]:5: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (its request variable 'request' is a global that other files may name, and no facts of the whole program say what they do with it
    // SRC: mpiopt_irecv_nb(&mpiopt_nbg_request, in[i], N, MPI_DOUBLE, peer[i], 1, comm, &request[i]);
    MPI_Irecv(in[i], N, MPI_DOUBLE, peer[i], 1, comm, &request[i]);
  for (int i = 0; i < n; i++)
    // SRC: mpiopt_waitany_nb(&mpiopt_nbg_request, n, request, &which, &status);
    MPI_Waitany(n, request, &which, &status);
}

void post_sends(int n, const int *peer, MPI_Comm comm) {
  for (int i = 0; i < n; i++)
    // SRC: mpiopt_isend_nb(&mpiopt_nbg_s_req, out[i], N, MPI_DOUBLE, peer[i], 1, comm, &s_req[i]);
    MPI_Isend(out[i], N, MPI_DOUBLE, peer[i], 1, comm, &s_req[i]);
}

// A global of this file only: no facts needed.
void ring(int left, int right, MPI_Comm comm) {
  // REPORT-DAG: global-requests.c:[[#@LINE+3]]:3: nonblocking-persistent: MPI_Irecv through the cache of persistent requests of 'local_reqs' (mpiopt_irecv_nb) (its request variable 'local_reqs' is a global of this file whose every use in this file is{{.*}}
  // ALONE: global-requests.c:[[#@LINE+2]]:3: nonblocking-persistent: MPI_Irecv through the cache of persistent requests of 'local_reqs'
  // SRC: mpiopt_irecv_nb(&mpiopt_nbg_local_reqs, in[0], N, MPI_DOUBLE, left, 2, comm, &local_reqs[0]);
  MPI_Irecv(in[0], N, MPI_DOUBLE, left, 2, comm, &local_reqs[0]);
  MPI_Isend(out[0], N, MPI_DOUBLE, right, 2, comm, &local_reqs[1]);
  // SRC: mpiopt_waitall_nb(&mpiopt_nbg_local_reqs, 2, local_reqs, MPI_STATUSES_IGNORE);
  MPI_Waitall(2, local_reqs, MPI_STATUSES_IGNORE);
  local_reqs[0] = local_reqs[1] = MPI_REQUEST_NULL;
}

// Negative: another file passes 'kept' to a function, which may complete
// its requests where the templates do not see it.
void use_kept(int peer, MPI_Comm comm) {
  // REPORT-DAG: global-requests.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Isend not through a persistent request (another file may complete the requests of 'kept' where the templates do not see it: in global-requests-util.c: the request variable 'kept' is passed to keep at line {{[0-9]+}}, which the templates cannot follow)
  MPI_Isend(out[1], N, MPI_DOUBLE, peer, 3, comm, &kept[0]);
  MPI_Irecv(in[1], N, MPI_DOUBLE, peer, 3, comm, &kept[1]);
  MPI_Waitall(2, kept, MPI_STATUSES_IGNORE);
}

void keep(MPI_Request *r) { (void)r; }

int main(int argc, char **argv) {
  int rank, size, peer[2], it;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  peer[0] = (rank + 1) % size;
  peer[1] = (rank + size - 1) % size;
  grow_requests(2);
  for (it = 0; it < 3; it++) {
    post_sends(2, peer, MPI_COMM_WORLD);
    post_receives(2, peer, MPI_COMM_WORLD);
    finish_sends(2);
    ring(peer[1], peer[0], MPI_COMM_WORLD);
    use_kept(rank, MPI_COMM_WORLD);
  }
  hand_kept();
  MPI_Finalize();
  return 0;
}
