/* Specialised MPI call templates used by code that ompi-opt transformed.
 * Header-only: every function is static inline (MPIOPT_INLINE: __inline__ in C89); every name starts with
 * mpiopt_ / MPIOPT_. Templates are added here, one header per family, as the
 * transformations that select them land; this header includes them all. */
#ifndef MPIOPT_TEMPLATES_H
#define MPIOPT_TEMPLATES_H

#include <mpi.h>

#include "mpiopt/aggregate.h"
#include "mpiopt/dtype.h"
#include "mpiopt/fuse.h"
#include "mpiopt/peer.h"
#include "mpiopt/persist.h"

#endif /* MPIOPT_TEMPLATES_H */
