/* Reduce algorithm "binomial": a binomial tree rooted at root. Numbering
 * ranks from the root (vr = rank - root mod P), in round k a rank whose bit
 * k is set sends its partial result to vr - 2^k and stops; the others
 * combine what vr + 2^k sends. A rank sends straight from sendbuf until it
 * has combined something.
 *
 * Cost model: ceil(log2 P) (alpha + f N beta + N gamma / T). Best for short
 * vectors; for long ones the root's subtree moves N bytes every round. */
#include "../vector.h"

double mpiopt_reduce_binomial_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f) {
  return mpiopt_log2ceil(P) * (m->alpha + f * bytes * m->beta + bytes * m->gamma / T);
}

void mpiopt_reduce_binomial(mpiopt_vec *v, const void *sendbuf, void *recvbuf) {
  size_t n = v->n, bytes = n * v->ext;
  int P = v->P, vr = (v->rank - v->root + P) % P;
  const void *cur = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf; /* the partial result so far */
  void *acc = vr == 0 ? recvbuf : NULL;
  for (int mask = 1; mask < P; mask <<= 1) {
    if (vr & mask) {
      mpiopt_vec_reduce_xchg(v, cur, n, (vr - mask + v->root) % P, NULL, NULL, 0, MPI_PROC_NULL, 0);
      break;
    }
    if (vr + mask < P) {
      if (!acc) acc = mpiopt_coll_scratch(MPIOPT_SCRATCH_A, bytes);
      mpiopt_vec_reduce_xchg(v, NULL, 0, MPI_PROC_NULL, cur, acc, n, (vr + mask + v->root) % P, 1);
      cur = acc;
    }
  }
}
