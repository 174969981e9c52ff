// nonblocking-persistent with requests in heap memory (MPI_Request *reqs):
// the pointer is local to its function, every value it is given is a fresh
// allocation or a null pointer (malloc, calloc, a function of the program
// that returns one, here or in another file by the program's facts), and
// otherwise it is only freed (free, or a function that only frees its
// parameter) and tested; so its memory is reached through it alone and
// every completion of its requests is one the tool rewrites.
// Negative cases say why the tool leaves a call as written.
// RUN: %ompi-opt --whole-program --report --profile=%inputs/profile-nonblocking.json %s %S/Inputs/heap-memory.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=REPORT %s
// RUN: %if openmpi %{ %ompi-opt --whole-program --report --profile=%inputs/profile-nonblocking.json %s %S/Inputs/heap-memory.c -- %openmpi_cflags 2>&1 | FileCheck --check-prefix=REPORT %s %}
// RUN: %ompi-opt --report --profile=%inputs/profile-nonblocking.json %s -- %mpich_cflags 2>&1 | FileCheck --check-prefix=ALONE %s
// RUN: %ompi-opt --whole-program --facts-out=%t.facts.json %s %S/Inputs/heap-memory.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=FACTS %s < %t.facts.json
// RUN: %ompi-opt --program-facts=%t.facts.json --transforms=nonblocking-persistent --profile=%inputs/profile-nonblocking.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %if openmpi %{ %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c %}
#include <mpi.h>
#include <stdlib.h>

void *other_calloc(size_t count, size_t size);
void other_free(char *ptr);
void other_keep(void *ptr);
void *other_pool(void);

// FACTS: "other_free": {
// FACTS: "frees": [
// FACTS-NEXT: 0
// FACTS: "other_keep": {
// FACTS: "frees": [],
// FACTS: "pool_wrapper": {
// FACTS-NOT: "fresh": true
// FACTS: "fresh": false,

#define N 256
static double in[2][N], out[2][N];
static MPI_Request global_reqs[4];

// A halo exchange through a malloc'd array of requests, freed at the end.
// SRC-LABEL: void exchange(int left, int right, MPI_Comm comm) { static struct mpiopt_nbcache mpiopt_nbc1_c;
void exchange(int left, int right, MPI_Comm comm) {
  MPI_Request *reqs = malloc(4 * sizeof(MPI_Request));
  // REPORT-DAG: heap-requests.c:[[#@LINE+2]]:3: nonblocking-persistent: MPI_Irecv through exchange's cache of persistent requests (mpiopt_irecv_nb) (its requests are in memory that only 'reqs', local to exchange, reaches (every value it is given is a fresh allocation or a null pointer; it is only freed and tested otherwise) and only nonblocking starts{{.*}}
  // SRC: mpiopt_irecv_nb(&mpiopt_nbc1_c, in[0], N, MPI_DOUBLE, left, 0, comm, &reqs[0]);
  MPI_Irecv(in[0], N, MPI_DOUBLE, left, 0, comm, &reqs[0]);
  MPI_Irecv(in[1], N, MPI_DOUBLE, right, 1, comm, reqs + 1);
  MPI_Isend(out[0], N, MPI_DOUBLE, right, 0, comm, &reqs[2]);
  // SRC: mpiopt_isend_nb(&mpiopt_nbc1_c, out[1], N, MPI_DOUBLE, left, 1, comm, &reqs[3]);
  MPI_Isend(out[1], N, MPI_DOUBLE, left, 1, comm, &reqs[3]);
  // SRC: mpiopt_waitall_nb(&mpiopt_nbc1_c, 4, reqs, MPI_STATUSES_IGNORE);
  MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
  free(reqs);
}

// hypre's shape: memory from another file's allocator through a cast,
// tested, freed by another file's function through a cast, then set to
// NULL; a neighbour loop with a running index.
// SRC-LABEL: void neighbours(int n, const int *peer, MPI_Comm comm) { static struct mpiopt_nbcache mpiopt_nbc2_c;
void neighbours(int n, const int *peer, MPI_Comm comm) {
  MPI_Request *requests = NULL;
  int i, k = 0;
  if (n > 0)
    requests = (MPI_Request *)other_calloc((size_t)(2 * n), sizeof(MPI_Request));
  for (i = 0; i < n; i++) {
    // REPORT-DAG: heap-requests.c:[[#@LINE+4]]:5: nonblocking-persistent: MPI_Irecv through neighbours's cache of persistent requests (mpiopt_irecv_nb) (its requests are in memory that only 'requests'{{.*}}
    // Alone (no facts of heap-memory.c), its allocator is a function the tool knows nothing of:
    // ALONE: heap-requests.c:[[#@LINE+2]]:5: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (the request pointer 'requests' is given memory other code may reach at line {{[0-9]+}}
    // SRC: mpiopt_irecv_nb(&mpiopt_nbc2_c, in[i % 2], N, MPI_DOUBLE, peer[i], 2, comm, &requests[k++]);
    MPI_Irecv(in[i % 2], N, MPI_DOUBLE, peer[i], 2, comm, &requests[k++]);
    MPI_Isend(out[i % 2], N, MPI_DOUBLE, peer[i], 2, comm, &requests[k++]);
  }
  if (requests != NULL) {
    // SRC: mpiopt_waitall_nb(&mpiopt_nbc2_c, k, requests, MPI_STATUSES_IGNORE);
    MPI_Waitall(k, requests, MPI_STATUSES_IGNORE);
  }
  if (requests)
    other_free((char *)requests), requests = NULL;
}

// Negative: the pointer is copied; the copy may complete the requests.
void copied(int peer, MPI_Comm comm) {
  MPI_Request *reqs = calloc(2, sizeof(MPI_Request));
  MPI_Request *alias = reqs;
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (the request pointer 'reqs' is copied at line [[#@LINE-1]], so other code may complete its requests
  MPI_Irecv(in[0], N, MPI_DOUBLE, peer, 3, comm, &reqs[0]);
  MPI_Isend(out[0], N, MPI_DOUBLE, peer, 3, comm, &reqs[1]);
  MPI_Waitall(2, alias, MPI_STATUSES_IGNORE);
  free(reqs);
}

// Negative: memory other code reaches (a global array, a parameter).
void borrowed(int peer, MPI_Comm comm, MPI_Request *mine) {
  MPI_Request *reqs = global_reqs;
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (the request pointer 'reqs' is given memory other code may reach at line [[#@LINE-1]]
  MPI_Irecv(in[0], N, MPI_DOUBLE, peer, 4, comm, &reqs[0]);
  MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
  reqs = mine;
  MPI_Isend(out[0], N, MPI_DOUBLE, peer, 4, comm, &reqs[1]);
  MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
}

// Negative: passed to a function that keeps it (not only a free), or to
// realloc, whose copy of the memory the tool does not follow.
void handed(int peer, MPI_Comm comm) {
  MPI_Request *reqs = malloc(2 * sizeof(MPI_Request));
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (the request variable 'reqs' is passed to other_keep at line [[#@LINE+3]]
  MPI_Irecv(in[0], N, MPI_DOUBLE, peer, 5, comm, &reqs[0]);
  MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
  other_keep(reqs);
}
void grown(int peer, MPI_Comm comm) {
  MPI_Request *reqs = malloc(sizeof(MPI_Request));
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (the request pointer 'reqs' is given memory other code may reach at line [[#@LINE+2]]
  MPI_Irecv(in[0], N, MPI_DOUBLE, peer, 6, comm, &reqs[0]);
  reqs = realloc(reqs, 2 * sizeof(MPI_Request));
  MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE);
  free(reqs);
}

// Negative: its address is taken (a pointer to the pointer).
void addressed(int peer, MPI_Comm comm) {
  MPI_Request *reqs = malloc(sizeof(MPI_Request));
  MPI_Request **where = &reqs;
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (the request pointer 'reqs' is used at line [[#@LINE-1]] in a way the templates cannot follow (its address taken
  MPI_Irecv(in[0], N, MPI_DOUBLE, peer, 7, comm, &reqs[0]);
  (void)where;
  MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
  free(reqs);
}

// Negative: the memory comes from a wrapper of another file's function
// that returns a static pool, which other code may reach (another file's
// other_pool_request gives out its elements): no fresh object, whatever the
// first round of the facts assumed of other_pool.
void *pool_wrapper(void) { return other_pool(); }
void pooled(int peer, MPI_Comm comm) {
  MPI_Request *reqs = pool_wrapper();
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: nonblocking-persistent: not done: MPI_Irecv not through a persistent request (the request pointer 'reqs' is given memory other code may reach at line [[#@LINE-1]]
  MPI_Irecv(in[0], N, MPI_DOUBLE, peer, 9, comm, &reqs[0]);
  MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  int rank, size, it, peer[2];
  MPI_Request mine[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  peer[0] = (rank + 1) % size;
  peer[1] = (rank + size - 1) % size;
  for (it = 0; it < 3; it++) {
    exchange(peer[1], peer[0], MPI_COMM_WORLD);
    neighbours(2, peer, MPI_COMM_WORLD);
    copied(peer[0], MPI_COMM_WORLD);
    borrowed(peer[0], MPI_COMM_WORLD, mine);
    handed(peer[0], MPI_COMM_WORLD);
    grown(peer[0], MPI_COMM_WORLD);
    addressed(peer[0], MPI_COMM_WORLD);
    pooled(peer[0], MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
