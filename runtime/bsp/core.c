/* BSPlib on MPI: the program's life (bsp_init, bsp_begin, bsp_end),
 * process numbers, time, aborts and the error reports every check uses. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bsp_internal.h"
#include "../core/core.h"

mpiopt_bsp_state mpiopt_bsp_g;
#define G mpiopt_bsp_g

static void vreport(const char *kind, const char *fmt, va_list ap) {
  char msg[2048];
  vsnprintf(msg, sizeof msg, fmt, ap);
  int pid = G.active ? G.pid : -1;
  if (pid < 0) {
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &pid);
  }
  fflush(stdout);
  if (pid >= 0)
    fprintf(stderr, "%s: process %d: %s\n", kind, pid, msg);
  else
    fprintf(stderr, "%s: %s\n", kind, msg);
  fflush(stderr);
}

static void die(void) __attribute__((noreturn));
static void die(void) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) mpiopt_abort_job(MPI_COMM_WORLD, 1);
  exit(1);
}

void mpiopt_bsp_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport("bsp error", fmt, ap);
  va_end(ap);
  die();
}

/* An error every process found in the same collective: `reporter` prints it
 * and aborts the job; the others wait to be stopped, so that the message is
 * printed once and before the job goes down. */
void mpiopt_bsp_fail_collective(int reporter, const char *fmt, ...) {
  if (G.pid == reporter) {
    va_list ap;
    va_start(ap, fmt);
    vreport("bsp error", fmt, ap);
    va_end(ap);
    die();
  }
  int dummy;
  MPI_Recv(&dummy, 1, MPI_INT, reporter, 0x7ab5, G.comm, MPI_STATUS_IGNORE);
  die();
}

void bsp_vabort(const char *format, va_list args) {
  vreport("bsp_abort", format, args);
  die();
}

void bsp_abort(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  bsp_vabort(format, ap);
}

void mpiopt_bsp_require_active(const char *call) {
  if (G.active) return;
  if (G.ended) mpiopt_bsp_fail("%s called after bsp_end", call);
  mpiopt_bsp_fail("%s called before bsp_begin", call);
}

void *mpiopt_bsp_grow(void *p, size_t *cap, size_t need, size_t elem) {
  return mpiopt_grow_array(p, cap, need, elem, 16);
}

/* Large stream and staging buffers ask for transparent huge pages where the
 * system grants them on request (Linux's "madvise" mode): a first touch
 * then faults one 2 MiB page instead of 512 small ones, which is most of
 * the cost of a first large transfer on a virtual machine. */
#define HUGE_MIN ((size_t)8 << 20)
static void advise_huge(char *p, size_t n) {
#ifdef MADV_HUGEPAGE
  const uintptr_t page = (uintptr_t)2 << 20;
  uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = ((uintptr_t)p + n) & ~(page - 1);
  if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
  (void)p;
  (void)n;
#endif
}

void mpiopt_bsp_reserve(mpiopt_bsp_buf *b, size_t extra) {
  if (b->len + extra <= b->cap) return;
  b->p = mpiopt_grow_raw(b->p, &b->cap, b->len + extra, 1, 16);
  if (b->cap >= HUGE_MIN) advise_huge(b->p, b->cap);
}

static int waiting_in_init; /* bsp_init ran: the other processes wait for process 0's bsp_begin */

/* A process that leaves the program while the others still wait for it
 * (process 0 exiting before bsp_begin after bsp_init, say because of bad
 * input, or any process exiting between bsp_begin and bsp_end) stops them
 * all rather than leaving them blocked. */
static void finalize_at_exit(void) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (fin) return;
  if (G.active || (waiting_in_init && !G.begun)) {
    fflush(NULL);
    fprintf(stderr, "bsp: process %d left the program %s; stopping every process\n", G.active ? G.pid : 0,
            G.active ? "between bsp_begin and bsp_end" : "before calling bsp_begin (after bsp_init)");
    die();
  }
  MPI_Finalize();
}

void mpiopt_bsp_start_mpi(void) {
  int init = 0;
  MPI_Initialized(&init);
  if (init) {
    mpiopt_check_launcher("bsp_begin");
    return;
  }
  int fin = 0;
  MPI_Finalized(&fin);
  if (fin) mpiopt_bsp_fail("BSPlib used after MPI_Finalize");
  MPI_Init(NULL, NULL);
  mpiopt_check_launcher("bsp_begin");
  G.mpi_by_us = 1;
  /* Under SMPI every rank is a thread of one process: exit handlers run once
   * the simulation is over, when no MPI call may be made. There process 0
   * finalises in bsp_end instead (below), and a process that leaves early
   * is reported by the simulator's deadlock detection. */
  if (!MPIOPT_SMPI) atexit(finalize_at_exit);
}

/* bsp_init: every process but 0 runs the SPMD function at once; process 0
 * returns to main, which calls it later (after reading input, say). */
void bsp_init(void (*spmd)(void), int argc, char **argv) {
  (void)argc;
  (void)argv;
  if (G.begun) mpiopt_bsp_fail("bsp_init called after bsp_begin");
  if (!spmd) mpiopt_bsp_fail("bsp_init(spmd=NULL): the SPMD function is missing");
  mpiopt_bsp_start_mpi();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  waiting_in_init = 1;
  if (rank != 0) {
    spmd();
    if (!G.ended) mpiopt_bsp_fail("the SPMD function given to bsp_init returned without calling bsp_end");
    exit(0);
  }
}


void mpiopt_bsp_begin_sized(long maxprocs, const char *call) {
  if (G.begun) mpiopt_bsp_fail("%s: bsp_begin called a second time (one bsp_begin/bsp_end pair per program)", call);
  mpiopt_bsp_start_mpi();
  int wrank, wsize;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  /* Process 0's arguments count: with bsp_init only it has read the input. */
  long params[2] = {maxprocs, mpiopt_env_long("MPIOPT_BSP_INLINE", 208, 0, 1 << 20)};
  MPI_Bcast(params, 2, MPI_LONG, 0, MPI_COMM_WORLD);
  maxprocs = params[0];
  if (maxprocs <= 0) {
    if (wrank == 0) mpiopt_bsp_fail("%s(%ld): the number of processes must be positive", call, maxprocs);
    MPI_Barrier(MPI_COMM_WORLD); /* stopped by process 0's abort */
  }
  int p = maxprocs < wsize ? (int)maxprocs : wsize; /* the standard allows fewer than asked */
  G.begun = 1;
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, wrank < p ? 0 : MPI_UNDEFINED, wrank, &comm);
  if (wrank >= p) { /* not one of the p processes */
    G.ended = 1;
    if (G.mpi_by_us) MPI_Finalize();
    exit(0);
  }
  G.comm = comm;
  G.p = p;
  G.pid = wrank;
  G.unsafe = mpiopt_env_bool("MPIOPT_BSP_UNSAFE", 0);
  G.inl = MPIOPT_BSP_PAD8((size_t)params[1]);
  G.block = sizeof(mpiopt_bsp_hdr) + G.inl;
  G.out = calloc(p, sizeof *G.out);
  G.lastput = malloc(p * sizeof *G.lastput);
  G.lastget = malloc(p * sizeof *G.lastget);
  G.getbytes = calloc(p, sizeof *G.getbytes);
  G.getcur = calloc(p, sizeof *G.getcur);
  G.flags = calloc(p, sizeof *G.flags);
  G.in = calloc(p, sizeof *G.in);
  G.rep = calloc(p, sizeof *G.rep);
  G.rrep = calloc(p, sizeof *G.rrep);
  G.reqs = mpiopt_bsp_grow(NULL, &G.capreqs, 4 * (size_t)p, sizeof *G.reqs);
  G.stream_of = malloc(p * sizeof *G.stream_of);
  G.stream_len = malloc(p * sizeof *G.stream_len);
  G.a2a_send = calloc(p, G.block);
  G.a2a_recv = calloc(p, G.block);
  G.sparse_got = calloc(p, 1);
  if (!G.out || !G.lastput || !G.lastget || !G.getbytes || !G.getcur || !G.flags || !G.in || !G.rep || !G.rrep || !G.reqs || !G.stream_of ||
      !G.stream_len || !G.a2a_send || !G.a2a_recv || !G.sparse_got)
    mpiopt_bsp_fail("out of memory starting %d processes", p);
  for (int q = 0; q < p; q++) G.lastput[q] = G.lastget[q] = SIZE_MAX;
  G.cache_addr = NULL;
  G.cache_slot = -1;
  mpiopt_bsp_select_init();
  G.active = 1;
  mpiopt_bsp_pid_now = G.pid;
  mpiopt_bsp_nprocs_now = G.p;
  MPI_Barrier(comm);
  G.t0 = MPI_Wtime();
}

void bsp_begin(int maxprocs) { mpiopt_bsp_begin_sized(maxprocs, "bsp_begin"); }

/* bsp_end: a last superstep (its communication is delivered; every process
 * must be in bsp_end), then every process but 0 stops. */
void bsp_end(void) {
  mpiopt_bsp_require_active("bsp_end");
  mpiopt_bsp_exchange(MPIOPT_BSP_VOTE_END);
  G.active = 0;
  G.ended = 1;
  mpiopt_bsp_pid_now = -1; /* bsp_pid is an error now; bsp_nprocs keeps the section's size */
  mpiopt_bsp_rma_stop();
  int pid = G.pid;
  MPI_Comm_free(&G.comm);
  /* Under SMPI, process 0 finalises here: MPI was started by this layer, so
   * the program makes no MPI call of its own after the parallel section. */
  if (MPIOPT_SMPI && pid == 0 && G.mpi_by_us) MPI_Finalize();
  if (pid != 0) {
    fflush(NULL);
    if (G.mpi_by_us) MPI_Finalize();
    exit(0);
  }
}

int mpiopt_bsp_pid_now = -1, mpiopt_bsp_nprocs_now = -1;

int(bsp_nprocs)(void) {
  /* After bsp_end (on process 0, the one that continues): the number of
   * processes of the finished parallel section. */
  if (G.active || G.ended) return G.p;
  /* Before bsp_begin: how many processes bsp_begin can start. */
  mpiopt_bsp_start_mpi();
  int n;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

int(bsp_pid)(void) {
  if (!G.active) mpiopt_bsp_require_active("bsp_pid");
  return G.pid;
}

double bsp_time(void) {
  mpiopt_bsp_require_active("bsp_time");
  return MPI_Wtime() - G.t0;
}
