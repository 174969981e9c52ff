// Compile-time rules of mpiopt::shared<T> (run by shared_reject.sh):
// CASE 0 must compile (the accepted forms); every other CASE must not.
#include <mpi.h>
#include "mpiopt/shared.hpp"

int main() {
  mpiopt::shared<double> x(0), y(1);
  double a = 1, b = 2;
#if CASE == 0
  x += a;                  // reduction
  x = x * a;               // reduction
  x = y * y;               // shared operands: local
  x = mpiopt::same(0.0);   // declared replicated
  double d = x + a;        // private result
  (void)d;
#elif CASE == 1
  x = a;                   // a private value into a shared variable
#elif CASE == 2
  x = a - b;               // private operands only
#elif CASE == 3
  x = 1.0;                 // even a constant: use mpiopt::same(1.0)
#elif CASE == 4
  x = a - x;               // private minus shared is a private value
#elif CASE == 5
  mpiopt::shared<double> z(x); // not copyable: pending updates point into x
  (void)z;
#elif CASE == 6
  mpiopt::shared<int> n(0);
  auto g = n.take(1, 0);   // bounded reductions are floating-point only
  (void)g;
#endif
  (void)b;
  return 0;
}
