/* peer-templates and sendrecv-pairing end to end: sends and receives whose peer is
 * MPI_PROC_NULL, exchanges with one side MPI_PROC_NULL (the other a
 * neighbour of the ring), and exchanges of each process with itself
 * (MPI_COMM_WORLD with its rank, MPI_COMM_SELF with 0), and an exchange of
 * neighbours written as MPI_Send and MPI_Recv, and exchanges of a periodic
 * Cartesian halo whose peers are known only at run time, at sizes from 0 to 64 KiB. Each rank prints what it received and every status (source as
 * "null" for MPI_PROC_NULL, tag as "any" for MPI_ANY_TAG, count); rank 0
 * prints the lines in rank order; ompi-cc's build must print the same. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXN 8192
static double u[MAXN], g[MAXN];
static int rank, size;
static char line[4096];
static int used;

static void say(const char *what, int value) {
  used += snprintf(line + used, sizeof line - (size_t)used, " %s=%d", what, value);
}

static void status(const char *what, const MPI_Status *st, MPI_Datatype type) {
  int n = -1;
  MPI_Get_count(st, type, &n);
  used += snprintf(line + used, sizeof line - (size_t)used, " %s:", what);
  if (st->MPI_SOURCE == MPI_PROC_NULL)
    used += snprintf(line + used, sizeof line - (size_t)used, "null");
  else
    used += snprintf(line + used, sizeof line - (size_t)used, "%d", st->MPI_SOURCE);
  if (st->MPI_TAG == MPI_ANY_TAG)
    used += snprintf(line + used, sizeof line - (size_t)used, "/any/%d", n);
  else
    used += snprintf(line + used, sizeof line - (size_t)used, "/%d/%d", st->MPI_TAG, n);
}

static int sum(const double *x, int n) {
  double s = 0;
  int i;
  for (i = 0; i < n; i++)
    s += x[i] * (i % 7 + 1);
  return (int)s;
}

/* Called with MPI_PROC_NULL only: a boundary that sends and receives
   nothing. */
static void boundary(int peer, int n) {
  MPI_Status st;
  MPI_Send(u, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
  MPI_Recv(g, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st);
  status("boundary", &st, MPI_DOUBLE);
  MPI_Sendrecv(u, n, MPI_DOUBLE, peer, 2, g, n, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &st);
  status("both-null", &st, MPI_DOUBLE);
}

/* Half exchanges around the ring: the send half to the right (its receive
   posted first), the receive half from the left (its message sent first). */
static void halves(int n) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Request r;
  MPI_Status st;
  MPI_Irecv(g, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &r);
  MPI_Sendrecv(u, n, MPI_DOUBLE, right, 3, g + n, n, MPI_DOUBLE, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st);
  status("send-half", &st, MPI_DOUBLE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  say("got", sum(g, n));
  MPI_Isend(u, n, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &r);
  MPI_Sendrecv(u, n, MPI_DOUBLE, MPI_PROC_NULL, 4, g, MAXN, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &st);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  status("recv-half", &st, MPI_DOUBLE);
  say("got", sum(g, n));
  MPI_Irecv(g, n, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &r);
  MPI_Sendrecv_replace(u, n, MPI_DOUBLE, right, 5, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  status("replace-send", &st, MPI_DOUBLE);
  say("got", sum(g, n));
}

/* An exchange of neighbours written as an MPI_Send and an MPI_Recv (even
   ranks send first, odd ranks receive first): sendrecv-pairing writes each
   pair as one MPI_Sendrecv. */
static void pairs(int n) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Status st;
  if (size < 2)
    return; /* a blocking send to itself may wait for ever */
  if (rank % 2 == 0) {
    MPI_Send(u, n, MPI_DOUBLE, right, 10, MPI_COMM_WORLD);
    MPI_Recv(g, MAXN, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &st);
  } else {
    MPI_Recv(g, MAXN, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &st);
    MPI_Send(u, n, MPI_DOUBLE, right, 10, MPI_COMM_WORLD);
  }
  status("pair", &st, MPI_DOUBLE);
  say("got", sum(g, n));
  /* The same through allocated buffers (each pointer one allocation). */
  {
    double *hs = (double *)malloc(sizeof *hs * (size_t)(n + 1)), *hr = NULL;
    int i;
    hr = (double *)calloc((size_t)(n + 1), sizeof *hr);
    if (!hs || !hr)
      MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i <= n; i++)
      hs[i] = rank * 10 + i;
    if (rank % 2 == 0) {
      MPI_Send(hs, n, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
      MPI_Recv(hr, n + 1, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &st);
    } else {
      MPI_Recv(hr, n + 1, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &st);
      MPI_Send(hs, n, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
    }
    status("heap-pair", &st, MPI_DOUBLE);
    say("got", sum(hr, n + 1));
    free(hs);
    free(hr);
  }
}

/* Exchanges with itself: through MPI_COMM_WORLD with the rank, through
   MPI_COMM_SELF with 0, and MPI_Sendrecv_replace. */
static void self(int n) {
  int me, i;
  MPI_Status st;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  for (i = 0; i < n; i++)
    u[i] = me + i * 0.5;
  MPI_Sendrecv(u, n, MPI_DOUBLE, me, 6, g, MAXN, MPI_DOUBLE, me, 6, MPI_COMM_WORLD, &st);
  status("self", &st, MPI_DOUBLE);
  say("got", sum(g, n));
  MPI_Sendrecv(g, n / 2, MPI_DOUBLE, 0, 7, u, n, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_SELF, &st);
  status("self-any", &st, MPI_DOUBLE);
  say("got", sum(u, n));
  MPI_Sendrecv_replace(u, n, MPI_DOUBLE, me, 8, me, 8, MPI_COMM_WORLD, &st);
  status("self-replace", &st, MPI_DOUBLE);
  say("kept", sum(u, n));
  MPI_Sendrecv(u, n, MPI_DOUBLE, me, 9, g, n, MPI_DOUBLE, me, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  say("ignored", sum(g, n));
}

/* A periodic halo on a Cartesian grid of size x 1 processes: the peers come
   from MPI_Cart_shift, known only at run time (peer-templates' run-time
   check: a copy where both are the caller, dimension 1 always and dimension
   0 on one process; the generic call otherwise). */
static void periodic(int n) {
  int dims[2] = {size, 1}, periods[2] = {1, 1}, d, lo, hi;
  MPI_Comm cart;
  MPI_Status st;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  for (d = 0; d < 2; d++) {
    MPI_Cart_shift(cart, d, 1, &lo, &hi);
    MPI_Sendrecv(u, n, MPI_DOUBLE, hi, 12, g, MAXN, MPI_DOUBLE, lo, 12, cart, &st);
    status("periodic-up", &st, MPI_DOUBLE);
    say("got", sum(g, n));
    MPI_Sendrecv(g, n, MPI_DOUBLE, lo, 13, u, n, MPI_DOUBLE, hi, 13, cart, &st);
    status("periodic-down", &st, MPI_DOUBLE);
    say("got", sum(u, n));
  }
  MPI_Comm_free(&cart);
}

int main(int argc, char **argv) {
  static const int sizes[] = {0, 1, 7, 64, 1000, MAXN};
  int k, r, i;
  char *all;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  all = malloc((size_t)size * sizeof line);
  if (!all)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (k = 0; k < (int)(sizeof sizes / sizeof *sizes); k++) {
    int n = sizes[k];
    used = snprintf(line, sizeof line, "rank %d n %d:", rank, n);
    for (i = 0; i < MAXN; i++)
      u[i] = rank * 1000 + i + k, g[i] = -1;
    boundary(MPI_PROC_NULL, n);
    halves(n);
    pairs(n);
    self(n);
    periodic(n);
    /* Rank 0 prints every rank's line, in rank order. */
    MPI_Gather(line, (int)sizeof line, MPI_CHAR, all, (int)sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (r = 0; !rank && r < size; r++)
      printf("%s\n", all + (size_t)r * sizeof line);
  }
  free(all);
  MPI_Finalize();
  return 0;
}
