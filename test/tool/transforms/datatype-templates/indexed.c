// datatype-templates on run lists: MPI_Type_create_indexed_block and
// MPI_Type_create_hindexed_block whose displacements no stride describes
// (unevenly spaced, or in decreasing order). MPI_Send, MPI_Ssend, MPI_Recv
// and the nonblocking calls go through the _ix templates with a table of
// the blocks' byte displacements (typemap order) declared at the start of
// the calling function, once per function, where the profile's
// templates.indexed measurements show them faster; MPI_Sendrecv too, a
// strided side beside a run list passing as written. Negative cases say why
// the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-templates.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=datatype-templates --profile=%inputs/profile-templates.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
// RUN: %clang -fsyntax-only -std=gnu89 -Wdeclaration-after-statement -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
#include <mpi.h>

static double g[64][64];
static MPI_Datatype idx;

/* Built once, used in two functions: each declares its own table. */
void build(void) {
  int d[4] = {0, 3, 10, 12};
  MPI_Type_create_indexed_block(4, 2, d, MPI_DOUBLE, &idx);
  MPI_Type_commit(&idx);
}

void exchange(int peer) {
  MPI_Send(g, 1, idx, peer, 0, MPI_COMM_WORLD);
  MPI_Recv(g, 2, idx, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
// REPORT-DAG:{{.*}}indexed.c:[[#@LINE-3]]:3: datatype-templates: MPI_Send with idx: packed and unpacked by compiled loops, sent as the predefined type (every construction of idx (first at line 24) builds MPI_Type_create_indexed_block(4, 2, {0, 3, 10, 12}, MPI_DOUBLE) and nothing else writes it; the machine profile {{.*}}profile-templates.json (templates.indexed) measured 1.00 us for the template against 2.00 us for the generic call at 64 bytes in 8-byte blocks (the message: 64 bytes in 16-byte blocks); the blocks' displacements of idx, which no stride describes, are a table (mpiopt_displs_idx) declared at the start of the function); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// REPORT-DAG:{{.*}}indexed.c:[[#@LINE-3]]:3: datatype-templates: MPI_Recv with idx: {{.*}}(the message: 128 bytes in 16-byte blocks); the blocks' displacements of idx, which no stride describes, are a table (mpiopt_displs_idx) declared at the start of the function); {{.*}}
// The table: bytes from the buffer (8 x {0, 3, 10, 12}); the extent runs
// from the first block's start to the last block's end, 14 doubles.
// SRC:void exchange(int peer) { static const MPI_Aint mpiopt_displs_idx[4] = {0, 24, 80, 96};
// SRC-NEXT:  mpiopt_send_dtype_ix(g, 1, idx, peer, 0, MPI_COMM_WORLD, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_recv_dtype_ix(g, 2, idx, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8);

void positive(int peer) {
  MPI_Datatype hix, down, pairs, ofpairs;
  MPI_Aint hd[3] = {40, 8, 200};
  int dd[3] = {20, 10, 0}, pd[3] = {1, 2, 7};
  MPI_Request r;
  MPI_Type_create_hindexed_block(3, 1, hd, MPI_DOUBLE, &hix);
  MPI_Type_create_indexed_block(3, 1, dd, MPI_DOUBLE, &down);
  MPI_Type_contiguous(2, MPI_FLOAT, &pairs);
  MPI_Type_create_indexed_block(3, 1, pd, pairs, &ofpairs);
  MPI_Type_commit(&hix);
  MPI_Type_commit(&down);
  MPI_Type_commit(&pairs);
  MPI_Type_commit(&ofpairs);
  MPI_Ssend(g, 1, hix, peer, 1, MPI_COMM_WORLD);
  MPI_Send(g, 1, down, peer, 1, MPI_COMM_WORLD);
  MPI_Send(g, 1, ofpairs, peer, 1, MPI_COMM_WORLD);
  MPI_Irecv(g, 1, idx, peer, 2, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Isend(g, 1, hix, peer, 2, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Sendrecv(g, 1, hix, peer, 3, g, 1, down, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
// REPORT-DAG:{{.*}}indexed.c:[[#@LINE-9]]:3: datatype-templates: MPI_Ssend with hix: {{.*}}builds MPI_Type_create_hindexed_block(3, 1, {40, 8, 200}, MPI_DOUBLE){{.*}}
// REPORT-DAG:{{.*}}indexed.c:[[#@LINE-9]]:3: datatype-templates: MPI_Send with down: {{.*}}builds MPI_Type_create_indexed_block(3, 1, {20, 10, 0}, MPI_DOUBLE){{.*}}
// REPORT-DAG:{{.*}}indexed.c:[[#@LINE-9]]:3: datatype-templates: MPI_Send with ofpairs: {{.*}}builds MPI_Type_create_indexed_block(3, 1, {1, 2, 7}, pairs){{.*}}
// REPORT-DAG:{{.*}}indexed.c:[[#@LINE-9]]:3: datatype-templates: MPI_Irecv with idx: {{.*}}
// REPORT-DAG:{{.*}}indexed.c:[[#@LINE-8]]:3: datatype-templates: MPI_Isend with hix: {{.*}}
// REPORT-DAG:{{.*}}indexed.c:[[#@LINE-7]]:3: datatype-templates: MPI_Sendrecv with hix and down: {{.*}}; the blocks' displacements of hix, which no stride describes, are a table (mpiopt_displs_hix) declared at the start of the function; the blocks' displacements of down, which no stride describes, are a table (mpiopt_displs_down) declared at the start of the function); {{.*}}
// Three tables, in the order of the calls that first use them.
// SRC:void positive(int peer) { static const MPI_Aint mpiopt_displs_hix[3] = {40, 8, 200}; static const MPI_Aint mpiopt_displs_down[3] = {160, 80, 0}; static const MPI_Aint mpiopt_displs_ofpairs[3] = {8, 16, 56}; static const MPI_Aint mpiopt_displs_idx[4] = {0, 24, 80, 96};
// SRC:  MPI_Request r; struct mpiopt_dpend mpiopt_pend_r = {0};
// Bytes 8 to 208: extent 200. In decreasing order: the typemap's order.
// An indexed type of pairs of floats: blocks of 2 floats, 8 bytes each.
// SRC:  mpiopt_send_dtype_ix(g, 1, hix, peer, 1, MPI_COMM_WORLD, mpiopt_displs_hix, 3, 1, 200, MPI_DOUBLE, 8, 1);
// SRC-NEXT:  mpiopt_send_dtype_ix(g, 1, down, peer, 1, MPI_COMM_WORLD, mpiopt_displs_down, 3, 1, 168, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_send_dtype_ix(g, 1, ofpairs, peer, 1, MPI_COMM_WORLD, mpiopt_displs_ofpairs, 3, 2, 56, MPI_FLOAT, 4, 0);
// SRC-NEXT:  mpiopt_irecv_dtype_ix(g, 1, idx, peer, 2, MPI_COMM_WORLD, &r, &mpiopt_pend_r, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_wait_dtype(&r, MPI_STATUS_IGNORE, &mpiopt_pend_r);
// SRC-NEXT:  mpiopt_isend_dtype_ix(g, 1, hix, peer, 2, MPI_COMM_WORLD, &r, &mpiopt_pend_r, mpiopt_displs_hix, 3, 1, 200, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_wait_dtype(&r, MPI_STATUS_IGNORE, &mpiopt_pend_r);
// SRC-NEXT:  mpiopt_sendrecv_dtype_ix(g, 1, hix, peer, 3, g, 1, down, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, mpiopt_displs_hix, 3, 1, 200, MPI_DOUBLE, 8, mpiopt_displs_down, 3, 1, 168, MPI_DOUBLE, 8);

// Displacements filled by a counted loop are followed iteration by
// iteration; an array the function keeps a pointer into is not followed
// (a write through the pointer would change it unseen): its shape is
// recorded at run time, where its displacements turn out a run list.
void looped(int peer) {
  MPI_Datatype lp, kept;
  int d[4], e[3] = {0, 3, 7}, *q = &e[1], i;
  for (i = 0; i < 4; i++)
    d[i] = i * i * 2;
  *q = 5;
  MPI_Type_create_indexed_block(4, 1, d, MPI_DOUBLE, &lp);
  MPI_Type_create_indexed_block(3, 1, e, MPI_DOUBLE, &kept);
  MPI_Type_commit(&lp);
  MPI_Type_commit(&kept);
  MPI_Send(g, 1, lp, peer, 6, MPI_COMM_WORLD);
  MPI_Send(g, 1, kept, peer, 6, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-2]]:3: datatype-templates: MPI_Send with lp: {{.*}}builds MPI_Type_create_indexed_block(4, 1, {0, 2, 8, 18}, MPI_DOUBLE){{.*}}
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-2]]:3: datatype-templates: MPI_Send with kept: packed and unpacked by compiled loops, sent as the predefined type (the shape of kept is known only at run time (line [[#@LINE-6]] builds it from displacements whose values are not followed here), {{.*}}; indexed blocks are recorded as a strided shape where their displacements turn out evenly spaced, or as a run list of up to 32 blocks (more: the generic call; nonblocking calls take the generic call for a run list)); saves {{.*}}
  // SRC:void looped(int peer) { static const MPI_Aint mpiopt_displs_lp[4] = {0, 16, 64, 144};
  // SRC-NEXT:  MPI_Datatype lp, kept; struct mpiopt_dshape mpiopt_shape_kept = {0};
  // SRC:  mpiopt_type_create_indexed_block_rt(3, 1, e, MPI_DOUBLE, &kept, &mpiopt_shape_kept);
  // SRC:  mpiopt_send_dtype_ix(g, 1, lp, peer, 6, MPI_COMM_WORLD, mpiopt_displs_lp, 4, 1, 152, MPI_DOUBLE, 8, 0);
  // SRC-NEXT:  mpiopt_send_dtype_rt(g, 1, kept, peer, 6, MPI_COMM_WORLD, &mpiopt_shape_kept, 0x7FFFUL, 0x1FFFUL, 0x0UL, 0);
  MPI_Type_free(&lp);
  MPI_Type_free(&kept);
}

void negative(int peer) {
  MPI_Datatype over, col, holes, big, twice, rs;
  int od[3] = {0, 1, 5}, hd[3] = {0, 1, 5}, bd[3] = {0, 80, 300};
  MPI_Type_create_indexed_block(3, 2, od, MPI_DOUBLE, &over);
  MPI_Type_vector(2, 1, 64, MPI_DOUBLE, &col);
  MPI_Type_create_indexed_block(3, 1, hd, col, &holes);
  MPI_Type_create_indexed_block(3, 64, bd, MPI_DOUBLE, &big);
  MPI_Type_vector(2, 1, 3, idx, &twice);
  MPI_Type_create_resized(idx, 0, 64, &rs);
  MPI_Type_commit(&over);
  MPI_Type_commit(&col);
  MPI_Type_commit(&holes);
  MPI_Type_commit(&big);
  MPI_Type_commit(&twice);
  MPI_Type_commit(&rs);
  // Blocks of 2 at 0 and 1 overlap: MPI may send it, but no template.
  MPI_Send(g, 1, over, peer, 3, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-1]]:3: datatype-templates: not done: MPI_Send with over (the datatype over has no shape known here: line [[#@LINE-14]] builds it with blocks that overlap ({0, 1, 5}))
  // Blocks of a type with holes at uneven displacements: three levels.
  MPI_Send(g, 1, holes, peer, 3, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-1]]:3: datatype-templates: not done: MPI_Send with holes (the datatype holes has no shape known here: line [[#@LINE-15]] builds it with displacements that are not evenly spaced ({0, 1, 5}), over a datatype with holes (col))
  // 512-byte blocks: the profile measured the template slower.
  MPI_Send(g, 1, big, peer, 3, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-1]]:3: datatype-templates: not done: MPI_Send with big (the machine profile {{.*}}profile-templates.json (templates.indexed) measured the template at 6.00 us against 4.00 us for the generic call at 4096 bytes in 512-byte blocks (the message: 1536 bytes in 512-byte blocks; a template must be 5% faster))
  // Types built from a run list: the templates take it only as it is.
  MPI_Send(g, 1, twice, peer, 3, MPI_COMM_WORLD);
  MPI_Send(g, 1, rs, peer, 3, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-2]]:3: datatype-templates: not done: MPI_Send with twice (the datatype twice has no shape known here: line [[#@LINE-20]] builds it from idx, a run list (MPI_Type_create_indexed_block(4, 2, {0, 3, 10, 12}, MPI_DOUBLE)), which the templates take only as it is)
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-2]]:3: datatype-templates: not done: MPI_Send with rs (the datatype rs has no shape known here: line [[#@LINE-20]] builds it from idx, a run list (MPI_Type_create_indexed_block(4, 2, {0, 3, 10, 12}, MPI_DOUBLE)), which the templates take only as it is)
  // A sendrecv of a run list and a strided shape: the _ix form, the strided
  // side passing as written. A collective: its own run-list form
  // (indexed-collectives.c).
  MPI_Sendrecv(g, 1, idx, peer, 4, g, 1, col, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Bcast(g, 1, idx, 0, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-2]]:3: datatype-templates: MPI_Sendrecv with idx and col: packed and unpacked by compiled loops, sent as the predefined type (every construction of idx {{.*}}; the datatype col passes as written (the call's other side is a run list); the blocks' displacements of idx, which no stride describes, are a table (mpiopt_displs_idx) declared at the start of the function); {{.*}}
  // REPORT-DAG:{{.*}}indexed.c:[[#@LINE-2]]:3: datatype-templates: MPI_Bcast with idx: {{.*}}(templates.bcast_indexed){{.*}}
  // SRC:  MPI_Send(g, 1, over, peer, 3, MPI_COMM_WORLD);
  // SRC:  MPI_Send(g, 1, holes, peer, 3, MPI_COMM_WORLD);
  // SRC:  MPI_Send(g, 1, big, peer, 3, MPI_COMM_WORLD);
  // SRC:  MPI_Send(g, 1, twice, peer, 3, MPI_COMM_WORLD);
  // SRC-NEXT:  MPI_Send(g, 1, rs, peer, 3, MPI_COMM_WORLD);
  // SRC:  mpiopt_sendrecv_dtype_ix(g, 1, idx, peer, 4, g, 1, col, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8, (const MPI_Aint *)0, 0, 0, 0, MPI_BYTE, 1);
  // SRC-NEXT:  mpiopt_bcast_dtype_ix(g, 1, idx, 0, MPI_COMM_WORLD, mpiopt_displs_idx, 4, 2, 112, MPI_DOUBLE, 8);
  MPI_Type_free(&over);
  MPI_Type_free(&col);
  MPI_Type_free(&holes);
  MPI_Type_free(&big);
  MPI_Type_free(&twice);
  MPI_Type_free(&rs);
}
