/* Reduce algorithm "ring": a ring reduce-scatter over P blocks (numbered
 * from the root, so rank vr ends with block vr reduced), then a binomial
 * gather of the contiguous block ranges to the root.
 *
 * Cost model: (P-1 + log2 P) alpha + (P-1)/P N (f + 1) beta
 * + (P-1)/P N gamma / T (Shan et al.'s (log P + P) alpha). */
#include "../vector.h"

double mpiopt_reduce_ring_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f) {
  double q = (double)(P - 1) / P;
  return (P - 1 + mpiopt_log2ceil(P)) * m->alpha + q * bytes * (f + 1) * m->beta + q * bytes * m->gamma / T;
}

void mpiopt_reduce_ring(mpiopt_vec *v, const void *sendbuf, void *recvbuf) {
  size_t n = v->n, ext = v->ext;
  int P = v->P, root = v->root, vr = (v->rank - root + P) % P;
  int right = (vr + 1) % P, left = (vr - 1 + P) % P;
  const unsigned char *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf; /* this rank's own data */
  unsigned char *acc = vr == 0 ? recvbuf : mpiopt_coll_scratch(MPIOPT_SCRATCH_A, n * ext);
#define E(b) mpiopt_vec_lo(n, P, (b))
#define R(x) (((x) + root) % P)
  for (int s = 0; s < P - 1; s++) { /* each block is combined here once: with this rank's own part */
    int sb = ((vr - s - 1) % P + P) % P, rb = ((vr - s - 2) % P + P) % P;
    mpiopt_vec_reduce_xchg(v, (s == 0 ? mine : acc) + E(sb) * ext, E(sb + 1) - E(sb), R(right), mine + E(rb) * ext,
                           acc + E(rb) * ext, E(rb + 1) - E(rb), R(left), 0);
  }
  for (int mask = 1; mask < P; mask <<= 1) { /* I hold blocks [vr, vr + held) */
    if (vr & mask) {
      int hi = vr + mask < P ? vr + mask : P;
      mpiopt_vec_copy_xchg(v, acc + E(vr) * ext, E(hi) - E(vr), R(vr - mask), NULL, 0, MPI_PROC_NULL);
      break;
    }
    if (vr + mask < P) {
      int hi = vr + 2 * mask < P ? vr + 2 * mask : P;
      mpiopt_vec_copy_xchg(v, NULL, 0, MPI_PROC_NULL, acc + E(vr + mask) * ext, E(hi) - E(vr + mask), R(vr + mask));
    }
  }
#undef E
#undef R
}
