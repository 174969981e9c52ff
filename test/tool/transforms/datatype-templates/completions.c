// datatype-templates on nonblocking calls completed by tests and by waits
// for any or some: MPI_Test on the request, and MPI_Testall,
// MPI_Waitany, MPI_Testany, MPI_Waitsome and MPI_Testsome over an array of
// requests with a constant count go through their templates
// (mpiopt_test_dtype, ...), which finish every template's request they
// complete. A test may leave the request pending: the tool follows the
// flag of a loop that tests until it is set, and a loop that waits for any
// of N requests N times; elsewhere it counts the
// request as maybe still pending, so starting it again, freeing it or
// handing it elsewhere before a completion is declined, while a path that
// ends the function with it pending only loses it. Negative cases say why.
// RUN: %ompi-opt --report --profile=%inputs/profile-templates.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=datatype-templates --profile=%inputs/profile-templates.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

#define N 8
static double a[N][N];
static MPI_Datatype col;

// Tests repeated until the flag is set, in a loop that starts the request
// again on each iteration: a do-while, and a while loop entered with the
// flag just set to 0.
void tested(int peer, int steps) {
  MPI_Request r, s;
  MPI_Status st;
  int flag, done;
  for (int i = 0; i < steps; i++) {
    MPI_Irecv(&a[0][0], 1, col, peer, 0, MPI_COMM_WORLD, &r);
    MPI_Isend(&a[0][1], 1, col, peer, 0, MPI_COMM_WORLD, &s);
    do {
      MPI_Test(&r, &flag, &st);
    } while (!flag);
    done = 0;
    while (done == 0)
      MPI_Test(&s, &done, MPI_STATUS_IGNORE);
  }
}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-10]]:5: datatype-templates: MPI_Irecv with col: {{.*}}; while r may be pending, it is only waited for or tested {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-10]]:5: datatype-templates: MPI_Isend with col: {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-9]]:7: datatype-templates: MPI_Test on r: completes the nonblocking templates' calls (a template may have started r; a completion unpacks what it received and returns its buffer)
// SRC:  MPI_Request r, s; struct mpiopt_dpend mpiopt_pend_r = {0}; struct mpiopt_dpend mpiopt_pend_s = {0};
// SRC:      mpiopt_test_dtype(&r, &flag, &st, &mpiopt_pend_r);
// SRC:      mpiopt_test_dtype(&s, &done, MPI_STATUS_IGNORE, &mpiopt_pend_s);

// An array of requests completed by waits and tests for any, some or all.
void arrays(int peer) {
  MPI_Request q[3], w[2], t[2];
  MPI_Status sts[3];
  int idx, out, got[3], flag = 0;
  MPI_Irecv(&a[0][0], 1, col, peer, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Irecv(&a[0][1], 1, col, peer, 2, MPI_COMM_WORLD, &q[1]);
  MPI_Isend(&a[0][2], 1, col, peer, 1, MPI_COMM_WORLD, &q[2]);
  for (int k = 0; k < 3; k++)
    MPI_Waitany(3, q, &idx, &sts[0]);
  MPI_Irecv(&a[0][3], 1, col, peer, 3, MPI_COMM_WORLD, &w[0]);
  MPI_Isend(&a[0][4], 1, col, peer, 3, MPI_COMM_WORLD, &w[1]);
  for (int n = 0; n < 2; n += out)
    MPI_Waitsome(2, w, &out, got, MPI_STATUSES_IGNORE);
  MPI_Irecv(&a[0][5], 1, col, peer, 4, MPI_COMM_WORLD, &t[0]);
  MPI_Isend(&a[0][6], 1, col, peer, 4, MPI_COMM_WORLD, &t[1]);
  while (!flag)
    MPI_Testall(2, t, &flag, sts);
}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-13]]:3: datatype-templates: MPI_Irecv with col: {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-11]]:5: datatype-templates: MPI_Waitany on q: {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-8]]:5: datatype-templates: MPI_Waitsome on w: {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-5]]:5: datatype-templates: MPI_Testall on t: {{.*}}
// SRC:  MPI_Request q[3], w[2], t[2]; struct mpiopt_dpend mpiopt_pend_q[3] = {{[{][{]}}0{{[}][}]}}; struct mpiopt_dpend mpiopt_pend_w[2] = {{[{][{]}}0{{[}][}]}}; struct mpiopt_dpend mpiopt_pend_t[2] = {{[{][{]}}0{{[}][}]}};
// SRC:    mpiopt_waitany_dtype(3, q, &idx, &sts[0], mpiopt_pend_q + 0);
// SRC:    mpiopt_waitsome_dtype(2, w, &out, got, MPI_STATUSES_IGNORE, mpiopt_pend_w + 0);
// SRC:    mpiopt_testall_dtype(2, t, &flag, sts, mpiopt_pend_t + 0);

// A test whose flag the program reads elsewhere, then a wait; a test for
// any or some that may leave requests pending when the function ends.
void polled(int peer) {
  MPI_Request r, p[2];
  int flag, idx, out, got[2];
  MPI_Irecv(&a[1][0], 1, col, peer, 5, MPI_COMM_WORLD, &r);
  MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  if (!flag)
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Irecv(&a[1][1], 1, col, peer, 6, MPI_COMM_WORLD, &p[0]);
  MPI_Irecv(&a[1][2], 1, col, peer, 7, MPI_COMM_WORLD, &p[1]);
  MPI_Testany(2, p, &idx, &flag, MPI_STATUS_IGNORE);
  MPI_Testsome(2, p, &out, got, MPI_STATUSES_IGNORE);
}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-9]]:3: datatype-templates: MPI_Irecv with col: {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-6]]:3: datatype-templates: MPI_Irecv with col: {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-6]]:3: datatype-templates: MPI_Irecv with col: {{.*}}
// SRC:  mpiopt_test_dtype(&r, &flag, MPI_STATUS_IGNORE, &mpiopt_pend_r);
// SRC-NEXT:  if (!flag)
// SRC-NEXT:    mpiopt_wait_dtype(&r, MPI_STATUS_IGNORE, &mpiopt_pend_r);
// SRC:  mpiopt_testany_dtype(2, p, &idx, &flag, MPI_STATUS_IGNORE, mpiopt_pend_p + 0);
// SRC-NEXT:  mpiopt_testsome_dtype(2, p, &out, got, MPI_STATUSES_IGNORE, mpiopt_pend_p + 0);

// A loop of N waits for any of N requests completes all N (each completes
// one, or finds none active): the requests may be started again after it.
void counted(int peer, int steps) {
  MPI_Request q[2];
  int idx;
  for (int i = 0; i < steps; i++) {
    MPI_Irecv(&a[3][0], 1, col, peer, 12, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(&a[3][1], 1, col, peer, 12, MPI_COMM_WORLD, &q[1]);
    for (int k = 0; k < 2; ++k) {
      MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);
      a[4][idx] += 1;
    }
  }
}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-8]]:5: datatype-templates: MPI_Irecv with col: {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-8]]:5: datatype-templates: MPI_Isend with col: {{.*}}
// REPORT-DAG:{{.*}}completions.c:[[#@LINE-7]]:7: datatype-templates: MPI_Waitany on q: {{.*}}
// SRC:      mpiopt_waitany_dtype(2, q, &idx, MPI_STATUS_IGNORE, mpiopt_pend_q + 0);

void negative(int peer, int steps) {
  MPI_Request r, u, c, q[2], m[2], b2[2];
  int flag = 0, idx;
  // Started again after a test that may have left it pending (the flag is
  // not followed: the loop is not entered with it just set to 0).
  for (int i = 0; i < steps; i++) {
    MPI_Irecv(&a[2][0], 1, col, peer, 8, MPI_COMM_WORLD, &r);
    while (!flag)
      MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  }
  // REPORT-DAG:{{.*}}completions.c:[[#@LINE-4]]:5: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on r that it must be sure of, but while the call's request may be pending, line [[#@LINE-4]] starts it again (MPI_Irecv))
  // Freed after a test.
  MPI_Irecv(&a[2][1], 1, col, peer, 9, MPI_COMM_WORLD, &u);
  MPI_Test(&u, &flag, MPI_STATUS_IGNORE);
  MPI_Request_free(&u);
  // REPORT-DAG:{{.*}}completions.c:[[#@LINE-3]]:3: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on u that it must be sure of, but while the call's request may be pending, line [[#@LINE-1]] completes it with MPI_Request_free, which has no template {{.*}})
  // A wait for any on a scalar request: the templates take arrays.
  MPI_Irecv(&a[2][2], 1, col, peer, 10, MPI_COMM_WORLD, &c);
  MPI_Waitany(1, &c, &idx, MPI_STATUS_IGNORE);
  // REPORT-DAG:{{.*}}completions.c:[[#@LINE-2]]:3: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on c that it must be sure of, but while the call's request may be pending, line [[#@LINE-1]] completes it with MPI_Waitany, which has no template {{.*}})
  // Waits for any that may not complete every request before the next
  // start: one fewer than the requests; a loop that may break out early.
  for (int i = 0; i < steps; i++) {
    MPI_Irecv(&a[2][4], 1, col, peer, 13, MPI_COMM_WORLD, &m[0]);
    MPI_Irecv(&a[2][5], 1, col, peer, 13, MPI_COMM_WORLD, &m[1]);
    for (int k = 0; k < 1; k++)
      MPI_Waitany(2, m, &idx, MPI_STATUS_IGNORE);
  }
  // REPORT-DAG:{{.*}}completions.c:[[#@LINE-5]]:5: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on m[0] that it must be sure of, but while the call's request may be pending, line [[#@LINE-5]] starts it again (MPI_Irecv))
  for (int i = 0; i < steps; i++) {
    MPI_Irecv(&a[2][6], 1, col, peer, 14, MPI_COMM_WORLD, &b2[0]);
    MPI_Irecv(&a[2][7], 1, col, peer, 14, MPI_COMM_WORLD, &b2[1]);
    for (int k = 0; k < 2; k++) {
      MPI_Waitany(2, b2, &idx, MPI_STATUS_IGNORE);
      if (idx == 0)
        break;
    }
  }
  // REPORT-DAG:{{.*}}completions.c:[[#@LINE-8]]:5: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on b2[0] that it must be sure of, but while the call's request may be pending, line [[#@LINE-8]] starts it again (MPI_Irecv))
  // A wait for any whose count is not constant.
  MPI_Irecv(&a[2][3], 1, col, peer, 11, MPI_COMM_WORLD, &q[0]);
  MPI_Waitany(steps, q, &idx, MPI_STATUS_IGNORE);
  // REPORT-DAG:{{.*}}completions.c:[[#@LINE-2]]:3: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on q[0] that it must be sure of, but while the call's request may be pending, line [[#@LINE-1]] uses it otherwise {{.*}})
}
// SRC:    MPI_Irecv(&a[2][0], 1, col, peer, 8, MPI_COMM_WORLD, &r);
// SRC:  MPI_Irecv(&a[2][1], 1, col, peer, 9, MPI_COMM_WORLD, &u);
// SRC:  MPI_Irecv(&a[2][2], 1, col, peer, 10, MPI_COMM_WORLD, &c);
// SRC:  MPI_Irecv(&a[2][3], 1, col, peer, 11, MPI_COMM_WORLD, &q[0]);

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  tested(rank ^ 1, 2);
  arrays(rank ^ 1);
  polled(rank ^ 1);
  counted(rank ^ 1, 1);
  negative(rank ^ 1, 1);
  MPI_Finalize();
  return 0;
}
