/* Local reductions for the composite fusion algorithm, and the runtime's
 * knowledge of datatypes and operators.
 *
 * mpiopt_reduce_local(in, inout, n, type, op) computes inout[i] = in[i] op
 * inout[i]. The builtin arithmetic types with the builtin ops run typed
 * loops the compiler vectorises (gamma: one flop-equivalent per element);
 * pair types (MPI_DOUBLE_INT, ...), complex types and user-defined ops go
 * through MPI_Reduce_local.
 *
 * Datatype and op facts are cached in small arrays (grown geometrically),
 * so the hot path asks MPI nothing after the first use of a handle. Handles
 * are compared with ==, which holds for MPICH's integers and Open MPI's
 * pointers alike; the "code" of a builtin is its index in the tables below,
 * the same on every rank whatever the handle's value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "ops.h"

typedef struct {
  MPI_Datatype dt;
  const char *name;
  int kind;
} builtin_type;

#define T(h, k) {h, #h, k}
static builtin_type builtin_types[] = {
    T(MPI_CHAR, 'i'), T(MPI_SIGNED_CHAR, 'i'), T(MPI_UNSIGNED_CHAR, 'u'), T(MPI_BYTE, 'u'),
    T(MPI_SHORT, 'i'), T(MPI_UNSIGNED_SHORT, 'u'), T(MPI_INT, 'i'), T(MPI_UNSIGNED, 'u'),
    T(MPI_LONG, 'i'), T(MPI_UNSIGNED_LONG, 'u'), T(MPI_LONG_LONG_INT, 'i'), T(MPI_LONG_LONG, 'i'),
    T(MPI_UNSIGNED_LONG_LONG, 'u'), T(MPI_FLOAT, 'f'), T(MPI_DOUBLE, 'f'), T(MPI_LONG_DOUBLE, 'f'),
    T(MPI_INT8_T, 'i'), T(MPI_INT16_T, 'i'), T(MPI_INT32_T, 'i'), T(MPI_INT64_T, 'i'),
    T(MPI_UINT8_T, 'u'), T(MPI_UINT16_T, 'u'), T(MPI_UINT32_T, 'u'), T(MPI_UINT64_T, 'u'),
    T(MPI_WCHAR, 'i'), T(MPI_AINT, 'i'), T(MPI_OFFSET, 'i'), T(MPI_COUNT, 'i'),
    T(MPI_C_BOOL, 0), T(MPI_C_FLOAT_COMPLEX, 0), T(MPI_C_DOUBLE_COMPLEX, 0),
    T(MPI_2INT, 0), T(MPI_FLOAT_INT, 0), T(MPI_DOUBLE_INT, 0), T(MPI_LONG_INT, 0),
    T(MPI_SHORT_INT, 0), T(MPI_LONG_DOUBLE_INT, 0),
};
#undef T
#define NBUILTIN_TYPES ((int)(sizeof builtin_types / sizeof builtin_types[0]))

typedef struct {
  MPI_Op op;
  const char *name;
} builtin_op;
#define O(h) {h, #h}
static builtin_op builtin_ops[] = {O(MPI_SUM),  O(MPI_PROD), O(MPI_MIN),    O(MPI_MAX),    O(MPI_LAND),
                                   O(MPI_LOR),  O(MPI_LXOR), O(MPI_BAND),   O(MPI_BOR),    O(MPI_BXOR),
                                   O(MPI_MAXLOC), O(MPI_MINLOC), O(MPI_REPLACE), O(MPI_NO_OP)};
#undef O
#define NBUILTIN_OPS ((int)(sizeof builtin_ops / sizeof builtin_ops[0]))

/* Arrays of pointers: an info's address stays valid while the array grows
 * (queued groups point at them). */
static mpiopt_type_info **types;
static int ntypes, captypes;
static mpiopt_op_info **ops;
static int nops, capops;

static void *keep(const void *p, size_t n) {
  void *q = malloc(n);
  if (!q) mpiopt_die(MPI_COMM_WORLD, "out of memory");
  return memcpy(q, p, n);
}


const mpiopt_type_info *mpiopt_type_lookup(MPI_Datatype dt) {
  static int last = -1;
  if (last >= 0 && last < ntypes && types[last]->dt == dt) return types[last];
  for (int i = 0; i < ntypes; i++)
    if (types[i]->dt == dt) return types[last = i];
  mpiopt_type_info ti = {dt, 0, 0, 0, 0, 0, "derived"};
  if (dt == MPI_DATATYPE_NULL) return NULL;
  int size = 0;
  MPI_Aint lb, extent, tlb, textent;
  if (MPI_Type_size(dt, &size) != MPI_SUCCESS || MPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS ||
      MPI_Type_get_true_extent(dt, &tlb, &textent) != MPI_SUCCESS)
    return NULL;
  ti.size = size;
  ti.extent = extent;
  ti.dense = size > 0 && lb == 0 && tlb == 0 && extent == size && textent == size;
  ti.code = 1000 + size;
  for (int i = 0; i < NBUILTIN_TYPES; i++)
    if (builtin_types[i].dt == dt) {
      ti.code = i;
      ti.name = builtin_types[i].name;
      ti.kind = builtin_types[i].kind;
      if (ti.kind == 'f' && size != sizeof(float) && size != sizeof(double) && size != sizeof(long double))
        ti.kind = 0;
      if ((ti.kind == 'i' || ti.kind == 'u') && size != 1 && size != 2 && size != 4 && size != 8) ti.kind = 0;
      break;
    }
  types = mpiopt_grow_int(types, &captypes, ntypes + 1, sizeof *types);
  types[ntypes] = keep(&ti, sizeof ti);
  return types[last = ntypes++];
}

/* Under SMPI the program is a library that smpirun loads after SimGrid's,
   so its calls of MPI_Op_free reach SimGrid directly, not core/free_op.c:
   a handle MPI gives again to a new op would keep the freed op's entry.
   A user-defined op's commutativity is therefore asked again at each use. */
static const mpiopt_op_info *op_fresh(mpiopt_op_info *oi) {
  if (MPIOPT_SMPI && oi->code >= 100 && MPI_Op_commutative(oi->op, &oi->commute) == MPI_SUCCESS)
    oi->code = 100 + oi->commute;
  return oi;
}

const mpiopt_op_info *mpiopt_op_lookup(MPI_Op op) {
  static int last = -1;
  if (last >= 0 && last < nops && ops[last]->op == op) return op_fresh(ops[last]);
  for (int i = 0; i < nops; i++)
    if (ops[i]->op == op) return op_fresh(ops[last = i]);
  if (op == MPI_OP_NULL) return NULL;
  mpiopt_op_info oi = {op, 1, 100, "user-defined op"};
  if (MPI_Op_commutative(op, &oi.commute) != MPI_SUCCESS) return NULL;
  oi.code = 100 + oi.commute;
  for (int i = 0; i < NBUILTIN_OPS; i++)
    if (builtin_ops[i].op == op) {
      oi.code = i;
      oi.name = builtin_ops[i].name;
      break;
    }
  ops = mpiopt_grow_int(ops, &capops, nops + 1, sizeof *ops);
  ops[nops] = keep(&oi, sizeof oi);
  return ops[last = nops++];
}

void mpiopt_type_forget(MPI_Datatype dt) {
  for (int i = 0; i < ntypes; i++)
    if (types[i]->dt == dt) {
      free(types[i]);
      types[i] = types[--ntypes];
    }
}

void mpiopt_op_forget(MPI_Op op) {
  for (int i = 0; i < nops; i++)
    if (ops[i]->op == op) {
      free(ops[i]);
      ops[i] = ops[--nops];
    }
}

void mpiopt_types_free(void) {
  for (int i = 0; i < ntypes; i++) free(types[i]);
  for (int i = 0; i < nops; i++) free(ops[i]);
  free(types);
  free(ops);
  types = NULL;
  ops = NULL;
  ntypes = captypes = nops = capops = 0;
}

/* Typed loops. Signed integer sums and products wrap (as MPI's do) by
 * computing in the unsigned type of the same width. */
#define LOOP(T, EXPR)                                                                                        \
  do {                                                                                                       \
    const T *a_ = (const T *)in;                                                                             \
    const T *b_ = (const T *)inb;                                                                            \
    T *o_ = (T *)out;                                                                                        \
    for (size_t i_ = 0; i_ < n; i_++) {                                                                      \
      T x = a_[i_], y = b_[i_];                                                                              \
      o_[i_] = (T)(EXPR);                                                                                    \
    }                                                                                                        \
    return 1;                                                                                                \
  } while (0)

#define ARITH(T, U)                                                                                          \
  switch (op) {                                                                                              \
  case MPIOPT_OP_SUM: LOOP(T, (U)x + (U)y);                                                                         \
  case MPIOPT_OP_PROD: LOOP(T, (U)x * (U)y);                                                                        \
  case MPIOPT_OP_MIN: LOOP(T, x < y ? x : y);                                                                       \
  case MPIOPT_OP_MAX: LOOP(T, x > y ? x : y);                                                                       \
  case MPIOPT_OP_LAND: LOOP(T, (x != 0) && (y != 0));                                                               \
  case MPIOPT_OP_LOR: LOOP(T, (x != 0) || (y != 0));                                                                \
  case MPIOPT_OP_LXOR: LOOP(T, (x != 0) != (y != 0));                                                               \
  case MPIOPT_OP_BAND: LOOP(T, (U)x & (U)y);                                                                        \
  case MPIOPT_OP_BOR: LOOP(T, (U)x | (U)y);                                                                         \
  case MPIOPT_OP_BXOR: LOOP(T, (U)x ^ (U)y);                                                                        \
  default: return 0;                                                                                         \
  }

#define FLOAT(T)                                                                                             \
  switch (op) {                                                                                              \
  case MPIOPT_OP_SUM: LOOP(T, x + y);                                                                               \
  case MPIOPT_OP_PROD: LOOP(T, x * y);                                                                              \
  case MPIOPT_OP_MIN: LOOP(T, x < y ? x : y);                                                                       \
  case MPIOPT_OP_MAX: LOOP(T, x > y ? x : y);                                                                       \
  default: return 0;                                                                                         \
  }

/* out[i] = in[i] op inb[i]; out may be inb. */
static int kernel(const void *in, const void *inb, void *out, size_t n, int kind, int size, int op) {
  if (kind == 'i') {
    switch (size) {
    case 1: ARITH(int8_t, uint8_t);
    case 2: ARITH(int16_t, uint16_t);
    case 4: ARITH(int32_t, uint32_t);
    case 8: ARITH(int64_t, uint64_t);
    }
  } else if (kind == 'u') {
    switch (size) {
    case 1: ARITH(uint8_t, uint8_t);
    case 2: ARITH(uint16_t, uint16_t);
    case 4: ARITH(uint32_t, uint32_t);
    case 8: ARITH(uint64_t, uint64_t);
    }
  } else if (kind == 'f') {
    if (size == sizeof(float)) FLOAT(float);
    if (size == sizeof(double)) FLOAT(double);
    if (size == sizeof(long double)) FLOAT(long double);
  }
  return 0;
}

void mpiopt_reduce_local(const void *in, void *inout, size_t count, const mpiopt_type_info *ti,
                         const mpiopt_op_info *oi) {
  if (oi->code < MPIOPT_OP_MAXLOC && ti->kind && kernel(in, inout, inout, count, ti->kind, ti->size, oi->code)) return;
  /* MPI_Reduce_local takes an int count. */
  const unsigned char *a = in;
  unsigned char *b = inout;
  while (count > 0) {
    int n = count > (size_t)INT32_MAX / 2 ? INT32_MAX / 2 : (int)count;
    MPI_Reduce_local(a, b, n, ti->dt, oi->op);
    a += (size_t)n * (size_t)ti->extent;
    b += (size_t)n * (size_t)ti->extent;
    count -= (size_t)n;
  }
}

void mpiopt_reduce_local3(const void *in, const void *inb, void *out, size_t count, const mpiopt_type_info *ti,
                          const mpiopt_op_info *oi) {
  if (oi->code < MPIOPT_OP_MAXLOC && ti->kind && kernel(in, inb, out, count, ti->kind, ti->size, oi->code)) return;
  size_t bytes = count * (size_t)ti->extent;
  if (out == in && out != inb) { /* MPI_Reduce_local writes its second operand: keep the first apart */
    static unsigned char *keep_in;
    static size_t cap;
    if (bytes > cap) {
      free(keep_in);
      keep_in = malloc(bytes);
      cap = keep_in ? bytes : 0;
      if (!keep_in) mpiopt_die(MPI_COMM_WORLD, "out of memory (%zu bytes) in a local reduction", bytes);
    }
    in = memcpy(keep_in, in, bytes);
  }
  if (out != inb) memcpy(out, inb, bytes);
  mpiopt_reduce_local(in, out, count, ti, oi);
}
