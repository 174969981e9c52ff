/* miniAMR's shape: the request arrays are globals every file sees, defined
 * in main.c (EXTERN empty there), allocated and grown in util.c. */
#include <mpi.h>
#ifdef MAIN
#define EXTERN
#else
#define EXTERN extern
#endif
EXTERN MPI_Request *request, *s_req;
EXTERN int max_req;

void grow_requests(int n);
void finish_sends(int n);
long exchange(int it, int n);
