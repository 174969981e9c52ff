// The other file of global-requests.c's program (miniAMR's shape): it
// allocates the global request arrays, grows them, and completes requests
// of one of them; its uses are those the templates follow, so its facts
// say nothing against them ("requests": null), and its completions go
// through the shared cache when it is compiled with the program's facts.
#include <mpi.h>
#include <stdlib.h>

extern MPI_Request *request, *s_req;
extern MPI_Request kept[2];
extern int max_req;

void *util_malloc(size_t n) {
  void *p = malloc(n);
  if (!p)
    abort();
  return p;
}

void grow_requests(int n) {
  if (n <= max_req)
    return;
  free(request);
  free(s_req);
  request = (MPI_Request *)util_malloc(n * sizeof(MPI_Request));
  s_req = (MPI_Request *)util_malloc(n * sizeof(MPI_Request));
  max_req = n;
}

// Completes what global-requests.c's post_sends started.
void finish_sends(int n) {
  int which;
  MPI_Status status;
  for (int i = 0; i < n; i++)
    MPI_Waitany(n, s_req, &which, &status);
}

// Passes 'kept' to a function: its requests may be completed anywhere.
void keep(MPI_Request *r);
void hand_kept(void) { keep(kept); }
