/* The lazy runtime's header as code written by ompi-opt includes it: the
 * runtime is optional. Its entry points are weak references, and where
 * libompi-rt is not linked every deferred reduction runs at once as the MPI
 * call it replaced (see mpiopt/lazy.h, "Linking"). */
#ifndef MPIOPT_LAZY_OPTIONAL_H
#define MPIOPT_LAZY_OPTIONAL_H

#define MPIOPT_LAZY_OPTIONAL 1
#include "mpiopt/lazy.h"

#endif /* MPIOPT_LAZY_OPTIONAL_H */
