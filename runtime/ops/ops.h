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
  MPI_Aint extent;  /* MPI_Type_get_extent */
  int dense;        /* count elements are count*size contiguous bytes: packable with memcpy */
  int kind;         /* 'i' signed, 'u' unsigned integer, 'f' floating, 0 other (MPI_Reduce_local) */
  int code;         /* the same on every rank: builtin index, or 1000 + size for derived types */
  const char *name; /* "MPI_DOUBLE", or "derived" */
} mpiopt_type_info;

/* What the runtime knows of a reduction operator. */
typedef struct {
  MPI_Op op;
  int commute;
  int code;         /* the same on every rank: builtin index, or 100 + commute for user ops
                       (MPIOPT_OP_SUM ... below for the builtins) */
  const char *name;
} mpiopt_op_info;

/* Local reduction inout[i] = in[i] op inout[i]; vectorisable kernels for the
 * builtin arithmetic types and ops, MPI_Reduce_local for the rest. */
void mpiopt_reduce_local(const void *in, void *inout, size_t count, const mpiopt_type_info *ti,
                         const mpiopt_op_info *oi);
/* out[i] = in[i] op inb[i] (out may be inb). */
void mpiopt_reduce_local3(const void *in, const void *inb, void *out, size_t count, const mpiopt_type_info *ti,
                          const mpiopt_op_info *oi);
/* The same (three operands) on up to threads threads (OpenMP) where it pays: builtin
 * arithmetic types and ops, at least 64 KiB per thread; else as above.
 * (reduce_threads.c, built with OpenMP) */
void mpiopt_reduce_local_threads(const void *in, const void *inb, void *out, size_t count,
                                 const mpiopt_type_info *ti, const mpiopt_op_info *oi, int threads);

/* Sparse encodings of a vector (sparse.c): the elements whose bytes are
 * not all zero, as a bitmap (one bit per element, then the values) or an
 * index list (32-bit indices, then the values). Only for ops whose
 * identity is zero on integers and floating point (MPI_SUM; MPI_BOR and
 * MPI_BXOR on integers): an absent element contributes nothing. */
int mpiopt_sparse_eligible(const mpiopt_type_info *ti, const mpiopt_op_info *oi);
/* Nonzero elements among up to samples evenly spread over the n elements. */
double mpiopt_sparse_sample(const void *v, size_t n, int size, size_t samples);
size_t mpiopt_sparse_bitmap_bytes(size_t n, size_t nnz, int size);
size_t mpiopt_sparse_index_bytes(size_t nnz, int size);
/* Encode; return the nonzero count, or (size_t)-1 as soon as it passes
 * max_nnz (dst then holds garbage). */
size_t mpiopt_sparse_encode_bitmap(const void *v, size_t n, int size, void *dst, size_t max_nnz);
size_t mpiopt_sparse_encode_index(const void *v, size_t n, int size, void *dst, size_t max_nnz);
/* acc[i] = value op acc[i] for each encoded element (absent ones leave acc
 * as it is), or acc[i] = value with zeros elsewhere (op NULL). */
void mpiopt_sparse_apply_bitmap(const void *enc, size_t n, size_t nnz, void *acc, const mpiopt_type_info *ti,
                                const mpiopt_op_info *oi);
void mpiopt_sparse_apply_index(const void *enc, size_t n, size_t nnz, void *acc, const mpiopt_type_info *ti,
                               const mpiopt_op_info *oi);

const mpiopt_type_info *mpiopt_type_lookup(MPI_Datatype dt);
const mpiopt_op_info *mpiopt_op_lookup(MPI_Op op);
void mpiopt_types_free(void);
/* The program frees a handle (core/free_type.c, free_op.c): its record goes
 * (MPI may give the handle to another datatype or op). Whoever keeps
 * records must have dropped them first (the lazy runtime flushes). */
void mpiopt_type_forget(MPI_Datatype dt);
void mpiopt_op_forget(MPI_Op op);

/* The builtin ops' codes. */
enum { MPIOPT_OP_SUM, MPIOPT_OP_PROD, MPIOPT_OP_MIN, MPIOPT_OP_MAX, MPIOPT_OP_LAND, MPIOPT_OP_LOR, MPIOPT_OP_LXOR,
       MPIOPT_OP_BAND, MPIOPT_OP_BOR, MPIOPT_OP_BXOR, MPIOPT_OP_MAXLOC, MPIOPT_OP_MINLOC, MPIOPT_OP_REPLACE,
       MPIOPT_OP_NO_OP };

#endif
