/* The local reduction on several threads (OpenMP): see ops.h. The builtin
 * arithmetic kernels are split into one contiguous range per thread, each
 * at least 64 KiB; user-defined ops and pair types stay on the calling
 * thread (MPI_Reduce_local is not safe to call from several threads unless
 * MPI runs with MPI_THREAD_MULTIPLE). Built with -fopenmp; with one thread
 * no parallel region is entered. */
#include "ops.h"

#ifdef _OPENMP
#include <omp.h>
#endif

void mpiopt_reduce_local_threads(const void *in, const void *inb, void *out, size_t count,
                                 const mpiopt_type_info *ti, const mpiopt_op_info *oi, int threads) {
  size_t bytes = count * (size_t)ti->size, per = (size_t)64 << 10;
  if (threads > 1 && (size_t)threads * per > bytes) threads = (int)(bytes / per);
  if (threads <= 1 || !ti->kind || oi->code >= MPIOPT_OP_MAXLOC) {
    mpiopt_reduce_local3(in, inb, out, count, ti, oi);
    return;
  }
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    size_t lo = count * (size_t)t / (size_t)nt, hi = count * (size_t)(t + 1) / (size_t)nt;
    size_t o = lo * (size_t)ti->size;
    mpiopt_reduce_local3((const unsigned char *)in + o, (const unsigned char *)inb + o, (unsigned char *)out + o,
                         hi - lo, ti, oi);
  }
#else
  mpiopt_reduce_local3(in, inb, out, count, ti, oi);
#endif
}
