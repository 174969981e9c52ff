// vector-reductions of a reduction written in both arms of an if that only
// some ranks take (the root's MPI_Reduce with MPI_IN_PLACE, the others'
// with their buffer; the PRK Reduce kernel's shape): each arm is that one
// call of the same MPI function, the arguments and the condition call no
// function, every rank reaches the if alike, and both calls qualify; then
// both go to the selector and name one site of the runtime (the first
// twin's line), so its per-site state is the same for the ranks of both
// arms. Negative cases say why a call stays as written.
// RUN: %ompi-opt --report --transforms=vector-reductions --profile=%inputs/profile-collectives.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=vector-reductions --profile=%inputs/profile-collectives.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %mpich_cflags %t.c
// RUN: %if openmpi %{ %clang -fsyntax-only -Wall -Wextra -Werror -I%runtime_include %openmpi_cflags %t.c %}
#include <mpi.h>
#include <stddef.h>

#define N 100000
#define REDUCE_LONGS(s, r, root) MPI_Reduce(s, r, N, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD)
static long v[N], w[N];
static int flags[N], any[N];

static int is_root(int rank) { return rank == 0; }

void twins(int rank, int root, MPI_Comm comm) {
  // REPORT-DAG: twin-arms.c:[[#@LINE+3]]:5: vector-reductions: MPI_Reduce of MPI_LONG with MPI_SUM handed to the large-vector selector (mpiopt_reduce) (every rank that reaches the if at line [[#@LINE+2]] runs it or the MPI_Reduce at line [[#@LINE+7]] (the other arm, which goes to the selector too) and it reduces 800000 bytes;{{.*}}
  // SRC: mpiopt_reduce_at(MPI_IN_PLACE, v, N, MPI_LONG, MPI_SUM, root, comm, __FILE__, [[#@LINE+2]]);
  if (rank == root)
    MPI_Reduce(MPI_IN_PLACE, v, N, MPI_LONG, MPI_SUM, root, comm);
  else {
    // REPORT-DAG: twin-arms.c:[[#@LINE+2]]:5: vector-reductions: MPI_Reduce of MPI_LONG with MPI_SUM handed to the large-vector selector (mpiopt_reduce) (every rank that reaches the if at line [[#@LINE-3]] runs it or the MPI_Reduce at line [[#@LINE-2]] (the other arm{{.*}}
    // SRC: mpiopt_reduce_at(v, NULL, N, MPI_LONG, MPI_SUM, root, comm, __FILE__, [[#@LINE-3]]);
    MPI_Reduce(v, NULL, N, MPI_LONG, MPI_SUM, root, comm);
  }
  // Different buffers on the two halves of the ranks, the result kept.
  int rc;
  // SRC: rc = mpiopt_allreduce_at(flags, any, N, MPI_INT, MPI_BOR, comm, __FILE__, [[#@LINE+2]]);
  if (rank % 2)
    rc = MPI_Allreduce(flags, any, N, MPI_INT, MPI_BOR, comm);
  else
    // SRC: rc = mpiopt_allreduce_at(any, flags, N, MPI_INT, MPI_BOR, comm, __FILE__, [[#@LINE-2]]);
    rc = MPI_Allreduce(any, flags, N, MPI_INT, MPI_BOR, comm);
  (void)rc;
}

void not_twins(int rank, int root, MPI_Comm comm, MPI_Datatype type) {
  // Negative: an arm holds more than the call (what it does besides may
  // differ between the ranks of the two arms).
  if (rank == root) {
    // REPORT-DAG: twin-arms.c:[[#@LINE+1]]:5: vector-reductions: not done: MPI_Reduce left to the MPI (every rank must make the runtime's calls alike, but the branch at line [[#@LINE-1]] may go different ways on different ranks: {{.*}})
    MPI_Reduce(MPI_IN_PLACE, w, N, MPI_LONG, MPI_SUM, root, comm);
    w[0] = 0;
  } else
    MPI_Reduce(w, NULL, N, MPI_LONG, MPI_SUM, root, comm);
  // Negative: the if is itself in an arm only some ranks take.
  if (rank < 2) {
    if (rank == root)
      // REPORT-DAG: twin-arms.c:[[#@LINE+1]]:7: vector-reductions: not done: MPI_Reduce left to the MPI (every rank must make the runtime's calls alike, but the branch at line [[#@LINE-1]] may go different ways on different ranks: {{.*}})
      MPI_Reduce(MPI_IN_PLACE, w, N, MPI_LONG, MPI_SUM, root, comm);
    else
      MPI_Reduce(w, NULL, N, MPI_LONG, MPI_SUM, root, comm);
  }
  // Negative: the condition calls a function.
  if (is_root(rank))
    // REPORT-DAG: twin-arms.c:[[#@LINE+1]]:5: vector-reductions: not done: MPI_Reduce left to the MPI (every rank must make the runtime's calls alike, but the branch at line [[#@LINE-1]] may go different ways on different ranks: {{.*}})
    MPI_Reduce(MPI_IN_PLACE, w, N, MPI_LONG, MPI_SUM, 0, comm);
  else
    MPI_Reduce(w, NULL, N, MPI_LONG, MPI_SUM, 0, comm);
  // Negative: the other arm's datatype is a parameter, not known to be an
  // arithmetic type: neither call goes, or the ranks of the two arms would
  // make different calls.
  if (rank == 0)
    // REPORT-DAG: twin-arms.c:[[#@LINE+1]]:5: vector-reductions: not done: MPI_Reduce left to the MPI (the ranks that take the other arm of the if at line [[#@LINE-1]] make the MPI_Reduce at line [[#@LINE+4]], which stays the MPI's (see its note), and both must make the same calls)
    MPI_Reduce(MPI_IN_PLACE, w, N, MPI_LONG, MPI_SUM, 0, comm);
  else
    // REPORT-DAG: twin-arms.c:[[#@LINE+1]]:5: vector-reductions: not done: MPI_Reduce left to the MPI (its datatype (type) is not a predefined arithmetic type the selector's algorithms reduce)
    MPI_Reduce(w, NULL, N, type, MPI_SUM, 0, comm);
  // A function-like macro around the call is judged as its call (and
  // written out as it).
  if (rank == 0)
    // SRC: mpiopt_reduce_at(MPI_IN_PLACE, w, N, MPI_LONG, MPI_SUM, 0, comm, __FILE__, [[#@LINE+1]]);
    MPI_Reduce(MPI_IN_PLACE, w, N, MPI_LONG, MPI_SUM, 0, comm);
  else
    REDUCE_LONGS(w, NULL, 0);
}
