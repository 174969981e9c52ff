/* Reduce algorithm "redscat": Rabenseifner's reduce-scatter (recursive
 * halving) then a binomial gather of the blocks to the root. Ranks are
 * numbered from the root (vr); a P that is not a power of two first folds
 * the 2r extra ranks (odd vr into vr - 1), so the root always takes part
 * as participant 0 and the gather ends at it.
 *
 * Cost model: 2 log2(P) alpha + (P-1)/P N (f + 1) beta + (P-1)/P N gamma / T,
 * plus alpha + N beta for a fold. Best for long vectors. */
#include "../vector.h"

double mpiopt_reduce_redscat_cost(const mpiopt_vec_model *m, double bytes, int P, int T, double f) {
  double q = (double)(P - 1) / P, fold = mpiopt_pof2(P) == P ? 0 : m->alpha + bytes * m->beta;
  return 2 * mpiopt_log2ceil(P) * m->alpha + q * bytes * (f + 1) * m->beta + q * bytes * m->gamma / T + fold;
}

void mpiopt_reduce_redscat(mpiopt_vec *v, const void *sendbuf, void *recvbuf) {
  size_t n = v->n, ext = v->ext;
  int P = v->P, root = v->root, vr = (v->rank - root + P) % P, pof2 = mpiopt_pof2(P), rem = P - pof2;
  const unsigned char *cur = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf; /* the partial result so far */
#define REAL(nr) (((nr) < rem ? (nr) * 2 : (nr) + rem) + root) % P
  if (vr < 2 * rem && vr % 2) { /* folded into vr - 1 */
    mpiopt_vec_reduce_xchg(v, cur, n, (vr - 1 + root) % P, NULL, NULL, 0, MPI_PROC_NULL, 0);
    return;
  }
  unsigned char *acc = vr == 0 ? recvbuf : mpiopt_coll_scratch(MPIOPT_SCRATCH_A, n * ext);
  int newrank = vr < 2 * rem ? vr / 2 : vr - rem;
  if (vr < 2 * rem) {
    mpiopt_vec_reduce_xchg(v, NULL, 0, MPI_PROC_NULL, cur, acc, n, (vr + 1 + root) % P, 1);
    cur = acc;
  }
  int lo = 0, hi = pof2;
#define E(b) mpiopt_vec_lo(n, pof2, b)
  for (int mask = pof2 / 2; mask >= 1; mask >>= 1) {
    int partner = REAL(newrank ^ mask), mid = lo + mask;
    int klo = newrank & mask ? mid : lo, khi = newrank & mask ? hi : mid;
    int slo = newrank & mask ? lo : mid, shi = newrank & mask ? mid : hi;
    mpiopt_vec_reduce_xchg(v, cur + E(slo) * ext, E(shi) - E(slo), partner, cur + E(klo) * ext, acc + E(klo) * ext,
                           E(khi) - E(klo), partner, 0);
    cur = acc;
    lo = klo;
    hi = khi;
  }
  for (int mask = 1; mask < pof2; mask <<= 1) { /* binomial gather to participant 0, the root */
    if (newrank & mask) {
      mpiopt_vec_copy_xchg(v, acc + E(lo) * ext, E(hi) - E(lo), REAL(newrank - mask), NULL, 0, MPI_PROC_NULL);
      break;
    }
    mpiopt_vec_copy_xchg(v, NULL, 0, MPI_PROC_NULL, acc + E(hi) * ext, E(hi + mask) - E(hi), REAL(newrank + mask));
    hi += mask;
  }
#undef E
#undef REAL
}
