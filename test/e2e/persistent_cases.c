/* Persistent point-to-point (persistent-requests: MPI_Send, MPI_Ssend,
 * MPI_Recv and MPI_Sendrecv in loops through the templates of
 * templates/mpiopt/persist.h, one request per call site made at the first
 * iteration and freed after the loop): rings of 0 to 512 doubles whose
 * contents change every iteration; a synchronous ring; MPI_Sendrecv with
 * its status (source, tag, MPI_Get_count) on a shorter message than the
 * buffer holds; MPI_PROC_NULL peers at the ends of a line (the status MPI
 * defines: MPICH's persistent receive from MPI_PROC_NULL reports
 * MPI_ANY_SOURCE, so the template calls the MPI's own); a self exchange on MPI_COMM_SELF; a return out of the loop (the
 * request freed there) and a function run many times (a new request each
 * run); nested loops; a transformed sender with an untransformed receiver
 * (a wildcard receive stays generic) and the reverse; persistent
 * collectives (MPI-4's, or Open MPI 4's MPIX_ forms): allreduce (in place
 * too), reduce to the last rank, broadcast, allgather, all-to-all and
 * barrier in a loop whose buffers' contents change; per-site caches of
 * requests for helpers' calls (below). Every rank folds
 * what it receives into a checksum, and rank 0 prints every rank's. The
 * same output through ompi-cc (e2e persistent.*) shows that the requests
 * move what the blocking calls move. */
#include <mpi.h>
#include <stdio.h>

#define MAXN 512
static double out[MAXN], in[MAXN];
static long sum;

static void fold(const double *p, int n) {
  for (int i = 0; i < n; i++)
    sum = sum * 31 + (long)p[i];
}

static void fold_status(const MPI_Status *st) {
  int n;
  MPI_Get_count(st, MPI_DOUBLE, &n);
  sum = sum * 31 + st->MPI_SOURCE;
  sum = sum * 31 + st->MPI_TAG;
  sum = sum * 31 + n;
}

static void fill(int rank, int step, int n) {
  for (int i = 0; i < n; i++)
    out[i] = 1000 * rank + 100 * step + i, in[i] = -1;
}

/* A ring of n doubles: even ranks send first (one rank: none, as a
   blocking send to itself may wait for ever). */
static void ring(int rank, int size, int n) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  if (size == 1)
    return;
  for (int step = 0; step < 4; step++) {
    fill(rank, step, n);
    if (rank % 2 == 0) {
      MPI_Send(out, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
      MPI_Recv(in, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(in, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
    }
    fold(in, n);
  }
}

/* A synchronous ring (one rank: none). */
static void synchronous(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  if (size == 1)
    return;
  for (int step = 0; step < 3; step++) {
    fill(rank, step, 16);
    if (rank % 2 == 0) {
      MPI_Ssend(out, 16, MPI_DOUBLE, right, 4, MPI_COMM_WORLD);
      MPI_Recv(in, 16, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(in, 16, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Ssend(out, 16, MPI_DOUBLE, right, 4, MPI_COMM_WORLD);
    }
    fold(in, 16);
  }
}

/* A line with MPI_PROC_NULL beyond its ends, and its statuses: 8 doubles
   sent, room for 32. */
static void line(int rank, int size) {
  int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  MPI_Status st;
  for (int step = 0; step < 3; step++) {
    fill(rank, step, 32);
    MPI_Sendrecv(out, 8, MPI_DOUBLE, up, 5, in, 32, MPI_DOUBLE, down, 5, MPI_COMM_WORLD, &st);
    fold_status(&st);
    fold(in, 32);
    MPI_Sendrecv(out, 8, MPI_DOUBLE, down, 6, in, 32, MPI_DOUBLE, up, 6, MPI_COMM_WORLD, &st);
    fold_status(&st);
    fold(in, 32);
  }
}

/* A self exchange; a return out of the loop at step stop. */
static int self(int rank, int stop) {
  MPI_Status st;
  for (int step = 0; step < 5; step++) {
    fill(rank, step, 64);
    MPI_Sendrecv(out, 64, MPI_DOUBLE, 0, 7, in, 64, MPI_DOUBLE, 0, 7, MPI_COMM_SELF, &st);
    fold_status(&st);
    fold(in, 64);
    MPI_Sendrecv(out, 0, MPI_DOUBLE, 0, 11, in, 64, MPI_DOUBLE, 0, 11, MPI_COMM_SELF, &st); /* empty */
    fold_status(&st);
    if (step == stop)
      return step;
  }
  return -1;
}

/* Nested loops: the request lives through the outer one. */
static void nested(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) {
      fill(rank, 10 * i + j, 4);
      MPI_Sendrecv(out, 4, MPI_DOUBLE, right, 8, in, 4, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      fold(in, 4);
    }
}

/* Rank 0 receives with MPI_ANY_SOURCE (generic) what the others send
   through their persistent requests, then sends back to each (generic: the
   destination changes in its loop) to the others' persistent receives. */
static void mixed(int rank, int size) {
  MPI_Status st;
  for (int step = 0; step < 2; step++) {
    fill(rank, step, 8);
    if (rank == 0) {
      for (int k = 1; k < size; k++) {
        MPI_Recv(in, 8, MPI_DOUBLE, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st);
        sum += (long)in[0] * (st.MPI_SOURCE + 1);
      }
    } else {
      MPI_Send(out, 8, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    }
  }
  for (int step = 0; step < 2; step++) {
    fill(rank, step + 2, 8);
    if (rank == 0)
      for (int k = 1; k < size; k++)
        MPI_Send(out, 8, MPI_DOUBLE, k, 10, MPI_COMM_WORLD);
    else {
      MPI_Recv(in, 8, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD, &st);
      fold_status(&st);
      fold(in, 8);
    }
  }
}

/* Collectives in a loop, every rank alike. */
static void collectives(int rank, int size) {
  static double all[64 * 8];
  for (int step = 0; step < 4; step++) {
    fill(rank, step, 8);
    MPI_Allreduce(out, in, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    fold(in, 8);
    MPI_Allreduce(MPI_IN_PLACE, out, 8, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    fold(out, 8);
    MPI_Reduce(out, in, 4, MPI_DOUBLE, MPI_MIN, size - 1, MPI_COMM_WORLD);
    if (rank == size - 1)
      fold(in, 4);
    fill(rank, step + 1, 8);
    MPI_Bcast(out, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    fold(out, 8);
    if (size <= 64) {
      MPI_Allgather(out, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, MPI_COMM_WORLD);
      fold(all, 2 * size);
      MPI_Alltoall(all, 1, MPI_DOUBLE, in, 1, MPI_DOUBLE, MPI_COMM_WORLD);
      fold(in, size < 8 ? size : 8);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

/* Per-site caches (struct mpiopt_pcache): a helper's exchange called from
   a loop with two buffers in turn (two keys, hits after the first two
   calls); a helper whose tag takes seven values in turn (more keys than
   the cache's ways: every call misses, and the site returns to the generic
   call after MPIOPT_PCACHE_VERDICT calls); a helper that makes and frees
   its datatype around each call (a new type of another size each time,
   which may get the freed one's handle). */
static double alt[2][16];

static void exchange(const double *s, double *r, int n, int right, int left) {
  MPI_Status st;
  MPI_Sendrecv(s, n, MPI_DOUBLE, right, 13, r, n, MPI_DOUBLE, left, 13, MPI_COMM_WORLD, &st);
  fold_status(&st);
  fold(r, n);
}

static void tagged(int right, int left, int tag) {
  MPI_Status st;
  MPI_Sendrecv(out, 4, MPI_DOUBLE, right, tag, in, 4, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, &st);
  fold_status(&st);
  fold(in, 4);
}

static void typed(int right, int left, int k) {
  MPI_Datatype t;
  MPI_Type_contiguous(k, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Sendrecv(out, 1, t, right, 12, in, 1, t, left, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
  fold(in, 4);
}

static void cached(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int step = 0; step < 100; step++) {
    double *s = alt[step % 2], *r = alt[1 - step % 2];
    for (int i = 0; i < 16; i++)
      s[i] = 1000 * rank + step + i;
    exchange(s, r, 16, right, left);
    fill(rank, step, 4);
    tagged(right, left, 20 + step % 7);
    fill(rank, step + 1, 4);
    typed(right, left, 1 + step % 3);
  }
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static const int sizes[] = {0, 1, 7, 64, 512};
  for (int k = 0; k < 5; k++)
    ring(rank, size, sizes[k]);
  synchronous(rank, size);
  line(rank, size);
  for (int stop = 0; stop < 6; stop++)
    sum = sum * 31 + self(rank, stop);
  nested(rank, size);
  mixed(rank, size);
  collectives(rank, size);
  cached(rank, size);
  long all[64];
  MPI_Gather(&sum, 1, MPI_LONG, all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size && r < 64; r++)
      printf("rank %d: %ld\n", r, all[r]);
  MPI_Finalize();
  return 0;
}
