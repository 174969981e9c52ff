// reduction-fusion must leave every pair of reductions below alone, and
// say why. The transformed source is the input, byte for byte. (It runs
// alone: lazy-deferral, which takes over some of these, has its own tests.)
// RUN: %ompi-opt --transforms=reduction-fusion %s -o %t.c -- %mpich_cflags
// RUN: diff %s %t.c
// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %mpich_cflags | FileCheck --match-full-lines %s
// RUN: %ompi-opt --transforms=reduction-fusion --report %s -- %openmpi_cflags | FileCheck --match-full-lines %s
#include <mpi.h>
#include <stdio.h>

double s1, s2;
void unknown(double *p);
void logmsg(const char *m);
static double seen;
static void peek(void) { seen = s1; }
// A value every rank shares (a static nothing writes): a branch on it goes the
// same way on every rank, so the cases below test their own reason. (A branch
// on a parameter other files may pass anything is one only some ranks may
// take: fusion-uniform.c.)
static int same;

// The later call needs the earlier result: reading it in between.
void read_between(double x) {
  double r1, r2, y;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  y = r1 * 2;
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: line [[#@LINE-1]] uses r1, the result of the call at line [[#@LINE-2]])
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// Writing the earlier result in between: the fused unpack would undo it.
void write_between(double x, double y) {
  double r1, r2;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  r1 = 0;
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: line [[#@LINE-1]] uses r1, the result of the call at line [[#@LINE-2]])
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// The later call's input is the earlier call's result.
void chained(double x) {
  double r1, r2;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-1]]: its buffers overlap those of the call at line [[#@LINE-1]] (r1))
  MPI_Allreduce(&r1, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g\n", r2);
}

// Pointers whose targets cannot be proved distinct: out1 may point into in,
// which the second call reads (out-parameters.c has the cases that fuse).
void through_pointers(double *in, double *out1, double *out2) {
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (the result out1 is reached through a pointer, and the input in is not an automatic local of this function (the pointer may point to it))
  MPI_Allreduce(in, out1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (the result out2 is reached through a pointer, and the input in is not an automatic local of this function (the pointer may point to it))
  MPI_Allreduce(in, out2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// A result whose address escapes to an unknown function may be read through
// that pointer at any time.
void escaping(double x, double y) {
  double r1, r2;
  unknown(&r1);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (the address of r1 escapes at line [[#@LINE-1]])
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// Different communicators.
void two_comms(double x, double y) {
  double r1, r2;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-1]]: different communicator (MPI_COMM_SELF, not MPI_COMM_WORLD))
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
  printf("%g %g\n", r1, r2);
}

// Different roots.
void two_roots(double x, double y) {
  double r1, r2;
  MPI_Reduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Reduce not fused (not fused with the call at line [[#@LINE-1]]: different root (1, not 0))
  MPI_Reduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// A branch on the rank in between that communicates: ranks take different
// paths, and one holds an MPI call.
void rank_branch(double x, double y) {
  double r1, r2;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Send(&y, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-3]]: the branch at line [[#@LINE-2]] may go different ways on different ranks: rank holds the rank (MPI_Comm_rank at line [[#@LINE-4]]), and the MPI call MPI_Send at line [[#@LINE-1]] may depend on the results)
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// A branch on the rank that leaves the block on some ranks only.
void rank_return(double x, double y) {
  double r1, r2;
  int rank, next;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  next = rank + 1;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (next > 4)
    return;
  // Ranks with next > 4 leave: the second call is not run by every rank.
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (only some ranks may run it, so fusing it would change their sequence of collectives and not the others' (the branch at line [[#@LINE-3]] may go different ways on different ranks: rank holds the rank (MPI_Comm_rank at line [[#@LINE-6]])))
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// A volatile buffer may be read by something the compiler does not see.
void volatile_buffer(double x, double y) {
  volatile double r1;
  double r2;
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (buffer (double *)&r1 is volatile)
  MPI_Allreduce(&x, (double *)&r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// A jump out of the block in between.
void jumps(double x, double y) {
  double r1, r2;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (same)
    goto out;
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-3]]: the goto at line [[#@LINE-1]] leaves the block)
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g\n", r2);
out:
  printf("%g\n", r1);
}

// A return in between: the earlier result is needed on that path.
double returns(double x, double y) {
  double r1, r2;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (same)
    return r1;
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-3]]: the return at line [[#@LINE-1]] leaves the block)
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return r1 + r2;
}

// A call through a function pointer may do anything.
void indirect(double x, double y, void (*cb)(void)) {
  double r1, r2;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  cb();
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: the call through a function pointer at line [[#@LINE-1]] may do anything)
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// Another MPI call in between could observe or depend on the results.
void mpi_between(double x, double y) {
  double r1, r2;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: the MPI call MPI_Barrier at line [[#@LINE-1]] may depend on the results)
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// Global results: a function that reads one, or an unknown function.
void globals(double x, double y) {
  MPI_Allreduce(&x, &s1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  peek();
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: the call to peek at line [[#@LINE-1]] may use s1, the result of the call at line [[#@LINE-2]])
  MPI_Allreduce(&y, &s2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  logmsg("between");
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: the call to logmsg at line [[#@LINE-1]], whose code is not in this file, may make MPI calls)
  MPI_Allreduce(&x, &seen, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Run-time counts that do not read the same at both calls and at the fused
// point, and a user-defined op.
void dynamic_parts(double *x, int n, int *lens, MPI_Op myop) {
  double a[64], b[64], r1[64], r2[64], r3[64], r4[64];
  MPI_Allreduce(a, r1, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  n = n / 2;
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: line [[#@LINE-1]] changes n, which a count reads)
  MPI_Allreduce(b, r2, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (count lens[0] is not static and reads memory or has side effects)
  MPI_Allreduce(a, r3, lens[0], MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (op myop is not a predefined reduction operation)
  MPI_Allreduce(a, r4, 4, MPI_DOUBLE, myop, MPI_COMM_WORLD);
  x[0] = r1[0] + r2[0] + r3[0] + r4[0];
}

// Labels can be jumped to from elsewhere: on the call, or in between.
void labelled(double x, double y, int k) {
  double r1, r2;
  if (same)
    goto in;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+2]]:3: reduction-fusion: not done: MPI_Allreduce not fused (the call is labelled: a jump to line [[#@LINE+1]] would skip the others)
in:
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}
void label_between(double x, double y, int k) {
  double r1, r2;
  if (same)
    goto in;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  {
  in:
    y = y * 2;
  }
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-5]]: the label at line [[#@LINE-3]] can be jumped to)
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// A function that communicates: moving a collective past it could reorder
// the program's messages.
static void talk(int peer) {
  int token = 0;
  MPI_Send(&token, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
}
void callee_communicates(double x, double y) {
  double r1, r2;
  MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  talk(1);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-2]]: the call to talk at line [[#@LINE-1]] makes MPI calls)
  MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%g %g\n", r1, r2);
}

// A case label in between: the switch can jump past the first call.
void case_between(double x, double y, int k) {
  double r1, r2;
  switch (same) {
  case 0:
    x = x * 2;
    MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  case 1:
    y = y + 1;
    // CHECK-DAG: {{.*}}:[[#@LINE+1]]:5: reduction-fusion: not done: MPI_Allreduce not fused (not fused with the call at line [[#@LINE-3]]: the case label at line [[#@LINE-2]] can be jumped to)
    MPI_Allreduce(&y, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  printf("%g %g\n", r1, r2);
}

// An input that is MPI_IN_PLACE on some ranks only, and MPI_IN_PLACE in
// MPI_Reduce, which only the root may pass.
void in_place_on_root(double x, double y, int rank) {
  double r1 = x, r2 = y, r3 = y;
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Reduce not fused (the input rank == 0 ? MPI_IN_PLACE : &x may be MPI_IN_PLACE or another special buffer)
  MPI_Reduce(rank == 0 ? MPI_IN_PLACE : &x, &r1, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  // CHECK-DAG: {{.*}}:[[#@LINE+1]]:3: reduction-fusion: not done: MPI_Reduce not fused (MPI_IN_PLACE in MPI_Reduce is valid at the root only)
  MPI_Reduce(MPI_IN_PLACE, &r2, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&y, &r3, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  printf("%g %g %g\n", r1, r2, r3);
}
