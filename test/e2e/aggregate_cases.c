/* message-aggregation end to end: groups of adjacent MPI_Send statements to
 * one peer and the MPI_Recv statements that take them, in a ring (even
 * ranks send first, odd ranks receive first), a chain whose ends send to
 * and receive from MPI_PROC_NULL, a time loop, four parts of three
 * datatypes with an empty part, receives larger than what is sent, and
 * statuses read back (source, tag, count). Each rank prints what it
 * received and every status; rank 0 prints the lines in rank order;
 * ompi-cc's build (with a profile in which the packed message wins) must
 * print the same. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static char line[2048];
static int used;

static void say(const char *what, long value) {
  used += snprintf(line + used, sizeof line - (size_t)used, " %s=%ld", what, value);
}

static void status(const MPI_Status *st, MPI_Datatype type) {
  int n = -1;
  MPI_Get_count(st, type, &n);
  if (st->MPI_SOURCE == MPI_PROC_NULL)
    used += snprintf(line + used, sizeof line - (size_t)used, " st:null/%d", n);
  else
    used += snprintf(line + used, sizeof line - (size_t)used, " st:%d/%d/%d", st->MPI_SOURCE, st->MPI_TAG, n);
}

int main(int argc, char **argv) {
  int rank, size, right, left, up, down, step, i;
  int n = 3, m = -1, k = -1;
  double x[6], y[10], z[4];
  char c[5] = "abcd", d[8];
  long big[4], got[4];
  MPI_Status s1, s2, s3, s4;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Alone, no ring: MPICH completes a send to the process itself only
     once its receive is posted. */
  right = size > 1 ? (rank + 1) % size : MPI_PROC_NULL;
  left = size > 1 ? (rank + size - 1) % size : MPI_PROC_NULL;
  up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  for (i = 0; i < 6; i++)
    x[i] = 10 * rank + i;
  for (i = 0; i < 4; i++)
    big[i] = 1000L * rank + i;
  memset(y, 0, sizeof y);
  memset(d, 0, sizeof d);
  used = snprintf(line, sizeof line, "rank %d:", rank);

  /* A ring: two parts, the receive's buffer larger than the message. */
  if (rank % 2 == 0) {
    MPI_Send(&n, 1, MPI_INT, right, 5, MPI_COMM_WORLD);
    MPI_Send(x, 6, MPI_DOUBLE, right, 6, MPI_COMM_WORLD);
    MPI_Recv(&m, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &s1);
    MPI_Recv(y, 10, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, &s2);
  } else {
    MPI_Recv(&m, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &s1);
    MPI_Recv(y, 10, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, &s2);
    MPI_Send(&n, 1, MPI_INT, right, 5, MPI_COMM_WORLD);
    MPI_Send(x, 6, MPI_DOUBLE, right, 6, MPI_COMM_WORLD);
  }
  say("m", m);
  say("y0", (long)y[0]);
  say("y5", (long)y[5]);
  say("y6", (long)y[6]);
  status(&s1, MPI_INT);
  status(&s2, MPI_DOUBLE);

  /* A chain: four parts (one empty), the ends' peers MPI_PROC_NULL. */
  MPI_Send(&rank, 1, MPI_INT, up, 7, MPI_COMM_WORLD);
  MPI_Send(c, 4, MPI_CHAR, up, 8, MPI_COMM_WORLD);
  MPI_Send(big, 0, MPI_LONG, up, 9, MPI_COMM_WORLD);
  MPI_Send(big, 4, MPI_LONG, up, 10, MPI_COMM_WORLD);
  MPI_Recv(&k, 1, MPI_INT, down, 7, MPI_COMM_WORLD, &s1);
  MPI_Recv(d, 8, MPI_CHAR, down, 8, MPI_COMM_WORLD, &s2);
  MPI_Recv(got, 4, MPI_LONG, down, 9, MPI_COMM_WORLD, &s3);
  MPI_Recv(got, 4, MPI_LONG, down, 10, MPI_COMM_WORLD, &s4);
  say("k", k);
  used += snprintf(line + used, sizeof line - (size_t)used, " d=%s", d);
  say("got3", rank > 0 ? got[3] : -1);
  status(&s1, MPI_INT);
  status(&s2, MPI_CHAR);
  status(&s3, MPI_LONG);
  status(&s4, MPI_LONG);

  /* A time loop: the halo of a small array, every step. */
  for (step = 0; step < 5; step++) {
    for (i = 0; i < 4; i++)
      z[i] = step + rank + i;
    if (rank % 2 == 0) {
      MPI_Send(&step, 1, MPI_INT, right, 11, MPI_COMM_WORLD);
      MPI_Send(z, 4, MPI_DOUBLE, right, 12, MPI_COMM_WORLD);
      MPI_Recv(&m, 1, MPI_INT, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(y, 4, MPI_DOUBLE, left, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&m, 1, MPI_INT, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(y, 4, MPI_DOUBLE, left, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&step, 1, MPI_INT, right, 11, MPI_COMM_WORLD);
      MPI_Send(z, 4, MPI_DOUBLE, right, 12, MPI_COMM_WORLD);
    }
    say("step", m);
    say("y3", (long)y[3]);
  }

  if (rank == 0) {
    char other[2048];
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
