// Rank-relative arguments: affine expressions of the value MPI_Comm_rank
// produced on the call's own communicator (and of MPI_Comm_size), reported
// in a canonical form whatever the spelling.
// RUN: %ompi-opt --report=long %s -- %mpich_cflags | FileCheck --match-full-lines %s
// RUN: %ompi-opt --report=long %s -- %openmpi_cflags | FileCheck --match-full-lines %s
// The whole report is the same byte for byte under both headers:
// RUN: %ompi-opt --report=long %s -- %mpich_cflags > %t.mpich
// RUN: %ompi-opt --report=long %s -- %openmpi_cflags > %t.openmpi
// RUN: diff %t.mpich %t.openmpi
#include <mpi.h>

void ring(double *x, double *y) {
  int rank, size, left, right;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank - 1 + size) % size;
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Sendrecv(sendbuf=dynamic(x: x is a parameter of ring, which other files may call), sendcount=static(1), sendtype=static(MPI_DOUBLE), dest=rank-relative((rank+1)%size), sendtag=static(0), recvbuf=dynamic(y: y is a parameter of ring, which other files may call), recvcount=static(1), recvtype=static(MPI_DOUBLE), source=rank-relative((rank+size-1)%size), recvtag=static(0), comm=static(MPI_COMM_WORLD), status=static(MPI_STATUS_IGNORE)) CommNode=rank-relative(dest=(rank+1)%size, source=(rank+size-1)%size @ MPI_COMM_WORLD) CommSize=static(8 bytes) Buffer=dynamic(sendbuf=x, recvbuf=y) Tag=static(sendtag=0, recvtag=0)
  MPI_Sendrecv(x, 1, MPI_DOUBLE, right, 0, y, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // Affine forms: scaling, offsets, a rank-relative count and tag.
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(x: x is a parameter of ring, which other files may call), count=rank-relative(rank+1), datatype=static(MPI_DOUBLE), dest=rank-relative(2*rank-1), tag=rank-relative(rank), comm=static(MPI_COMM_WORLD)) CommNode=rank-relative(dest=2*rank-1 @ MPI_COMM_WORLD) CommSize=rank-relative(8*(rank+1) bytes) Buffer=dynamic(buf=x) Tag=rank-relative(tag=rank)
  MPI_Send(x, rank + 1, MPI_DOUBLE, 2 * rank - 1, rank, MPI_COMM_WORLD);
  // The last rank: affine in the size alone.
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Bcast(buffer=dynamic(x: x is a parameter of ring, which other files may call), count=static(4), datatype=static(MPI_DOUBLE), root=rank-relative(size-1), comm=static(MPI_COMM_WORLD)) CommNode=rank-relative(root=size-1 @ MPI_COMM_WORLD) CommSize=static(32 bytes) Buffer=dynamic(buffer=x)
  MPI_Bcast(x, 4, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
  // Negative: the rank of MPI_COMM_WORLD is not a rank in MPI_COMM_SELF.
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(x: x is a parameter of ring, which other files may call), count=static(1), datatype=static(MPI_DOUBLE), dest=dynamic(right: rank or size of a different communicator than the call's), tag=static(0), comm=static(MPI_COMM_SELF)) CommNode=dynamic(dest=right @ MPI_COMM_SELF) CommSize=static(8 bytes) Buffer=dynamic(buf=x) Tag=static(tag=0)
  MPI_Send(x, 1, MPI_DOUBLE, right, 0, MPI_COMM_SELF);
  // Negative: not affine (xor, multiplication of ranks, comparison).
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(x: x is a parameter of ring, which other files may call), count=dynamic(rank * rank: not an affine function of the rank and size), datatype=static(MPI_DOUBLE), dest=dynamic(rank ^ 1: not an affine function of the rank and size), tag=dynamic(rank < 2: not an affine function of the rank and size), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=rank ^ 1 @ MPI_COMM_WORLD) CommSize=dynamic(rank * rank x MPI_DOUBLE) Buffer=dynamic(buf=x) Tag=dynamic(tag=rank < 2)
  MPI_Send(x, rank * rank, MPI_DOUBLE, rank ^ 1, rank < 2, MPI_COMM_WORLD);
}

// A communicator held in a parameter that is never reassigned identifies
// itself: rank-relative on it is still rank-relative.
void on_comm(MPI_Comm comm, double *x) {
  int me;
  MPI_Comm_rank(comm, &me);
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(x: x is a parameter of on_comm, which other files may call), count=static(1), datatype=static(MPI_DOUBLE), dest=rank-relative(rank+1), tag=static(0), comm=dynamic(comm: comm is a parameter of on_comm, which other files may call)) CommNode=dynamic(dest=rank+1 @ comm) CommSize=static(8 bytes) Buffer=dynamic(buf=x) Tag=static(tag=0)
  MPI_Send(x, 1, MPI_DOUBLE, me + 1, 0, comm);
  // Negative: a different communicator variable.
  MPI_Comm other = MPI_COMM_WORLD;
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(x: x is a parameter of on_comm, which other files may call), count=static(1), datatype=static(MPI_DOUBLE), dest=dynamic(me + 1: rank or size of a different communicator than the call's), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=me + 1 @ MPI_COMM_WORLD) CommSize=static(8 bytes) Buffer=dynamic(buf=x) Tag=static(tag=0)
  MPI_Send(x, 1, MPI_DOUBLE, me + 1, 0, other);
}

// Affine forms never wrap: a product whose coefficient overflows 64 bits is
// dynamic (it used to wrap silently: static(0), rank-relative(-0*rank+1)).
void overflowing(double *x) {
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(x: x is a parameter of overflowing, which other files may call), count=static(1), datatype=static(MPI_DOUBLE), dest=dynamic((me + 1) * 4611686018427387904L * 4: integer overflow in (me + 1) * 4611686018427387904L * 4), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=(me + 1) * 4611686018427387904L * 4 @ MPI_COMM_WORLD) CommSize=static(8 bytes) Buffer=dynamic(buf=x) Tag=static(tag=0)
  MPI_Send(x, 1, MPI_DOUBLE, (me + 1) * 4611686018427387904L * 4, 0, MPI_COMM_WORLD);
  // And a difference whose negated coefficient overflows.
  // CHECK: {{.*}}:[[@LINE+1]]:3: MPI_Send(buf=dynamic(x: x is a parameter of overflowing, which other files may call), count=static(1), datatype=static(MPI_DOUBLE), dest=dynamic(1 - me * (-9223372036854775807L - 1): integer overflow in 1 - me * (-9223372036854775807L - 1)), tag=static(0), comm=static(MPI_COMM_WORLD)) CommNode=dynamic(dest=1 - me * (-9223372036854775807L - 1) @ MPI_COMM_WORLD) CommSize=static(8 bytes) Buffer=dynamic(buf=x) Tag=static(tag=0)
  MPI_Send(x, 1, MPI_DOUBLE, 1 - me * (-9223372036854775807L - 1), 0, MPI_COMM_WORLD);
}
