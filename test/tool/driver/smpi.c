// SimGrid's SMPI (smpicc): its mpi.h declares MPI_COMM_WORLD as a variable,
// not a macro, and MPI_COMM_SELF as a call in a macro. Both are recognised
// by their spelling, so reductions on them fuse as under MPICH; and by
// default the shipped profile measured in the simulator is loaded
// (smpi.json beside the shipped profiles: scripts/tune --mpi=smpi), in
// which the composite op wins; with none, the mixed pair stays.
// REQUIRES: smpi
// RUN: env -u MPIOPT_PROFILE %ompi-opt --report %s -o %t.c -- %smpi_cflags 2>&1 | FileCheck --check-prefixes=CHECK,DEFAULT %s
// RUN: env -u MPIOPT_PROFILE %ompi-opt --report --profile=none %s -- %smpi_cflags 2>&1 | FileCheck --check-prefix=NOPROF %s
// RUN: FileCheck --check-prefix=CODE %s < %t.c

#include <mpi.h>
#include <stdio.h>

static void extremes(long a, long b) {
  long s, m;
  MPI_Allreduce(&a, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&b, &m, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  // NOPROF: smpi.c:[[@LINE-1]]:3: reduction-fusion: not done: {{.*}} needs a composite op, and no machine profile is loaded
  // DEFAULT: smpi.c:[[@LINE-2]]:3: reduction-fusion: fused 2 MPI_Allreduce calls (lines {{[0-9]+}}, [[@LINE-2]]) into one of 16 bytes with a composite op {{.*}}smpi.json{{.*}}
  printf("%ld %ld\n", s, m);
}

int main(int argc, char **argv) {
  long a = 1, b = 2, sa, sb, ma, mb;
  MPI_Init(&argc, &argv);
  for (int i = 0; i < 3; i++) {
    MPI_Allreduce(&a, &sa, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &sb, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    // CHECK: smpi.c:[[@LINE-1]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}} on MPI_COMM_WORLD
    MPI_Allreduce(&a, &ma, 1, MPI_LONG, MPI_MAX, MPI_COMM_SELF);
    MPI_Allreduce(&b, &mb, 1, MPI_LONG, MPI_MAX, MPI_COMM_SELF);
    // CHECK: smpi.c:[[@LINE-1]]:5: reduction-fusion: fused 2 MPI_Allreduce calls {{.*}} on MPI_COMM_SELF
    printf("%ld %ld %ld %ld\n", sa, sb, ma, mb);
  }
  extremes(a, b);
  MPI_Finalize();
  return 0;
}
// CODE: MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse1_buf, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
// CODE: MPI_Allreduce(MPI_IN_PLACE, mpiopt_fuse2_buf, 2, MPI_LONG, MPI_MAX, MPI_COMM_SELF);
