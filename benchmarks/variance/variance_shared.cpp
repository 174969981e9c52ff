// variance_shared.cpp: the variance benchmark written with the C++ front end
// (mpiopt::shared<double>), as the CFL paper's Fig. 1 (right): no explicit
// communication; s1 and s2 are shared reduction variables and the read in
// var[i] is the force point that fuses both (plus EXTRA further sums).
//   build: mpicxx -std=c++17 -I runtime/include variance_shared.cpp -L build/lib -lompi-rt
//   run:   mpiexec -n P ./variance_shared N [REPEAT [EXTRA]]
// Prints "N seconds checksum" on rank 0, like variance.c.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "mpiopt/shared.hpp"

static int jmin, jmax;
static mpiopt::shared<double> *s1, *s2;
static std::vector<std::unique_ptr<mpiopt::shared<double>>> extra;

// As in the paper, but each rank's contribution is summed in a local first:
// "*s1 += data[j]" per element would keep the running sum in memory (data
// may alias it), several times slower than the sum itself.
__attribute__((noinline)) static void sum(const double *data) {
  double s = 0.0;
  for (int j = jmin; j < jmax; j++)
    s += data[j];
  *s1 = mpiopt::same(0.0);
  *s1 += s;
}
__attribute__((noinline)) static void sumsq(const double *data) {
  double s = 0.0;
  for (int j = jmin; j < jmax; j++)
    s += data[j] * data[j];
  *s2 = mpiopt::same(0.0);
  *s2 += s;
}
__attribute__((noinline)) static void sumk(const double *data, int k) {
  double s = 0.0, w = k + 1;
  for (int j = jmin; j < jmax; j++)
    s += data[j] * w;
  *extra[k] = mpiopt::same(0.0);
  *extra[k] += s; // accumulated locally first: one update of the shared value
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? std::atoi(argv[1]) : 500;
  int repeat = argc > 2 ? std::atoi(argv[2]) : 10;
  int nextra = argc > 3 ? std::atoi(argv[3]) : 0;
  if (n < 2 || repeat < 1 || nextra < 0 || nextra > 64) {
    if (rank == 0)
      std::fprintf(stderr, "usage: variance_shared N [REPEAT [EXTRA]] (N >= 2, REPEAT >= 1, 0 <= EXTRA <= 64)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  {
    mpiopt::shared<double> v1(0.0, MPI_COMM_WORLD, "s1"), v2(0.0, MPI_COMM_WORLD, "s2");
    s1 = &v1;
    s2 = &v2;
    for (int k = 0; k < nextra; k++) extra.emplace_back(new mpiopt::shared<double>(0.0));
    int m = n;
    std::vector<double> a((size_t)n * m), var(n);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) a[(size_t)i * m + j] = (double)((i * 7 + j * 13) % 101) / 10.0;
    jmin = (int)((long)m * rank / size);
    jmax = (int)((long)m * (rank + 1) / size);
    double echeck = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int r = 0; r < repeat; r++)
      for (int i = 0; i < n; i++) {
        const double *data = &a[(size_t)i * m];
        for (int k = 0; k < nextra; k++) sumk(data, k);
        sum(data);
        sumsq(data);
        double x1 = *s1, x2 = *s2; // force point: every pending sum in one collective
        var[i] = (x2 - x1 * x1 / m) / (m - 1);
        for (int k = 0; k < nextra; k++) echeck += *extra[k];
      }
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double check = 0;
    for (int i = 0; i < n; i++) check += var[i];
    check += echeck * 1e-9;
    if (rank == 0) std::printf("%d %.6f %.9e\n", n, tmax, check);
    extra.clear();
  }
  MPI_Finalize();
  return 0;
}
