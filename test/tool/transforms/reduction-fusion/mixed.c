// reduction-fusion of reductions with different ops or datatypes
// (analysis/FusionMix.h): MIN with MAX of one type becomes one MPI_MAX (a MIN
// member packed as ~x for integers, -x for floating point), one modular op on
// several integer types one collective on unsigned long long, and integer
// reductions of several ops one collective with a generated composite op,
// where the machine profile measured it winning. Negative cases say why the
// tool leaves the calls apart. The program prints the same through ompi-cc
// (e2e fusion-mixed.*).
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-slower.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=SLOWER %s
// RUN: %ompi-opt --transforms=reduction-fusion --profile=%inputs/profile-wins.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
// Without --profile or MPIOPT_PROFILE, the shipped profile of the MPI whose
// mpi.h the source includes decides (both measured the composite winning).
// RUN: env -u MPIOPT_PROFILE %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=MPICH %s
// RUN: env -u MPIOPT_PROFILE %ompi-opt --report %s -- %openmpi_cflags | FileCheck --check-prefix=OPENMPI %s
// MPICH: {{.*}}mixed.c:{{[0-9]+}}:3: reduction-fusion: fused 3 MPI_Allreduce calls {{.*}} with a composite op {{.*}} the machine profile {{.*}}share/ompi/profiles/mpich.json measured {{.*}}
// OPENMPI: {{.*}}mixed.c:{{[0-9]+}}:3: reduction-fusion: fused 3 MPI_Allreduce calls {{.*}} with a composite op {{.*}} the machine profile {{.*}}share/ompi/profiles/openmpi.json measured {{.*}}
// The composite op is file-scope code after the #include of mpi.h.
// SRC:#include <mpi.h>
// SRC-NEXT:#include <mpiopt/fuse.h>
// SRC-NEXT:/* ompi-opt: the op of the reductions fused at lines 134, 135, 136 */
// SRC-NEXT:static mpiopt_fuse_site mpiopt_fuse5_site;
// SRC-NEXT:static void mpiopt_fuse5_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
// SRC-NEXT:  const unsigned char *x = (const unsigned char *)in;
// SRC-NEXT:  unsigned char *y = (unsigned char *)inout;
// SRC-NEXT:  (void)type;
// SRC-NEXT:  for (int e = 0; e < *len; e++, x += 24, y += 24) {
// SRC-NEXT:    for (int i = 0; i < 1; i++) { /* MPI_SUM of MPI_LONG */
// SRC-NEXT:      long a, b;
// SRC-NEXT:      __builtin_memcpy(&a, x + 0 + i * 8, 8);
// SRC-NEXT:      __builtin_memcpy(&b, y + 0 + i * 8, 8);
// SRC-NEXT:      b = (long)((unsigned long long)a + (unsigned long long)b);
// SRC-NEXT:      __builtin_memcpy(y + 0 + i * 8, &b, 8);
// SRC-NEXT:    }
// SRC-NEXT:    for (int i = 0; i < 1; i++) { /* MPI_MAX of MPI_INT */
// SRC-NEXT:      int a, b;
// SRC-NEXT:      __builtin_memcpy(&a, x + 8 + i * 4, 4);
// SRC-NEXT:      __builtin_memcpy(&b, y + 8 + i * 4, 4);
// SRC-NEXT:      if (a > b) b = a;
// SRC-NEXT:      __builtin_memcpy(y + 8 + i * 4, &b, 4);
// SRC-NEXT:    }
// SRC-NEXT:    for (int i = 0; i < 1; i++) { /* MPI_BXOR of MPI_UNSIGNED */
// SRC-NEXT:      unsigned int a, b;
// SRC-NEXT:      __builtin_memcpy(&a, x + 16 + i * 4, 4);
// SRC-NEXT:      __builtin_memcpy(&b, y + 16 + i * 4, 4);
// SRC-NEXT:      b = (unsigned int)(a ^ b);
// SRC-NEXT:      __builtin_memcpy(y + 16 + i * 4, &b, 4);
// SRC-NEXT:    }
// SRC-NEXT:  }
// SRC-NEXT:}
// SRC-NEXT:#line [[#@LINE+2]]
#include <mpi.h>
#include <stdio.h>

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != MPI_SUCCESS)                                                                                         \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                                    \
  } while (0)

static int rank, size;
#define say(...) (void)(rank == 0 && printf(__VA_ARGS__))
static void minmax_int(void) {
  int x = 3 * rank - 4, lo, hi;
  // REPORT: {{.*}}mixed.c:[[#@LINE+5]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+4]], [[#@LINE+5]]) into one of 2 x MPI_INT with MPI_MAX on MPI_COMM_WORLD (same communicator; MPI_MIN as MPI_MAX of the complement: min(x, y) = ~max(~x, ~y), exact for every integer; distinct buffers (&x -> &lo, &x -> &hi); nothing in between); saves 1 collective per execution
  // SRC:  mpiopt_fuse1_buf[0] = (int)~*(const int *)(&x);
  // SRC:    MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  // SRC-NEXT:    *(int *)(&lo) = (int)~mpiopt_fuse1_buf[0];
  MPI_Allreduce(&x, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  say("minmax_int %d %d\n", lo, hi);
}

static void minmax_double(void) {
  double v[3] = {rank - 2.5, 1.0 / (rank + 1), -1e300 * rank}, lo[3], hi;
  // REPORT: {{.*}}mixed.c:[[#@LINE+4]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+3]], [[#@LINE+4]]) into one of 4 x MPI_DOUBLE with MPI_MAX on MPI_COMM_WORLD (same communicator; MPI_MIN as MPI_MAX of the negation: min(x, y) = -max(-x, -y), exact for every IEEE value; {{.*}}
  // SRC:  for (long mpiopt_fuse2_i = 0; mpiopt_fuse2_i < (long)3; mpiopt_fuse2_i++) mpiopt_fuse2_buf[mpiopt_fuse2_i] = -((const double *)(v))[mpiopt_fuse2_i];
  // SRC:    for (long mpiopt_fuse2_i = 0; mpiopt_fuse2_i < (long)3; mpiopt_fuse2_i++) ((double *)(lo))[mpiopt_fuse2_i] = -mpiopt_fuse2_buf[mpiopt_fuse2_i];
  MPI_Allreduce(v, lo, 3, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&v[1], &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  say("minmax_double %g %g %g %g\n", lo[0], lo[1], lo[2], hi);
}

// A count known only at run time: the MIN member is encoded in a loop.
static void minmax_dynamic(int n) {
  long a[8], lo[8], hi[8];
  for (int i = 0; i < 8; i++)
    a[i] = (rank + 1) * (i - 3);
  // REPORT: {{.*}}mixed.c:[[#@LINE+3]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE+2]], [[#@LINE+3]]) into one of (n) + (n) x MPI_LONG with MPI_MAX on MPI_COMM_WORLD {{.*}}
  // SRC:    for (long mpiopt_fuse3_i = 0; mpiopt_fuse3_i < (long)(n); mpiopt_fuse3_i++) mpiopt_fuse3_buf[(n) + mpiopt_fuse3_i] = (long)~((const long *)(a))[mpiopt_fuse3_i];
  MPI_Allreduce(a, hi, n, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(a, lo, n, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  say("minmax_dynamic %ld %ld %ld %ld\n", lo[0], lo[n - 1], hi[0], hi[n - 1]);
}

// SUM of int, long long and unsigned short in unsigned long long: the int
// sum overflows at 2 ranks and more, as it does in the original.
static void widened(void) {
  int i = 2000000000 + rank, si;
  long long l = -5 * rank, sl;
  unsigned short u[2] = {65535, (unsigned short)rank}, su[2];
  // REPORT: {{.*}}mixed.c:[[#@LINE+7]]:3: reduction-fusion: fused 3 MPI_Allreduce calls (lines [[#@LINE+5]], [[#@LINE+6]], [[#@LINE+7]]) into one of 4 x MPI_UNSIGNED_LONG_LONG with MPI_SUM on MPI_COMM_WORLD (same communicator; MPI_SUM of every integer type in unsigned long long: the op commutes with reduction modulo 2^n, so each result is exactly its own type's, overflow included; {{.*}}
  // SRC:  mpiopt_fuse4_buf[0] = (unsigned long long)*(const int *)(&i);
  // SRC:    MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse4_buf, 4, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  // SRC-NEXT:    *(int *)(&si) = (int)mpiopt_fuse4_buf[0];
  // SRC-NEXT:    *(long long *)(&sl) = (long long)mpiopt_fuse4_buf[1];
  MPI_Allreduce(&i, &si, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&l, &sl, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(u, su, 2, MPI_UNSIGNED_SHORT, MPI_SUM, MPI_COMM_WORLD);
  say("widened %d %lld %u %u\n", si, sl, su[0], su[1]);
}

// SUM, MAX and BXOR: a composite op, only with a profile that shows it
// winning (the default of these tests is no profile).
static void composite(void) {
  long n = rank + 1, sn;
  int m = 7 - rank, mm;
  unsigned f = 1u << rank, xf;
  // REPORT: {{.*}}mixed.c:[[#@LINE+12]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+13]]: different op (MPI_SUM, not MPI_MAX): one collective for MPI_SUM of 1 x MPI_LONG, MPI_MAX of 1 x MPI_INT needs a composite op, and no machine profile is loaded)
  // SLOWER: {{.*}}mixed.c:[[#@LINE+11]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+12]]: different op (MPI_SUM, not MPI_MAX): one collective for MPI_SUM of 1 x MPI_LONG, MPI_MAX of 1 x MPI_INT needs a composite op, and the machine profile {{.*}}profile-slower.json measured it slower (2.00 us against 1.00 us for 2 builtin collectives, up to 64 bytes))
  // SRC:  unsigned char mpiopt_fuse5_buf[24];
  // SRC-NEXT:  __builtin_memcpy(&mpiopt_fuse5_buf[0], &n, 8);
  // SRC-NEXT:  __builtin_memcpy(&mpiopt_fuse5_buf[8], &m, 4);
  // SRC-NEXT:  { /* ompi-opt: 3 MPI_Allreduce calls (lines [[#@LINE+7]], [[#@LINE+8]], [[#@LINE+9]]) fused into one */
  // SRC-NEXT:    __builtin_memcpy(&mpiopt_fuse5_buf[16], &f, 4);
  // SRC-NEXT:    MPI_Datatype mpiopt_fuse5_type;
  // SRC-NEXT:    MPI_Op mpiopt_fuse5_op;
  // SRC-NEXT:    mpiopt_fuse_site_get(&mpiopt_fuse5_site, 24, mpiopt_fuse5_fn, &mpiopt_fuse5_type, &mpiopt_fuse5_op);
  // SRC-NEXT:    MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse5_buf, 1, mpiopt_fuse5_type, mpiopt_fuse5_op, MPI_COMM_WORLD);
  // SRC-NEXT:    __builtin_memcpy(&sn, &mpiopt_fuse5_buf[0], 8);
  MPI_Allreduce(&n, &sn, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&m, &mm, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&f, &xf, 1, MPI_UNSIGNED, MPI_BXOR, MPI_COMM_WORLD);
  say("composite %ld %d %u\n", sn, mm, xf);
}

// MPI_Reduce: the results are decoded at the root only.
static void rooted(void) {
  short s = (short)(rank - 1), lo = 0, hi = 0;
  // SRC:    if (mpiopt_fuse6_rank == (0)) {
  // SRC-NEXT:      *(short *)(&lo) = (short)~mpiopt_fuse6_buf[0];
  MPI_Reduce(&s, &lo, 1, MPI_SHORT, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&s, &hi, 1, MPI_SHORT, MPI_MAX, 0, MPI_COMM_WORLD);
  say("rooted %d %d\n", lo, hi);
}

// An earlier member written as a macro's argument, encoded in a loop: one
// expression whose value is MPI_SUCCESS.
static void wrapped(void) {
  int v[2] = {rank, -rank}, lo[2], hi;
  // SRC:  CHECK((__extension__({ for (long mpiopt_fuse7_i = 0; mpiopt_fuse7_i < (long)2; mpiopt_fuse7_i++) mpiopt_fuse7_buf[mpiopt_fuse7_i] = (int)~((const int *)(v))[mpiopt_fuse7_i]; }), MPI_SUCCESS));
  CHECK(MPI_Allreduce(v, lo, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  CHECK(MPI_Allreduce(v, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  say("wrapped %d %d %d\n", lo[0], lo[1], hi);
}

// Negative: floating-point reductions of different ops or types stay apart
// (their results depend on the order of combination); the two double SUMs
// still fuse across them.
static void floating_mix(void) {
  double d = rank + 0.5, sd, md;
  float f = (float)rank, sf;
  double e = 1.0, se;
  // REPORT: {{.*}}mixed.c:[[#@LINE+2]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+1]]: different op (MPI_MAX, not MPI_SUM): MPI_DOUBLE is not an integer type, and only integer reductions are exact in any order (a composite op's order of combination may differ from the builtin op's))
  MPI_Allreduce(&d, &sd, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&d, &md, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  // REPORT: {{.*}}mixed.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-1]]: different op (MPI_SUM, not MPI_MAX): {{.*}}
  MPI_Allreduce(&f, &sf, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&e, &se, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  say("floating_mix %g %g %g %g\n", sd, md, sf, se);
}

// Negative: the wider type would double 300 ints (beyond 2 KiB).
static void too_wide(void) {
  int big[300], sbig[300];
  long long one = rank, sone;
  for (int i = 0; i < 300; i++)
    big[i] = i * rank;
  // REPORT: {{.*}}mixed.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+2]]: different datatype (MPI_INT, not MPI_LONG_LONG_INT): one op on several integer types: 301 elements as unsigned long long exceed 2048 bytes, beyond which the wider type costs more than a collective)
  MPI_Allreduce(big, sbig, 300, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&one, &sone, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  say("too_wide %d %lld\n", sbig[299], sone);
}

// Negative: MPI_BYTE is raw bytes, not an integer type.
static void bytes(void) {
  unsigned char b = (unsigned char)(0xF0 | rank), sb;
  int i = 0x0F | rank, si;
  // REPORT: {{.*}}mixed.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+2]]: different op (MPI_BAND, not MPI_BOR): MPI_BYTE is not an integer type, and only integer reductions are exact in any order (a composite op's order of combination may differ from the builtin op's))
  MPI_Allreduce(&b, &sb, 1, MPI_BYTE, MPI_BAND, MPI_COMM_WORLD);
  MPI_Allreduce(&i, &si, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
  say("bytes %u %d\n", sb, si);
}

// Negative: the MAX reduces the MIN's result.
static void dependent(void) {
  int x = rank, lo, hi;
  // REPORT: {{.*}}mixed.c:[[#@LINE+2]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+3]]: different op (MPI_MIN, not MPI_MAX): one collective could serve both, but the call at line [[#@LINE+3]] cannot join: its buffers overlap those of the call at line [[#@LINE+2]] (lo))
  // REPORT: {{.*}}mixed.c:[[#@LINE+2]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+1]]: different op (MPI_MAX, not MPI_MIN): its buffers overlap those of the call at line [[#@LINE+1]] (lo))
  MPI_Allreduce(&x, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&lo, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  say("dependent %d %d\n", lo, hi);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  minmax_int();
  minmax_double();
  minmax_dynamic(argc > 5 ? 8 : 5);
  widened();
  composite();
  rooted();
  wrapped();
  floating_mix();
  too_wide();
  bytes();
  dependent();
  MPI_Finalize();
  return 0;
}
