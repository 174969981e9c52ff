/* Internal state of the lazy reduction runtime (runtime/lazy/). Not
 * installed. Every array here grows geometrically and is reused, so a
 * steady-state program allocates nothing per operation or per flush. */
#ifndef MPIOPT_LAZY_INTERNAL_H
#define MPIOPT_LAZY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/core.h"
#include "../ops/ops.h"
#include "mpiopt/lazy.h"

/* Operations with the same (datatype, op, root) in one batch share a group:
 * their inputs are packed one after another into the group's buffer. */
typedef struct {
  const mpiopt_type_info *ti;
  const mpiopt_op_info *oi;
  int root;             /* -1: allreduce */
  unsigned char *buf;   /* packed inputs; the grouped algorithm reduces in place */
  size_t used, cap;     /* bytes */
  int count;            /* elements of ti packed: used / ti->size */
  const unsigned char *res; /* where the algorithm left the results */
  size_t off;           /* scratch for the composite algorithm */
} mpiopt_lazy_group;

typedef struct {
  void *recvbuf;
  size_t bytes;         /* count * size: recvbuf's range, on every rank (force points and
                           dependencies must be decided alike everywhere) */
  int deliver;          /* 0 on the non-root ranks of an MPI_Reduce */
  const void *src;      /* by-reference input, read at the flush; NULL: copied at the call */
  size_t off;           /* offset in its group's buffer */
  int group;
  int site;
  int count;
} mpiopt_lazy_op;

typedef struct {
  mpiopt_lazy_op *ops;
  int nops, capops;
  int nbyref;           /* operations whose input is read at the flush */
  mpiopt_lazy_group *groups; /* groups[ngroups..capgroups) keep their buffers for reuse */
  int ngroups, capgroups;
  uintptr_t lo, hi;     /* bounds of every recvbuf in the batch */
  MPI_Request *reqs;    /* asynchronous mode: collectives in flight */
  int nreqs, capreqs;
  const char *flush_file; /* the force point, for messages */
  int flush_line;
} mpiopt_lazy_batch;

typedef struct {
  MPI_Comm comm;
  MPI_Comm check_comm;         /* MPIOPT_CHECK: a private duplicate (MPI_COMM_NULL until made) */
  MPI_Request check_dup;       /* its MPI_Comm_idup, until complete */
  int rank, size;
  mpiopt_lazy_batch open;      /* operations being queued */
  mpiopt_lazy_batch *flying;   /* asynchronous mode: [0, nflying) in flight, oldest first; the rest spare */
  int nflying, capflying;
} mpiopt_lazy_comm;

/* A call site and its adaptive state. */
typedef struct {
  const char *file;
  int line;
  const void *ra;       /* return address when file is NULL */
  int solo;             /* flushes in a row that delivered this site's operation alone */
  long immediate_left;  /* > 0: execute at once this many more times, then probe again */
  long backoff;         /* length of the next immediate period */
  /* The arguments of the site's last deferred call, already validated, and
   * what they resolved to: a call with the same arguments skips the checks
   * and lookups (valid while gen equals the communicator table's generation). */
  MPI_Datatype dt;
  MPI_Op op;
  MPI_Comm comm;
  int count, root;
  unsigned long gen;    /* 0: nothing cached */
  const mpiopt_type_info *ti;
  const mpiopt_op_info *oi;
  int cidx;             /* index in the communicator table */
  int group;            /* the group it joined in the last batch (a hint) */
} mpiopt_lazy_site;

/* Settings read from the environment once. */
typedef struct {
  int enabled;          /* MPIOPT_LAZY (default 1) */
  int fuse;             /* MPIOPT_LAZY_FUSE: -1 auto, else an index in the algorithm table */
  int adapt;            /* MPIOPT_LAZY_ADAPT (default 1) */
  int solo_limit;       /* solo flushes before a site goes immediate */
  long backoff_min, backoff_max;
  int async;            /* MPIOPT_LAZY_ASYNC */
  int check;            /* MPIOPT_CHECK */
  long check_timeout;   /* MPIOPT_CHECK_TIMEOUT: seconds a rank waits for the others at a checked flush */
  int stats;            /* MPIOPT_LAZY_STATS */
} mpiopt_lazy_config;

extern mpiopt_lazy_config mpiopt_lazy_cfg;
extern mpiopt_lazy_stats_t mpiopt_lazy_counters;

/* The fusion algorithms (one file each) and the table that selects them. */
typedef int (*mpiopt_lazy_fuse_fn)(mpiopt_lazy_batch *b, mpiopt_lazy_comm *c, int nonblocking);
typedef struct {
  const char *name;
  mpiopt_lazy_fuse_fn run;
} mpiopt_lazy_algorithm;
extern const mpiopt_lazy_algorithm mpiopt_lazy_algorithms[];
extern const int mpiopt_lazy_nalgorithms;
int mpiopt_lazy_fuse_grouped(mpiopt_lazy_batch *b, mpiopt_lazy_comm *c, int nonblocking);
int mpiopt_lazy_fuse_composite(mpiopt_lazy_batch *b, mpiopt_lazy_comm *c, int nonblocking);
const mpiopt_lazy_algorithm *mpiopt_lazy_select(const mpiopt_lazy_batch *b, int procs, int nonblocking);
/* The cost model (select.c): read MPIOPT_LAZY_MODEL or the built-in curves. */
void mpiopt_lazy_model_init(void);


/* MPIOPT_CHECK: verify that every rank is about to fuse the same queue. */
void mpiopt_lazy_check(const mpiopt_lazy_batch *b, mpiopt_lazy_comm *c);
const mpiopt_lazy_site *mpiopt_lazy_site_at(int index);


#endif
