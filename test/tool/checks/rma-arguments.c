// One-sided calls in the MPI model: invalid-argument (window size, displacement
// unit, NULL memory, origin and target arguments, null handles),
// count-overflow and type-mismatch on origin buffers. The negative cases are
// valid: a window of no memory, MPI_PROC_NULL targets, MPI_NO_OP's ignored
// origin, &a of an array of the datatype's type.
// RUN: %ompi-opt --check --checks=invalid-argument,count-overflow,type-mismatch %s -- %mpich_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
// RUN: %ompi-opt --check --checks=invalid-argument,count-overflow,type-mismatch %s -- %openmpi_cflags | FileCheck --match-full-lines --implicit-check-not=warning: %s
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

static void positives(int *mem) {
  int local[4] = {0};
  MPI_Win w, v;
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:23: warning: MPI_Win_create size '-1' is negative (-1): a window's size must be non-negative [ompi-invalid-argument]
  MPI_Win_create(mem, -1, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:27: warning: MPI_Win_create disp_unit '0' is 0: a displacement unit must be positive [ompi-invalid-argument]
  MPI_Win_create(mem, 16, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &v);
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:18: warning: MPI_Win_create base 'NULL' is NULL with size 16: a window of a positive size must expose valid memory [ompi-invalid-argument]
  MPI_Win_create(NULL, 16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &v);
  MPI_Win_fence(0, w);
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:11: warning: MPI_Put origin_addr 'NULL' is NULL with origin_count 4: a buffer of a positive count must be a valid address [ompi-invalid-argument]
  MPI_Put(NULL, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:18: warning: MPI_Put reads 5 x MPI_INT = 20 bytes from 'local', but 'local' has 16 bytes [ompi-count-overflow]
  MPI_Put(local, 5, MPI_INT, 1, 0, 5, MPI_INT, w);
// CHECK: {{.*}}rma-arguments.c:[[#@LINE+2]]:11: warning: MPI_Get origin_addr 'local' has elements of type int, but its datatype MPI_LONG_LONG describes long long [ompi-type-mismatch]
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:18: warning: MPI_Get writes 4 x MPI_LONG_LONG = 32 bytes into 'local', but 'local' has 16 bytes [ompi-count-overflow]
  MPI_Get(local, 4, MPI_LONG_LONG, 1, 0, 4, MPI_LONG_LONG, w);
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:30: warning: MPI_Get target_rank '-1' is negative (-1): ranks are non-negative; -1 is MPI_PROC_NULL under MPICH but MPI_ANY_SOURCE under Open MPI: write the constant [ompi-invalid-argument]
  MPI_Get(local, 4, MPI_INT, -1, 0, 4, MPI_INT, w);
// CHECK: {{.*}}rma-arguments.c:[[#@LINE+3]]:33: warning: MPI_Get target_disp '-4' is negative (-4): a target displacement must be non-negative [ompi-invalid-argument]
// CHECK: {{.*}}rma-arguments.c:[[#@LINE+2]]:37: warning: MPI_Get target_count '-1' is negative (-1): a count must be non-negative [ompi-invalid-argument]
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:41: warning: MPI_Get target_datatype 'MPI_DATATYPE_NULL' is MPI_DATATYPE_NULL: the standard requires a valid datatype [ompi-invalid-argument]
  MPI_Get(local, 4, MPI_INT, 1, -4, -1, MPI_DATATYPE_NULL, w);
// CHECK: {{.*}}rma-arguments.c:[[#@LINE+2]]:55: warning: MPI_Accumulate op 'MPI_OP_NULL' is MPI_OP_NULL: the standard requires a valid op [ompi-invalid-argument]
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:68: warning: MPI_Accumulate win 'MPI_WIN_NULL' is MPI_WIN_NULL: the standard requires a valid window [ompi-invalid-argument]
  MPI_Accumulate(local, 4, MPI_INT, 1, 0, 4, MPI_INT, MPI_OP_NULL, MPI_WIN_NULL);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

static void negatives(int *mem) {
  int local[4] = {0};
  uint64_t pair[2] = {0};
  MPI_Win w;
  // A window of no memory may have no base.
  MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_free(&w);
  MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  MPI_Put(local, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w);
  // MPI_NO_OP ignores the origin: NULL and MPI_DATATYPE_NULL are fine there.
  MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, local, 4, MPI_INT, 1, 0, 4, MPI_INT, MPI_NO_OP, w);
  MPI_Fetch_and_op(NULL, local, MPI_INT, 1, 0, MPI_NO_OP, w);
  // &a of an array of the datatype's type: its elements are uint64_t.
  MPI_Accumulate(&pair, 2, MPI_UINT64_T, 1, 0, 2, MPI_UINT64_T, MPI_SUM, w);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

static void targets(void) {
  int mem[8] = {0}, local[8] = {0};
  MPI_Win w;
  MPI_Win_create(mem, 8 * sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_fence(0, w);
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:36: warning: MPI_Get reaches bytes 4 to 36 of the target's window 'w', but the window has 32 bytes (target_disp 4 x disp_unit 1, then 8 x MPI_INT): an RMA access must lie inside the target window [ompi-count-overflow]
  MPI_Get(local, 8, MPI_INT, 1, 4, 8, MPI_INT, w);     // bytes 4 to 36 of 32
  MPI_Put(local, 8, MPI_INT, 1, 0, 8, MPI_INT, w);     // bytes 0 to 32: inside
  MPI_Put(local, 2, MPI_INT, 1, 24, 2, MPI_INT, w);    // bytes 24 to 32: inside
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

// A displacement or count that one path sets: each path's value is judged.
// The origin and the target must describe the same data. Negatives: an
// access inside the window on every path, an origin and a target counted by
// one variable.
static void path_targets(int argc) {
  int mem[8] = {0}, local[8] = {0};
  MPI_Aint at = 0;
  int n = 8;
  MPI_Win w;
  MPI_Win_create(mem, 8 * sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  if (argc > 1)
    at = 8;
  if (argc > 2)
    n = 4;
  MPI_Win_fence(0, w);
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:37: warning: MPI_Get reaches bytes 8 to 40 of the target's window 'w', but the window has 32 bytes (target_disp 8 (as set at line {{[0-9]+}}, one of the values reaching the call) x disp_unit 1, then 8 x MPI_INT): an RMA access must lie inside the target window [ompi-count-overflow]
  MPI_Get(local, 8, MPI_INT, 1, at, 8, MPI_INT, w);
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:18: warning: MPI_Put moves 4 (as set at line {{[0-9]+}}, one of the values reaching the call) x MPI_INT (16 bytes) at the origin but 8 x MPI_INT (32 bytes) at the target: the origin and target of an RMA operation must describe the same data [ompi-count-overflow]
  MPI_Put(local, n, MPI_INT, 1, 0, 8, MPI_INT, w);
  MPI_Put(local, 2, MPI_INT, 1, at, 2, MPI_INT, w);
  MPI_Put(local, n, MPI_INT, 1, 0, n, MPI_INT, w);
  MPI_Win_fence(0, w);
  MPI_Win_free(&w);
}

// A window on a local array that leaves the function (CorrBench's
// rma/ArgError-MPIWinCreate-invalidBuffer-2): the array dies at the return.
static MPI_Win global_win;
static void get_win(MPI_Win *win) {
  int buffer[10];
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:18: warning: MPI_Win_create exposes 'buffer', a local variable of get_win, but the window goes out of get_win through 'win': the memory is gone when get_win returns, and a window's memory must stay valid until MPI_Win_free [ompi-invalid-argument]
  MPI_Win_create(buffer, sizeof buffer, 1, MPI_INFO_NULL, MPI_COMM_WORLD, win);
}
static void set_global(void) {
  double d[4];
  // CHECK: {{.*}}rma-arguments.c:[[#@LINE+1]]:18: warning: MPI_Win_create exposes 'd', a local variable of set_global, but the window goes out of set_global through '&global_win': the memory is gone when set_global returns, and a window's memory must stay valid until MPI_Win_free [ompi-invalid-argument]
  MPI_Win_create(d, sizeof d, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &global_win);
}
// Negative: the window is freed before the function returns, or is a local
// of the function (the handle checks follow it), or exposes a static array.
static void epoch_in_helper(MPI_Win *win) {
  int buffer[10] = {0};
  MPI_Win_create(buffer, sizeof buffer, 1, MPI_INFO_NULL, MPI_COMM_WORLD, win);
  MPI_Win_fence(0, *win);
  MPI_Win_fence(0, *win);
  MPI_Win_free(win);
}
static void static_memory(MPI_Win *win) {
  static int buffer[10];
  MPI_Win_create(buffer, sizeof buffer, 1, MPI_INFO_NULL, MPI_COMM_WORLD, win);
}

int main(int argc, char **argv) {
  int mem[4] = {0};
  MPI_Win hw;
  MPI_Init(&argc, &argv);
  positives(mem);
  negatives(mem);
  targets();
  path_targets(argc);
  get_win(&hw);
  MPI_Win_free(&hw);
  set_global();
  MPI_Win_free(&global_win);
  epoch_in_helper(&hw);
  static_memory(&hw);
  MPI_Win_free(&hw);
  MPI_Finalize();
  return 0;
}
// CHECK: 18 warnings generated.
