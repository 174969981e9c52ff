/* BSPlib on MPI (part of libompi-rt): the BSPlib standard of Hill et al.
 * (1998), with its DRMA (registration, put, get) and BSMP (send, move)
 * halves. Build with `bspcc` (or ompi-cc) and run with `bsprun -n P prog`
 * (or any mpiexec).
 *
 * Programs written against MulticoreBSP for C (unsigned process numbers,
 * size_t sizes, bsp_direct_get) compile unchanged by including <mcbsp.h>
 * instead, or by defining MPIOPT_BSP_MULTICOREBSP before this header.
 *
 * Every BSP programming error this layer can see (put/get out of the bounds
 * of a registration, an unregistered address, a bad process number,
 * registrations, pops or tag sizes that differ between processes, one
 * process in bsp_sync while another is in bsp_end, calls outside
 * bsp_begin/bsp_end) aborts the program with a message naming the process,
 * the call and its arguments. MPIOPT_BSP_UNSAFE=1 drops the per-call checks
 * for measured runs. Other environment variables: README, "BSPlib".
 *
 * Not thread-safe: call from one thread per process. */
#ifndef MPIOPT_BSP_H
#define MPIOPT_BSP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h> /* as MulticoreBSP's header: programs rely on it */

#ifdef __cplusplus
extern "C" {
#endif

#define MPIOPT_BSP_VERSION 199801 /* the BSPlib standard implemented */

#ifdef MPIOPT_BSP_MULTICOREBSP
typedef unsigned int bsp_pid_t;
typedef unsigned int bsp_nprocs_t;
typedef size_t bsp_size_t;
#else
typedef int bsp_pid_t;
typedef int bsp_nprocs_t;
typedef int bsp_size_t;
#endif

/* Calls whose prototypes are the same in both APIs. */
void bsp_init(void (*spmd)(void), int argc, char **argv);
void bsp_end(void);
void bsp_sync(void);
double bsp_time(void);
void bsp_pop_reg(const void *addr);
void bsp_abort(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;
void bsp_vabort(const char *format, va_list args)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* The BSPlib API with int process numbers and sizes (the standard's). */
void bsp_begin(int maxprocs);
int bsp_nprocs(void);
int bsp_pid(void);
void bsp_push_reg(const void *addr, int nbytes);
void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes);
void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes);
void bsp_set_tagsize(int *tag_nbytes);
void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes);
void bsp_hpsend(int pid, const void *tag, const void *payload, int payload_nbytes);
void bsp_qsize(int *nmessages, int *accum_nbytes);
void bsp_get_tag(int *status, void *tag);
void bsp_move(void *payload, int reception_nbytes);
int bsp_hpmove(void **tag_ptr, void **payload_ptr);

/* The MulticoreBSP for C API: unsigned process numbers, size_t sizes. An
 * empty queue is reported as (size_t)-1. */
void mpiopt_mcbsp_begin(unsigned int maxprocs);
unsigned int mpiopt_mcbsp_nprocs(void);
unsigned int mpiopt_mcbsp_pid(void);
void mpiopt_mcbsp_push_reg(const void *addr, size_t nbytes);
void mpiopt_mcbsp_put(unsigned int pid, const void *src, const void *dst, size_t offset, size_t nbytes);
void mpiopt_mcbsp_hpput(unsigned int pid, const void *src, const void *dst, size_t offset, size_t nbytes);
void mpiopt_mcbsp_get(unsigned int pid, const void *src, size_t offset, void *dst, size_t nbytes);
void mpiopt_mcbsp_hpget(unsigned int pid, const void *src, size_t offset, void *dst, size_t nbytes);
void mpiopt_mcbsp_direct_get(unsigned int pid, const void *src, size_t offset, void *dst, size_t nbytes);
void mpiopt_mcbsp_set_tagsize(size_t *tag_nbytes);
void mpiopt_mcbsp_send(unsigned int pid, const void *tag, const void *payload, size_t payload_nbytes);
void mpiopt_mcbsp_hpsend(unsigned int pid, const void *tag, const void *payload, size_t payload_nbytes);
void mpiopt_mcbsp_qsize(unsigned int *nmessages, size_t *accum_nbytes);
void mpiopt_mcbsp_get_tag(size_t *status, void *tag);
void mpiopt_mcbsp_move(void *payload, size_t reception_nbytes);
size_t mpiopt_mcbsp_hpmove(void **tag_ptr, void **payload_ptr);

#ifdef MPIOPT_BSP_MULTICOREBSP
#define bsp_begin mpiopt_mcbsp_begin
#define bsp_nprocs mpiopt_mcbsp_nprocs
#define bsp_pid mpiopt_mcbsp_pid
#define bsp_push_reg mpiopt_mcbsp_push_reg
#define bsp_put mpiopt_mcbsp_put
#define bsp_hpput mpiopt_mcbsp_hpput
#define bsp_get mpiopt_mcbsp_get
#define bsp_hpget mpiopt_mcbsp_hpget
#define bsp_direct_get mpiopt_mcbsp_direct_get
#define bsp_set_tagsize mpiopt_mcbsp_set_tagsize
#define bsp_send mpiopt_mcbsp_send
#define bsp_hpsend mpiopt_mcbsp_hpsend
#define bsp_qsize mpiopt_mcbsp_qsize
#define bsp_get_tag mpiopt_mcbsp_get_tag
#define bsp_move mpiopt_mcbsp_move
#define bsp_hpmove mpiopt_mcbsp_hpmove
#endif

/* bsp_pid() and bsp_nprocs() cost a load and a test: while a parallel
 * section runs (and, for bsp_nprocs, after it ended) these hold the answer;
 * otherwise they are -1 and the call goes to the function, which reports
 * the misuse or asks MPI. The names alone (a function pointer) still name
 * the functions. Define MPIOPT_BSP_NO_FAST_PID to call the functions. */
extern int mpiopt_bsp_pid_now, mpiopt_bsp_nprocs_now;
#ifndef MPIOPT_BSP_NO_FAST_PID
#ifdef MPIOPT_BSP_MULTICOREBSP
#define mpiopt_mcbsp_pid() \
  (mpiopt_bsp_pid_now >= 0 ? (unsigned int)mpiopt_bsp_pid_now : mpiopt_mcbsp_pid())
#define mpiopt_mcbsp_nprocs() \
  (mpiopt_bsp_nprocs_now >= 0 ? (unsigned int)mpiopt_bsp_nprocs_now : mpiopt_mcbsp_nprocs())
#else
#define bsp_pid() (mpiopt_bsp_pid_now >= 0 ? mpiopt_bsp_pid_now : bsp_pid())
#define bsp_nprocs() (mpiopt_bsp_nprocs_now >= 0 ? mpiopt_bsp_nprocs_now : bsp_nprocs())
#endif
#endif

#ifdef __cplusplus
}
#endif
#endif
