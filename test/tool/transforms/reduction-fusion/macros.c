// reduction-fusion through macros: a macro whose whole expansion is the call
// (graph500's aml_long_allsum) and a call written as the argument of a macro
// that checks its return code (OSU's MPI_CHECK) fuse like plain calls. In the
// second form the call is rewritten in place as one expression on its line
// (an earlier call's code reads MPI_SUCCESS, the last one's is the fused
// call's), and the rest of the macro stays where it was.
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %openmpi_cflags %t.c
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define GSUM(p) MPI_Allreduce(MPI_IN_PLACE, p, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD)
#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    int check_rc = (call);                                                                                             \
    if (check_rc != MPI_SUCCESS) {                                                                                     \
      fprintf(stderr, "MPI error %d at line %d\n", check_rc, __LINE__);                                               \
      MPI_Abort(MPI_COMM_WORLD, check_rc);                                                                             \
    }                                                                                                                  \
  } while (0)
#define ASSERT_OK(call) ((call) == MPI_SUCCESS ? (void)0 : abort())
#define BODY_ONLY() MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
#define IN_BODY(p)                                                                                                     \
  do {                                                                                                                 \
    MPI_Allreduce(MPI_IN_PLACE, p, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);                                               \
  } while (0)
#define LOGGED(call, v)                                                                                                \
  do {                                                                                                                 \
    int e = (call);                                                                                                    \
    if (rank == 0)                                                                                                     \
      printf("%d %d\n", e, v);                                                                                         \
  } while (0)
#define RETRY(call)                                                                                                    \
  for (int try_ = 0; try_ < 2; try_++)                                                                                 \
    if ((call) == MPI_SUCCESS)                                                                                         \
  break
#define MAYBE(call) (void)(verbose && (call))

int g, verbose;

int main(int argc, char **argv) {
  long long errs = 1, edges = 2;
  double a = 1, b = 2, c = 3, sa, sb, sc;
  int x = 1, y = 2, rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  // The macro is the whole call: rewritten as if the call were written out.
  // SRC:  long long mpiopt_fuse1_buf[2];
  // SRC-NEXT:  __builtin_memcpy(&mpiopt_fuse1_buf[0], &errs, 1 * sizeof(long long));
  GSUM(&errs);
  // REPORT: {{.*}}macros.c:[[#@LINE+3]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines [[#@LINE-1]], [[#@LINE+3]]) into one of 2 x MPI_LONG_LONG with MPI_SUM on MPI_COMM_WORLD (same communicator, op and datatype; distinct buffers (MPI_IN_PLACE -> &errs, MPI_IN_PLACE -> &edges); nothing in between; a use of the macro GSUM (macros.c:16), written here as its MPI call); saves 1 collective per execution
  // SRC:  { /* ompi-opt: 2 MPI_Allreduce calls (lines [[#@LINE-2]], [[#@LINE+2]]) fused into one */
  // SRC:    MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  GSUM(&edges);
  if (rank == 0)
    printf("%lld %lld\n", errs, edges);

  // Calls inside a macro that checks the return code: the macros stay.
  // SRC:  double mpiopt_fuse2_buf[3];
  // SRC-NEXT:  CHECK((__builtin_memcpy(&mpiopt_fuse2_buf[0], &a, 1 * sizeof(double)), MPI_SUCCESS));
  CHECK(MPI_Allreduce(&a, &sa, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
  // SRC:  ASSERT_OK((__builtin_memcpy(&mpiopt_fuse2_buf[1], &b, 1 * sizeof(double)), MPI_SUCCESS));
  ASSERT_OK(MPI_Allreduce(&b, &sb, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
  // REPORT: {{.*}}macros.c:[[#@LINE+2]]:3: reduction-fusion: fused 3 MPI_Allreduce calls (lines [[#@LINE-3]], [[#@LINE-1]], [[#@LINE+2]]) into one of 3 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD {{.*}}
  // SRC:  CHECK(__extension__({ /* ompi-opt: 3 MPI_Allreduce calls (lines [[#@LINE-4]], [[#@LINE-2]], [[#@LINE+1]]) fused into one */ __builtin_memcpy(&mpiopt_fuse2_buf[2], &c, 1 * sizeof(double)); int mpiopt_fuse2_rc = MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse2_buf, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); __builtin_memcpy(&sa, &mpiopt_fuse2_buf[0], 1 * sizeof(double)); __builtin_memcpy(&sb, &mpiopt_fuse2_buf[1], 1 * sizeof(double)); __builtin_memcpy(&sc, &mpiopt_fuse2_buf[2], 1 * sizeof(double)); mpiopt_fuse2_rc; }));
  CHECK(MPI_Allreduce(&c, &sc, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
  if (rank == 0)
    printf("%g %g %g\n", sa, sb, sc);

  // Negative: a call written in the macro's body has no text of its own in
  // the file to rewrite.
  g = 1;
  // REPORT: {{.*}}macros.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (an argument is written inside a macro)
  BODY_ONLY();
  // REPORT: {{.*}}macros.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (the call is part of a macro's body (only a macro that is the whole call, or a call written as a macro's argument, is rewritten))
  IN_BODY(&x);
  IN_BODY(&y);
  if (rank == 0)
    printf("%d %d %d\n", g, x, y);

  // Negative: the macro reads the earlier call's result before the later
  // call would have run (the fused call would come too late).
  // REPORT: {{.*}}macros.c:[[#@LINE+2]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE+1]]: the macro around the call at line [[#@LINE+1]]: {{.*}}line [[#@LINE+1]] uses x, the result of the call at line [[#@LINE+1]])
  LOGGED(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), x);
  LOGGED(MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), 0);

  // Negative: macros that run the call in a loop or only under a condition.
  // REPORT: {{.*}}macros.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (the macro around the call runs it in a loop)
  RETRY(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  RETRY(MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  // REPORT: {{.*}}macros.c:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (the macro around the call runs it only when a condition holds)
  MAYBE(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  MAYBE(MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  if (rank == 0)
    printf("%d %d\n", x, y);
  MPI_Finalize();
  return 0;
}
