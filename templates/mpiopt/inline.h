/* MPIOPT_INLINE: the templates' "static MPIOPT_INLINE" functions are inline
 * in every mode the templates support: C89/C90 (-ansi -pedantic-errors, as
 * GCC's and Clang's __inline__), C99 and later, and C++. */
#ifndef MPIOPT_INLINE_H
#define MPIOPT_INLINE_H

#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define MPIOPT_INLINE inline
#else
#define MPIOPT_INLINE __inline__
#endif

#endif /* MPIOPT_INLINE_H */
