/* Allocates and grows the global request arrays; completes the sends
 * comm.c starts (miniAMR's comm() waits for its sends in a later loop). */
#include "comm.h"
#include <stdio.h>
#include <stdlib.h>

static void *util_malloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

void grow_requests(int n) {
  if (n <= max_req)
    return;
  free(request);
  free(s_req);
  request = (MPI_Request *)util_malloc((size_t)n * sizeof(MPI_Request));
  s_req = (MPI_Request *)util_malloc((size_t)n * sizeof(MPI_Request));
  max_req = n;
}

/* Waits for the n sends; says whether each handle became MPI_REQUEST_NULL,
 * as MPI's nonblocking requests do. */
void finish_sends(int n) {
  int i, which, nulls = 0;
  MPI_Status status;
  for (i = 0; i < n; i++)
    MPI_Waitany(n, s_req, &which, &status);
  for (i = 0; i < n; i++)
    nulls += s_req[i] == MPI_REQUEST_NULL;
  if (nulls != n)
    printf("%d of %d send handles are not MPI_REQUEST_NULL after their completion\n", n - nulls, n);
}
