// communication-overlap with requests in heap memory (analysis/OverlapPlan.h,
// NonblockingPlan.h's requestPointerProblem): a local MPI_Request * given
// only fresh allocations, used only by starts, completions, free and tests,
// reaches its requests alone, so its waits move as an array's do; so do
// waits whose statuses lie in memory one pointer owns.
// Negatives: a pointer copied (other code may complete its requests), one
// given memory other code may reach, one passed to a function of the
// program.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=communication-overlap %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdlib.h>

#define N 64

MPI_Request *shared_reqs;
void keep(MPI_Request *r);

double exchange(int left, int right, double *grid) {
  double out[N], in[N], sum = 0;
  MPI_Request *reqs = malloc(2 * sizeof(MPI_Request));
  MPI_Irecv(in, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
  for (int i = 0; i < N; i++)
    out[i] = grid[i];
  MPI_Isend(out, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, reqs + 1);
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: communication-overlap: MPI_Waitall moved down before line [[#@LINE+5]] (lines [[#@LINE+2]]-[[#@LINE+3]] do not depend on the transfers it completes{{.*}}
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  for (int i = N; i < 4 * N; i++)
    sum += grid[i] * grid[i];
  // SRC:  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE); for (int i = 0; i < N; i++)
  for (int i = 0; i < N; i++)
    grid[i] = in[i];
  if (reqs)
    free(reqs);
  return sum;
}

double statuses(int left, int right, double *grid) {
  double out[N], in[N], sum = 0;
  MPI_Request *reqs = malloc(2 * sizeof(MPI_Request));
  MPI_Status *st = malloc(2 * sizeof(MPI_Status));
  MPI_Irecv(in, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
  for (int i = 0; i < N; i++)
    out[i] = grid[i];
  MPI_Isend(out, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[1]);
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: communication-overlap: MPI_Waitall moved down before line [[#@LINE+5]] {{.*}}
  MPI_Waitall(2, reqs, st);
  for (int i = N; i < 4 * N; i++)
    sum += grid[i] * grid[i];
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Waitall stays where it is written (what follows needs the transfers it completes: line [[#@LINE+2]] reads the memory st owns, the status the wait writes)
  MPI_Waitall(2, reqs, st);
  sum += st[0].MPI_SOURCE;
  free(st);
  free(reqs);
  return sum + in[0];
}

double copied(int left, int right, double *grid) {
  double out[N], in[N], sum = 0;
  MPI_Request *reqs = calloc(2, sizeof(MPI_Request));
  shared_reqs = reqs;
  MPI_Irecv(in, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(grid, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[1]);
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Waitall stays where it is written (the request pointer 'reqs' is copied at line [[#@LINE-3]], so other code may complete its requests)
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  for (int i = N; i < 4 * N; i++)
    sum += grid[i] * grid[i];
  for (int i = 0; i < N; i++)
    out[i] = in[i];
  free(reqs);
  return sum + out[0];
}

double given(int left, int right, double *grid) {
  double in[N], sum = 0;
  MPI_Request *reqs = shared_reqs;
  MPI_Irecv(in, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(grid, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[1]);
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Waitall stays where it is written (the request pointer 'reqs' is given memory other code may reach at line [[#@LINE-3]]{{.*}}
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  for (int i = N; i < 4 * N; i++)
    sum += grid[i] * grid[i];
  return sum + in[0];
}

double passed(int left, int right, double *grid) {
  double in[N], sum = 0;
  MPI_Request *reqs = malloc(2 * sizeof(MPI_Request));
  MPI_Irecv(in, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(grid, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[1]);
  keep(reqs);
  // REPORT-DAG: heap-requests.c:[[#@LINE+1]]:3: communication-overlap: not done: MPI_Waitall stays where it is written (the request variable 'reqs' is passed to keep at line [[#@LINE-1]], which the tool cannot follow)
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  for (int i = N; i < 4 * N; i++)
    sum += grid[i] * grid[i];
  free(reqs);
  return sum + in[0];
}
