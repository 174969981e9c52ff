/* Pieces every part of libompi-rt shares (internal, not installed):
 * stopping the job with a message, environment variables, geometric array
 * growth, and per-communicator state cached in an MPI attribute. */
#ifndef MPIOPT_CORE_CORE_H
#define MPIOPT_CORE_CORE_H
#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>

/* --- SimGrid's SMPI ------------------------------------------------------
 * Built with smpicc (lib/smpi/libompi-rt.a), the ranks are actors of one
 * simulator process that run one at a time: a rank that waits for another
 * must hand control to the simulator (mpiopt_smpi_yield), never spin. It
 * sleeps 50 ns of simulated time (about one poll of a flag in shared
 * memory): a plain yield keeps the actor ready, so the simulated clock never
 * advances and a rank that waits for a message in flight never gets it.
 * SMPI 3.32 lacks MPI_Win_sync (ranks share the process, so a fence is the
 * same). SMPI's mpi.h defines SMPI_H. */
#ifdef SMPI_H
#define MPIOPT_SMPI 1
#include <simgrid/actor.h>
#define mpiopt_smpi_yield() sg_actor_sleep_for(5e-8)
/* SMPI charges the host time a rank spends between MPI calls to its
   simulated clock; a wait outside MPI must not be charged (the waiting
   would delay the others, who would then wait longer, without end): a wait
   is bracketed by these, as an MPI call is. */
#define mpiopt_smpi_wait_begin() smpi_bench_end()
#define mpiopt_smpi_wait_end() smpi_bench_begin()
#define mpiopt_win_sync(w) ((void)(w), __atomic_thread_fence(__ATOMIC_SEQ_CST))
#else
#define MPIOPT_SMPI 0
#define mpiopt_smpi_yield() ((void)0)
#define mpiopt_smpi_wait_begin() ((void)0)
#define mpiopt_smpi_wait_end() ((void)0)
#define mpiopt_win_sync(w) MPI_Win_sync(w)
#endif

/* --- stopping (error.c) ------------------------------------------------- */

/* Flush every stream, give the launcher a moment to forward what this
 * process printed (MPICH's hydra stops forwarding output once it handles an
 * abort, and lost the message about one time in ten without the pause), then
 * MPI_Abort(comm, code). Does not return. */
void mpiopt_abort_job(MPI_Comm comm, int code) __attribute__((noreturn));

/* Print "mpiopt: error (rank R): message" (or without the rank before
 * MPI_Init and after MPI_Finalize) and stop: the whole job through comm
 * (MPI_COMM_NULL: MPI_COMM_WORLD) when MPI is running, else this process. */
void mpiopt_die(MPI_Comm comm, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void mpiopt_vdie(MPI_Comm comm, const char *fmt, va_list ap) __attribute__((noreturn));

/* --- environment (env.c) ------------------------------------------------ */

/* The integer in environment variable name: def when unset or empty. A
 * value that is not an integer in [lo, hi] stops the job with a message
 * naming the variable (bad settings are never silently ignored). */
long mpiopt_env_long(const char *name, long def, long lo, long hi);
/* The boolean in environment variable name: def when unset or empty; 1,
 * yes, on, true and 0, no, off, false in any case; anything else stops the
 * job with a message naming the variable. */
int mpiopt_env_bool(const char *name, int def);
/* Stop the job for a bad setting (an environment variable's value): rank 0
 * says why; the other ranks, which read the same environment, say it only
 * if they still run two seconds later (a setting only they were given). */
void mpiopt_die_setting(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Once per process, at the first setting read: a warning from rank 0 for
 * each MPIOPT_ variable of the environment that the project does not know
 * (a misspelling), with the nearest known name. */
void mpiopt_env_check_names(void);
/* After MPI_Init: stop with a message naming the launcher when the program
 * was started by the other MPI's launcher (a singleton world while that
 * launcher's variables say it started several processes). */
void mpiopt_check_launcher(const char *who);

/* The index in names[0..n) of environment variable name's value: def when
 * unset or empty; any other value stops the job, listing the choices. */
int mpiopt_env_choice(const char *name, const char *const *names, int n, int def);

/* --- growth (grow.c) ---------------------------------------------------- */

/* Grow array p of *cap elements of elem bytes to hold at least need, by
 * doubling (from first when empty); new elements are zeroed. Stops the job
 * when memory runs out. */
void *mpiopt_grow_array(void *p, size_t *cap, size_t need, size_t elem, size_t first);

/* The same without zeroing, for byte buffers that are written before they
 * are read: a large buffer's pages are then touched only where used (a
 * zeroed 2 GiB stream buffer cost seconds of page faults). */
void *mpiopt_grow_raw(void *p, size_t *cap, size_t need, size_t elem, size_t first);

/* The same for an int capacity (from 8). */
static inline void *mpiopt_grow_int(void *p, int *cap, int want, size_t elem) {
  if (want <= *cap) return p; /* the common case, without a call */
  size_t c = (size_t)*cap;
  p = mpiopt_grow_array(p, &c, (size_t)want, elem, 8);
  *cap = (int)c;
  return p;
}

/* --- MPI library work-arounds (compat.c) -------------------------------- */

/* MPI_Reduce(MPI_IN_PLACE, buf, ...) on the root: MPICH before 4.2 crashes
 * there when the root is not rank 0 and the message is over 2 KiB
 * (pmodels/mpich#6540), so the root's data goes as a copy. */
int mpiopt_reduce_in_place(void *buf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm);

/* --- per-communicator state (comm.c) ------------------------------------ */

/* Attach to comm an attribute of *keyval (created on first use with
 * on_delete as its delete callback): when the program frees comm
 * (MPI_Comm_free, MPI_Comm_disconnect, MPI_Finalize for the predefined ones),
 * MPI calls on_delete, which completes the work still pending on it and
 * forgets it (MPI may reuse the handle). Returns MPI_SUCCESS or MPI's code. */
int mpiopt_comm_watch(MPI_Comm comm, int *keyval, MPI_Comm_delete_attr_function *on_delete);

/* Free *keyval (after the states it guards are gone). */
void mpiopt_comm_unwatch_all(int *keyval);

#endif
