/* Stopping the job with a message: see core.h. */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void mpiopt_abort_job(MPI_Comm comm, int code) {
  fflush(NULL);
  struct timespec t = {0, 200 * 1000 * 1000};
  nanosleep(&t, NULL);
  MPI_Abort(comm, code);
  exit(code); /* MPI_Abort does not return; this keeps the promise if it did */
}

void mpiopt_vdie(MPI_Comm comm, const char *fmt, va_list ap) {
  int inited = 0, finalized = 0, rank = -1;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (inited && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char msg[2048];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (rank >= 0)
    fprintf(stderr, "mpiopt: error (rank %d): %s\n", rank, msg);
  else
    fprintf(stderr, "mpiopt: error: %s\n", msg);
  fflush(stderr);
  if (inited && !finalized) mpiopt_abort_job(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, 1);
  exit(1);
}

void mpiopt_die(MPI_Comm comm, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  mpiopt_vdie(comm, fmt, ap);
}
