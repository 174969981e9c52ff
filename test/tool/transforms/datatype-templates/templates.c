// datatype-templates (analysis/DerivedTypes.h, analysis/TemplatePlan.h):
// blocking sends, receives and sendrecvs whose datatype is a variable every
// construction of which builds one shape from static arguments go through
// the compiled pack loops of templates/mpiopt/dtype.h, where the machine
// profile measured the template faster at the message's size. Negative
// cases say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-templates.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=NOPROFILE %s
// RUN: %ompi-opt --transforms=datatype-templates --profile=%inputs/profile-templates.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

#define N 8
#define CALL(x) x
static double a[N][N], big[N * 1024][N];
static MPI_Datatype col, twice, escaped, nested, overlap, wide;

void init(MPI_Datatype *t);

void positive(int peer, int n) {
  MPI_Status st;
  MPI_Send(&a[0][1], 1, col, peer, 0, MPI_COMM_WORLD);
  MPI_Recv(&a[0][2], 1, col, peer, 0, MPI_COMM_WORLD, &st);
  MPI_Ssend(&a[0][3], 1, col, peer, 0, MPI_COMM_WORLD);
  MPI_Sendrecv(&a[0][4], 1, col, peer, 1, a[5], N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&a[0][6], n, col, peer, 2, &a[0][7], n, col, peer, 2, MPI_COMM_WORLD, &st);
}
// REPORT-DAG:{{.*}}templates.c:24:3: datatype-templates: MPI_Send with col: packed and unpacked by compiled loops, sent as the predefined type (every construction of col (first at line 73) builds MPI_Type_vector(8, 1, 8, MPI_DOUBLE) and nothing else writes it; the machine profile {{.*}}profile-templates.json measured 1.00 us for the template against 2.00 us for the generic call at 64 bytes in 8-byte blocks (the message: 64 bytes in 8-byte blocks)); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// REPORT-DAG:{{.*}}templates.c:25:3: datatype-templates: MPI_Recv with col: {{.*}}
// REPORT-DAG:{{.*}}templates.c:26:3: datatype-templates: MPI_Ssend with col: {{.*}}
// REPORT-DAG:{{.*}}templates.c:27:3: datatype-templates: MPI_Sendrecv with col: {{.*}}
// The count n is not known: the template must win at every measured size,
// and at 65536 bytes it does not.
// REPORT-DAG:{{.*}}templates.c:28:3: datatype-templates: not done: MPI_Sendrecv with col (the machine profile {{.*}}profile-templates.json measured the template at 80.00 us against 50.00 us for the generic call at 65536 bytes in 8-byte blocks (the message: a size known only at run time in 8-byte blocks; a template must be 5% faster))
// SRC:  mpiopt_send_dtype(&a[0][1], 1, col, peer, 0, MPI_COMM_WORLD, 8, 1, 64, 456, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_recv_dtype(&a[0][2], 1, col, peer, 0, MPI_COMM_WORLD, &st, 8, 1, 64, 456, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_send_dtype(&a[0][3], 1, col, peer, 0, MPI_COMM_WORLD, 8, 1, 64, 456, MPI_DOUBLE, 8, 1);
// SRC-NEXT:  mpiopt_sendrecv_dtype(&a[0][4], 1, col, peer, 1, a[5], N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, 8, 1, 64, 456, MPI_DOUBLE, 8, 0, 0, 0, 0, MPI_BYTE, 1);
// SRC-NEXT:  MPI_Sendrecv(&a[0][6], n, col, peer, 2, &a[0][7], n, col, peer, 2, MPI_COMM_WORLD, &st);
// NOPROFILE: templates.c:24:3: datatype-templates: not done: MPI_Send with col (col = MPI_Type_vector(8, 1, 8, MPI_DOUBLE) could be packed by a compiled loop, but no machine profile is loaded)

void negative(int peer, MPI_Datatype param) {
  // Built twice with two shapes: the shape it has is recorded at run time.
  MPI_Send(a, 1, twice, peer, 3, MPI_COMM_WORLD);
  // Its address goes to a function of another file, which may build anything.
  MPI_Send(a, 1, escaped, peer, 3, MPI_COMM_WORLD);
  // Two of col per block of a vector: three levels of blocks (shapes.c has two).
  MPI_Send(a, 1, nested, peer, 3, MPI_COMM_WORLD);
  // Blocks that overlap.
  MPI_Send(a, 1, overlap, peer, 3, MPI_COMM_WORLD);
  // A parameter: the callers decide what it is.
  MPI_Send(a, 1, param, peer, 3, MPI_COMM_WORLD);
  // Through a macro: the call is not rewritten.
  CALL(MPI_Send(a, 1, col, peer, 3, MPI_COMM_WORLD));
  // 8 x 8192 doubles: the profile measured the template slower at that size.
  MPI_Send(big, 1, wide, peer, 3, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}templates.c:46:3: datatype-templates: MPI_Send with twice: packed and unpacked by compiled loops, sent as the predefined type (the shape of twice is known only at run time (line 74 builds it as MPI_Type_vector(8, 1, 8, MPI_DOUBLE), line 75 as MPI_Type_vector(8, 2, 8, MPI_DOUBLE)), and every construction of it can be recorded (a contiguous, vector, hvector, subarray, indexed-block or resized type of a predefined type, or a contiguous, vector, hvector or resized type of another such variable), so a wrapper records the shape it builds in mpiopt_shape_twice; the machine profile {{.*}}profile-templates.json measured the template faster for runs of up to 8 bytes, messages up to 16384 bytes; runs of 9 to 64 bytes, messages up to 4096 bytes; runs of 65 to 512 bytes, messages up to 4096 bytes (other runs: at no size); the size and the run length are checked at run time); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// REPORT-DAG:{{.*}}templates.c:48:3: datatype-templates: not done: MPI_Send with escaped (the datatype escaped has no shape known here: line 76 passes its address to init)
// REPORT-DAG:{{.*}}templates.c:50:3: datatype-templates: not done: MPI_Send with nested (the datatype nested has no shape known here: line 77 builds it over a datatype of more than one level of blocks (col))
// REPORT-DAG:{{.*}}templates.c:52:3: datatype-templates: not done: MPI_Send with overlap (the datatype overlap has no shape known here: line 78 builds it with blocks that overlap (a stride shorter than the block))
// REPORT-DAG:{{.*}}templates.c:54:3: datatype-templates: not done: MPI_Send with param (the datatype param has no shape known here: it is a parameter: the callers decide what it is)
// REPORT-DAG:{{.*}}templates.c:56:3: datatype-templates: not done: MPI_Send with col (the call is written through a macro)
// REPORT-DAG:{{.*}}templates.c:58:3: datatype-templates: not done: MPI_Send with wide (the machine profile {{.*}}profile-templates.json measured the template at 80.00 us against 50.00 us for the generic call at 65536 bytes in 8-byte blocks (the message: 65536 bytes in 8-byte blocks; a template must be 5% faster))

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &twice);
  MPI_Type_vector(N, 2, N, MPI_DOUBLE, &twice);
  init(&escaped);
  MPI_Type_vector(2, 2, 4, col, &nested);
  MPI_Type_vector(N, 4, 2, MPI_DOUBLE, &overlap);
  MPI_Type_vector(N * 1024, 1, N, MPI_DOUBLE, &wide);
  MPI_Type_commit(&col);
  positive(rank ^ 1, 1);
  negative(rank ^ 1, col);
  MPI_Finalize();
  return 0;
}

// The variable built with two shapes gets a shadow of its shape after its
// declaration (static, as the variable is), its constructions go through
// the recording wrapper, and the call reads the shadow and the sizes the
// profile measured the template winning at, per class of run lengths
// (runs of up to 8 bytes: bits 0-14, up to 16 KiB; 9 to 64 bytes: bits
// 0-12, up to 4 KiB; 65 to 512 bytes: the same).
// RUN: FileCheck --match-full-lines --check-prefix=SHADOW %s < %t.c
// SHADOW: static MPI_Datatype col, twice, escaped, nested, overlap, wide; static struct mpiopt_dshape mpiopt_shape_twice = {0};
// SHADOW: mpiopt_send_dtype_rt(a, 1, twice, peer, 3, MPI_COMM_WORLD, &mpiopt_shape_twice, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SHADOW: mpiopt_type_vector_rt(N, 1, N, MPI_DOUBLE, &twice, &mpiopt_shape_twice);
// SHADOW-NEXT: mpiopt_type_vector_rt(N, 2, N, MPI_DOUBLE, &twice, &mpiopt_shape_twice);

// Runs longer than a column's: the points of the block sizes around the
// runs decide. 16 rows of 34 doubles (272-byte runs, as a 3-D halo's face):
// the 64- and 512-byte blocks must both win, and at 4352 bytes the 512-byte
// ones lose (an engine copying long blocks straight into its transfer beats
// the template's extra copies). Rows of 128 doubles: longer than any block
// measured. Rows of 4 doubles (32-byte runs): between 8 and 64 bytes, which
// both win.
void rows(int peer) {
  MPI_Datatype face, wider, narrow;
  MPI_Type_vector(16, 34, 64, MPI_DOUBLE, &face);
  MPI_Type_vector(2, 128, 256, MPI_DOUBLE, &wider);
  MPI_Type_vector(4, 4, 8, MPI_DOUBLE, &narrow);
  MPI_Type_commit(&face);
  MPI_Type_commit(&wider);
  MPI_Type_commit(&narrow);
  MPI_Send(a, 1, face, peer, 4, MPI_COMM_WORLD);
  MPI_Send(a, 1, wider, peer, 4, MPI_COMM_WORLD);
  MPI_Send(a, 1, narrow, peer, 4, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}templates.c:114:3: datatype-templates: not done: MPI_Send with face (the machine profile {{.*}}profile-templates.json measured the template at 30.00 us against 20.00 us for the generic call at 65536 bytes in 512-byte blocks (the message: 4352 bytes in 272-byte blocks; a template must be 5% faster))
// REPORT-DAG:{{.*}}templates.c:115:3: datatype-templates: not done: MPI_Send with wider (the blocks of wider are 1024 bytes long, and the machine profile {{.*}}profile-templates.json measured blocks of up to 512 bytes (a datatype engine copies long blocks without the template's extra copies))
// REPORT-DAG:{{.*}}templates.c:116:3: datatype-templates: MPI_Send with narrow: packed and unpacked by compiled loops, sent as the predefined type (every construction of narrow (first at line 110) builds MPI_Type_vector(4, 4, 8, MPI_DOUBLE) and nothing else writes it; the machine profile {{.*}}profile-templates.json measured 7.00 us for the template against 9.00 us for the generic call at 4096 bytes in 64-byte blocks (the message: 128 bytes in 32-byte blocks)); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// SRC:  MPI_Send(a, 1, face, peer, 4, MPI_COMM_WORLD);
// SRC-NEXT:  MPI_Send(a, 1, wider, peer, 4, MPI_COMM_WORLD);
// SRC-NEXT:  mpiopt_send_dtype(a, 1, narrow, peer, 4, MPI_COMM_WORLD, 4, 4, 64, 224, MPI_DOUBLE, 8, 0);
