/* Reduce algorithm "binomial": a binomial tree rooted at root. Numbering
 * ranks from the root (vr = rank - root mod P), in round k a rank whose bit
 * k is set sends its partial result to vr - 2^k and stops; the others
 * combine what vr + 2^k sends. Leaves send straight from sendbuf.
 *
 * Cost model: ceil(log2 P) (alpha + f N beta + N gamma / T). Best for short
 * vectors; for long ones the root's subtree moves N bytes every round. */
#include <string.h>

#include "../vector.h"

double mpiopt_reduce_binomial_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f) {
  return mpiopt_log2ceil(P) * (m->alpha + f * bytes * m->beta + bytes * m->gamma / T);
}

void mpiopt_reduce_binomial(mpiopt_vec *v, const void *sendbuf, void *recvbuf) {
  size_t n = v->n, bytes = n * v->ext;
  int P = v->P, vr = (v->rank - v->root + P) % P;
  if (vr & 1) { /* a leaf: nothing to combine */
    mpiopt_vec_reduce_xchg(v, sendbuf, n, (vr - 1 + v->root) % P, NULL, 0, MPI_PROC_NULL, 0);
    return;
  }
  unsigned char *acc = vr == 0 ? recvbuf : mpiopt_coll_scratch(MPIOPT_SCRATCH_A, bytes);
  if (sendbuf != MPI_IN_PLACE) memcpy(acc, sendbuf, bytes);
  for (int mask = 1; mask < P; mask <<= 1) {
    if (vr & mask) {
      mpiopt_vec_reduce_xchg(v, acc, n, (vr - mask + v->root) % P, NULL, 0, MPI_PROC_NULL, 0);
      break;
    }
    if (vr + mask < P) mpiopt_vec_reduce_xchg(v, NULL, 0, MPI_PROC_NULL, acc, n, (vr + mask + v->root) % P, 1);
  }
}
