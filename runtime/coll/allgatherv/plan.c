/* Planned Allgatherv: the entry points (mpiopt/plan.h) and the check of a
 * plan's arguments; the plan itself is made, executed and freed as every
 * planned collective's (../alltoallv/plan.c), and cached as every cached
 * one's (../alltoallv/cache.c). */
#include <stdio.h>
#include <stdlib.h>

#include "allgatherv.h"

/* Pulls this member out of the archive for code written by ompi-opt (see
 * core/linked.c). */
const int mpiopt_allgatherv_linked = 1;

/* Every rank's block has the bytes every other rank expects of it (MPI
 * requires matching type signatures; a mismatch is named, where MPI would
 * truncate or read short). */
void mpiopt_agv_verify(mpiopt_plan_s *p) {
  mpiopt_coll_comm *c = p->c;
  long long mine = p->s.bytes[p->rank];
  long long *got = malloc(sizeof(long long) * (size_t)p->P);
  if (!got) mpiopt_die(c->comm, "out of memory creating an Allgatherv plan");
  MPI_Allgather(&mine, 1, MPI_LONG_LONG, got, 1, MPI_LONG_LONG, c->priv);
  for (int j = 0; j < p->P; j++)
    if (got[j] != p->r.bytes[j])
      mpiopt_die(c->comm,
                 "MPI_Allgatherv at %s: rank %d sends %lld bytes, but rank %d expects %lld (recvcounts[%d] = %d "
                 "elements of %d bytes): the send and receive type signatures must match",
                 mpiopt_plan_where(p->file, p->line), j, got[j], p->rank, p->r.bytes[j], j, p->r.counts[j],
                 p->r.size);
  free(got);
}

/* The plan; inplace: made for MPI_IN_PLACE (this rank's receive block
 * stands for its send arguments, which MPI ignores then); equal: made for
 * MPI_Allgather (its "native" algorithm calls MPI_Allgather). */
static mpiopt_plan_s *plan_new(int sendcount, MPI_Datatype sendtype, const int *recvcounts, const int *displs,
                               MPI_Datatype recvtype, MPI_Comm comm, int inplace, int equal, const char *file,
                               int line) {
  char who[640];
  snprintf(who, sizeof who, "%s at %s", mpiopt_plan_allgatherv.who, mpiopt_plan_where(file, line));
  mpiopt_coll_comm *c = mpiopt_coll_get(comm, who);
  int P = c->size;
  if (c->inter) MPI_Comm_remote_size(comm, &P);
  if (!recvcounts) mpiopt_die(comm, "%s: the recvcounts array is NULL", who);
  if (!displs) mpiopt_die(comm, "%s: the displs array is NULL", who);
  if (inplace) {
    if (c->inter) mpiopt_die(comm, "%s: MPI_IN_PLACE on an intercommunicator", who);
    sendcount = recvcounts[c->rank];
    sendtype = recvtype;
  }
  if (sendcount < 0) mpiopt_die(comm, "%s: the sendcount is negative (%d)", who, sendcount);
  int *a = malloc(sizeof(int) * 2 * (size_t)P);
  if (!a) mpiopt_die(comm, "out of memory creating an Allgatherv plan");
  for (int j = 0; j < P; j++) {
    a[j] = sendcount; /* one block, the same for every peer */
    a[P + j] = 0;
  }
  mpiopt_plan_s *p = mpiopt_plan_new(&mpiopt_plan_allgatherv, a, a + P, sendtype, recvcounts, displs, recvtype, comm,
                                     equal, file, line);
  free(a);
  return p;
}

int mpiopt_allgatherv_plan_create_at(int sendcount, MPI_Datatype sendtype, const int *recvcounts, const int *displs,
                                     MPI_Datatype recvtype, MPI_Comm comm, mpiopt_plan *plan, const char *file,
                                     int line) {
  if (!plan)
    mpiopt_die(comm, "mpiopt_allgatherv_plan_create at %s: the plan pointer is NULL", mpiopt_plan_where(file, line));
  *plan = plan_new(sendcount, sendtype, recvcounts, displs, recvtype, comm, 0, 0, file, line);
  return MPI_SUCCESS;
}

int mpiopt_allgatherv_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                                 MPI_Comm comm, const char *file, int line) {
  int inplace = sendbuf == MPI_IN_PLACE;
  if (mpiopt_plan_begin(plan, inplace))
    return MPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  if (!*plan) {
    *plan = plan_new(sendcount, sendtype, recvcounts, displs, recvtype, comm, inplace, 0, file, line);
    (*plan)->for_inplace = inplace;
  }
  return mpiopt_a2av_execute(*plan, sendbuf, recvbuf);
}

/* MPI_Allgather: an Allgatherv plan whose P blocks are recvcount elements
 * each, rank j's at j x recvcount (the layout MPI_Allgather defines; with
 * MPI_IN_PLACE this rank's block is its contribution there, as MPI's). */
static mpiopt_plan_s *allgather_plan_new(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                         MPI_Comm comm, int inplace, const char *file, int line) {
  char who[640];
  snprintf(who, sizeof who, "mpiopt_allgather_planned at %s", mpiopt_plan_where(file, line));
  mpiopt_coll_comm *c = mpiopt_coll_get(comm, who);
  int P = c->size;
  if (c->inter) MPI_Comm_remote_size(comm, &P);
  if (recvcount < 0) mpiopt_die(comm, "%s: the recvcount is negative (%d)", who, recvcount);
  if ((long long)P * recvcount > 0x7fffffffLL)
    mpiopt_die(comm, "%s: %d ranks x %d elements overflow an int displacement", who, P, recvcount);
  int *a = malloc(sizeof(int) * 2 * (size_t)P);
  if (!a) mpiopt_die(comm, "out of memory creating an Allgather plan");
  for (int j = 0; j < P; j++) {
    a[j] = recvcount;
    a[P + j] = j * recvcount;
  }
  mpiopt_plan_s *p = plan_new(sendcount, sendtype, a, a + P, recvtype, comm, inplace, 1, file, line);
  free(a);
  return p;
}

int mpiopt_allgather_planned_at(mpiopt_plan *plan, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *file,
                                int line) {
  int inplace = sendbuf == MPI_IN_PLACE;
  if (mpiopt_plan_begin(plan, inplace))
    return MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (!*plan) {
    *plan = allgather_plan_new(sendcount, sendtype, recvcount, recvtype, comm, inplace, file, line);
    (*plan)->for_inplace = inplace;
  }
  return mpiopt_a2av_execute(*plan, sendbuf, recvbuf);
}

typedef struct {
  int sendcount;
  MPI_Datatype sendtype, recvtype;
  const int *recvcounts, *displs;
  MPI_Comm comm;
  int inplace;
  const char *file;
  int line;
} agv_args;

static mpiopt_plan_s *agv_make(const void *v) {
  const agv_args *a = v;
  mpiopt_plan_s *p =
      plan_new(a->sendcount, a->sendtype, a->recvcounts, a->displs, a->recvtype, a->comm, a->inplace, 0, a->file,
               a->line);
  p->for_inplace = a->inplace;
  return p;
}

static int agv_native(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                      const int *displs, MPI_Datatype recvtype, mpiopt_coll_comm *c) {
  if (mpiopt_coll_cfg.stats) {
    mpiopt_coll_count_call(c, MPIOPT_STAT_ALLGATHERV_NATIVE);
    int size = 0;
    if (sendbuf == MPI_IN_PLACE) {
      MPI_Type_size(recvtype, &size);
      sendcount = recvcounts ? recvcounts[c->rank] : 0;
    } else {
      MPI_Type_size(sendtype, &size);
    }
    for (int j = 0; j < c->size; j++)
      if (j != c->rank && sendcount > 0)
        mpiopt_coll_count_msg(c, MPIOPT_STAT_ALLGATHERV_NATIVE, j, (size_t)sendcount * size);
  }
  return MPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, c->comm);
}

int mpiopt_allgatherv_cached_at(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int *recvcounts, const int *displs, MPI_Datatype recvtype, MPI_Comm comm,
                                const char *file, int line) {
  const char *who = "mpiopt_allgatherv_cached"; /* "at file:line" only in a message (a call's cost) */
  mpiopt_coll_comm *c = mpiopt_coll_get_at(comm, who, file, line);
  int inplace = sendbuf == MPI_IN_PLACE;
  if (!recvcounts) mpiopt_die(comm, "%s at %s: the recvcounts array is NULL", who, mpiopt_plan_where(file, line));
  if (!displs) mpiopt_die(comm, "%s at %s: the displs array is NULL", who, mpiopt_plan_where(file, line));
  if (c->inter || mpiopt_plan_cache_limit() == 0 || !mpiopt_plan_cacheable(recvtype) ||
      (!inplace && !mpiopt_plan_cacheable(sendtype)))
    return agv_native(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, c);
  mpiopt_coll_site *s = mpiopt_coll_site_of(MPIOPT_SITE_ALLGATHERV, file, line, comm);
  if (mpiopt_coll_site_skip(s))
    return agv_native(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, c);
  /* As the cached Alltoallv (../alltoallv/cache.c): a site whose agreed
   * plans keep running the MPI's own, or keep being made afresh, calls
   * MPI_Allgatherv directly for a while. */
  int P = c->size, fresh = 0, recurring = 0, mine = inplace ? recvcounts[c->rank] : sendcount;
  MPI_Datatype st = inplace ? recvtype : sendtype;
  mpiopt_cache_key q = {&mpiopt_plan_allgatherv, {&mine, recvcounts, displs, NULL}, {1, P, P, 0}, st, recvtype,
                        inplace};
  agv_args a = {sendcount, sendtype, recvtype, recvcounts, displs, comm, inplace, file, line};
  mpiopt_plan_s *p = mpiopt_plan_cached(c, &q, agv_make, &a, &fresh, &recurring);
  mpiopt_coll_site_note(s, p ? p->algo == MPIOPT_AGV_NATIVE || fresh : !recurring);
  if (!p) /* arrays not met often enough: not planned yet */
    return agv_native(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, c);
  return mpiopt_a2av_execute(p, sendbuf, recvbuf);
}
