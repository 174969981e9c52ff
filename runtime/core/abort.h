/* Stopping the whole job after printing why (internal to libompi-rt). */
#ifndef MPIOPT_CORE_ABORT_H
#define MPIOPT_CORE_ABORT_H
#include <mpi.h>

/* Flush every stream, give the launcher a moment to forward what this
 * process printed (MPICH's hydra stops forwarding output once it handles an
 * abort, and lost the message about one time in ten without the pause), then
 * MPI_Abort(comm, code). Does not return. */
void mpiopt_abort_job(MPI_Comm comm, int code) __attribute__((noreturn));

#endif
