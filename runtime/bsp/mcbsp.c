/* BSPlib on MPI: the MulticoreBSP for C forms of the calls whose argument
 * types differ from the standard's (unsigned process numbers, size_t
 * sizes). <mcbsp.h> maps the bsp_ names to these. */
#include "bsp_internal.h"

#define G mpiopt_bsp_g

void mpiopt_mcbsp_begin(unsigned int maxprocs) { mpiopt_bsp_begin_sized((long)maxprocs, "bsp_begin"); }
unsigned int(mpiopt_mcbsp_nprocs)(void) { return (unsigned int)(bsp_nprocs)(); }
unsigned int(mpiopt_mcbsp_pid)(void) { return (unsigned int)(bsp_pid)(); }

void mpiopt_mcbsp_put(unsigned int pid, const void *src, const void *dst, size_t offset, size_t nbytes) {
  mpiopt_bsp_put_at(pid, src, dst, offset, nbytes, 0, "bsp_put");
}

void mpiopt_mcbsp_hpput(unsigned int pid, const void *src, const void *dst, size_t offset, size_t nbytes) {
  mpiopt_bsp_put_at(pid, src, dst, offset, nbytes, 1, "bsp_hpput");
}

void mpiopt_mcbsp_get(unsigned int pid, const void *src, size_t offset, void *dst, size_t nbytes) {
  mpiopt_bsp_get_at(pid, src, offset, dst, nbytes, "bsp_get");
}

void mpiopt_mcbsp_hpget(unsigned int pid, const void *src, size_t offset, void *dst, size_t nbytes) {
  mpiopt_bsp_get_at(pid, src, offset, dst, nbytes, "bsp_hpget");
}
