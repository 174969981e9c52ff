/* libompi-rt: the OMPI runtime library. Public C interface.
 * Every exported symbol starts with mpiopt_, every macro with MPIOPT_. */
#ifndef MPIOPT_MPIOPT_H
#define MPIOPT_MPIOPT_H

#ifdef __cplusplus
extern "C" {
#endif

#define MPIOPT_VERSION_MAJOR 0
#define MPIOPT_VERSION_MINOR 1
#define MPIOPT_VERSION_PATCH 0

/* The runtime's version, "major.minor.patch". */
const char *mpiopt_version(void);

#ifdef __cplusplus
}
#endif

#endif /* MPIOPT_MPIOPT_H */
