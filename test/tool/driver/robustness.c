// Inputs real code has: legacy C accepted by GCC, variable-length arrays,
// pointers to them, a compilation database.
//
// Legacy C is analysed, not rejected.
// RUN: %ompi-opt --report=long %inputs/legacy.c -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=LEGACY %s
// LEGACY: {{.*}}legacy.c:9:3: MPI_Bcast(buffer=static(&n), count=static(1), datatype=static(MPI_INT), root=static(0), comm=static(MPI_COMM_WORLD)) CommNode=static(root=0 @ MPI_COMM_WORLD) CommSize=static(4 bytes) Buffer=static(buffer=&n)
//
// Sizes unknown at compile time give dynamic arguments.
// RUN: %ompi-opt --report=long %inputs/vla.c -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=VLA %s
// VLA: {{.*}}vla.c:8:3: MPI_Send(buf=dynamic(&grid[1][2]: address of grid[1]), count=dynamic(m: m is a parameter of f, which other files may call), datatype=static(MPI_DOUBLE), dest=static(0), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=dynamic(m x MPI_DOUBLE) Buffer=dynamic(buf=&grid[1][2]) Tag=static(tag=0)
// VLA: {{.*}}vla.c:9:3: MPI_Send(buf=dynamic(grid[1]: address of grid[1]), count=dynamic(m: m is a parameter of f, which other files may call), datatype=static(MPI_DOUBLE), dest=static(0), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=dynamic(m x MPI_DOUBLE) Buffer=dynamic(buf=grid[1]) Tag=static(tag=0)
// VLA: {{.*}}vla.c:10:3: MPI_Send(buf=dynamic(o + 1: pointer arithmetic on a type of unknown size in o + 1), count=static(1), datatype=static(MPI_BYTE), dest=static(0), tag=dynamic(sizeof(grid): size of a variable-length type), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=static(1 bytes) Buffer=dynamic(buf=o + 1) Tag=dynamic(tag=sizeof(grid))
//
// Flags from compile_commands.json (-p): the define selects the count.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json,sys; json.dump([{'directory': '%t', 'file': '%s', 'arguments': ['mpicc', '-DCOUNT=42'] + sys.argv[1].split() + ['-c', '%s']}], open('%t/compile_commands.json', 'w'))" "%mpich_cflags"
// RUN: %ompi-opt -p %t --report=long %s | FileCheck --match-full-lines --check-prefix=DB %s
// DB: {{.*}}robustness.c:[[#@LINE+6]]:3: MPI_Barrier(comm=static(MPI_COMM_WORLD)) CommNode=static(all @ MPI_COMM_WORLD)
// DB-NEXT: {{.*}}robustness.c:[[#@LINE+6]]:3: MPI_Send(buf=static(NULL), count=static(42), datatype=static(MPI_INT), dest=static(0), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=static(dest=0 @ MPI_COMM_WORLD) CommSize=static(168 bytes) Buffer=static(buf=NULL) Tag=static(tag=0)
#include <mpi.h>
#include <stddef.h>

void g(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(NULL, COUNT, MPI_INT, 0, 0, MPI_COMM_WORLD);
}
