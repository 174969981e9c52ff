/* Allreduce algorithm "ring": a ring reduce-scatter then a ring allgather,
 * over P blocks (any P). In step s of the reduce-scatter each rank sends
 * block (rank - s - 1) to its right neighbour and combines block
 * (rank - s - 2) from its left one, ending with block rank reduced; the
 * allgather passes the finished blocks around. Every block is reduced by
 * one rank, so every rank gets the same bits.
 *
 * Cost model: 2 (P-1) alpha + (P-1)/P N (f + 1) beta + (P-1)/P N gamma / T:
 * Rabenseifner's bandwidth, P instead of log2 P latencies, and only
 * neighbour messages (no fold). */
#include "../vector.h"

double mpiopt_allreduce_ring_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f) {
  double q = (double)(P - 1) / P;
  return 2 * (P - 1) * m->alpha + q * bytes * (f + 1) * m->beta + q * bytes * m->gamma / T;
}

void mpiopt_allreduce_ring(mpiopt_vec *v, const void *sendbuf, void *recvbuf) {
  size_t n = v->n, ext = v->ext;
  unsigned char *acc = recvbuf;
  const unsigned char *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf; /* this rank's own data */
  int P = v->P, r = v->rank, right = (r + 1) % P, left = (r - 1 + P) % P;
#define E(b) mpiopt_vec_lo(n, P, (b))
#define N(b) (E((b) + 1) - E(b))
  for (int s = 0; s < P - 1; s++) { /* each block is combined here once: with this rank's own part */
    int sb = ((r - s - 1) % P + P) % P, rb = ((r - s - 2) % P + P) % P;
    mpiopt_vec_reduce_xchg(v, (s == 0 ? mine : acc) + E(sb) * ext, N(sb), right, mine + E(rb) * ext,
                           acc + E(rb) * ext, N(rb), left, 0);
  }
  for (int s = 0; s < P - 1; s++) {
    int sb = ((r - s) % P + P) % P, rb = ((r - s - 1) % P + P) % P;
    mpiopt_vec_copy_xchg(v, acc + E(sb) * ext, N(sb), right, acc + E(rb) * ext, N(rb), left);
  }
#undef E
#undef N
}
