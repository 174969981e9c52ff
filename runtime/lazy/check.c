/* MPIOPT_CHECK=1: before a fused collective, verify that every rank of the
 * communicator is about to deliver the same queue: the same number of
 * operations with the same (count, datatype, op, root), in order. One
 * extra allreduce of four integers per flush, on a private duplicate of the
 * communicator (so it never matches one of the program's collectives), as
 * a nonblocking collective bounded in time: a rank that waits
 * MPIOPT_CHECK_TIMEOUT seconds (default 60) for the others reports that some
 * rank does not reach this flush (a force point only some ranks run), with
 * its queue, and stops the job; it never hangs. On a mismatch the ranks'
 * queues are gathered to rank 0, which prints them, naming every call site,
 * and aborts. Datatypes and ops are compared by their rank-independent codes
 * (ops/reduce_local.c), never by handle value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lazy_internal.h"

static void describe_site(char *out, size_t n, int site) {
  const mpiopt_lazy_site *s = mpiopt_lazy_site_at(site);
  if (s->file)
    snprintf(out, n, "%s:%d", s->file, s->line);
  else
    snprintf(out, n, "call from %p", s->ra);
}

static void describe_queue(char *out, size_t n, const mpiopt_lazy_batch *b) {
  size_t used = 0;
  out[0] = 0;
  for (int i = 0; i < b->nops && i < 8 && used + 1 < n; i++) {
    char where[256];
    describe_site(where, sizeof where, b->ops[i].site);
    used += (size_t)snprintf(out + used, n - used, "%s%s", i ? ", " : "", where);
  }
  if (b->nops > 8 && used + 1 < n) snprintf(out + used, n - used, ", ...");
}

/* Complete *req, or report after the check's timeout that the other ranks
   never came, and stop the job. */
static void wait_bounded(MPI_Request *req, const mpiopt_lazy_batch *b, const mpiopt_lazy_comm *c, const char *what) {
  double deadline = MPI_Wtime() + (double)mpiopt_lazy_cfg.check_timeout;
  int done = 0;
  while (!done) {
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
    if (!done && MPI_Wtime() > deadline) {
      char where[300] = "an implicit flush", queue[2200];
      if (b->flush_file) snprintf(where, sizeof where, "the flush at %s:%d", b->flush_file, b->flush_line);
      describe_queue(queue, sizeof queue, b);
      fprintf(stderr,
              "mpiopt: MPIOPT_CHECK: rank %d waited %ld s at %s (%s) for the other ranks of its communicator, "
              "which never came: some rank does not reach this force point, or queued other reductions "
              "(a wait only some ranks run?); this rank has %d pending: %s\n",
              c->rank, mpiopt_lazy_cfg.check_timeout, where, what, b->nops, queue);
      mpiopt_abort_job(c->comm, 3);
    }
  }
}

void mpiopt_lazy_check(const mpiopt_lazy_batch *b, mpiopt_lazy_comm *c) {
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; i < b->nops; i++) {
    const mpiopt_lazy_op *o = &b->ops[i];
    const mpiopt_lazy_group *g = &b->groups[o->group];
    long long parts[4] = {o->count, g->ti->code, g->oi->code, g->root};
    for (int k = 0; k < 4; k++) h = (h ^ (unsigned long long)parts[k]) * 1099511628211ull;
  }
  long long sig = (long long)(h >> 2); /* keep -sig representable */
  long long v[4] = {b->nops, sig, -(long long)b->nops, -sig};
  if (c->check_dup != MPI_REQUEST_NULL) wait_bounded(&c->check_dup, b, c, "making the check's communicator");
  MPI_Request req;
  MPI_Iallreduce(MPI_IN_PLACE, v, 4, MPI_LONG_LONG, MPI_MAX, c->check_comm, &req);
  wait_bounded(&req, b, c, "comparing the queues");
  if (v[0] == -v[2] && v[1] == -v[3]) return;

  /* Mismatch: describe this rank's queue, gather every description. */
  char *mine = NULL;
  size_t len = 0, cap = 0;
  for (int i = -1; i < b->nops && i < 16; i++) {
    char line[512], where[256];
    if (i < 0) {
      snprintf(line, sizeof line, "  rank %d has %d pending:\n", c->rank, b->nops);
    } else {
      const mpiopt_lazy_op *o = &b->ops[i];
      const mpiopt_lazy_group *g = &b->groups[o->group];
      describe_site(where, sizeof where, o->site);
      if (g->root < 0)
        snprintf(line, sizeof line, "    %s: allreduce of %d %s with %s\n", where, o->count, g->ti->name,
                 g->oi->name);
      else
        snprintf(line, sizeof line, "    %s: reduce to rank %d of %d %s with %s\n", where, g->root, o->count,
                 g->ti->name, g->oi->name);
    }
    if (i == 15 && b->nops > 16) snprintf(line + strlen(line), sizeof line - strlen(line), "    ...\n");
    size_t l = strlen(line);
    if (len + l + 1 > cap) {
      cap = 2 * (len + l + 1);
      char *grown = realloc(mine, cap);
      if (!grown) mpiopt_die(c->comm, "MPIOPT_CHECK: the ranks' queues differ (out of memory describing them)");
      mine = grown;
    }
    memcpy(mine + len, line, l + 1);
    len += l;
  }
  int n = (int)len + 1;
  int *lens = c->rank == 0 ? malloc(sizeof *lens * (size_t)c->size) : NULL;
  MPI_Gather(&n, 1, MPI_INT, lens, 1, MPI_INT, 0, c->check_comm);
  int *displs = NULL;
  char *all = NULL;
  if (c->rank == 0) {
    displs = malloc(sizeof *displs * (size_t)c->size);
    int t = 0;
    for (int r = 0; r < c->size; r++) displs[r] = t, t += lens[r];
    all = malloc((size_t)t);
  }
  MPI_Gatherv(mine, n, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, c->check_comm);
  if (c->rank == 0) {
    char where[300] = "an implicit flush";
    if (b->flush_file) snprintf(where, sizeof where, "the flush at %s:%d", b->flush_file, b->flush_line);
    fprintf(stderr,
            "mpiopt: MPIOPT_CHECK: the ranks disagree on the pending reductions at %s; every rank must "
            "queue the same reductions (count, datatype, op, root) in the same order:\n",
            where);
    for (int r = 0; r < c->size; r++) fputs(all + displs[r], stderr);
    mpiopt_abort_job(c->comm, 3);
  }
  MPI_Barrier(c->check_comm); /* rank 0 aborts the job */
  MPI_Abort(c->comm, 3);
}
