/* broadcast-fusion end to end: groups of adjacent MPI_Bcast statements
 * from one root become one broadcast each: parameters of four datatypes
 * set on rank 0, the last rank as root, buffers that overlap (the later
 * part lands last), counts known only at run time (one group small, one
 * over the template's 1 KiB, which runs the separate calls), a time loop
 * whose root takes turns, a communicator split in two, and an
 * intercommunicator between the halves (the template runs the separate
 * calls there, roots MPI_ROOT and MPI_PROC_NULL). Each rank prints what
 * it holds; rank 0 prints the lines in rank order; ompi-cc's build (with
 * a profile in which the fused broadcast wins) must print the same. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static char line[4096];
static int used;

static void say(const char *what, long value) {
  used += snprintf(line + used, sizeof line - (size_t)used, " %s=%ld", what, value);
}

int main(int argc, char **argv) {
  int rank, size, i, step, n = 0, iters = 0, a[4] = {0, 0, 0, 0}, m = 0, root, half, hrank;
  double tol = 0, v[8], big[200], w[3];
  long len = 0;
  char name[8] = "";
  MPI_Comm comm, inter;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  used = snprintf(line, sizeof line, "rank %d:", rank);
  for (i = 0; i < 8; i++)
    v[i] = -1;
  for (i = 0; i < 200; i++)
    big[i] = rank;
  if (rank == 0) {
    n = 10;
    iters = 3;
    tol = 1e-3;
    len = 1L << 33;
    strcpy(name, "heat");
    for (i = 0; i < 4; i++)
      a[i] = 7 * (i + 1);
  }

  /* Parameters from rank 0: one group of five. */
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&tol, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(&len, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Bcast(name, 8, MPI_CHAR, 0, MPI_COMM_WORLD);
  say("n", n);
  say("iters", iters);
  say("tol_e6", (long)(tol * 1e6));
  say("len", len);
  used += snprintf(line + used, sizeof line - (size_t)used, " name=%s", name);

  /* The last rank's values; the later part overlaps the earlier one. */
  if (rank == size - 1)
    for (i = 0; i < 4; i++)
      a[i] = 100 + i;
  MPI_Bcast(a, 3, MPI_INT, size - 1, MPI_COMM_WORLD);
  MPI_Bcast(&a[1], 2, MPI_INT, size - 1, MPI_COMM_WORLD);
  for (i = 0; i < 4; i++)
    say("a", a[i]);

  /* Counts known only at run time: 8 doubles (fused), then 200 (over
     1 KiB: the separate calls). */
  if (rank == 0)
    for (i = 0; i < 8; i++)
      v[i] = i * 0.5;
  MPI_Bcast(&m, 1, MPI_INT, 0, MPI_COMM_WORLD);
  m = n - 2;
  MPI_Bcast(v, m, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(w, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  say("v7", (long)(v[7] * 10));
  MPI_Bcast(big, n * 20, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(&step, 1, MPI_INT, 0, MPI_COMM_WORLD);
  say("big", (long)big[199]);

  /* A time loop whose root takes turns. */
  for (step = 0; step < 4; step++) {
    int s = rank * 10 + step;
    double x = rank + step * 0.25;
    root = step % size;
    MPI_Bcast(&s, 1, MPI_INT, root, MPI_COMM_WORLD);
    MPI_Bcast(&x, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
    say("s", s);
    say("x4", (long)(x * 4));
  }

  /* Halves: a split communicator, then an intercommunicator between them. */
  half = rank < (size + 1) / 2;
  MPI_Comm_split(MPI_COMM_WORLD, half, rank, &comm);
  MPI_Comm_rank(comm, &hrank);
  n = rank;
  iters = -rank;
  MPI_Bcast(&n, 1, MPI_INT, 0, comm);
  MPI_Bcast(&iters, 1, MPI_INT, 0, comm);
  say("hn", n);
  say("hi", iters);
  if (size > 1) {
    MPI_Intercomm_create(comm, 0, MPI_COMM_WORLD, half ? (size + 1) / 2 : 0, 3, &inter);
    n = 1000 + rank;
    tol = rank;
    root = half ? (hrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    MPI_Bcast(&n, 1, MPI_INT, root, inter);
    MPI_Bcast(&tol, 1, MPI_DOUBLE, root, inter);
    say("in", n);
    say("it", (long)tol);
    MPI_Comm_free(&inter);
  }
  MPI_Comm_free(&comm);

  if (rank == 0) {
    char other[4096];
    printf("%s\n", line);
    for (i = 1; i < size; i++) {
      MPI_Recv(other, (int)sizeof other, MPI_CHAR, i, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("%s\n", other);
    }
  } else
    MPI_Send(line, (int)sizeof line, MPI_CHAR, 0, 99, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
