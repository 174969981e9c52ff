/* The plan cache of the collectives whose plan arguments are all scalars,
 * MPI_Alltoall and MPI_Allgather (mpiopt/plan.h): one plan per call site
 * and communicator, kept while the call's counts, datatypes and
 * MPI_IN_PLACE stay those it was made for.
 *
 * Unlike the array-keyed cache (alltoallv/cache.c), this one needs no
 * agreement between the ranks. MPI requires every pair's type signatures
 * to match, so with the same predefined datatypes at the site on every
 * rank (what ompi-opt writes it for: datatypes named in the source) the
 * bytes each rank sends every other rank are the same on every rank, and
 * so are the counts: a count changes at a call on every rank or on none.
 * Every rank therefore sees the same sequence of keys at the site and
 * decides alike: a key runs the MPI's own call until it has come
 * MPIOPT_PLAN_AFTER times in a row (16), that call makes the plan
 * (collective), the calls after it execute it. Planning costs a few
 * collectives and the plan's check by timing, about what 16 small
 * all-to-alls cost at 64 ranks (a2av_bench, simulated: the plan's
 * creation 0.27 ms, the node algorithm's saving some tens of us a call),
 * so a site that runs only a few calls keeps the MPI's own (a rule the
 * tool cannot apply: it does not know how often the enclosing loop
 * runs). A derived datatype, or a key that keeps changing, costs nothing
 * but a comparison. The plans go when the program frees the communicator
 * (site.c) or at MPI_Finalize. */
#include <stdio.h>

#include "allgatherv/allgatherv.h"
#include "alltoallv/alltoallv.h"
#include "coll_internal.h"

/* Pulls this member out of the archive for code written by ompi-opt (see
 * core/linked.c). */
const int mpiopt_scalar_cache_linked = 1;

/* MPIOPT_PLAN_AFTER: the calls of one key before its plan is made. */
long mpiopt_plan_after(void) {
  static long after = -1;
  if (after < 0) after = mpiopt_env_long("MPIOPT_PLAN_AFTER", 16, 2, 1L << 30);
  return after;
}

/* The site's plan for this call's key, in *plan: emptied (the next call
 * through it runs the MPI's own collective) when the key changed. 0 when
 * the call is to run the MPI's own collective without a plan. */
static int site_plan(int kind, const char *name, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file, int line,
                     mpiopt_plan *plan) {
  /* (local; the state's attribute frees the site with comm) */
  mpiopt_coll_comm *c = mpiopt_coll_get_at(comm, name, file, line);
  int inplace = sendbuf == MPI_IN_PLACE;
  if (inplace) { /* the send arguments are ignored */
    sendcount = recvcount;
    sendtype = recvtype;
  }
  if (c->inter || mpiopt_plan_cache_limit() == 0 || sendcount < 0 || recvcount < 0)
    return 0; /* (a negative count: the MPI's own call reports it) */
  mpiopt_coll_site *s = mpiopt_coll_site_of(kind, file, line, comm);
  /* (a communicator the program frees takes its sites along: its state's
     delete callback, site.c, so a handle that comes back starts afresh) */
  int same = s->keyed && s->count[0] == sendcount && s->count[1] == recvcount && s->type[0] == sendtype &&
             s->type[1] == recvtype && s->inplace == inplace;
  if (!same) {
    mpiopt_plan_free(&s->plan);
    s->keyed = 1;
    s->count[0] = sendcount;
    s->count[1] = recvcount;
    s->type[0] = sendtype;
    s->type[1] = recvtype;
    s->inplace = inplace;
    s->calls = 0;
    s->cacheable = mpiopt_plan_cacheable(sendtype) && mpiopt_plan_cacheable(recvtype); /* asked once per key */
  }
  if (!s->cacheable) return 0;
  /* (the slot stays empty until the key's call before the planning one,
     which the planned call runs as the MPI's own: it plans at the next) */
  if (++s->calls < mpiopt_plan_after() - 1) return 0;
  *plan = s->plan;
  return 1;
}

/* Back into the site's record when the planned call changed it (its first
 * call's mark, or the plan it made: looked up again, since making a plan
 * may have added sites and moved the table). */
static void site_keep(int kind, MPI_Comm comm, const char *file, int line, mpiopt_plan before, mpiopt_plan plan) {
  if (plan != before) mpiopt_coll_site_of(kind, file, line, comm)->plan = plan;
}

int mpiopt_alltoall_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file, int line) {
  mpiopt_plan plan = NULL, before;
  if (!site_plan(MPIOPT_SITE_ALLTOALL, "mpiopt_alltoall_cached", sendbuf, sendcount, sendtype, recvcount, recvtype,
                 comm, file, line, &plan))
    return MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  before = plan;
  int rc = mpiopt_alltoall_planned_at(&plan, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, file,
                                      line);
  site_keep(MPIOPT_SITE_ALLTOALL, comm, file, line, before, plan);
  return rc;
}

int mpiopt_allgather_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file, int line) {
  mpiopt_plan plan = NULL, before;
  if (!site_plan(MPIOPT_SITE_ALLGATHER, "mpiopt_allgather_cached", sendbuf, sendcount, sendtype, recvcount,
                 recvtype, comm, file, line, &plan))
    return MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  before = plan;
  int rc = mpiopt_allgather_planned_at(&plan, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                       file, line);
  site_keep(MPIOPT_SITE_ALLGATHER, comm, file, line, before, plan);
  return rc;
}
