// Runtime test of the C++ front end mpiopt::shared<T> / shared_array<T>:
// each operator's meaning, that updates stay local until a read, and that a
// read fuses every pending update on the communicator into one flush.
// Integer-valued doubles (exact in any order); bounded reductions compared
// with a 1e-12 relative tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <mpi.h>
#include "mpiopt/shared.hpp"
#include "check.h"

static int rank_, size_;

static double tri(int n) { return n * (n + 1) / 2.0; }
static mpiopt_lazy_stats_t stats() {
  mpiopt_lazy_stats_t s;
  mpiopt_lazy_get_stats(&s);
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  check_rank = rank_;
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  const int p = size_, r = rank_;
  // The adaptive policy would run some of these at once; the counts below
  // are about deferral itself.
  {
    using mpiopt::shared;
    shared<double> a(10), b(10), c(100), d(64), e(5), f(5), g(1), h(0);
    double before_flushes = (double)stats().flushes;
    unsigned long long queued = stats().queued;
    h = a * 2.0;           // x = y * a: base y (read: not pending here), product of the a's
    a += r + 1;            // sum
    a += 1;                // combined with the previous contribution
    b -= 1;                // sum of negatives
    c *= 2;                // product
    d /= 2;                // product of divisors, then divided
    e.min(r);              // minimum
    f.max(r + 10);         // maximum
    g = g + (r + 1.0);     // x = x + a: the same as +=
    CHECK(stats().queued - queued == 8, "%llu operations queued for 8 updates", stats().queued - queued);
    CHECK((double)stats().flushes == before_flushes, "an update communicated");
    double av = a;         // force point: everything above in one flush
    CHECK((double)stats().flushes == before_flushes + 1, "%g flushes for one read", stats().flushes - before_flushes);
    CHECK(av == 10 + tri(p) + p, "a = %g", av);
    CHECK(b == 10 - p, "b = %g", b.get());
    CHECK(c == 100 * std::pow(2.0, p), "c = %g", c.get());
    CHECK(d == 64 / std::pow(2.0, p), "d = %g", d.get());
    CHECK(e == 0, "e = %g", e.get());
    CHECK(f == p - 1 + 10, "f = %g", f.get());
    CHECK(g == 1 + tri(p), "g = %g", g.get());
    CHECK(h == 10 * std::pow(2.0, p), "h = %g", h.get());

    // shared operands only: local, no communication at all
    unsigned long long coll = stats().collectives;
    shared<double> x(0);
    x = a * b;
    x += c;
    x = x - mpiopt::same(1.0);
    CHECK(stats().collectives == coll, "shared-only arithmetic communicated");
    CHECK(x == av * (10 - p) + 100 * std::pow(2.0, p) - 1, "x = %g", x.get());

    // mixed kinds on one variable apply in order: (y + sum) * prod, then max
    shared<double> y(1);
    y += r;
    y *= 2;
    y = mpiopt::max(y, 1000.0 + r);
    CHECK(y == std::max((1 + tri(p - 1)) * std::pow(2.0, p), 1000.0 + p - 1), "y = %g", y.get());

    // private results of shared operands
    double priv = 100 - a;
    CHECK(priv == 100 - av, "100 - a = %g", priv);
    double q = a + 1.0; // read into a private value: local
    CHECK(q == av + 1, "a + 1 = %g", q);

    // integer shared values wrap like MPI's sums
    shared<long> n(0);
    n += r;
    n -= 2 * r;
    CHECK(n == -(long)tri(p - 1), "n = %ld", n.get());

    // bounded: nutrient 4, floor 1, every rank demands r + 1
    shared<double> nutrient(4.0);
    double demand = r + 1;
    auto got = nutrient.take(demand, 1.0);
    double mine = got, left = nutrient;
    double total = mine;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double want_left = std::max(1.0, 4.0 - tri(p));
    CHECK(std::fabs(left - want_left) < 1e-12, "nutrient left %g, want %g", left, want_left);
    CHECK(std::fabs(total - (4.0 - want_left)) < 1e-12, "uptake %g, want %g", total, 4.0 - want_left);
    CHECK(mine <= demand + 1e-12 && mine >= 0, "rank took %g of %g", mine, demand);

    // two bounded takes and a sum fuse with everything else pending
    shared<double> n1(100.0), n2(0.5), s(0);
    auto g1 = n1.take(1.0, 0.0);
    auto g2 = n2.take(1.0, 0.0);
    s += 1;
    unsigned long long fl = stats().flushes;
    CHECK(g1 == 1.0, "g1 = %g", g1.get());
    CHECK(std::fabs(g2 - 0.5 / p) < 1e-12, "g2 = %g", g2.get());
    CHECK(s == p && n1 == 100.0 - p && n2 == 0.0, "s %g n1 %g n2 %g", s.get(), n1.get(), n2.get());
    CHECK(stats().flushes == fl + 1, "%llu flushes for three pending updates", stats().flushes - fl);

    // arrays
    mpiopt::shared_array<long> arr(5, 1);
    for (int i = 0; i < 5; i++) arr[i] += r + i;
    arr[2].max(1000 + r);
    long a0 = arr[0];
    CHECK(a0 == 1 + (long)tri(p - 1), "arr[0] = %ld", a0);
    CHECK(arr[4] == 1 + (long)tri(p - 1) + 4 * p, "arr[4] = %ld", arr.get(4));
    CHECK(arr[2] == 1000 + p - 1, "arr[2] = %ld", arr.get(2));

    // a variable that dies with a pending update flushes first (no late write)
    {
      shared<double> tmp(0);
      tmp += 1;
    }
    shared<double> after(0);
    after += 1;
    CHECK(after == p, "after = %g", after.get());
  }
  int fails = failures;
  MPI_Allreduce(MPI_IN_PLACE, &fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!rank_) std::printf("%s: %d checks, %d failures\n", fails ? "FAIL" : "ok", checks, fails);
  MPI_Finalize();
  return fails != 0;
}
