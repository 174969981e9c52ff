/* Per call site back-off (coll_internal.h): a table of (kind, file, line,
 * communicator), grown geometrically, searched linearly (a program has few
 * call sites of the planned collectives). */
#include <string.h>

#include "coll_internal.h"
#include "mpiopt/plan.h"

static mpiopt_coll_site *sites;
static int nsites, capsites;

mpiopt_coll_site *mpiopt_coll_site_of(int kind, const char *file, int line, MPI_Comm comm) {
  for (int i = 0; i < nsites; i++)
    if (sites[i].line == line && sites[i].file == file && sites[i].comm == comm && sites[i].kind == kind)
      return &sites[i];
  sites = mpiopt_grow_int(sites, &capsites, nsites + 1, sizeof *sites);
  mpiopt_coll_site *s = &sites[nsites++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->file = file;
  s->line = line;
  s->comm = comm;
  s->period = 16;
  return s;
}

int mpiopt_coll_site_skip(mpiopt_coll_site *s) {
  if (s->left <= 0) return 0;
  s->left--;
  return 1;
}

void mpiopt_coll_site_note(mpiopt_coll_site *s, int wasted) {
  if (!wasted) {
    s->streak = 0;
    s->period = 16;
  } else if (++s->streak >= 4) {
    s->left = s->period;
    s->period = s->period * 2 > 4096 ? 4096 : s->period * 2;
    s->streak = 0;
  }
}

void mpiopt_coll_sites_forget(MPI_Comm comm) {
  for (int i = 0; i < nsites; i++) /* the handle may come back as another communicator */
    if (sites[i].comm == comm) {
      mpiopt_plan_free(&sites[i].plan);
      sites[i--] = sites[--nsites];
    }
}
