// persistent-requests on collectives: an MPI_Allreduce, MPI_Bcast or
// MPI_Barrier in a loop whose arguments stay the same on every iteration,
// which every rank runs alike, goes through a persistent collective
// (MPI-4's MPI_Allreduce_init, Open MPI 4's MPIX_ form) made at the first
// call, where the profile measured it faster; a floating-point sum only
// with --reassociate (the persistent algorithm may add in another order).
// Negative cases say why not.
// RUN: %ompi-opt --report --transforms=persistent-requests --profile=%inputs/profile-persistent.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --reassociate --transforms=persistent-requests --profile=%inputs/profile-persistent.json %s -- %mpich_cflags | FileCheck --check-prefix=REASSOC %s
// The HTML page's "Templates chosen" panel lists them.
// RUN: %ompi-opt --diff=html --transforms=persistent-requests --profile=%inputs/profile-persistent.json %s -- %mpich_cflags | FileCheck --check-prefix=HTML %s
// HTML: <section><h2>Templates chosen</h2><p>line {{[0-9]+}}: MPI_Allreduce through a persistent request made once per run of the loop at line {{[0-9]+}} (mpiopt_allreduce_persistent)</p><p>line {{[0-9]+}}: MPI_Bcast through a persistent request {{.*}}(mpiopt_barrier_persistent){{.*}}
// RUN: %ompi-opt --transforms=persistent-requests --profile=%inputs/profile-persistent.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

static double x[8], y[8];
static long n[8], m[8];

void iterate(int steps, MPI_Comm comm, MPI_Op op) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int s = 0; s < steps; s++) {
    x[0] = s;
    // An integer sum is exact in any order.
    // REPORT-DAG: collectives.c:[[#@LINE+1]]:5: persistent-requests: MPI_Allreduce through a persistent request made once per run of the loop at line [[#@LINE-3]] (mpiopt_allreduce_persistent) (its buffers, counts, datatypes, op, root and communicator are the same on every iteration and every rank runs it alike; the request is made at the first call, started and waited for at each, and freed after the loop; the machine profile {{.*}} (templates.persistent_allreduce) measured 1.00 us for the persistent request against 2.00 us for the generic call at 64 bytes (the message: 64 bytes)); saves {{.*}}
    MPI_Allreduce(n, m, 8, MPI_LONG, MPI_SUM, comm);
    // A floating-point sum: only with --reassociate.
    // REPORT-DAG: collectives.c:[[#@LINE+2]]:5: persistent-requests: not done: MPI_Allreduce not through a persistent request (a floating-point SUM may be reduced in another order by the persistent collective (the last bits may change); --reassociate allows it)
    // REASSOC: collectives.c:[[#@LINE+1]]:5: persistent-requests: MPI_Allreduce through a persistent request {{.*}}
    MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, comm);
    // REPORT-DAG: collectives.c:[[#@LINE+1]]:5: persistent-requests: MPI_Bcast through a persistent request made once per run of the loop at line {{[0-9]+}} (mpiopt_bcast_persistent) {{.*}}
    MPI_Bcast(y, 8, MPI_DOUBLE, 0, comm);
    // REPORT-DAG: collectives.c:[[#@LINE+1]]:5: persistent-requests: MPI_Barrier through a persistent request made once per run of the loop at line {{[0-9]+}} (mpiopt_barrier_persistent) {{.*}} at 0 bytes (the message: 0 bytes)); saves {{.*}}
    MPI_Barrier(comm);
    // In place, a maximum (exact in any order).
    // REPORT-DAG: collectives.c:[[#@LINE+1]]:5: persistent-requests: MPI_Allreduce through a persistent request {{.*}}
    MPI_Allreduce(MPI_IN_PLACE, y, 8, MPI_DOUBLE, MPI_MAX, comm);
    // Only some ranks run it: their requests would be made at different
    // points of their sequences.
    if (rank == 0)
      // REPORT-DAG: collectives.c:[[#@LINE+1]]:7: persistent-requests: not done: MPI_Barrier not through a persistent request (every rank must make its persistent collective at the same point, but {{.*}})
      MPI_Barrier(MPI_COMM_SELF);
    // The root changes.
    // REPORT-DAG: collectives.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Bcast not through a persistent request (in the loop at line {{[0-9]+}}, root (s % 2) may change: {{.*}})
    MPI_Bcast(y, 8, MPI_DOUBLE, s % 2, comm);
    // 64 KiB: the profile measured the persistent request slower.
    // REPORT-DAG: collectives.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Allreduce not through a persistent request (the machine profile {{.*}} (templates.persistent_allreduce) measured 50.00 us for the persistent request against 40.00 us for the generic call at 65536 bytes (the message: 65536 bytes); a template must be 5% faster)
    MPI_Allreduce(MPI_IN_PLACE, x, 8192, MPI_DOUBLE, MPI_MIN, comm);
    // A user-defined op.
    // REPORT-DAG: collectives.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Allreduce not through a persistent request (its op (op) is not a predefined one: the persistent collective may apply it in another order than the blocking call)
    MPI_Allreduce(n, m, 8, MPI_LONG, op, comm);
    // No measurement of persistent all-to-alls.
    // REPORT-DAG: collectives.c:[[#@LINE+1]]:5: persistent-requests: not done: MPI_Alltoall not through a persistent request (the machine profile {{.*}} has no measurement of templates.persistent_alltoall for 8 bytes)
    MPI_Alltoall(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, comm);
  }
}
// SRC: #include <mpiopt/persist.h>
// SRC:  { struct mpiopt_persist mpiopt_preq1_p = MPIOPT_PERSIST_INIT, mpiopt_preq2_p = MPIOPT_PERSIST_INIT, mpiopt_preq3_p = MPIOPT_PERSIST_INIT, mpiopt_preq4_p = MPIOPT_PERSIST_INIT; for (int s = 0; s < steps; s++) {
// SRC:    mpiopt_allreduce_persistent(&mpiopt_preq1_p, n, m, 8, MPI_LONG, MPI_SUM, comm);
// SRC:    MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, comm);
// SRC:    mpiopt_bcast_persistent(&mpiopt_preq2_p, y, 8, MPI_DOUBLE, 0, comm);
// SRC:    mpiopt_barrier_persistent(&mpiopt_preq3_p, comm);
// SRC:    mpiopt_allreduce_persistent(&mpiopt_preq4_p, MPI_IN_PLACE, y, 8, MPI_DOUBLE, MPI_MAX, comm);
// SRC:      MPI_Barrier(MPI_COMM_SELF);
// SRC:    MPI_Bcast(y, 8, MPI_DOUBLE, s % 2, comm);
// SRC:  } mpiopt_persist_free(&mpiopt_preq1_p); mpiopt_persist_free(&mpiopt_preq2_p); mpiopt_persist_free(&mpiopt_preq3_p); mpiopt_persist_free(&mpiopt_preq4_p); }
