/* Allreduce algorithm "redscat": Rabenseifner's reduce-scatter (recursive
 * halving) then allgather (recursive doubling). After the fold of a P that
 * is not a power of two (as in binomial.c), the pof2 participants split the
 * vector into pof2 blocks; in each halving round a rank sends the half of
 * its range its partner keeps and combines the half it keeps, ending with
 * its own block fully reduced; in each doubling round partners swap what
 * they hold. Every block is reduced by one rank and copied to the others,
 * so every rank gets the same bits.
 *
 * Cost model: 2 log2(P) alpha + (P-1)/P N (f + 1) beta + (P-1)/P N gamma / T
 * (the reduce-scatter's bytes shrink by the encoding, the allgather's are
 * dense), plus the fold. Best for long vectors: each rank moves about 2N
 * bytes whatever P. */
#include "../vector.h"

double mpiopt_allreduce_redscat_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f) {
  double q = (double)(P - 1) / P, fold = mpiopt_pof2(P) == P ? 0 : 2 * (m->alpha + bytes * m->beta);
  return 2 * mpiopt_log2ceil(P) * m->alpha + q * bytes * (f + 1) * m->beta + q * bytes * m->gamma / T + fold;
}

void mpiopt_allreduce_redscat(mpiopt_vec *v, const void *sendbuf, void *recvbuf) {
  size_t n = v->n, ext = v->ext;
  unsigned char *acc = recvbuf;
  const void *folded = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  int pof2 = mpiopt_pof2(v->P), rem = v->P - pof2, newrank = mpiopt_vec_fold(v, &folded, acc, rem);
  const unsigned char *mine = folded; /* the partial result so far */
  if (newrank >= 0) {
    int lo = 0, hi = pof2; /* the blocks I hold */
#define E(b) mpiopt_vec_lo(n, pof2, b)
    for (int mask = pof2 / 2; mask >= 1; mask >>= 1) {
      int partner = mpiopt_vec_real(newrank ^ mask, rem), mid = lo + mask;
      int klo = newrank & mask ? mid : lo, khi = newrank & mask ? hi : mid;
      int slo = newrank & mask ? lo : mid, shi = newrank & mask ? mid : hi;
      mpiopt_vec_reduce_xchg(v, mine + E(slo) * ext, E(shi) - E(slo), partner, mine + E(klo) * ext,
                             acc + E(klo) * ext, E(khi) - E(klo), partner, 0);
      mine = acc;
      lo = klo;
      hi = khi;
    }
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int partner = mpiopt_vec_real(newrank ^ mask, rem);
      int plo = newrank & mask ? lo - mask : hi, phi = plo + mask;
      mpiopt_vec_copy_xchg(v, acc + E(lo) * ext, E(hi) - E(lo), partner, acc + E(plo) * ext, E(phi) - E(plo),
                           partner);
      lo = lo < plo ? lo : plo;
      hi = hi > phi ? hi : phi;
    }
#undef E
  }
  mpiopt_vec_unfold(v, acc, rem);
}
