// datatype-templates on collectives: MPI_Bcast, MPI_Gather, MPI_Scatter and
// MPI_Alltoall whose datatype (a side of them) is a variable of static shape
// go through the compiled pack loops of templates/mpiopt/dtype.h (the _nd
// form, both sides' shapes appended; a side of predefined type passes as
// written), where the machine profile's family of that collective measured
// the template faster (shapes recorded at run time: the _rt forms). Negative cases say why the tool leaves a call generic.
// RUN: %ompi-opt --report --profile=%inputs/profile-templates.json %s -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=REPORT %s
// RUN: %ompi-opt --transforms=datatype-templates --profile=%inputs/profile-templates.json %s -o %t.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=SRC %s < %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %mpich_cflags %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%templates_include %openmpi_cflags %t.c
#include <mpi.h>

#define N 8
#define CALL(x) x
static double a[N][N], all[4 * N][N], big[N * 1024][N], v[4 * N];
static MPI_Datatype col, wide;

void positive(int root) {
  MPI_Bcast(&a[0][1], 1, col, root, MPI_COMM_WORLD);
  MPI_Gather(&a[0][2], 1, col, all, 1, col, root, MPI_COMM_WORLD);
  MPI_Gather(v, N, MPI_DOUBLE, all, 1, col, root, MPI_COMM_WORLD);
  MPI_Scatter(v, N, MPI_DOUBLE, &a[0][3], 1, col, root, MPI_COMM_WORLD);
  MPI_Alltoall(all, 1, col, a, 1, col, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}collectives.c:20:3: datatype-templates: MPI_Bcast with col: packed and unpacked by compiled loops, sent as the predefined type (every construction of col (first at line 78) builds MPI_Type_vector(8, 1, 8, MPI_DOUBLE) and nothing else writes it; the machine profile {{.*}}profile-templates.json (templates.bcast) measured 2.00 us for the template against 4.00 us for the generic call at 4096 bytes in 8-byte blocks (the message: 64 bytes in 8-byte blocks)); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// REPORT-DAG:{{.*}}collectives.c:21:3: datatype-templates: MPI_Gather with col: {{.*}}(templates.gather) measured 4.00 us{{.*}}
// REPORT-DAG:{{.*}}collectives.c:22:3: datatype-templates: MPI_Gather with col: {{.*}}
// REPORT-DAG:{{.*}}collectives.c:23:3: datatype-templates: MPI_Scatter with col: {{.*}}(templates.scatter){{.*}}
// REPORT-DAG:{{.*}}collectives.c:24:3: datatype-templates: MPI_Alltoall with col: {{.*}}(templates.alltoall){{.*}}
// SRC:  mpiopt_bcast_dtype_nd(&a[0][1], 1, col, root, MPI_COMM_WORLD, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_gather_dtype_nd(&a[0][2], 1, col, all, 1, col, root, MPI_COMM_WORLD, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_gather_dtype_nd(v, N, MPI_DOUBLE, all, 1, col, root, MPI_COMM_WORLD, 0, 1, 0, 0, 0, 0, 0, MPI_BYTE, 1, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_scatter_dtype_nd(v, N, MPI_DOUBLE, &a[0][3], 1, col, root, MPI_COMM_WORLD, 0, 1, 0, 0, 0, 0, 0, MPI_BYTE, 1, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);
// SRC-NEXT:  mpiopt_alltoall_dtype_nd(all, 1, col, a, 1, col, MPI_COMM_WORLD, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8, 0, 1, 0, 8, 1, 64, 456, MPI_DOUBLE, 8);

void negative(int root) {
  // 8 x 8192 doubles: the profile measured the broadcast's template slower there.
  MPI_Bcast(big, 1, wide, root, MPI_COMM_WORLD);
  // Through a macro: the call is not rewritten.
  CALL(MPI_Bcast(a, 1, col, root, MPI_COMM_WORLD));
}
// REPORT-DAG:{{.*}}collectives.c:39:3: datatype-templates: not done: MPI_Bcast with wide (the machine profile {{.*}}profile-templates.json (templates.bcast) measured the template at 60.00 us against 50.00 us for the generic call at 65536 bytes in 8-byte blocks (the message: 65536 bytes in 8-byte blocks; a template must be 5% faster))
// REPORT-DAG:{{.*}}collectives.c:41:3: datatype-templates: not done: MPI_Bcast with col (the call is written through a macro)

// Shapes known only at run time: the _rt collectives with both sides'
// shadows (a predefined side passes a null one) and the masks of the
// collective's own profile family; each rank checks its side's size and
// runs, and the packed message has the derived type's signature whatever
// each rank decides.
void recorded(int root, int n) {
  MPI_Datatype rt, rcol;
  MPI_Type_vector(n, 1, N, MPI_DOUBLE, &rt);
  MPI_Type_create_resized(rt, 0, sizeof(double), &rcol);
  MPI_Type_commit(&rt);
  MPI_Type_commit(&rcol);
  MPI_Bcast(a, 1, rt, root, MPI_COMM_WORLD);
  MPI_Gather(v, n, MPI_DOUBLE, all, 1, rcol, root, MPI_COMM_WORLD);
  MPI_Scatter(a, 1, rcol, v, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
  MPI_Alltoall(a, 1, rcol, all, 1, rcol, MPI_COMM_WORLD);
}
// REPORT-DAG:{{.*}}collectives.c:[[#@LINE-5]]:3: datatype-templates: MPI_Bcast with rt: packed and unpacked by compiled loops, sent as the predefined type (the shape of rt is known only at run time (line [[#@LINE-9]] builds it from a count, block length or stride that is not a static positive value), and every construction of it can be recorded (a contiguous, vector, hvector, subarray, indexed-block or resized type of a predefined type, or a contiguous, vector, hvector or resized type of another such variable), so a wrapper records the shape it builds in mpiopt_shape_rt; the machine profile {{.*}}profile-templates.json (templates.bcast) measured the template faster for runs of up to 8 bytes, messages up to 4096 bytes; runs of 9 to 64 bytes, messages up to 4096 bytes; runs of 65 to 512 bytes, messages up to 4096 bytes (other runs: at no size); the size and the run length are checked at run time); saves MPI's datatype engine on this call, for one copy through a scratch buffer
// REPORT-DAG:{{.*}}collectives.c:[[#@LINE-5]]:3: datatype-templates: MPI_Gather with rcol: {{.*}}(templates.gather) measured the template faster for {{.*}}
// SRC:  MPI_Datatype rt, rcol; struct mpiopt_dshape mpiopt_shape_rt = {0}; struct mpiopt_dshape mpiopt_shape_rcol = {0};
// SRC-NEXT:  mpiopt_type_vector_rt(n, 1, N, MPI_DOUBLE, &rt, &mpiopt_shape_rt);
// SRC-NEXT:  mpiopt_type_create_resized_of_rt(rt, 0, sizeof(double), &rcol, &mpiopt_shape_rcol, &mpiopt_shape_rt);
// SRC-NEXT:  MPI_Type_commit(&rt);
// SRC-NEXT:  MPI_Type_commit(&rcol);
// SRC-NEXT:  mpiopt_bcast_dtype_rt(a, 1, rt, root, MPI_COMM_WORLD, &mpiopt_shape_rt, 0x1FFFUL, 0x1FFFUL, 0x1FFFUL);
// SRC-NEXT:  mpiopt_gather_dtype_rt(v, n, MPI_DOUBLE, all, 1, rcol, root, MPI_COMM_WORLD, (struct mpiopt_dshape *)0, &mpiopt_shape_rcol, 0x1FFFUL, 0x1FFFUL, 0x1FFFUL);
// SRC-NEXT:  mpiopt_scatter_dtype_rt(a, 1, rcol, v, n, MPI_DOUBLE, root, MPI_COMM_WORLD, &mpiopt_shape_rcol, (struct mpiopt_dshape *)0, {{.*}});
// SRC-NEXT:  mpiopt_alltoall_dtype_rt(a, 1, rcol, all, 1, rcol, MPI_COMM_WORLD, &mpiopt_shape_rcol, &mpiopt_shape_rcol, {{.*}});

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_vector(N * 1024, 1, N, MPI_DOUBLE, &wide);
  MPI_Type_commit(&col);
  MPI_Type_commit(&wide);
  positive(0);
  negative(0);
  recorded(0, N);
  MPI_Finalize();
  return 0;
}
