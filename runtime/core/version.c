/* Version of the OMPI runtime library. */
#include "mpiopt/mpiopt.h"

#ifndef MPIOPT_VERSION_STRING
#define MPIOPT_VERSION_STRING "0.1.0"
#endif

const char *mpiopt_version(void) { return MPIOPT_VERSION_STRING; }
