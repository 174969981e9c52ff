/* The program's communication layer, as CoMD's parallel.h and hypre's
 * mpistubs: files that include it need not include mpi.h. */
#ifndef COMM_H
#define COMM_H
typedef int my_int;
void comm_init(int *argc, char ***argv);
void comm_finalize(void);
int comm_rank(void);
void add_real(double *send, double *recv, int count);
void max_int(int *send, int *recv, int count);
#endif
