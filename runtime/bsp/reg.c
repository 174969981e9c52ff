/* BSPlib on MPI: registrations (bsp_push_reg, bsp_pop_reg).
 *
 * Registrations live in a slot table. Processes push and pop in the same
 * order (bsp_sync checks it), so slot numbers agree everywhere and a put
 * names the remote area by slot. Slots freed by pops are reused, last freed
 * first, which is the same on every process too. An open-addressing hash
 * map finds the most recent live registration of an address; registrations
 * of the same address chain through `prev` (the one each hides). Pushes and
 * pops take effect at the next sync, in call order by identity: a pop names
 * the most recent registration of its address that is in effect or pushed
 * earlier in the superstep and not yet popped (a push and its pop leave
 * nothing). A pop of NULL is a wildcard, resolved at the sync
 * (mpiopt_bsp_resolve_pops): it takes the registration the other processes
 * pop at the same position, which must be NULL here, or, where every
 * process pops NULL, the most recent registration that is NULL everywhere.
 * The sync then exchanges the new areas' sizes (and addresses), so a put or
 * get is checked against the bounds of the remote area at the call. */
#include <stdlib.h>
#include <string.h>

#include "bsp_internal.h"

#define G mpiopt_bsp_g

static size_t hash_addr(uintptr_t k, size_t cap) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  return (size_t)k & (cap - 1);
}

/* The map entry of addr (created when `create`), or NULL. */
static int *map_entry(const void *addr, int create) {
  uintptr_t key = (uintptr_t)addr + 1;
  if (create && 2 * (G.mapused + 1) > G.mapcap) {
    size_t ncap = G.mapcap ? 2 * G.mapcap : 64;
    uintptr_t *nk = calloc(ncap, sizeof *nk);
    int *nv = malloc(ncap * sizeof *nv);
    if (!nk || !nv) mpiopt_bsp_fail("out of memory registering %p", addr);
    for (size_t i = 0; i < G.mapcap; i++) {
      if (!G.mapkey[i]) continue;
      size_t j = hash_addr(G.mapkey[i], ncap);
      while (nk[j]) j = (j + 1) & (ncap - 1);
      nk[j] = G.mapkey[i];
      nv[j] = G.mapval[i];
    }
    free(G.mapkey);
    free(G.mapval);
    G.mapkey = nk;
    G.mapval = nv;
    G.mapcap = ncap;
  }
  if (!G.mapcap) return NULL;
  size_t j = hash_addr(key, G.mapcap);
  while (G.mapkey[j]) {
    if (G.mapkey[j] == key) return &G.mapval[j];
    j = (j + 1) & (G.mapcap - 1);
  }
  if (!create) return NULL;
  G.mapkey[j] = key;
  G.mapval[j] = -1;
  G.mapused++;
  return &G.mapval[j];
}

int mpiopt_bsp_lookup(const void *addr) {
  if (addr == G.cache_addr && G.cache_slot >= 0) return G.cache_slot;
  int *e = map_entry(addr, 0);
  int s = e ? *e : -1;
  if (s >= 0) {
    G.cache_addr = addr;
    G.cache_slot = s;
  }
  return s;
}

static int new_slot(void) {
  if (G.nfree) return G.freeslots[--G.nfree];
  if (G.nregs == G.capregs) {
    size_t cap = G.capregs;
    G.regs = mpiopt_bsp_grow(G.regs, &cap, G.nregs + 1, sizeof *G.regs);
    size_t c2 = G.capregs * (size_t)G.p, c3 = c2;
    G.rsize = mpiopt_bsp_grow(G.rsize, &c2, cap * G.p, sizeof *G.rsize);
    G.raddr = mpiopt_bsp_grow(G.raddr, &c3, cap * G.p, sizeof *G.raddr);
    G.capregs = (int)cap;
  }
  return G.nregs++;
}

void mpiopt_bsp_push(const void *addr, size_t size, const char *call) {
  mpiopt_bsp_require_active(call);
  int s = new_slot();
  mpiopt_bsp_reg *r = &G.regs[s];
  r->addr = addr;
  r->size = addr ? size : 0;
  r->prev = -1;
  r->state = MPIOPT_BSP_REG_PUSHED;
  r->seq = ++G.nseq;
  size_t cap = G.cappushed;
  G.pushed = mpiopt_bsp_grow(G.pushed, &cap, G.npushed + 1, sizeof *G.pushed);
  G.cappushed = (int)cap;
  G.pushed[G.npushed++] = s;
}

void bsp_push_reg(const void *addr, int nbytes) {
  if (nbytes < 0) {
    mpiopt_bsp_require_active("bsp_push_reg");
    mpiopt_bsp_fail("bsp_push_reg(addr=%p, nbytes=%d): negative size", addr, nbytes);
  }
  mpiopt_bsp_push(addr, (size_t)nbytes, "bsp_push_reg");
}

void mpiopt_mcbsp_push_reg(const void *addr, size_t nbytes) { mpiopt_bsp_push(addr, nbytes, "bsp_push_reg"); }

/* The registration a pop of addr names: the most recent one pushed in this
 * superstep and not popped, else the most recent in effect and not popped;
 * -1 if none. */
static int poppable(const void *addr) {
  for (int i = G.npushed - 1; i >= 0; i--) {
    int s = G.pushed[i];
    if (G.regs[s].addr == addr && G.regs[s].state == MPIOPT_BSP_REG_PUSHED) return s;
  }
  int *e = map_entry(addr, 0);
  int s = e ? *e : -1;
  while (s >= 0 && G.regs[s].state == MPIOPT_BSP_REG_POPPED) s = G.regs[s].prev;
  return s;
}

static void mark_popped(int s) {
  mpiopt_bsp_reg *r = &G.regs[s];
  r->state = r->state == MPIOPT_BSP_REG_PUSHED ? MPIOPT_BSP_REG_DROPPED : MPIOPT_BSP_REG_POPPED;
}

void bsp_pop_reg(const void *addr) {
  mpiopt_bsp_require_active("bsp_pop_reg");
  int s = poppable(addr);
  if (s < 0)
    mpiopt_bsp_fail("bsp_pop_reg(addr=%p): the address is not registered (neither in effect nor pushed earlier "
                    "in this superstep, or every such registration is popped already)",
                    addr);
  if (addr) {
    mark_popped(s);
  } else { /* a wildcard: which NULL registration is known at the sync */
    s = -1;
    G.wildpops++;
  }
  size_t cap = G.cappopped;
  G.popped = mpiopt_bsp_grow(G.popped, &cap, G.npopped + 1, sizeof *G.popped);
  G.cappopped = (int)cap;
  G.popped[G.npopped++] = s;
  G.pophash = (G.pophash ^ (s >= 0 ? G.regs[s].seq : 0u)) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
}

/* The slot of the registration numbered seq that a pop can still take, or -1. */
static int slot_of(uint32_t seq) {
  for (int s = 0; s < G.nregs; s++)
    if (G.regs[s].seq == seq && (G.regs[s].state == MPIOPT_BSP_REG_LIVE || G.regs[s].state == MPIOPT_BSP_REG_PUSHED))
      return s;
  return -1;
}

/* Where every process popped NULL: the most recent registration still
 * available that is NULL everywhere (notnull[s] == 0), or -1. */
static int newest_null(const uint64_t *notnull) {
  int best = -1;
  for (int s = 0; s < G.nregs; s++) {
    const mpiopt_bsp_reg *r = &G.regs[s];
    if ((r->state == MPIOPT_BSP_REG_LIVE || r->state == MPIOPT_BSP_REG_PUSHED) && !notnull[s] &&
        (best < 0 || r->seq > G.regs[best].seq))
      best = s;
  }
  return best;
}

/* One MPI_Allreduce (MAX) tells every process, per pop position, the
 * highest and lowest registration number a real (non-NULL) pop named there,
 * and per slot whether any process has a non-NULL address in it; each
 * process then resolves its NULL pops in call order, the same way. */
void mpiopt_bsp_resolve_pops(void) {
  int n = G.npopped, m = G.nregs;
  uint64_t *v = malloc(((size_t)2 * n + (size_t)m + 1) * sizeof *v);
  if (!v) mpiopt_bsp_fail("out of memory resolving %d pops", n);
  for (int i = 0; i < n; i++) {
    uint32_t seq = G.popped[i] >= 0 ? G.regs[G.popped[i]].seq : 0u;
    v[i] = seq;
    v[n + i] = seq ? UINT32_MAX - seq : 0u;
  }
  for (int s = 0; s < m; s++) v[2 * n + s] = G.regs[s].state != MPIOPT_BSP_REG_FREE && G.regs[s].addr;
  if (G.p > 1) MPI_Allreduce(MPI_IN_PLACE, v, 2 * n + m, MPI_UINT64_T, MPI_MAX, G.comm);
  for (int i = 0; i < n; i++) {
    uint32_t hi = (uint32_t)v[i], lo = v[n + i] ? (uint32_t)(UINT32_MAX - v[n + i]) : 0u;
    if (hi != lo)
      mpiopt_bsp_fail_collective(0, "superstep %u: bsp_pop_reg differs: pop %d of the superstep takes registration "
                                 "#%u on one process and #%u on another (registrations are numbered in "
                                 "bsp_push_reg order; every process must pop the same ones in the same order)",
                                 G.superstep, i + 1, lo, hi);
    if (G.popped[i] >= 0) continue;
    int s = hi ? slot_of(hi) : newest_null(v + 2 * n);
    if (s < 0 && !hi)
      mpiopt_bsp_fail_collective(0, "superstep %u: every process called bsp_pop_reg(NULL) (pop %d of the superstep), "
                                 "but no registration left is NULL on every process",
                                 G.superstep, i + 1);
    if (s < 0 || G.regs[s].addr)
      mpiopt_bsp_fail("superstep %u: bsp_pop_reg(NULL), pop %d of the superstep: the other processes pop "
                      "registration #%u, which is %s here (a NULL pop takes the registration the others name only "
                      "where it is NULL)",
                      G.superstep, i + 1, hi, s < 0 ? "popped already" : "not NULL");
    mark_popped(s);
    G.popped[i] = s;
  }
  free(v);
  G.wildpops = 0;
}

/* At the sync (after every process agreed on the counts and pops): pops,
 * then pushes, then the sizes and addresses of the new areas everywhere. */
void mpiopt_bsp_apply_registrations(void) {
  G.cache_addr = NULL;
  G.cache_slot = -1;
  for (int i = 0; i < G.npopped; i++) {
    int s = G.popped[i];
    mpiopt_bsp_reg *r = &G.regs[s];
    if (r->state == MPIOPT_BSP_REG_DROPPED) { /* pushed and popped: never in effect */
      r->state = MPIOPT_BSP_REG_FREE;
      G.freeslots = mpiopt_bsp_grow(G.freeslots, &G.capfree, (size_t)G.nfree + 1, sizeof *G.freeslots);
      G.freeslots[G.nfree++] = s;
      continue;
    }
    int *e = map_entry(r->addr, 0);
    if (*e == s) {
      *e = r->prev;
    } else {
      int t = *e;
      while (G.regs[t].prev != s) t = G.regs[t].prev;
      G.regs[t].prev = r->prev;
    }
    if (G.have_win) mpiopt_bsp_rma_detach(s);
    r->state = MPIOPT_BSP_REG_FREE;
    G.freeslots = mpiopt_bsp_grow(G.freeslots, &G.capfree, (size_t)G.nfree + 1, sizeof *G.freeslots);
    G.freeslots[G.nfree++] = s;
  }
  G.npopped = 0;
  G.pophash = 0;
  int n = 0, p = G.p;
  for (int i = 0; i < G.npushed; i++) /* the pushes that were not popped, in order */
    if (G.regs[G.pushed[i]].state == MPIOPT_BSP_REG_PUSHED) G.pushed[n++] = G.pushed[i];
  G.npushed = n;
  if (!n) return;
  /* Exchange (size, address) of every new area. */
  uint64_t *mine = malloc(2 * n * sizeof *mine), *all = malloc(2 * (size_t)n * p * sizeof *all);
  if (!mine || !all) mpiopt_bsp_fail("out of memory registering %d areas", n);
  for (int i = 0; i < n; i++) {
    int s = G.pushed[i];
    mpiopt_bsp_reg *r = &G.regs[s];
    int *e = map_entry(r->addr, 1);
    r->prev = *e;
    *e = s;
    r->state = MPIOPT_BSP_REG_LIVE;
    MPI_Aint a = 0;
    r->attached = 0;
    if (G.have_win && mpiopt_bsp_rma_attach(s)) MPI_Get_address(r->addr, &a);
    mine[2 * i] = r->size;
    mine[2 * i + 1] = (uint64_t)a;
  }
  if (p > 1)
    MPI_Allgather(mine, 2 * n, MPI_UINT64_T, all, 2 * n, MPI_UINT64_T, G.comm);
  else
    memcpy(all, mine, 2 * n * sizeof *mine);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i++) {
      int s = G.pushed[i];
      G.rsize[(size_t)s * p + q] = (size_t)all[2 * ((size_t)q * n + i)];
      G.raddr[(size_t)s * p + q] = (MPI_Aint)all[2 * ((size_t)q * n + i) + 1];
    }
  free(mine);
  free(all);
  G.npushed = 0;
}
