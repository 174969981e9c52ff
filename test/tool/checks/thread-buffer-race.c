// thread-buffer-race: a buffer an MPI call uses that another thread of an
// OpenMP region may change (or, where the call writes it, use) at the same
// time. Positives: sections that send a buffer and fill it; master's
// MPI_Isend beside every thread's store into its buffer (no barrier); a
// task's fill beside a sibling task's send (no depend clause); every
// thread receiving into the same shared buffer; a store before single
// beside single's MPI_Bcast; every thread putting to the same bytes of a
// target's window. Negatives, with why the tool must stay
// silent: a barrier between them; both in critical sections of one name;
// sections whose calls run on different ranks (rank == 0 / rank == 1);
// each thread receiving into its own part (&buf[omp_get_thread_num() * 4]);
// a buffer private to each thread; a region of one thread; tasks ordered by
// depend clauses; a send beside a function that only reads (const); each
// thread putting to its own displacement; every thread getting the same
// bytes (two reads).
// RUN: %ompi-opt --check --checks=thread-buffer-race %s -- %mpich_cflags -fopenmp | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=thread-buffer-race %s -- %openmpi_cflags -fopenmp | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>
#include <omp.h>

void fill(int *buf, int n);
int sum(const int *buf, int n);

void sections(int *buf) {
#pragma omp parallel num_threads(2)
  {
#pragma omp sections
    {
#pragma omp section
      // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:9: warning: this MPI_Send reads 'buf' while fill() (line [[#@LINE+3]]) writes it on another thread: they are in different sections of one sections construct in the OpenMP parallel region at line [[#@LINE-5]], and nothing orders them; no other thread may change the buffer of an MPI call while the call uses it, nor use it while the call writes it [ompi-thread-buffer-race]
      { MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); }
#pragma omp section
      { fill(buf, 4); }
      // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE-1]]:9: note: fill() on another thread
    }
  }
}

void master_isend(int *data, int rank) {
#pragma omp parallel
  {
    data[omp_get_thread_num()] = -1;
#pragma omp master
    {
      MPI_Request r;
      // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:7: warning: this MPI_Isend reads 'data' while a store (line [[#@LINE-4]]) writes it on another thread: every thread of the region runs one of them in the OpenMP parallel region at line [[#@LINE-6]], and nothing orders them; no other thread may change the buffer of an MPI call while the call uses it, nor use it while the call writes it [ompi-thread-buffer-race]
      MPI_Isend(data, 4, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r);
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE-6]]:5: note: a store on another thread
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  }
}

void tasks(int *data) {
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp task
    fill(data, 4);
#pragma omp task
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:5: warning: this MPI_Send reads 'data' while fill() (line [[#@LINE-2]]) writes it on another thread: a task runs one of them, which may run while its creator goes on (no depend clause, taskwait or barrier between them) in the OpenMP parallel region at line [[#@LINE-6]], and nothing orders them; no other thread may change the buffer of an MPI call while the call uses it, nor use it while the call writes it [ompi-thread-buffer-race]
    MPI_Send(data, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE-4]]:5: note: fill() on another thread
  }
}

void every_thread_receives(int *buf) {
#pragma omp parallel num_threads(4)
  // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:3: warning: every thread of the OpenMP parallel region at line [[#@LINE-1]] runs this MPI_Recv, which writes 'buf' at an address that does not depend on the thread: the threads' calls write the same memory at the same time [ompi-thread-buffer-race]
  MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void single_bcast(int *buf) {
#pragma omp parallel
  {
    buf[0] = omp_get_thread_num();
#pragma omp single
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:5: warning: this MPI_Bcast writes 'buf' while a store (line [[#@LINE-2]]) writes it on another thread: every thread of the region runs one of them in the OpenMP parallel region at line [[#@LINE-4]], and nothing orders them; no other thread may change the buffer of an MPI call while the call uses it, nor use it while the call writes it [ompi-thread-buffer-race]
    MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE-4]]:5: note: a store on another thread
  }
}

void negatives(int *buf, int *data, int rank) {
#pragma omp parallel
  {
    data[omp_get_thread_num()] = -1;
#pragma omp barrier
#pragma omp master
    MPI_Send(data, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); // after the barrier
  }
#pragma omp parallel
  {
#pragma omp critical(io)
    buf[0] = 1;
#pragma omp critical(io)
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); // one critical section at a time
  }
#pragma omp parallel sections
  {
#pragma omp section
    {
      if (rank == 0)
        MPI_Recv(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
#pragma omp section
    {
      if (rank == 1)
        MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // on another rank
    }
  }
#pragma omp parallel num_threads(4)
  {
    int *mine = &buf[omp_get_thread_num() * 4];
    MPI_Recv(&buf[omp_get_thread_num() * 4], 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // its own part
    fill(mine, 4);
  }
#pragma omp parallel num_threads(4)
  {
    int own[4];
    MPI_Recv(own, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // private to the thread
  }
#pragma omp parallel num_threads(1)
  MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // one thread
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : data[0])
    fill(data, 4);
#pragma omp task depend(in : data[0])
    MPI_Send(data, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); // after the fill
  }
#pragma omp parallel sections
  {
#pragma omp section
    MPI_Send(data, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
#pragma omp section
    rank = sum(data, 4); // reads only
  }
}

void every_thread_puts(MPI_Win w, int target) {
#pragma omp parallel num_threads(4)
  {
    int one = 1;
    MPI_Win_lock(MPI_LOCK_SHARED, target, 0, w);
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:5: warning: every thread of the OpenMP parallel region at line [[#@LINE-4]] runs this MPI_Put, which writes the same bytes of window 'w' (rank target, displacement 0) on each thread at the same time: conflicting accesses to a window location are erroneous (the value there is undefined) [ompi-thread-buffer-race]
    MPI_Put(&one, 1, MPI_INT, target, 0, 1, MPI_INT, w);
    MPI_Put(&one, 1, MPI_INT, target, omp_get_thread_num(), 1, MPI_INT, w); // each thread its own element
    int got;
    MPI_Get(&got, 1, MPI_INT, target, 8, 1, MPI_INT, w); // reads only
    MPI_Win_unlock(target, w);
  }
}

// Handles the threads share. Positives: a communicator freed in a single
// (or a task) while a nowait single (or a sibling task) uses it; an info
// object set beside its free; every thread posting a receive into one
// shared request. Negatives: the same with the single's barrier between;
// each thread its own request (private, or reqs[omp_get_thread_num()]);
// every thread only using a communicator (MPI_COMM_WORLD too).
void comm_freed(int *data, MPI_Comm c) {
#pragma omp parallel num_threads(2)
  {
#pragma omp single nowait
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:5: warning: this MPI_Send uses the handle 'c' while MPI_Comm_free (line [[#@LINE+3]]) frees it on another thread: they are in blocks that different threads may run (no barrier between them) in the OpenMP parallel region at line [[#@LINE-3]], and nothing orders them; no thread may free or set a handle while another thread's MPI call uses it [ompi-thread-buffer-race]
    MPI_Send(data, 4, MPI_INT, 1, 0, c);
#pragma omp single
    MPI_Comm_free(&c);
  }
}

void comm_freed_after_barrier(int *data, MPI_Comm c) {
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    MPI_Send(data, 4, MPI_INT, 1, 0, c);
#pragma omp single
    MPI_Comm_free(&c); // after the first single's barrier
  }
}

void comm_freed_by_task(int *data, MPI_Comm c) {
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:5: warning: this MPI_Send uses the handle 'c' while MPI_Comm_free (line [[#@LINE+3]]) frees it on another thread: a task runs one of them, which may run while its creator goes on (no depend clause, taskwait or barrier between them) in the OpenMP parallel region at line [[#@LINE-4]], and nothing orders them; no thread may free or set a handle while another thread's MPI call uses it [ompi-thread-buffer-race]
    MPI_Send(data, 4, MPI_INT, 1, 0, c);
#pragma omp task
    MPI_Comm_free(&c);
  }
}

void info_set_and_freed(MPI_Info info) {
#pragma omp parallel num_threads(2)
  {
#pragma omp single nowait
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:5: warning: this MPI_Info_set sets the handle 'info' while MPI_Info_free (line [[#@LINE+3]]) frees it on another thread: they are in blocks that different threads may run (no barrier between them) in the OpenMP parallel region at line [[#@LINE-3]], and nothing orders them; no thread may free or set a handle while another thread's MPI call uses it [ompi-thread-buffer-race]
    MPI_Info_set(info, "key", "value");
#pragma omp single
    MPI_Info_free(&info);
  }
}

void shared_request(int *data) {
  MPI_Request req;
#pragma omp parallel num_threads(2)
  {
    // CHECK: {{.*}}thread-buffer-race.c:[[#@LINE+1]]:5: warning: every thread of the OpenMP parallel region at line [[#@LINE-2]] runs this MPI_Irecv, which sets the handle 'req' that the threads share: the threads' calls write it at the same time [ompi-thread-buffer-race]
    MPI_Irecv(&data[omp_get_thread_num()], 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
}

void own_requests(int *data, MPI_Comm c) {
  MPI_Request req, reqs[8];
#pragma omp parallel num_threads(2) private(req)
  {
    MPI_Irecv(&data[omp_get_thread_num()], 1, MPI_INT, 0, 0, c, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Irecv(&data[omp_get_thread_num() + 2], 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &reqs[omp_get_thread_num()]);
    MPI_Wait(&reqs[omp_get_thread_num()], MPI_STATUS_IGNORE);
  }
}
