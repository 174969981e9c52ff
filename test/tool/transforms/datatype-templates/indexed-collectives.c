// datatype-templates on run lists in collectives: MPI_Bcast, MPI_Gather,
// MPI_Scatter and MPI_Alltoall whose datatype (a side of them) is an
// MPI_Type_create_indexed_block or _hindexed_block whose displacements no
// stride describes go through the collectives' _ix templates, with the
// table of the blocks' byte displacements declared at the start of the
// calling function, where the collective's own run-list family of the
// profile (templates.bcast_indexed, ...) measured them faster. A side of
// predefined type, or of strided shape, passes as written. Negative cases
// say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-templates.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=datatype-templates --profile=%inputs/profile-templates.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
// RUN: %clang -fsyntax-only -std=gnu89 -Wdeclaration-after-statement -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
#include <mpi.h>

#define N 8
#define CALL(x) x
static double g[64][64], all[4 * 64][64], v[64];
static MPI_Datatype idx, down, col, sgl, big, over;

void positive(int root) {
  MPI_Bcast(g, 1, idx, root, MPI_COMM_WORLD);
  MPI_Gather(g, 1, idx, all, 1, idx, root, MPI_COMM_WORLD);
  MPI_Gather(v, 8, MPI_DOUBLE, all, 1, idx, root, MPI_COMM_WORLD);
  MPI_Scatter(all, 1, down, &g[1][0], 1, down, root, MPI_COMM_WORLD);
  MPI_Alltoall(g, 1, down, all, 1, col, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}indexed-collectives.c:24:3: datatype-templates: MPI_Bcast with idx: packed and unpacked by compiled loops, sent as the predefined type (every construction of idx (first at line {{[0-9]+}}) builds MPI_Type_create_indexed_block(4, 2, {0, 3, 10, 12}, MPI_DOUBLE) and nothing else writes it; the machine profile {{.*}}profile-templates.json (templates.bcast_indexed) measured 3.00 us for the template against 4.00 us for the generic call at 4096 bytes in 512-byte blocks (the message: 64 bytes in 16-byte blocks); the blocks' displacements of idx, which no stride describes, are a table (mpiopt_displs_idx) declared at the start of the function); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// REPORT-DAG:{{.*}}indexed-collectives.c:25:3: datatype-templates: MPI_Gather with idx: {{.*}}(templates.gather_indexed) measured 3.00 us{{.*}}; the blocks' displacements of idx, which no stride describes, are a table (mpiopt_displs_idx) declared at the start of the function); saves {{.*}}
// REPORT-DAG:{{.*}}indexed-collectives.c:26:3: datatype-templates: MPI_Gather with idx: {{.*}}
// REPORT-DAG:{{.*}}indexed-collectives.c:27:3: datatype-templates: MPI_Scatter with down: {{.*}}builds MPI_Type_create_hindexed_block(3, 1, {16, 8, 0}, MPI_DOUBLE){{.*}}(templates.scatter_indexed){{.*}}
// REPORT-DAG:{{.*}}indexed-collectives.c:28:3: datatype-templates: MPI_Alltoall with down and col: {{.*}}(templates.alltoall_indexed){{.*}}; the datatype col passes as written (the call's other side is a run list); {{.*}}
// SRC:void positive(int root) { static const MPI_Aint mpiopt_displs_idx[4] = {0, 24, 80, 96}; static const MPI_Aint mpiopt_displs_down[3] = {16, 8, 0};
// SRC-NEXT:  mpiopt_bcast_dtype_ix(g, 1, idx, root, MPI_COMM_WORLD, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_gather_dtype_ix(g, 1, idx, all, 1, idx, root, MPI_COMM_WORLD, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_gather_dtype_ix(v, 8, MPI_DOUBLE, all, 1, idx, root, MPI_COMM_WORLD, (const MPI_Aint *)0, 0, 0, 0, MPI_BYTE, 1, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_scatter_dtype_ix(all, 1, down, &g[1][0], 1, down, root, MPI_COMM_WORLD, mpiopt_displs_down, 3, 1, 24, MPI_DOUBLE, 8, mpiopt_displs_down, 3, 1, 24, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_alltoall_dtype_ix(g, 1, down, all, 1, col, MPI_COMM_WORLD, mpiopt_displs_down, 3, 1, 24, MPI_DOUBLE, 8, (const MPI_Aint *)0, 0, 0, 0, MPI_BYTE, 1);

void negative(int root) {
  // 2048 x 4 single doubles (64 KiB): the profile measured the broadcast's
  // run-list template slower there.
  MPI_Bcast(g, 2048, sgl, root, MPI_COMM_WORLD);
  // 512-byte blocks: the profile measured the all-to-all's run-list
  // template slower there. The same run list of 16-byte blocks beside a
  // column: the 512-byte point counts too, so the run list passes as
  // written and only the column goes through the (strided) template.
  MPI_Alltoall(g, 1, big, all, 1, big, MPI_COMM_WORLD);
  MPI_Alltoall(g, 1, idx, all, 1, col, MPI_COMM_WORLD);
  // Blocks that overlap: a receive would write some byte twice.
  MPI_Bcast(g, 1, over, root, MPI_COMM_WORLD);
  // Through a macro: the call is not rewritten.
  CALL(MPI_Gather(g, 1, idx, all, 1, idx, root, MPI_COMM_WORLD));
}
// REPORT-DAG:{{.*}}indexed-collectives.c:45:3: datatype-templates: not done: MPI_Bcast with sgl (the machine profile {{.*}}profile-templates.json (templates.bcast_indexed) measured the template at 70.00 us against 50.00 us for the generic call at 65536 bytes in 8-byte blocks (the message: 65536 bytes in 8-byte blocks; a template must be 5% faster))
// REPORT-DAG:{{.*}}indexed-collectives.c:50:3: datatype-templates: not done: MPI_Alltoall with big (the machine profile {{.*}}profile-templates.json (templates.alltoall_indexed) measured the template at 8.00 us against 5.00 us for the generic call at 4096 bytes in 512-byte blocks (the message: 1536 bytes in 512-byte blocks; a template must be 5% faster))
// REPORT-DAG:{{.*}}indexed-collectives.c:51:3: datatype-templates: MPI_Alltoall with idx and col: packed and unpacked by compiled loops, sent as the predefined type (the machine profile {{.*}}profile-templates.json (templates.alltoall_indexed) measured the template at 8.00 us against 5.00 us for the generic call at 4096 bytes in 512-byte blocks (the message: 64 bytes in 16-byte blocks; a template must be 5% faster); every construction of col {{.*}}(templates.alltoall) measured 8.00 us for the template against 16.00 us {{.*}}
// REPORT-DAG:{{.*}}indexed-collectives.c:53:3: datatype-templates: not done: MPI_Bcast with over (the datatype over has no shape known here: line {{[0-9]+}} builds it with blocks that overlap ({0, 1, 5}))
// REPORT-DAG:{{.*}}indexed-collectives.c:55:3: datatype-templates: not done: MPI_Gather with idx (the call is written through a macro)
// SRC:void negative(int root) {
// SRC:  MPI_Bcast(g, 2048, sgl, root, MPI_COMM_WORLD);
// SRC:  MPI_Alltoall(g, 1, big, all, 1, big, MPI_COMM_WORLD);
// SRC-NEXT:  mpiopt_alltoall_dtype_nd(g, 1, idx, all, 1, col, MPI_COMM_WORLD, 0, 1, 0, 0, 0, 0, 0, MPI_BYTE, 1, 0, 1, 0, 8, 1, 512, 3592, MPI_DOUBLE, 8);
// SRC:  MPI_Bcast(g, 1, over, root, MPI_COMM_WORLD);
// SRC:  CALL(MPI_Gather(g, 1, idx, all, 1, idx, root, MPI_COMM_WORLD));

// No measurement of the collective's run-list family: the profile measured
// the gather's run lists with 8- and 512-byte blocks only up to 4 KiB.
void unmeasured(int root) {
  MPI_Gather(g, 2048, sgl, all, 2048, sgl, root, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}indexed-collectives.c:[[#@LINE-2]]:3: datatype-templates: not done: MPI_Gather with sgl (the machine profile {{.*}}profile-templates.json has no measurement of templates.gather_indexed for 65536 bytes in 8-byte blocks)
// SRC:  MPI_Gather(g, 2048, sgl, all, 2048, sgl, root, MPI_COMM_WORLD);

int main(int argc, char **argv) {
  int d[4] = {0, 3, 10, 12}, od[3] = {0, 1, 5}, bd[3] = {0, 192, 96}, sd[4] = {0, 2, 7, 9};
  MPI_Aint hd[3] = {16, 8, 0};
  MPI_Init(&argc, &argv);
  MPI_Type_create_indexed_block(4, 2, d, MPI_DOUBLE, &idx);
  MPI_Type_create_hindexed_block(3, 1, hd, MPI_DOUBLE, &down);
  MPI_Type_create_indexed_block(3, 2, od, MPI_DOUBLE, &over);
  MPI_Type_vector(N, 1, 64, MPI_DOUBLE, &col);
  MPI_Type_create_indexed_block(4, 1, sd, MPI_DOUBLE, &sgl);
  MPI_Type_create_indexed_block(3, 64, bd, MPI_DOUBLE, &big);
  MPI_Type_commit(&idx);
  MPI_Type_commit(&down);
  MPI_Type_commit(&over);
  MPI_Type_commit(&col);
  MPI_Type_commit(&sgl);
  MPI_Type_commit(&big);
  positive(0);
  negative(0);
  unmeasured(0);
  MPI_Finalize();
  return 0;
}
