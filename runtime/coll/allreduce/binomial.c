/* Allreduce algorithm "binomial": recursive doubling. In log2(P) rounds each
 * rank exchanges its whole partial result with the rank whose number
 * differs in one bit and combines, the lower rank's value always the left
 * operand, so that every rank computes the same bits. A P that is not a
 * power of two first folds the 2r extra ranks in pairs (odd into even) and
 * unfolds at the end.
 *
 * Cost model: ceil(log2 P) (alpha + f N beta + N gamma / T), f the
 * fraction a sparse encoding leaves, plus 2 (alpha + N beta) for a fold.
 * Best for short vectors; for long ones every round moves all N bytes. */
#include "../vector.h"

double mpiopt_allreduce_binomial_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f) {
  double fold = mpiopt_pof2(P) == P ? 0 : 2 * (m->alpha + bytes * m->beta);
  return mpiopt_log2ceil(P) * (m->alpha + f * bytes * m->beta + bytes * m->gamma / T) + fold;
}

void mpiopt_allreduce_binomial(mpiopt_vec *v, const void *sendbuf, void *recvbuf) {
  size_t n = v->n;
  const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf; /* the partial result so far */
  int pof2 = mpiopt_pof2(v->P), rem = v->P - pof2, newrank = mpiopt_vec_fold(v, &mine, recvbuf, rem);
  if (newrank >= 0)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int np = newrank ^ mask, partner = mpiopt_vec_real(np, rem);
      mpiopt_vec_reduce_xchg(v, mine, n, partner, mine, recvbuf, n, partner, newrank < np);
      mine = recvbuf;
    }
  mpiopt_vec_unfold(v, recvbuf, rem);
}
