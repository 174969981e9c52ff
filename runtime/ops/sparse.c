/* Sparse encodings of vectors for the large-vector reductions: see ops.h.
 *
 * An element is "zero" when all its bytes are (so -0.0 travels: a sum that
 * skips only +0.0 contributions loses nothing on integers and at most the
 * sign of a zero sum in floating point). Layouts, 8-byte aligned parts:
 *   bitmap  ceil(n / 8) bytes rounded up to 8, bit i of byte i/8 set for a
 *           nonzero element i; then the nonzero values in order
 *   index   nnz 32-bit indices rounded up to 8 bytes; then the values
 * (n is at most INT_MAX: an MPI count). */
#include <stdint.h>
#include <string.h>

#include "ops.h"

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

int mpiopt_sparse_eligible(const mpiopt_type_info *ti, const mpiopt_op_info *oi) {
  if (!ti || !oi || !ti->kind || !ti->dense) return 0;
  if (ti->size != 1 && ti->size != 2 && ti->size != 4 && ti->size != 8) return 0;
  if (oi->code == MPIOPT_OP_SUM) return 1;
  return (oi->code == MPIOPT_OP_BOR || oi->code == MPIOPT_OP_BXOR) && ti->kind != 'f';
}

static inline int nonzero(const unsigned char *p, int size) {
  switch (size) {
  case 1: return *p != 0;
  case 2: { uint16_t x; memcpy(&x, p, 2); return x != 0; }
  case 4: { uint32_t x; memcpy(&x, p, 4); return x != 0; }
  default: { uint64_t x; memcpy(&x, p, 8); return x != 0; }
  }
}

double mpiopt_sparse_sample(const void *v, size_t n, int size, size_t samples) {
  if (n == 0) return 0;
  if (samples > n) samples = n;
  const unsigned char *p = v;
  size_t step = n / samples, nz = 0;
  uint32_t x = 2463534242u;
  for (size_t k = 0; k < samples; k++) { /* one element at random in each window (a regular stride can alias) */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    nz += (size_t)nonzero(p + (k * step + x % step) * (size_t)size, size);
  }
  return (double)nz / (double)samples;
}

size_t mpiopt_sparse_bitmap_bytes(size_t n, size_t nnz, int size) { return round8((n + 7) / 8) + nnz * (size_t)size; }
size_t mpiopt_sparse_index_bytes(size_t nnz, int size) { return round8(nnz * 4) + nnz * (size_t)size; }

/* 64 nonzero tests at once: bit k of the mask for element k. With SSE2
 * (every x86-64) four or two elements per compare; elsewhere a loop the
 * compiler may vectorise. */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline uint64_t mask_4(const uint32_t *x) {
  uint64_t m = 0;
  const __m128i zero = _mm_setzero_si128();
  for (int k = 0; k < 64; k += 4) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(x + k));
    unsigned z = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, zero)));
    m |= (uint64_t)(~z & 15u) << k;
  }
  return m;
}
static inline uint64_t mask_8(const uint64_t *x) {
  uint64_t m = 0;
  const __m128i zero = _mm_setzero_si128();
  for (int k = 0; k < 64; k += 2) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(x + k));
    unsigned z = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, zero)));
    unsigned nz = (~(z & (z >> 1)) & 1u) | ((~((z >> 2) & (z >> 3)) & 1u) << 1); /* both halves zero: zero */
    m |= (uint64_t)nz << k;
  }
  return m;
}
#else
static inline uint64_t mask_4(const uint32_t *x) {
  uint64_t m = 0;
  for (int k = 0; k < 64; k++) m |= (uint64_t)(x[k] != 0) << k;
  return m;
}
static inline uint64_t mask_8(const uint64_t *x) {
  uint64_t m = 0;
  for (int k = 0; k < 64; k++) m |= (uint64_t)(x[k] != 0) << k;
  return m;
}
#endif
static inline uint64_t mask_1(const uint8_t *x) {
  uint64_t m = 0;
  for (int k = 0; k < 64; k++) m |= (uint64_t)(x[k] != 0) << k;
  return m;
}
static inline uint64_t mask_2(const uint16_t *x) {
  uint64_t m = 0;
  for (int k = 0; k < 64; k++) m |= (uint64_t)(x[k] != 0) << k;
  return m;
}

/* The encoders for one element size: the nonzero masks of 64 elements at a
 * time (the bitmap itself), then the set bits' values (or indices): work in
 * n / 64 plus the nonzero count, the limit checked per 64 elements. */
#define ENCODERS(S, T)                                                                                       \
  static size_t bitmap_##S(const T *x, size_t n, unsigned char *dst, size_t max_nnz) {                       \
    size_t nb = round8((n + 7) / 8), nnz = 0, i = 0;                                                         \
    T *vals = (T *)(void *)(dst + nb);                                                                       \
    memset(dst, 0, nb);                                                                                      \
    for (; i < n; i += 64) {                                                                                 \
      uint64_t m = 0;                                                                                        \
      if (i + 64 <= n)                                                                                       \
        m = mask_##S(x + i);                                                                                 \
      else                                                                                                   \
        for (size_t k = 0; i + k < n; k++) m |= (uint64_t)(x[i + k] != 0) << k;                              \
      memcpy(dst + i / 8, &m, (n - i) >= 64 ? 8 : (n - i + 7) / 8);                                          \
      for (uint64_t b = m; b; b &= b - 1) vals[nnz++] = x[i + (size_t)__builtin_ctzll(b)];                   \
      if (nnz > max_nnz) return (size_t)-1;                                                                  \
    }                                                                                                        \
    return nnz;                                                                                              \
  }                                                                                                          \
  static size_t index_##S(const T *x, size_t n, unsigned char *dst, size_t max_nnz) {                        \
    uint32_t *idx = (uint32_t *)(void *)dst;                                                                 \
    size_t nnz = 0;                                                                                          \
    for (size_t i = 0; i < n; i += 64) {                                                                     \
      uint64_t m = 0;                                                                                        \
      if (i + 64 <= n)                                                                                       \
        m = mask_##S(x + i);                                                                                 \
      else                                                                                                   \
        for (size_t k = 0; i + k < n; k++) m |= (uint64_t)(x[i + k] != 0) << k;                              \
      for (uint64_t b = m; b; b &= b - 1) idx[nnz++] = (uint32_t)(i + (size_t)__builtin_ctzll(b));           \
      if (nnz > max_nnz) return (size_t)-1;                                                                  \
    }                                                                                                        \
    T *vals = (T *)(void *)(dst + round8(nnz * 4));                                                          \
    for (size_t k = 0; k < nnz; k++) vals[k] = x[idx[k]];                                                    \
    return nnz;                                                                                              \
  }
ENCODERS(1, uint8_t)
ENCODERS(2, uint16_t)
ENCODERS(4, uint32_t)
ENCODERS(8, uint64_t)
#undef ENCODERS

size_t mpiopt_sparse_encode_bitmap(const void *v, size_t n, int size, void *dst, size_t max_nnz) {
  switch (size) {
  case 1: return bitmap_1(v, n, dst, max_nnz);
  case 2: return bitmap_2(v, n, dst, max_nnz);
  case 4: return bitmap_4(v, n, dst, max_nnz);
  default: return bitmap_8(v, n, dst, max_nnz);
  }
}

size_t mpiopt_sparse_encode_index(const void *v, size_t n, int size, void *dst, size_t max_nnz) {
  switch (size) {
  case 1: return index_1(v, n, dst, max_nnz);
  case 2: return index_2(v, n, dst, max_nnz);
  case 4: return index_4(v, n, dst, max_nnz);
  default: return index_8(v, n, dst, max_nnz);
  }
}

/* The decoders: for each encoded (i, value), acc[i] = COMBINE(value, acc[i]). */
#define DECODERS(NAME, T, COMBINE)                                                                           \
  static void NAME##_bitmap(const unsigned char *enc, size_t n, void *accv) {                                \
    size_t nb = round8((n + 7) / 8), k = 0;                                                                  \
    const T *vals = (const T *)(const void *)(enc + nb);                                                     \
    T *acc = accv;                                                                                           \
    for (size_t w = 0; w < nb / 8; w++) {                                                                    \
      uint64_t bits;                                                                                         \
      memcpy(&bits, enc + w * 8, 8);                                                                         \
      for (; bits; bits &= bits - 1) {                                                                       \
        size_t i = w * 64 + (size_t)__builtin_ctzll(bits);                                                   \
        T x = vals[k++], y = acc[i];                                                                         \
        (void)y;                                                                                             \
        acc[i] = (T)(COMBINE);                                                                               \
      }                                                                                                      \
    }                                                                                                        \
  }                                                                                                          \
  static void NAME##_index(const unsigned char *enc, size_t nnz, void *accv) {                               \
    const uint32_t *idx = (const uint32_t *)(const void *)enc;                                               \
    const T *vals = (const T *)(const void *)(enc + round8(nnz * 4));                                        \
    T *acc = accv;                                                                                           \
    for (size_t k = 0; k < nnz; k++) {                                                                       \
      T x = vals[k], y = acc[idx[k]];                                                                        \
      (void)y;                                                                                               \
      acc[idx[k]] = (T)(COMBINE);                                                                            \
    }                                                                                                        \
  }
/* Integers by width (unsigned arithmetic wraps as MPI's signed sums do). */
DECODERS(sum_u1, uint8_t, x + y)
DECODERS(sum_u2, uint16_t, x + y)
DECODERS(sum_u4, uint32_t, x + y)
DECODERS(sum_u8, uint64_t, x + y)
DECODERS(bor_u1, uint8_t, x | y)
DECODERS(bor_u2, uint16_t, x | y)
DECODERS(bor_u4, uint32_t, x | y)
DECODERS(bor_u8, uint64_t, x | y)
DECODERS(bxor_u1, uint8_t, x ^ y)
DECODERS(bxor_u2, uint16_t, x ^ y)
DECODERS(bxor_u4, uint32_t, x ^ y)
DECODERS(bxor_u8, uint64_t, x ^ y)
DECODERS(sum_f4, float, x + y)
DECODERS(sum_f8, double, x + y)
DECODERS(copy_u1, uint8_t, x)
DECODERS(copy_u2, uint16_t, x)
DECODERS(copy_u4, uint32_t, x)
DECODERS(copy_u8, uint64_t, x)
#undef DECODERS

typedef void (*decoder)(const unsigned char *, size_t, void *);
typedef struct {
  decoder bitmap, index;
} decoders;

#define PAIR(N) {N##_bitmap, N##_index}
static decoders pick(const mpiopt_type_info *ti, const mpiopt_op_info *oi) {
  static const decoders sum[4] = {PAIR(sum_u1), PAIR(sum_u2), PAIR(sum_u4), PAIR(sum_u8)};
  static const decoders bor[4] = {PAIR(bor_u1), PAIR(bor_u2), PAIR(bor_u4), PAIR(bor_u8)};
  static const decoders bxor[4] = {PAIR(bxor_u1), PAIR(bxor_u2), PAIR(bxor_u4), PAIR(bxor_u8)};
  static const decoders copy[4] = {PAIR(copy_u1), PAIR(copy_u2), PAIR(copy_u4), PAIR(copy_u8)};
  static const decoders fsum[2] = {PAIR(sum_f4), PAIR(sum_f8)};
  int w = ti->size == 1 ? 0 : ti->size == 2 ? 1 : ti->size == 4 ? 2 : 3;
  if (!oi) return copy[w];
  if (ti->kind == 'f') return fsum[ti->size == 4 ? 0 : 1];
  if (oi->code == MPIOPT_OP_BOR) return bor[w];
  if (oi->code == MPIOPT_OP_BXOR) return bxor[w];
  return sum[w];
}
#undef PAIR

void mpiopt_sparse_apply_bitmap(const void *enc, size_t n, size_t nnz, void *acc, const mpiopt_type_info *ti,
                                const mpiopt_op_info *oi) {
  (void)nnz;
  if (!oi) memset(acc, 0, n * (size_t)ti->size);
  pick(ti, oi).bitmap(enc, n, acc);
}

void mpiopt_sparse_apply_index(const void *enc, size_t n, size_t nnz, void *acc, const mpiopt_type_info *ti,
                               const mpiopt_op_info *oi) {
  if (!oi) memset(acc, 0, n * (size_t)ti->size);
  pick(ti, oi).index(enc, nnz, acc);
}
