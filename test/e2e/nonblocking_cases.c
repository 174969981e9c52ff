/* nonblocking-persistent end to end: halo exchanges and neighbour loops
 * whose nonblocking starts go through their functions' caches of
 * persistent requests, completed by every kind of wait and test. Prints
 * the data received, the statuses, and whether each request variable is
 * MPI_REQUEST_NULL after its completion, which must be what the plain
 * build prints. Exact values only (integers). */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define N 16
#define LOG 8192
static int rank, size;
static char log_text[LOG];
static size_t log_len;

/* Each rank's lines are kept and printed by rank 0 in rank order. */
static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (log_len < LOG)
    log_len += (size_t)vsnprintf(log_text + log_len, LOG - log_len, fmt, ap);
  va_end(ap);
}

/* A 1-D halo exchange without wrap-around: the ends talk to
   MPI_PROC_NULL. Requests in an array with constant indices, one
   MPI_Waitall with statuses. */
static long halo(int *u, int it) {
  MPI_Request r[4];
  MPI_Status st[4];
  int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int lo[N], hi[N], i, n0, n1;
  long sum = 0;
  for (i = 0; i < N; i++)
    lo[i] = hi[i] = -1;
  MPI_Irecv(lo, N, MPI_INT, down, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(hi, N, MPI_INT, up, 2, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(u, N, MPI_INT, up, 1, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(u, N, MPI_INT, down, 2, MPI_COMM_WORLD, &r[3]);
  MPI_Waitall(4, r, st);
  MPI_Get_count(&st[0], MPI_INT, &n0);
  MPI_Get_count(&st[1], MPI_INT, &n1);
  for (i = 0; i < N; i++)
    sum += lo[i] * (i + 1) + hi[i] * (i + 2);
  if (it % 7 == 0)
    say("rank %d halo %d: sum %ld counts %d %d null %d%d%d%d\n", rank, it, sum, n0, n1, r[0] == MPI_REQUEST_NULL,
           r[1] == MPI_REQUEST_NULL, r[2] == MPI_REQUEST_NULL, r[3] == MPI_REQUEST_NULL);
  return sum;
}

/* A ring with scalar requests, each waited for, the receive's status
   printed; a test loop on the send. */
static long ring(int it) {
  MPI_Request rs, rr;
  MPI_Status st;
  int out[N], in[N], i, flag = 0, n;
  long sum = 0;
  for (i = 0; i < N; i++)
    out[i] = rank * 100 + it + i;
  MPI_Irecv(in, N, MPI_INT, (rank + size - 1) % size, 3 + it % 2, MPI_COMM_WORLD, &rr);
  MPI_Isend(out, N - it % 3, MPI_INT, (rank + 1) % size, 3 + it % 2, MPI_COMM_WORLD, &rs);
  MPI_Wait(&rr, &st);
  while (!flag)
    MPI_Test(&rs, &flag, MPI_STATUS_IGNORE);
  MPI_Get_count(&st, MPI_INT, &n);
  for (i = 0; i < n; i++)
    sum += in[i];
  if (it % 5 == 0)
    say("rank %d ring %d: sum %ld count %d source %d tag %d null %d%d\n", rank, it, sum, n, st.MPI_SOURCE,
           st.MPI_TAG, rr == MPI_REQUEST_NULL, rs == MPI_REQUEST_NULL);
  return sum;
}

/* A neighbour loop: six messages each way, peers and buffers read from
   arrays by the counter; receives completed by MPI_Waitany, sends by
   MPI_Testany and MPI_Waitsome in turn. */
static long neighbours(int it) {
  MPI_Request req[12];
  MPI_Status sts[6];
  int peer[6], in[6][4], out[6][4], i, k, idx, flag, done, cnt, ind[6];
  long sum = 0;
  for (k = 0; k < 6; k++) {
    peer[k] = (rank + (k % 2 ? 1 : size - 1)) % size;
    for (i = 0; i < 4; i++)
      out[k][i] = rank * 1000 + k * 10 + i + it;
  }
  for (k = 0; k < 6; k++)
    MPI_Irecv(in[k], 4, MPI_INT, peer[k], 10 + (k ^ 1), MPI_COMM_WORLD, &req[k]);
  for (k = 0; k < 6; k++)
    MPI_Isend(out[k], 4, MPI_INT, peer[k], 10 + k, MPI_COMM_WORLD, &req[6 + k]);
  for (k = 0; k < 6; k++)
    MPI_Waitany(6, req, &idx, MPI_STATUS_IGNORE);
  if (it % 2)
    for (done = 0; done < 6;) {
      MPI_Testany(6, req + 6, &idx, &flag, MPI_STATUS_IGNORE);
      if (flag && idx != MPI_UNDEFINED)
        done++;
    }
  else
    for (done = 0; done < 6; done += cnt)
      MPI_Waitsome(6, req + 6, &cnt, ind, sts);
  for (k = 0; k < 6; k++)
    for (i = 0; i < 4; i++)
      sum += (long)in[k][i] * (k + 1);
  for (k = 0, flag = 1; k < 12; k++)
    flag = flag && req[k] == MPI_REQUEST_NULL;
  if (it % 4 == 0)
    say("rank %d neighbours %d: sum %ld all null %d\n", rank, it, sum, flag);
  return sum;
}

/* A request of the program's own (MPI_Send_init) beside the template's in
   one array: MPI_Testall, then the own request is still there. */
static long own(MPI_Request *mine, int *buf, int it) {
  MPI_Request r[3];
  MPI_Status sts[3];
  int in[N], in2[N], flag = 0, i;
  long sum = 0;
  for (i = 0; i < N; i++)
    buf[i] = rank + it * i;
  MPI_Irecv(in, N, MPI_INT, (rank + size - 1) % size, 20, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(in2, N, MPI_INT, (rank + size - 1) % size, 21, MPI_COMM_WORLD, &r[1]);
  MPI_Start(mine);
  r[2] = *mine;
  MPI_Send(buf, N, MPI_INT, (rank + 1) % size, 21, MPI_COMM_WORLD);
  while (!flag)
    MPI_Testall(3, r, &flag, sts);
  for (i = 0; i < N; i++)
    sum += in[i] + 2 * in2[i];
  if (it % 6 == 0)
    say("rank %d own %d: sum %ld null %d%d own kept %d\n", rank, it, sum, r[0] == MPI_REQUEST_NULL,
           r[1] == MPI_REQUEST_NULL, r[2] != MPI_REQUEST_NULL);
  return sum;
}

/* Requests in heap memory whose size changes with the iteration (1 to 3
   neighbours each way), freed at the end: MPI_Waitall, then every request
   is MPI_REQUEST_NULL. */
static long heap(int it) {
  int nn = 1 + it % 3, k, i, flag;
  int in[3][N], out[3][N];
  long sum = 0;
  MPI_Status sts[6];
  MPI_Request *reqs = (MPI_Request *)malloc((size_t)(2 * nn) * sizeof(MPI_Request));
  if (!reqs)
    return 0;
  for (k = 0; k < nn; k++) {
    for (i = 0; i < N; i++)
      out[k][i] = rank * 100 + k * 7 + i + it;
    MPI_Irecv(in[k], N, MPI_INT, (rank + size - 1) % size, 30 + k, MPI_COMM_WORLD, &reqs[2 * k]);
    MPI_Isend(out[k], N, MPI_INT, (rank + 1) % size, 30 + k, MPI_COMM_WORLD, reqs + 2 * k + 1);
  }
  MPI_Waitall(2 * nn, reqs, sts);
  for (k = 0, flag = 1; k < 2 * nn; k++)
    flag = flag && reqs[k] == MPI_REQUEST_NULL;
  for (k = 0; k < nn; k++)
    for (i = 0; i < N; i++)
      sum += (long)in[k][i] * (k + 2);
  if (it % 5 == 0)
    say("rank %d heap %d: sum %ld all null %d source %d tag %d\n", rank, it, sum, flag, sts[0].MPI_SOURCE,
        sts[2 * nn - 2].MPI_TAG);
  free(reqs);
  return sum;
}

int main(int argc, char **argv) {
  int u[N], buf[N], it, i;
  long total = 0;
  MPI_Request mine;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Send_init(buf, N, MPI_INT, (rank + 1) % size, 20, MPI_COMM_WORLD, &mine);
  for (it = 0; it < 30; it++) {
    for (i = 0; i < N; i++)
      u[i] = rank * 10 + it + i;
    total += halo(u, it);
    total += ring(it);
    total += neighbours(it);
    total += own(&mine, buf, it);
    total += heap(it);
  }
  MPI_Request_free(&mine);
  say("rank %d total %ld\n", rank, total);
  {
    char *all = rank == 0 ? (char *)malloc((size_t)size * LOG) : NULL;
    MPI_Gather(log_text, LOG, MPI_CHAR, all, LOG, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (i = 0; rank == 0 && i < size; i++)
      fputs(all + (size_t)i * LOG, stdout);
    free(all);
  }
  MPI_Finalize();
  return 0;
}
