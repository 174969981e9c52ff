// peer-templates (analysis/PeerPlan.h), null peers: a blocking send or
// receive whose peer is MPI_PROC_NULL (as written, or through a variable
// or a parameter proved to hold it) becomes the no-op MPI defines
// (templates/mpiopt/peer.h), and an exchange with one side MPI_PROC_NULL
// runs the other side alone, where the machine profile measured the
// template faster. Negative cases say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-peers.json %s -- %mpich_cflags | FileCheck --check-prefix=REPORT %s
// RUN: %ompi-opt --report --profile=%inputs/profile-peers-slower.json %s -- %mpich_cflags | FileCheck --check-prefix=SLOWER %s
// RUN: %ompi-opt --report --profile=%inputs/profile-peers.json %s -- %mpich_cflags | FileCheck --check-prefix=PROBE %s
// RUN: %ompi-opt --transforms=peer-templates --profile=%inputs/profile-peers.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
// RUN: %clang -fsyntax-only -x c++ -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
#include <mpi.h>
#include <stddef.h>

#define N 64
#define CHECK_MPI(call) ((call) == MPI_SUCCESS ? (void)0 : (void)MPI_Abort(MPI_COMM_WORLD, 1))
#define SEND_EDGE(b) (void)MPI_Send(b, N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD) /* more than the call: not written out (MacroCalls.cpp) */
static double a[N], b[N];

// SRC: #include <mpiopt/peer.h>

// Called with MPI_PROC_NULL only: the parameter holds it.
static void edge(int peer, MPI_Comm comm) {
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Send to MPI_PROC_NULL as the no-op MPI defines (mpiopt_send_null) (its destination peer (MPI_PROC_NULL: same value at 1 call site of edge): a send to MPI_PROC_NULL returns at once; the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null) measured 0.009 us for the template against 0.019 us for the generic call at 16777216 bytes (the message: 512 bytes)); saves MPI's argument checks and request work on each call
  MPI_Send(a, N, MPI_DOUBLE, peer, 1, comm);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Send with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json (templates.null) measured 0.010 us for the template against 0.010 us for the generic call at 16777216 bytes (the message: 512 bytes); a template must be 5% faster)
// SRC:   mpiopt_send_null(a, N, MPI_DOUBLE, peer, 1, comm);
}

int main(int argc, char **argv) {
  int rank, size, left = MPI_PROC_NULL, flag;
  MPI_Status st;
  MPI_Request req;
  MPI_Datatype pair;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Send to MPI_PROC_NULL as the no-op MPI defines (mpiopt_send_null) (its destination MPI_PROC_NULL: a send to MPI_PROC_NULL returns at once; the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null) measured 0.009 us for the template against 0.019 us for the generic call at 16777216 bytes (the message: 512 bytes)); saves MPI's argument checks and request work on each call
  MPI_Send(a, N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Send with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json (templates.null) measured 0.010 us for the template against 0.010 us for the generic call at 16777216 bytes (the message: 512 bytes); a template must be 5% faster)
// SRC:   mpiopt_send_null(a, N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Ssend to MPI_PROC_NULL as the no-op MPI defines (mpiopt_ssend_null) (its destination left (MPI_PROC_NULL): a send to MPI_PROC_NULL returns at once; the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null) measured 0.009 us for the template against 0.019 us for the generic call at 16777216 bytes (the message: 512 bytes)); saves MPI's argument checks and request work on each call
  MPI_Ssend(a, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Ssend with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json (templates.null) measured 0.010 us for the template against 0.010 us for the generic call at 16777216 bytes (the message: 512 bytes); a template must be 5% faster)
// SRC:   mpiopt_ssend_null(a, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Rsend to MPI_PROC_NULL as the no-op MPI defines (mpiopt_rsend_null) (its destination left (MPI_PROC_NULL): a send to MPI_PROC_NULL returns at once; the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null) measured 0.009 us for the template against 0.019 us for the generic call at 16777216 bytes (the message: 512 bytes)); saves MPI's argument checks and request work on each call
  MPI_Rsend(a, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Rsend with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json (templates.null) measured 0.010 us for the template against 0.010 us for the generic call at 16777216 bytes (the message: 512 bytes); a template must be 5% faster)
// SRC:   mpiopt_rsend_null(a, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Recv from MPI_PROC_NULL as the no-op MPI defines (mpiopt_recv_null) (its source left (MPI_PROC_NULL): a receive from MPI_PROC_NULL returns at once with the status MPI gives it (source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0; copied from the MPI's own); the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null) measured 0.009 us for the template against 0.019 us for the generic call at 16777216 bytes (the message: 512 bytes)); saves MPI's argument checks and request work on each call
  MPI_Recv(b, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Recv with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json (templates.null) measured 0.010 us for the template against 0.010 us for the generic call at 16777216 bytes (the message: 512 bytes); a template must be 5% faster)
// SRC:   mpiopt_recv_null(b, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &st);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with MPI_PROC_NULL on both sides as the no-op MPI defines (mpiopt_sendrecv_null) (its destination left (MPI_PROC_NULL) and its source MPI_PROC_NULL: both sides return at once, the status the MPI's own for MPI_PROC_NULL; the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null) measured 0.009 us for the template against 0.019 us for the generic call at 16777216 bytes (the message: 512 bytes)); saves MPI's argument checks and request work on each call
  MPI_Sendrecv(a, N, MPI_DOUBLE, left, 0, b, N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Sendrecv with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json (templates.null) measured 0.010 us for the template against 0.010 us for the generic call at 16777216 bytes (the message: 512 bytes); a template must be 5% faster)
// SRC:   mpiopt_sendrecv_null(a, N, MPI_DOUBLE, left, 0, b, N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv with MPI_PROC_NULL as its source: the send alone (mpiopt_sendrecv_null) (its source left (MPI_PROC_NULL): the exchange is its send, run as MPI_Send (a standard-mode send, as the exchange's), the status the MPI's own for a receive from MPI_PROC_NULL; the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null_sendrecv) measured 2.000 us for the template against 2.400 us for the generic call at 4096 bytes (the message: 512 bytes)); saves the request of the side MPI_PROC_NULL and the completion of two
  MPI_Sendrecv(a, N, MPI_DOUBLE, (rank + 1) % size, 0, b, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Sendrecv with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json has no measurement of templates.null_sendrecv for 512 bytes)
// SRC:   mpiopt_sendrecv_null(a, N, MPI_DOUBLE, (rank + 1) % size, 0, b, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &st);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Sendrecv_replace with MPI_PROC_NULL as its destination: the receive alone (mpiopt_sendrecv_replace_null) (its destination MPI_PROC_NULL: the exchange is its receive, run as MPI_Recv (the status's MPI_ERROR field as the MPI's exchange leaves it); the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null_sendrecv) measured 2.000 us for the template against 2.400 us for the generic call at 4096 bytes (the message: 512 bytes)); saves the request of the side MPI_PROC_NULL and the completion of two
  MPI_Sendrecv_replace(b, N, MPI_DOUBLE, MPI_PROC_NULL, 0, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &st);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Sendrecv_replace with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json has no measurement of templates.null_sendrecv for 512 bytes)
// SRC:   mpiopt_sendrecv_replace_null(b, N, MPI_DOUBLE, MPI_PROC_NULL, 0, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &st);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: MPI_Send to MPI_PROC_NULL as the no-op MPI defines (mpiopt_send_null) (its destination left (MPI_PROC_NULL): a send to MPI_PROC_NULL returns at once; the datatype of what is dropped is predefined, and the template runs the generic call where a count, tag, buffer or communicator is one MPI would report; the machine profile {{.*}}profile-peers.json (templates.null) measured 0.009 us for the template against 0.019 us for the generic call at 16777216 bytes (the message: 512 bytes)); saves MPI's argument checks and request work on each call
  CHECK_MPI(MPI_Send(a, N, MPI_DOUBLE, left, 2, MPI_COMM_WORLD));
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Send with MPI_PROC_NULL stays generic (the machine profile {{.*}}profile-peers-slower.json (templates.null) measured 0.010 us for the template against 0.010 us for the generic call at 16777216 bytes (the message: 512 bytes); a template must be 5% faster)
// SRC:   CHECK_MPI(mpiopt_send_null(a, N, MPI_DOUBLE, left, 2, MPI_COMM_WORLD));
  edge(MPI_PROC_NULL, MPI_COMM_WORLD);

  // Nonblocking: the request must be one MPI made.
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: not done: MPI_Isend with MPI_PROC_NULL stays generic (its request must be one MPI made (a wait or test on it, MPI_Request_get_status, a comparison with MPI_REQUEST_NULL))
  MPI_Isend(a, N, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Isend with MPI_PROC_NULL stays generic (its request must be one MPI made (a wait or test on it, MPI_Request_get_status, a comparison with MPI_REQUEST_NULL))
  MPI_Wait(&req, &st);
  // A derived datatype may be uncommitted or freed: MPI reports that.
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: not done: MPI_Send with MPI_PROC_NULL stays generic (its datatype pair is not a predefined one (a derived datatype may be uncommitted or freed, errors MPI reports))
  MPI_Send(a, N / 2, pair, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Send with MPI_PROC_NULL stays generic (its datatype pair is not a predefined one (a derived datatype may be uncommitted or freed, errors MPI reports))
// SRC:   MPI_Send(a, N / 2, pair, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Type_free(&pair);
  // In a macro's body: no text of its own to rename.
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: not done: MPI_Send with MPI_PROC_NULL stays generic (the call is written in a macro's body (only a call written as a macro's argument, as in CHECK(MPI_Alltoallv(...)), is rewritten))
  SEND_EDGE(a);
  // SLOWER-DAG: null.c:[[#@LINE-1]]:3: peer-templates: not done: MPI_Send with MPI_PROC_NULL stays generic (the call is written in a macro's body (only a call written as a macro's argument, as in CHECK(MPI_Alltoallv(...)), is rewritten))
// SRC:   SEND_EDGE(a);
  // A null datatype: MPICH accepts it with MPI_PROC_NULL and count 0, other
  // MPIs need not (found in MPICH's test/mpi/pt2pt/recvnull.c).
  // REPORT-DAG: null.c:[[#@LINE+1]]:3: peer-templates: not done: MPI_Recv with MPI_PROC_NULL stays generic (its datatype is MPI_DATATYPE_NULL (whether MPI accepts a null datatype with MPI_PROC_NULL differs between MPIs))
  MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &st);
  // A probe is no point-to-point call to replace, and has no request.
  // PROBE-NOT: MPI_Iprobe with
  MPI_Iprobe(MPI_PROC_NULL, 10, MPI_COMM_WORLD, &flag, &st);
  // MPI_PROC_NULL on rank 0 only: no static peer, no candidate.
  MPI_Send(a, N, MPI_DOUBLE, rank > 0 ? rank - 1 : MPI_PROC_NULL, 3, MPI_COMM_WORLD);
// SRC:   MPI_Send(a, N, MPI_DOUBLE, rank > 0 ? rank - 1 : MPI_PROC_NULL, 3, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
