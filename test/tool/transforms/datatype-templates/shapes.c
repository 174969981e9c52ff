// datatype-templates on shapes of two levels from an offset: subarrays of
// up to 3 dimensions in C and Fortran order, resized vectors, and types
// built from those. The calls go through the _nd templates (an offset and
// an outer level of blocks); a shape of one level keeps the short form.
// Negative cases say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-templates.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=datatype-templates --profile=%inputs/profile-templates.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

static double g[8][8], cube[6][5][4];
static MPI_Datatype sub2, sub3, colv, rcol, twocols, dynsub, fourd, holes, rdyn;

void positive(int peer) {
  MPI_Send(g, 1, sub2, peer, 0, MPI_COMM_WORLD);
  MPI_Recv(cube, 1, sub3, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(g, 2, rcol, peer, 0, MPI_COMM_WORLD);
  MPI_Sendrecv(g, 1, twocols, peer, 1, cube, 1, sub3, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
// REPORT-DAG:{{.*}}shapes.c:17:3: datatype-templates: MPI_Send with sub2: packed and unpacked by compiled loops, sent as the predefined type (every construction of sub2 (first at line {{[0-9]+}}) builds MPI_Type_create_subarray(2, {8, 8}, {4, 2}, {1, 3}, MPI_ORDER_C, MPI_DOUBLE) and nothing else writes it; {{.*}}
// REPORT-DAG:{{.*}}shapes.c:18:3: datatype-templates: MPI_Recv with sub3: packed and unpacked by compiled loops, sent as the predefined type (every construction of sub3 (first at line {{[0-9]+}}) builds MPI_Type_create_subarray(3, {4, 5, 6}, {2, 3, 2}, {1, 1, 2}, MPI_ORDER_FORTRAN, MPI_DOUBLE) and nothing else writes it; {{.*}}
// REPORT-DAG:{{.*}}shapes.c:19:3: datatype-templates: MPI_Send with rcol: packed and unpacked by compiled loops, sent as the predefined type (every construction of rcol (first at line {{[0-9]+}}) builds MPI_Type_create_resized(colv, 0, 8) and nothing else writes it; {{.*}}
// REPORT-DAG:{{.*}}shapes.c:20:3: datatype-templates: MPI_Sendrecv with twocols and sub3: {{.*}}
// A 2-D C-order subarray: blocks of 2 doubles, 4 rows 64 bytes apart, from
// byte (1 x 8 + 3) x 8 = 88; its extent is the whole array.
// SRC:  mpiopt_send_dtype_nd(g, 1, sub2, peer, 0, MPI_COMM_WORLD, 88, 1, 0, 4, 2, 64, 512, MPI_DOUBLE, 8, 0);
// A 3-D Fortran-order subarray: 2 planes 160 bytes apart, 3 rows 32 bytes
// apart, blocks of 2 from byte (1 + 1 x 4 + 2 x 20) x 8 = 360.
// SRC-NEXT:  mpiopt_recv_dtype_nd(cube, 1, sub3, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, 360, 2, 160, 3, 2, 32, 960, MPI_DOUBLE, 8);
// A column resized to one double: one level, the short form, extent 8.
// SRC-NEXT:  mpiopt_send_dtype(g, 2, rcol, peer, 0, MPI_COMM_WORLD, 8, 1, 64, 8, MPI_DOUBLE, 8, 0);
// Two of those, contiguous: two interleaved columns, packed one after the other.
// SRC-NEXT:  mpiopt_sendrecv_dtype_nd(g, 1, twocols, peer, 1, cube, 1, sub3, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, 0, 2, 8, 8, 1, 64, 16, MPI_DOUBLE, 8, 360, 2, 160, 3, 2, 32, 960, MPI_DOUBLE, 8);

void negative(int peer) {
  // Sizes that differ between the paths to the construction: no compiled
  // shape, but the wrapper records the one it builds (runtime.c).
  MPI_Send(g, 1, dynsub, peer, 2, MPI_COMM_WORLD);
  // Four dimensions: more levels than the templates have.
  MPI_Send(g, 1, fourd, peer, 2, MPI_COMM_WORLD);
  // A subarray of a type with holes: three levels.
  MPI_Send(g, 1, holes, peer, 2, MPI_COMM_WORLD);
  // An extent known only at run time: recorded by the wrapper too.
  MPI_Send(g, 1, rdyn, peer, 2, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-8]]:3: datatype-templates: MPI_Send with dynsub: packed and unpacked by compiled loops, sent as the predefined type (the shape of dynsub is known only at run time (line {{[0-9]+}} builds it from sizes, subsizes or starts that differ between the paths to it), {{.*}}
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-7]]:3: datatype-templates: not done: MPI_Send with fourd (the datatype fourd has no shape known here: line {{[0-9]+}} builds it with other than 1 to 3 static dimensions in MPI_ORDER_C or MPI_ORDER_FORTRAN as written)
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-6]]:3: datatype-templates: not done: MPI_Send with holes (the datatype holes has no shape known here: line {{[0-9]+}} builds it over a datatype with holes (colv))
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-5]]:3: datatype-templates: MPI_Send with rdyn: packed and unpacked by compiled loops, sent as the predefined type (the shape of rdyn is known only at run time (line {{[0-9]+}} builds it with a lower bound or extent that is not a static value (extent above 0)), {{.*}}
// SRC:  mpiopt_send_dtype_rt(g, 1, dynsub, peer, 2, MPI_COMM_WORLD, &mpiopt_shape_dynsub, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SRC:  MPI_Send(g, 1, fourd, peer, 2, MPI_COMM_WORLD);
// SRC:  MPI_Send(g, 1, holes, peer, 2, MPI_COMM_WORLD);
// SRC:  mpiopt_send_dtype_rt(g, 1, rdyn, peer, 2, MPI_COMM_WORLD, &mpiopt_shape_rdyn, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int sizes[2] = {8, 8}, subs[2] = {4, 2}, starts[2] = {1, 3};
  MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub2);
  int sizes3[3] = {4, 5, 6}, subs3[3] = {2, 3, 2}, starts3[3] = {1, 1, 2};
  MPI_Type_create_subarray(3, sizes3, subs3, starts3, MPI_ORDER_FORTRAN, MPI_DOUBLE, &sub3);
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &colv);
  MPI_Type_create_resized(colv, 0, sizeof(double), &rcol);
  MPI_Type_contiguous(2, rcol, &twocols);
  int dsizes[2] = {8, 8};
  if (argc > 1)
    dsizes[0] = 6;
  MPI_Type_create_subarray(2, dsizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &dynsub);
  int s4[4] = {2, 2, 2, 2};
  MPI_Type_create_subarray(4, s4, s4, (int[]){0, 0, 0, 0}, MPI_ORDER_C, MPI_DOUBLE, &fourd);
  MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, colv, &holes);
  MPI_Type_create_resized(MPI_DOUBLE, 0, (MPI_Aint)argc * 8, &rdyn);
  MPI_Type_commit(&sub2);
  MPI_Type_commit(&sub3);
  MPI_Type_commit(&rcol);
  MPI_Type_commit(&twocols);
  positive(rank ^ 1);
  negative(rank ^ 1);
  MPI_Finalize();
  return 0;
}

// Indexed blocks whose displacements are evenly spaced: a vector from the
// first displacement (the type's lower bound), in elements of the old type
// or in bytes. Unevenly spaced ones are run lists (indexed.c).
void indexed(int peer) {
  MPI_Datatype ib, hib, uneven;
  int d[3] = {2, 10, 18}, u[3] = {0, 3, 9};
  MPI_Aint hd[2] = {16, 80};
  MPI_Type_create_indexed_block(3, 2, d, MPI_DOUBLE, &ib);
  MPI_Type_create_hindexed_block(2, 1, hd, MPI_DOUBLE, &hib);
  MPI_Type_create_indexed_block(3, 1, u, MPI_DOUBLE, &uneven);
  MPI_Type_commit(&ib);
  MPI_Type_commit(&hib);
  MPI_Type_commit(&uneven);
  MPI_Send(g, 1, ib, peer, 5, MPI_COMM_WORLD);
  MPI_Send(g, 1, hib, peer, 5, MPI_COMM_WORLD);
  MPI_Send(g, 1, uneven, peer, 5, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-4]]:3: datatype-templates: MPI_Send with ib: packed and unpacked by compiled loops, sent as the predefined type (every construction of ib (first at line [[#@LINE-10]]) builds MPI_Type_create_indexed_block(3, 2, {2, 10, 18}, MPI_DOUBLE) and nothing else writes it; {{.*}}
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-4]]:3: datatype-templates: MPI_Send with hib: {{.*}}MPI_Type_create_hindexed_block(2, 1, {16, 80}, MPI_DOUBLE){{.*}}
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-4]]:3: datatype-templates: MPI_Send with uneven: {{.*}}MPI_Type_create_indexed_block(3, 1, {0, 3, 9}, MPI_DOUBLE){{.*}}a table (mpiopt_displs_uneven) declared at the start of the function); {{.*}}
// SRC:void indexed(int peer) { static const MPI_Aint mpiopt_displs_uneven[3] = {0, 24, 72};
// SRC:  mpiopt_send_dtype_nd(g, 1, ib, peer, 5, MPI_COMM_WORLD, 16, 1, 0, 3, 2, 64, 144, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_send_dtype_nd(g, 1, hib, peer, 5, MPI_COMM_WORLD, 16, 1, 0, 2, 1, 64, 72, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_send_dtype_ix(g, 1, uneven, peer, 5, MPI_COMM_WORLD, mpiopt_displs_uneven, 3, 1, 80, MPI_DOUBLE, 8, 0);

// A start read in a condition before the arrays are set is still the
// value it was given (reading a variable does not change it); one whose
// address is taken may change through the pointer, so it is not static
// (the shape is recorded at run time instead).
void read_before(int peer) {
  const int m = 4;
  int k = 1, *pk = &k;
  if (m > 8 || k > 8)
    return;
  *pk = 2;
  int sz[2] = {8, 8}, sub[2] = {8, 1}, at[2] = {0, m}, atk[2] = {0, k};
  MPI_Datatype cm, ck;
  MPI_Type_create_subarray(2, sz, sub, at, MPI_ORDER_C, MPI_DOUBLE, &cm);
  MPI_Type_create_subarray(2, sz, sub, atk, MPI_ORDER_C, MPI_DOUBLE, &ck);
  MPI_Type_commit(&cm);
  MPI_Type_commit(&ck);
  MPI_Send(g, 1, cm, peer, 6, MPI_COMM_WORLD);
  MPI_Send(g, 1, ck, peer, 6, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}shapes.c:[[#@LINE-2]]:3: datatype-templates: MPI_Send with cm: packed and unpacked by compiled loops, sent as the predefined type (every construction of cm (first at line [[#@LINE-6]]) builds MPI_Type_create_subarray(2, {8, 8}, {8, 1}, {0, 4}, MPI_ORDER_C, MPI_DOUBLE) and nothing else writes it; {{.*}}
  // REPORT-DAG:{{.*}}shapes.c:[[#@LINE-2]]:3: datatype-templates: MPI_Send with ck: packed and unpacked by compiled loops, sent as the predefined type (the shape of ck is known only at run time (line [[#@LINE-6]] builds it from sizes, subsizes or starts whose values are not static here), {{.*}}
}
// SRC:  mpiopt_send_dtype_nd(g, 1, cm, peer, 6, MPI_COMM_WORLD, 32, 1, 0, 8, 1, 64, 512, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_send_dtype_rt(g, 1, ck, peer, 6, MPI_COMM_WORLD, &mpiopt_shape_ck, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);

// Blocks whose span is not a multiple of their elements' size: MPI places
// element i at i x extent, and an MPI may round such an extent up to the
// elements' alignment (Open MPI gives two doubles 12 bytes apart an extent
// of 24, MPICH 20), so the tool cannot know where the next element starts.
// A resized type's extent is explicit: no rounding. Recorded at run time
// (the displacements through a pointer), the wrapper compares the extent
// MPI gives the type with the one it recorded.
void unaligned(int peer, int n) {
  MPI_Datatype hv, hib, r12, hrt;
  MPI_Aint hd[2] = {4, 16};
  MPI_Type_create_hvector(2, 1, 12, MPI_DOUBLE, &hv);
  MPI_Type_create_hindexed_block(2, 1, hd, MPI_DOUBLE, &hib);
  MPI_Type_create_resized(MPI_DOUBLE, 0, 12, &r12);
  MPI_Type_create_hvector(2, 1, (MPI_Aint)n, MPI_DOUBLE, &hrt);
  MPI_Type_commit(&hv);
  MPI_Type_commit(&hib);
  MPI_Type_commit(&r12);
  MPI_Type_commit(&hrt);
  MPI_Send(g, 2, hv, peer, 6, MPI_COMM_WORLD);
  MPI_Send(g, 2, hib, peer, 6, MPI_COMM_WORLD);
  MPI_Send(g, 2, r12, peer, 6, MPI_COMM_WORLD);
  MPI_Send(g, 2, hrt, peer, 6, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-5]]:3: datatype-templates: not done: MPI_Send with hv (the datatype hv has no shape known here: line [[#@LINE-13]] builds it with blocks that span 20 bytes, not a multiple of its elements' 8 bytes: an MPI may round its extent up to their alignment (Open MPI does), so where its next element starts is the MPI's)
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-5]]:3: datatype-templates: not done: MPI_Send with hib (the datatype hib has no shape known here: line [[#@LINE-13]] builds it with blocks that span 20 bytes, not a multiple of its elements' 8 bytes: {{.*}})
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-5]]:3: datatype-templates: MPI_Send with r12: {{.*}}builds MPI_Type_create_resized(MPI_DOUBLE, 0, 12){{.*}}
// REPORT-DAG:{{.*}}shapes.c:[[#@LINE-5]]:3: datatype-templates: MPI_Send with hrt: {{.*}}so a wrapper records the shape it builds in mpiopt_shape_hrt{{.*}}
// SRC:  MPI_Send(g, 2, hv, peer, 6, MPI_COMM_WORLD);
// SRC-NEXT:  MPI_Send(g, 2, hib, peer, 6, MPI_COMM_WORLD);
// SRC-NEXT:  mpiopt_send_dtype(g, 2, r12, peer, 6, MPI_COMM_WORLD, 1, 1, 8, 12, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_send_dtype_rt(g, 2, hrt, peer, 6, MPI_COMM_WORLD, &mpiopt_shape_hrt, {{.*}});
