// The other file of whole-program.c's program: it sets some of main's
// globals (on every rank, or on rank 0 only), calls a function main's file
// defines (with a uniform and a rank-dependent argument), and defines
// functions main calls.
#include <mpi.h>

extern int nsteps, verbose, marked;
void work(int n);
void spread(int n);

void setup(int argc) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  nsteps = argc + 2;
  if (rank == 0)
    verbose = 1;
  work(nsteps);
  spread(rank);
}

void mark(void) { marked = 1; }

int twice(int n) { return 2 * n; }

// Memory a global pointer of main's file owns, from an allocator of this
// file: norms holds the same values on every rank, noisy the rank.
#include <stdlib.h>
extern double *norms, *noisy;
void *grab(size_t n) {
  void *p = malloc(n);
  if (!p)
    MPI_Abort(MPI_COMM_WORLD, 1);
  return p;
}
void tables(int rank) {
  norms = grab(2 * sizeof(double));
  noisy = grab(2 * sizeof(double));
  norms[0] = nsteps;
  noisy[0] = rank;
}
