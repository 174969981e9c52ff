/* Typed local reduction kernels and the runtime's knowledge of datatypes
 * and operators, shared by the lazy runtime and the planned collectives
 * (internal to libompi-rt, not installed). */
#ifndef MPIOPT_OPS_OPS_H
#define MPIOPT_OPS_OPS_H

#include <mpi.h>
#include <stddef.h>

/* What the runtime knows of a datatype (cached per handle). */
typedef struct {
  MPI_Datatype dt;
  int size;         /* MPI_Type_size */
  int dense;        /* count elements are count*size contiguous bytes: packable with memcpy */
  int kind;         /* 'i' signed, 'u' unsigned integer, 'f' floating, 0 other (MPI_Reduce_local) */
  int code;         /* the same on every rank: builtin index, or 1000 + size for derived types */
  const char *name; /* "MPI_DOUBLE", or "derived" */
} mpiopt_type_info;

/* What the runtime knows of a reduction operator. */
typedef struct {
  MPI_Op op;
  int commute;
  int code;         /* the same on every rank: builtin index, or 100 + commute for user ops */
  const char *name;
} mpiopt_op_info;

/* Local reduction inout[i] = in[i] op inout[i]; vectorisable kernels for the
 * builtin arithmetic types and ops, MPI_Reduce_local for the rest. */
void mpiopt_reduce_local(const void *in, void *inout, size_t count, const mpiopt_type_info *ti,
                         const mpiopt_op_info *oi);
const mpiopt_type_info *mpiopt_type_lookup(MPI_Datatype dt);
const mpiopt_op_info *mpiopt_op_lookup(MPI_Op op);
void mpiopt_types_free(void);

#endif
