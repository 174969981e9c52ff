// datatype-templates on shapes known only at run time: a variable every construction of which is MPI_Type_contiguous,
// MPI_Type_vector, MPI_Type_create_hvector, MPI_Type_create_subarray or _(h)indexed_block of a predefined type, or MPI_Type_create_resized
// of one or of another such variable, gets a shadow of its shape after its declaration; its
// constructions go through the recording wrappers and its calls through the
// _rt templates, with the sizes the profile measured the template winning
// at per class of run lengths (checked at run time). Negative cases say why the tool leaves a call
// generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-templates.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --report %s -- %mpich_cflags | FileCheck --check-prefix=NOPROFILE %s
// RUN: %ompi-opt --transforms=datatype-templates --profile=%inputs/profile-templates.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

#define BUILD(x) x

void exchange(double *a, int n, int peer) {
  MPI_Datatype col, blocks;
  MPI_Datatype bumped, viamacro, sub, resized;
  MPI_Type_vector(n, 1, n, MPI_DOUBLE, &col);
  MPI_Type_create_hvector(n / 2, 2, (MPI_Aint)(n * sizeof(double)), MPI_DOUBLE, &blocks);
  MPI_Type_commit(&col);
  MPI_Type_commit(&blocks);
  MPI_Sendrecv(a, 1, col, peer, 0, a, 1, blocks, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(a, 2, col, peer, 1, MPI_COMM_WORLD);
  // A side effect in an argument: the wrapper evaluates it once, as the
  // call does.
  MPI_Type_contiguous(n++, MPI_DOUBLE, &bumped);
  MPI_Send(a, 1, bumped, peer, 2, MPI_COMM_WORLD);
  // A construction through a macro is not renamed.
  BUILD(MPI_Type_contiguous(n, MPI_DOUBLE, &viamacro));
  MPI_Send(a, 1, viamacro, peer, 2, MPI_COMM_WORLD);
  // A subarray with sizes known only at run time, and a resized double.
  int sizes[2] = {n, n}, subs[2] = {1, n}, starts[2] = {0, 0};
  MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);
  MPI_Send(a, 1, sub, peer, 2, MPI_COMM_WORLD);
  MPI_Type_create_resized(MPI_DOUBLE, 0, n, &resized);
  MPI_Send(a, 1, resized, peer, 2, MPI_COMM_WORLD);
  MPI_Type_free(&col);
  MPI_Type_free(&blocks);
}
// REPORT-DAG:{{.*}}runtime.c:25:3: datatype-templates: MPI_Sendrecv with col and blocks: packed and unpacked by compiled loops, sent as the predefined type (the shape of col is known only at run time (line 21 builds it from a count, block length or stride that is not a static positive value), and every construction of it can be recorded (a contiguous, vector, hvector, subarray, indexed-block or resized type of a predefined type, or a contiguous, vector, hvector or resized type of another such variable), so a wrapper records the shape it builds in mpiopt_shape_col; the machine profile {{.*}}profile-templates.json measured the template faster for runs of up to 8 bytes, messages up to 16384 bytes; runs of 9 to 64 bytes, messages up to 4096 bytes; runs of 65 to 512 bytes, messages up to 4096 bytes (other runs: at no size); the size and the run length are checked at run time; the shape of blocks {{.*}}); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// REPORT-DAG:{{.*}}runtime.c:26:3: datatype-templates: MPI_Send with col: {{.*}}
// REPORT-DAG:{{.*}}runtime.c:30:3: datatype-templates: MPI_Send with bumped: {{.*}}
// REPORT-DAG:{{.*}}runtime.c:33:3: datatype-templates: not done: MPI_Send with viamacro (the datatype viamacro has no shape known here: line 32 builds it from a count, block length or stride that is not a static positive value; nor can a wrapper record it at run time: line 32 builds it through a macro or the MPI-1 name)
// REPORT-DAG:{{.*}}runtime.c:37:3: datatype-templates: MPI_Send with sub: packed and unpacked by compiled loops, sent as the predefined type (the shape of sub is known only at run time (line 36 builds it from sizes, subsizes or starts whose values are not static here), {{.*}}
// REPORT-DAG:{{.*}}runtime.c:39:3: datatype-templates: MPI_Send with resized: packed and unpacked by compiled loops, sent as the predefined type (the shape of resized is known only at run time (line 38 builds it with a lower bound or extent that is not a static value (extent above 0)), {{.*}}
// NOPROFILE: runtime.c:25:3: datatype-templates: not done: MPI_Sendrecv with col and blocks ({{.*}}; its shape could be recorded at run time, but no machine profile is loaded; {{.*}})
// SRC:  MPI_Datatype col, blocks; struct mpiopt_dshape mpiopt_shape_col = {0}; struct mpiopt_dshape mpiopt_shape_blocks = {0};
// SRC-NEXT:  MPI_Datatype bumped, viamacro, sub, resized; struct mpiopt_dshape mpiopt_shape_bumped = {0}; struct mpiopt_dshape mpiopt_shape_sub = {0}; struct mpiopt_dshape mpiopt_shape_resized = {0};
// SRC-NEXT:  mpiopt_type_vector_rt(n, 1, n, MPI_DOUBLE, &col, &mpiopt_shape_col);
// SRC-NEXT:  mpiopt_type_create_hvector_rt(n / 2, 2, (MPI_Aint)(n * sizeof(double)), MPI_DOUBLE, &blocks, &mpiopt_shape_blocks);
// SRC:  mpiopt_sendrecv_dtype_rt(a, 1, col, peer, 0, a, 1, blocks, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &mpiopt_shape_col, &mpiopt_shape_blocks, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL);
// SRC-NEXT:  mpiopt_send_dtype_rt(a, 2, col, peer, 1, MPI_COMM_WORLD, &mpiopt_shape_col, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SRC:  mpiopt_type_contiguous_rt(n++, MPI_DOUBLE, &bumped, &mpiopt_shape_bumped);
// SRC-NEXT:  mpiopt_send_dtype_rt(a, 1, bumped, peer, 2, MPI_COMM_WORLD, &mpiopt_shape_bumped, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SRC:  BUILD(MPI_Type_contiguous(n, MPI_DOUBLE, &viamacro));
// SRC:  mpiopt_type_create_subarray_rt(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub, &mpiopt_shape_sub);
// SRC-NEXT:  mpiopt_send_dtype_rt(a, 1, sub, peer, 2, MPI_COMM_WORLD, &mpiopt_shape_sub, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SRC-NEXT:  mpiopt_type_create_resized_rt(MPI_DOUBLE, 0, n, &resized, &mpiopt_shape_resized);
// SRC-NEXT:  mpiopt_send_dtype_rt(a, 1, resized, peer, 2, MPI_COMM_WORLD, &mpiopt_shape_resized, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);

// Resized types of variables whose shapes are recorded: the variable built
// from gets a shadow too (even where its own shape is static, as stat's is,
// or where no call uses it), and the wrapper copies its shape with the new
// extent. A 3-D Fortran-order subarray with run-time sizes.
void resized_of(double *a, int n, int peer) {
  MPI_Datatype col, rcol, stat, rstat, cube;
  MPI_Type_vector(n, 1, n, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &rcol);
  MPI_Type_commit(&rcol);
  MPI_Send(a, 2, rcol, peer, 4, MPI_COMM_WORLD);
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &stat);
  MPI_Type_create_resized(stat, 0, (MPI_Aint)n * 8, &rstat);
  MPI_Type_commit(&stat);
  MPI_Type_commit(&rstat);
  MPI_Send(a, 1, stat, peer, 4, MPI_COMM_WORLD);
  MPI_Send(a, 2, rstat, peer, 4, MPI_COMM_WORLD);
  int sz[3] = {n, n, n}, sub[3] = {n, 1, n - 2}, st[3] = {0, n - 1, 1};
  MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_FORTRAN, MPI_DOUBLE, &cube);
  MPI_Type_commit(&cube);
  MPI_Recv(a, 1, cube, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
// SRC:  MPI_Datatype col, rcol, stat, rstat, cube; struct mpiopt_dshape mpiopt_shape_rcol = {0}; struct mpiopt_dshape mpiopt_shape_col = {0}; struct mpiopt_dshape mpiopt_shape_rstat = {0}; struct mpiopt_dshape mpiopt_shape_stat = {0}; struct mpiopt_dshape mpiopt_shape_cube = {0};
// SRC-NEXT:  mpiopt_type_vector_rt(n, 1, n, MPI_DOUBLE, &col, &mpiopt_shape_col);
// SRC-NEXT:  mpiopt_type_create_resized_of_rt(col, 0, sizeof(double), &rcol, &mpiopt_shape_rcol, &mpiopt_shape_col);
// SRC-NEXT:  MPI_Type_commit(&rcol);
// SRC-NEXT:  mpiopt_send_dtype_rt(a, 2, rcol, peer, 4, MPI_COMM_WORLD, &mpiopt_shape_rcol, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SRC-NEXT:  mpiopt_type_vector_rt(8, 1, 8, MPI_DOUBLE, &stat, &mpiopt_shape_stat);
// SRC-NEXT:  mpiopt_type_create_resized_of_rt(stat, 0, (MPI_Aint)n * 8, &rstat, &mpiopt_shape_rstat, &mpiopt_shape_stat);
// SRC-NEXT:  MPI_Type_commit(&stat);
// SRC-NEXT:  MPI_Type_commit(&rstat);
// SRC-NEXT:  mpiopt_send_dtype(a, 1, stat, peer, 4, MPI_COMM_WORLD, 8, 1, 64, 456, MPI_DOUBLE, 8, 0);
// SRC-NEXT:  mpiopt_send_dtype_rt(a, 2, rstat, peer, 4, MPI_COMM_WORLD, &mpiopt_shape_rstat, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SRC:  mpiopt_type_create_subarray_rt(3, sz, sub, st, MPI_ORDER_FORTRAN, MPI_DOUBLE, &cube, &mpiopt_shape_cube);
// SRC:  mpiopt_recv_dtype_rt(a, 1, cube, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &mpiopt_shape_cube, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL);

// Not recorded: a subarray of a derived type (the wrappers record those of
// predefined types), and a resized type of a variable whose own shape
// cannot be recorded (an indexed block of a derived type).
void not_recorded(double *a, int n, int peer, const int *displs) {
  MPI_Datatype row, subrows, ib, rib;
  int sz[1] = {n}, sub[1] = {n - 1}, st[1] = {1};
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Type_create_subarray(1, sz, sub, st, MPI_ORDER_C, row, &subrows);
  MPI_Type_commit(&subrows);
  MPI_Send(a, 1, subrows, peer, 5, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}runtime.c:[[#@LINE-1]]:3: datatype-templates: not done: MPI_Send with subrows (the datatype subrows has no shape known here: line [[#@LINE-3]] builds it from row, whose shape is not known: line [[#@LINE-4]] builds it from a count, block length or stride that is not a static positive value; nor can a wrapper record it at run time: line [[#@LINE-3]] builds it over a datatype that is not a predefined one of one C type (a subarray is recorded over those only))
  MPI_Type_create_indexed_block(2, 1, displs, row, &ib);
  MPI_Type_create_resized(ib, 0, n, &rib);
  MPI_Type_commit(&rib);
  MPI_Send(a, 1, rib, peer, 5, MPI_COMM_WORLD);
  // REPORT-DAG:{{.*}}runtime.c:[[#@LINE-1]]:3: datatype-templates: not done: MPI_Send with rib (the datatype rib has no shape known here: line [[#@LINE-3]] builds it from ib, whose shape is not known: line [[#@LINE-4]] builds it from row, whose shape is not known: line [[#@LINE-9]] builds it from a count, block length or stride that is not a static positive value)
}
// SRC:  MPI_Send(a, 1, subrows, peer, 5, MPI_COMM_WORLD);
// SRC:  MPI_Type_create_resized(ib, 0, n, &rib);
// SRC-NEXT:  MPI_Type_commit(&rib);
// SRC-NEXT:  MPI_Send(a, 1, rib, peer, 5, MPI_COMM_WORLD);

// Indexed blocks whose displacements are known only at run time: the
// wrapper records them as a strided shape where they turn out evenly spaced
// (a column with a stride read at run time), or as a run list of up to 32
// blocks; the masks allow only the sizes where both the strided and the
// run lists' families measured the template winning (the test profile's
// templates.indexed has no 512-byte win, so runs of 65 to 512 bytes: none).
void indexed_at_run_time(double *a, int n, int peer, int ld) {
  MPI_Datatype ib, hb;
  int d[64], i;
  MPI_Aint hd[64];
  for (i = 0; i < n; i++) {
    d[i] = i * ld;
    hd[i] = (MPI_Aint)(8 * i * ld);
  }
  MPI_Type_create_indexed_block(n, 1, d, MPI_DOUBLE, &ib);
  MPI_Type_create_hindexed_block(n, 2, hd, MPI_DOUBLE, &hb);
  MPI_Type_commit(&ib);
  MPI_Type_commit(&hb);
  MPI_Send(a, 1, ib, peer, 6, MPI_COMM_WORLD);
  MPI_Recv(a, 1, hb, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // REPORT-DAG:{{.*}}runtime.c:[[#@LINE-2]]:3: datatype-templates: MPI_Send with ib: packed and unpacked by compiled loops, sent as the predefined type (the shape of ib is known only at run time (line [[#@LINE-6]] builds it from a count or block length that is not a static positive value (at most 4096 blocks)), and every construction of it can be recorded {{.*}}; the size and the run length are checked at run time; indexed blocks are recorded as a strided shape where their displacements turn out evenly spaced, or as a run list of up to 32 blocks (more: the generic call; nonblocking calls take the generic call for a run list)); saves {{.*}}
  // REPORT-DAG:{{.*}}runtime.c:[[#@LINE-2]]:3: datatype-templates: MPI_Recv with hb: {{.*}}(templates.vector and templates.indexed) measured the template faster for runs of up to 8 bytes, messages up to 16384 bytes; runs of 9 to 64 bytes, messages up to 4096 bytes (other runs: at no size){{.*}}
  // Two recorded sides: the call's masks are the sizes both sides' allow
  // (the column alone would take runs of 65 to 512 bytes up to 4 KiB).
  MPI_Datatype cv;
  MPI_Type_vector(n, 1, ld, MPI_DOUBLE, &cv);
  MPI_Type_commit(&cv);
  MPI_Sendrecv(a, 1, ib, peer, 7, a, 1, cv, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&cv);
  MPI_Type_free(&ib);
  MPI_Type_free(&hb);
}
// SRC:  MPI_Datatype ib, hb; struct mpiopt_dshape mpiopt_shape_ib = {0}; struct mpiopt_dshape mpiopt_shape_hb = {0};
// SRC:  mpiopt_type_create_indexed_block_rt(n, 1, d, MPI_DOUBLE, &ib, &mpiopt_shape_ib);
// SRC-NEXT:  mpiopt_type_create_hindexed_block_rt(n, 2, hd, MPI_DOUBLE, &hb, &mpiopt_shape_hb);
// SRC:  mpiopt_send_dtype_rt(a, 1, ib, peer, 6, MPI_COMM_WORLD, &mpiopt_shape_ib, 0x7FFFUL, 0x1FFFUL, 0x0UL, 0);
// SRC-NEXT:  mpiopt_recv_dtype_rt(a, 1, hb, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &mpiopt_shape_hb, 0x7FFFUL, 0x1FFFUL, 0x0UL);
// SRC:  mpiopt_sendrecv_dtype_rt(a, 1, ib, peer, 7, a, 1, cv, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &mpiopt_shape_ib, &mpiopt_shape_cv, 0x7FFFUL, 0x1FFFUL, 0x0UL);

// Declared in a for loop's first clause: no declaration can follow it there.
void loop_scoped(double *a, int n, int peer) {
  for (MPI_Datatype ft; n > 0; n = 0) {
    MPI_Type_contiguous(n, MPI_DOUBLE, &ft);
    MPI_Type_commit(&ft);
    MPI_Send(a, 1, ft, peer, 3, MPI_COMM_WORLD);
    // REPORT-DAG:{{.*}}runtime.c:[[#@LINE-1]]:5: datatype-templates: not done: MPI_Send with ft (the datatype ft has no shape known here: line [[#@LINE-3]] builds it from a count, block length or stride that is not a static positive value; nor can a wrapper record it at run time: line [[#@LINE-3]] builds it into a variable declared where no declaration can follow it (a for loop's first clause))
    MPI_Type_free(&ft);
  }
}

// Nonblocking calls with a shape recorded at run time: the _rt forms with
// the request's pending state, the shadow and the masks; the wait as for
// compiled shapes. (Collectives take compiled shapes only: collectives.c.)
void nonblocking(double *a, int n, int peer) {
  MPI_Datatype nbcol;
  MPI_Request r;
  MPI_Type_vector(n, 1, n, MPI_DOUBLE, &nbcol);
  MPI_Type_commit(&nbcol);
  MPI_Irecv(a, 1, nbcol, peer, 9, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Type_free(&nbcol);
}
// SRC:  MPI_Request r; struct mpiopt_dpend mpiopt_pend_r = {0};
// SRC:  mpiopt_irecv_dtype_rt(a, 1, nbcol, peer, 9, MPI_COMM_WORLD, &r, &mpiopt_pend_r, &mpiopt_shape_nbcol, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL);
// SRC-NEXT:  mpiopt_wait_dtype(&r, MPI_STATUS_IGNORE, &mpiopt_pend_r);

// Contiguous, vector and hvector types of recorded variables: a vector of
// rows (runs), two resized columns side by side (groups of the column's
// blocks), an hvector of columns (groups); the wrapper copies the old
// variable's shadow (three levels of blocks are recorded as not valid:
// rt.dtype_select).
void of_variables(double *a, int n, int peer) {
  MPI_Datatype row, rows, col, rcol, cols, hcols;
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Type_vector(4, 1, 2, row, &rows);
  MPI_Type_vector(n, 1, n, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &rcol);
  MPI_Type_contiguous(2, rcol, &cols);
  MPI_Type_create_hvector(3, 1, (MPI_Aint)(2 * sizeof(double)), col, &hcols);
  MPI_Type_commit(&rows);
  MPI_Type_commit(&cols);
  MPI_Type_commit(&hcols);
  MPI_Send(a, 1, rows, peer, 6, MPI_COMM_WORLD);
  MPI_Send(a, 1, cols, peer, 6, MPI_COMM_WORLD);
  MPI_Send(a, 1, hcols, peer, 6, MPI_COMM_WORLD);
}
// SRC:  MPI_Datatype row, rows, col, rcol, cols, hcols; struct mpiopt_dshape mpiopt_shape_rows = {0}; struct mpiopt_dshape mpiopt_shape_row = {0}; struct mpiopt_dshape mpiopt_shape_cols = {0}; struct mpiopt_dshape mpiopt_shape_rcol = {0}; struct mpiopt_dshape mpiopt_shape_col = {0}; struct mpiopt_dshape mpiopt_shape_hcols = {0};
// SRC-NEXT:  mpiopt_type_contiguous_rt(n, MPI_DOUBLE, &row, &mpiopt_shape_row);
// SRC-NEXT:  mpiopt_type_vector_of_rt(4, 1, 2, row, &rows, &mpiopt_shape_rows, &mpiopt_shape_row);
// SRC-NEXT:  mpiopt_type_vector_rt(n, 1, n, MPI_DOUBLE, &col, &mpiopt_shape_col);
// SRC-NEXT:  mpiopt_type_create_resized_of_rt(col, 0, sizeof(double), &rcol, &mpiopt_shape_rcol, &mpiopt_shape_col);
// SRC-NEXT:  mpiopt_type_contiguous_of_rt(2, rcol, &cols, &mpiopt_shape_cols, &mpiopt_shape_rcol);
// SRC-NEXT:  mpiopt_type_create_hvector_of_rt(3, 1, (MPI_Aint)(2 * sizeof(double)), col, &hcols, &mpiopt_shape_hcols, &mpiopt_shape_col);
// SRC:  mpiopt_send_dtype_rt(a, 1, rows, peer, 6, MPI_COMM_WORLD, &mpiopt_shape_rows, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SRC-NEXT:  mpiopt_send_dtype_rt(a, 1, cols, peer, 6, MPI_COMM_WORLD, &mpiopt_shape_cols, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
// SRC-NEXT:  mpiopt_send_dtype_rt(a, 1, hcols, peer, 6, MPI_COMM_WORLD, &mpiopt_shape_hcols, 0x7FFFUL, 0x1FFFUL, 0x1FFFUL, 0);
