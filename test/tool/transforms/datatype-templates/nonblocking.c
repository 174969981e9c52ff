// datatype-templates on nonblocking calls: MPI_Isend, MPI_Issend and
// MPI_Irecv whose datatype has a static shape go through the _nd templates
// with the pending state of their request variable (declared after it),
// and every MPI_Wait on that variable through mpiopt_wait_dtype, where
// while the request may be pending it is only waited for or tested (the
// wait unpacks and returns the buffer; tests: completions.c). Negative
// cases say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-templates.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=datatype-templates --profile=%inputs/profile-templates.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

#define N 8
#define WAIT(r) (void)MPI_Wait(&r, MPI_STATUS_IGNORE) /* more than the call: not written out (MacroCalls.cpp) */
static double a[N][N];
static MPI_Datatype col;

void positive(int peer, int steps) {
  MPI_Request rr, sr;
  MPI_Status st;
  for (int i = 0; i < steps; i++) {
    MPI_Irecv(&a[0][0], 1, col, peer, 0, MPI_COMM_WORLD, &rr);
    MPI_Isend(&a[0][1], 1, col, peer, 0, MPI_COMM_WORLD, &sr);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Wait(&rr, &st);
  }
  if (steps > 2)
    MPI_Issend(&a[0][2], 1, col, peer, 1, MPI_COMM_WORLD, &sr);
  else
    MPI_Isend(a, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &sr);
  MPI_Wait(&sr, MPI_STATUS_IGNORE);
}
// REPORT-DAG:{{.*}}nonblocking.c:24:5: datatype-templates: MPI_Irecv with col: packed and unpacked by compiled loops, sent as the predefined type (every construction of col (first at line 83) builds MPI_Type_vector(8, 1, 8, MPI_DOUBLE) and nothing else writes it; the machine profile {{.*}}profile-templates.json measured 1.00 us for the template against 2.00 us for the generic call at 64 bytes in 8-byte blocks (the message: 64 bytes in 8-byte blocks); while rr may be pending, it is only waited for or tested (those calls go through the wait and test templates, which unpack and return the buffer when they complete it)); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// REPORT-DAG:{{.*}}nonblocking.c:25:5: datatype-templates: MPI_Isend with col: {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:26:5: datatype-templates: MPI_Wait on sr: completes the nonblocking templates' calls (a template may have started sr; a completion unpacks what it received and returns its buffer)
// REPORT-DAG:{{.*}}nonblocking.c:27:5: datatype-templates: MPI_Wait on rr: {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:30:5: datatype-templates: MPI_Issend with col: {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:33:3: datatype-templates: MPI_Wait on sr: {{.*}}
// SRC:  MPI_Request rr, sr; struct mpiopt_dpend mpiopt_pend_rr = {0}; struct mpiopt_dpend mpiopt_pend_sr = {0};
// SRC:    mpiopt_irecv_dtype_nd(&a[0][0], 1, col, peer, 0, MPI_COMM_WORLD, &rr, &mpiopt_pend_rr, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);
// SRC-NEXT:    mpiopt_isend_dtype_nd(&a[0][1], 1, col, peer, 0, MPI_COMM_WORLD, &sr, &mpiopt_pend_sr, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8, 0);
// SRC-NEXT:    mpiopt_wait_dtype(&sr, MPI_STATUS_IGNORE, &mpiopt_pend_sr);
// SRC-NEXT:    mpiopt_wait_dtype(&rr, &st, &mpiopt_pend_rr);
// SRC:    mpiopt_isend_dtype_nd(&a[0][2], 1, col, peer, 1, MPI_COMM_WORLD, &sr, &mpiopt_pend_sr, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8, 1);
// SRC-NEXT:  else
// SRC-NEXT:    MPI_Isend(a, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &sr);
// SRC-NEXT:  mpiopt_wait_dtype(&sr, MPI_STATUS_IGNORE, &mpiopt_pend_sr);

void negative(int peer, MPI_Request *out) {
  MPI_Request t, p, m, reqs[2], *alias = &p;
  // Freed while it may be pending: the template's buffer would outlive any
  // completion (tests, waits for any or some: completions.c).
  MPI_Irecv(a, 1, col, peer, 2, MPI_COMM_WORLD, &t);
  MPI_Request_free(&t);
  // The request leaves through a pointer.
  MPI_Isend(a, 1, col, peer, 2, MPI_COMM_WORLD, out);
  // An element of an array of requests, MPI_Waitall: followed (arrays() below).
  MPI_Isend(a, 1, col, peer, 2, MPI_COMM_WORLD, &reqs[0]);
  MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE);
  // Some path returns with the request pending, and a pointer to it could
  // complete it anywhere.
  MPI_Isend(a, 1, col, peer, 3, MPI_COMM_WORLD, &p);
  if (peer == 0)
    return;
  MPI_Wait(alias, MPI_STATUS_IGNORE);
  // The wait is written through a macro.
  MPI_Irecv(a, 1, col, peer, 4, MPI_COMM_WORLD, &m);
  WAIT(m);
}
// REPORT-DAG:{{.*}}nonblocking.c:55:3: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on t that it must be sure of, but while the call's request may be pending, line 56 completes it with MPI_Request_free, which has no template (MPI_Wait and MPI_Test; over an array of requests, MPI_Waitall, MPI_Testall, MPI_Waitany, MPI_Testany, MPI_Waitsome and MPI_Testsome))
// REPORT-DAG:{{.*}}nonblocking.c:58:3: datatype-templates: not done: MPI_Isend with col (its request is not a local MPI_Request variable given as &r, nor an element of a local array of requests named by a constant index, whose waits can be followed)
// REPORT-DAG:{{.*}}nonblocking.c:60:3: datatype-templates: MPI_Isend with col: {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:64:3: datatype-templates: not done: MPI_Isend with col (the template's buffer lives until a wait on p that it must be sure of, but on some path the function ends with the request still pending, and the request is also used otherwise)
// REPORT-DAG:{{.*}}nonblocking.c:69:3: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on m that it must be sure of, but the MPI_Wait at line 70 that completes it is written through a macro)

int main(int argc, char **argv) {
  int rank;
  MPI_Request extra;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  positive(rank ^ 1, 3);
  negative(rank ^ 1, &extra);
  MPI_Wait(&extra, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}

// Arrays of requests named by constant indices, completed by MPI_Waitall
// with a constant count (or MPI_Wait on the element): each element's
// pending state is an element of an array declared after the requests.
void arrays(int peer, int n) {
  MPI_Request reqs[4], more[2], one[2];
  MPI_Status sts[4];
  MPI_Irecv(&a[0][0], 1, col, peer, 5, MPI_COMM_WORLD, &reqs[0]);
  MPI_Irecv(&a[0][1], 1, col, peer, 6, MPI_COMM_WORLD, reqs + 1);
  MPI_Isend(&a[0][2], 1, col, peer, 5, MPI_COMM_WORLD, &reqs[2]);
  MPI_Isend(a[3], N, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD, &reqs[3]);
  MPI_Waitall(4, reqs, sts);
  MPI_Isend(&a[0][3], 1, col, peer, 8, MPI_COMM_WORLD, &one[1]);
  MPI_Wait(&one[1], MPI_STATUS_IGNORE);
  // A count that is not constant: which elements it completes is not known.
  MPI_Irecv(&a[0][4], 1, col, peer, 7, MPI_COMM_WORLD, &more[0]);
  MPI_Waitall(n, more, MPI_STATUSES_IGNORE);
}
// REPORT-DAG:{{.*}}nonblocking.c:98:3: datatype-templates: MPI_Irecv with col: {{.*}}; while reqs[0] may be pending, it is only waited for or tested {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:99:3: datatype-templates: MPI_Irecv with col: {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:100:3: datatype-templates: MPI_Isend with col: {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:102:3: datatype-templates: MPI_Waitall on reqs: completes the nonblocking templates' calls (a template may have started reqs; a completion unpacks what it received and returns its buffer)
// REPORT-DAG:{{.*}}nonblocking.c:103:3: datatype-templates: MPI_Isend with col: {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:104:3: datatype-templates: MPI_Wait on one: {{.*}}
// REPORT-DAG:{{.*}}nonblocking.c:106:3: datatype-templates: not done: MPI_Irecv with col (the template's buffer lives until a wait on more[0] that it must be sure of, but while the call's request may be pending, line 107 uses it otherwise (assigned, indexed by a value that is not constant, or passed to a function that is not a wait or test with a constant count))
// SRC:  MPI_Request reqs[4], more[2], one[2]; struct mpiopt_dpend mpiopt_pend_reqs[4] = {{[{][{]}}0{{[}][}]}}; struct mpiopt_dpend mpiopt_pend_one[2] = {{[{][{]}}0{{[}][}]}};
// SRC:  mpiopt_irecv_dtype_nd(&a[0][0], 1, col, peer, 5, MPI_COMM_WORLD, &reqs[0], &mpiopt_pend_reqs[0], 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_irecv_dtype_nd(&a[0][1], 1, col, peer, 6, MPI_COMM_WORLD, reqs + 1, &mpiopt_pend_reqs[1], 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_isend_dtype_nd(&a[0][2], 1, col, peer, 5, MPI_COMM_WORLD, &reqs[2], &mpiopt_pend_reqs[2], 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  MPI_Isend(a[3], N, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD, &reqs[3]);
// SRC-NEXT:  mpiopt_waitall_dtype(4, reqs, sts, mpiopt_pend_reqs + 0);
// SRC-NEXT:  mpiopt_isend_dtype_nd(&a[0][3], 1, col, peer, 8, MPI_COMM_WORLD, &one[1], &mpiopt_pend_one[1], 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_wait_dtype(&one[1], MPI_STATUS_IGNORE, &mpiopt_pend_one[1]);
// SRC:  MPI_Irecv(&a[0][4], 1, col, peer, 7, MPI_COMM_WORLD, &more[0]);
