// mpiopt::shared<T>: replicated reduction variables with lazy communication
// (the CFL model of Field, Kelly and Hansen), on the lazy runtime
// (mpiopt/lazy.h). Header-only C++17; link libompi-rt.
//
// Every rank holds a copy of a shared variable; the copies stay equal.
// With x, y shared and a, b private (per-rank) values:
//
//   x += a;  x -= a;  x *= a;  x /= a;   a global reduction: x becomes
//   x = x + a;  x = y * a;  ...          x op (a_0 op a_1 ... op a_p-1), lazily
//                                        (x = y op a reads y: a force point if y is pending)
//   x.min(a);  x.max(a);                 x = min/max(x, every rank's a), lazily
//   x = mpiopt::min(x, a);  x = mpiopt::max(y, a);
//   x = y * z;  x = y + z;  x += y;      shared operands only: local, no communication
//   double d = x;  d = x + a;  x < d     reading into a private value: a force point
//   x = a;  x = a - b;                   does not compile (a private value in a
//                                        shared variable); x = mpiopt::same(v)
//                                        states that v is equal on every rank
//   auto got = x.take(demand, bound);    bounded reduction: every rank takes
//                                        demand, but x never goes below bound;
//                                        if the ranks ask for more than
//                                        x - bound, each rank's take is scaled
//                                        so that x ends exactly at bound.
//                                        `got` reads as this rank's share.
//
// Nothing communicates until a value is read: then every pending update of
// every shared variable on the communicator goes in one fused collective.
// Consecutive updates of one kind to a variable are combined locally
// (x += a; x += b sends a + b once). Updates of different kinds queue in
// order (up to four per variable before a read forces them).
//
// mpiopt::shared_array<T> is the same for a fixed-length array: a[i] += v,
// a[i] *= v, a[i].min(v), a[i].max(v), reading a[i] or a.data() forces.
//
// A shared object must not move while it has pending updates (it is not
// copyable or movable; copy its value instead: shared<double> y(x.get())).
// Every rank must perform the same updates in the same order (MPIOPT_CHECK=1
// verifies it at each fused collective). Not thread-safe.
#ifndef MPIOPT_SHARED_HPP
#define MPIOPT_SHARED_HPP

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

#include "mpiopt/lazy.h"

namespace mpiopt {

namespace detail {
template <class T> MPI_Datatype mpi_type() {
  static_assert(std::is_arithmetic<T>::value, "mpiopt::shared<T> needs an arithmetic T");
  if (std::is_same<T, double>::value) return MPI_DOUBLE;
  if (std::is_same<T, float>::value) return MPI_FLOAT;
  if (std::is_same<T, long double>::value) return MPI_LONG_DOUBLE;
  if (std::is_same<T, bool>::value) return MPI_CXX_BOOL;
  if (std::is_integral<T>::value) {
    if (std::is_signed<T>::value) {
      switch (sizeof(T)) {
      case 1: return MPI_INT8_T;
      case 2: return MPI_INT16_T;
      case 4: return MPI_INT32_T;
      default: return MPI_INT64_T;
      }
    }
    switch (sizeof(T)) {
    case 1: return MPI_UINT8_T;
    case 2: return MPI_UINT16_T;
    case 4: return MPI_UINT32_T;
    default: return MPI_UINT64_T;
    }
  }
  return MPI_DATATYPE_NULL;
}

enum class kind { sum, prod, div, min, max, bounded };

template <class U> using if_arith = typename std::enable_if<std::is_arithmetic<U>::value, int>::type;
template <class T> struct id { using type = T; };
template <class T> using id_t = typename id<T>::type; // a non-deduced parameter

inline MPI_Op mpi_op(kind k) {
  switch (k) {
  case kind::prod:
  case kind::div: return MPI_PROD;
  case kind::min: return MPI_MIN;
  case kind::max: return MPI_MAX;
  default: return MPI_SUM;
  }
}

template <class T> T identity(kind k) {
  switch (k) {
  case kind::prod:
  case kind::div: return T(1);
  case kind::min: return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                             : std::numeric_limits<T>::max();
  case kind::max: return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                             : std::numeric_limits<T>::lowest();
  default: return T(0);
  }
}

// x op= a for one element; `combine` merges two contributions of one kind.
template <class T> T combine(kind k, T acc, T a) {
  switch (k) {
  case kind::prod:
  case kind::div: return acc * a;
  case kind::min: return std::min(acc, a);
  case kind::max: return std::max(acc, a);
  default: return acc + a;
  }
}

template <class T> T apply(kind k, T x, T reduced) {
  switch (k) {
  case kind::prod: return x * reduced;
  case kind::div: return x / reduced;
  case kind::min: return std::min(x, reduced);
  case kind::max: return std::max(x, reduced);
  default: return x + reduced;
  }
}
} // namespace detail

template <class T> class shared;
template <class T> class grant;

// `shared op private`: a reduction when assigned to a shared variable, a
// local value when read into a private one.
template <class T> struct reduction {
  const shared<T> *base; // nullptr: base_value
  T base_value;
  detail::kind k;
  T operand;
  operator T() const { return detail::apply(k, base ? base->get() : base_value, operand); }
};

// A value known to be the same on every rank (assignable to a shared): the
// result of shared operands only, or a constant declared with same(v).
template <class T> struct replicated {
  T value;
  operator T() const { return value; }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator+(replicated x, U a) {
    return {nullptr, x.value, detail::kind::sum, T(a)};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator+(U a, replicated x) {
    return {nullptr, x.value, detail::kind::sum, T(a)};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator-(replicated x, U a) {
    return {nullptr, x.value, detail::kind::sum, T(-T(a))};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator*(replicated x, U a) {
    return {nullptr, x.value, detail::kind::prod, T(a)};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator*(U a, replicated x) {
    return {nullptr, x.value, detail::kind::prod, T(a)};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator/(replicated x, U a) {
    return {nullptr, x.value, detail::kind::div, T(a)};
  }
  friend replicated operator+(replicated x, replicated y) { return {x.value + y.value}; }
  friend replicated operator-(replicated x, replicated y) { return {x.value - y.value}; }
  friend replicated operator*(replicated x, replicated y) { return {x.value * y.value}; }
  friend replicated operator/(replicated x, replicated y) { return {x.value / y.value}; }
};
template <class T> replicated<T> same(T v) { return {v}; }

template <class T> class shared {
  static constexpr int max_steps = 4;
  struct step {
    detail::kind k;
    T contrib, result, bound;
    grant<T> *g;
    unsigned long long epoch; // mpiopt_lazy_epoch when queued: unchanged = still reads contrib
  };

public:
  using value_type = T;
  // The initial value must be the same on every rank.
  explicit shared(T init = T(), MPI_Comm comm = MPI_COMM_WORLD, const char *name = "mpiopt::shared")
      : value_(init), comm_(comm), name_(name) {}
  shared(replicated<T> init, MPI_Comm comm = MPI_COMM_WORLD) : shared(init.value, comm) {}
  shared(const shared &) = delete;
  ~shared() { force(); }

  // --- reads: force points -------------------------------------------------
  T get() const {
    const_cast<shared *>(this)->force();
    return value_;
  }
  operator T() const { return get(); }
  bool pending() const { return n_ > 0; }

  // --- assignments -----------------------------------------------------------
  shared &operator=(const T &) = delete; // a private value cannot become shared
  shared &operator=(const shared &y) {
    if (&y != this) overwrite(y.get());
    return *this;
  }
  shared &operator=(replicated<T> v) {
    overwrite(v.value);
    return *this;
  }
  shared &operator=(const reduction<T> &r) {
    if (r.base != this) overwrite(r.base ? r.base->get() : r.base_value);
    update(r.k, r.operand);
    return *this;
  }

  // --- reductions with a private operand (lazy) ------------------------------
  shared &operator+=(T a) { return add(a); }
  shared &operator-=(T a) { return add(T(-a)); }
  shared &operator*=(T a) { return update(detail::kind::prod, a); }
  shared &operator/=(T a) { return update(detail::kind::div, a); }
  shared &min(T a) { return update(detail::kind::min, a); }
  shared &max(T a) { return update(detail::kind::max, a); }

  // --- shared operands: local --------------------------------------------------
  shared &operator+=(const shared &y) { return local(get() + y.get()); }
  shared &operator-=(const shared &y) { return local(get() - y.get()); }
  shared &operator*=(const shared &y) { return local(get() * y.get()); }
  shared &operator/=(const shared &y) { return local(get() / y.get()); }
  shared &operator+=(replicated<T> y) { return local(get() + y.value); }
  shared &operator-=(replicated<T> y) { return local(get() - y.value); }
  shared &operator*=(replicated<T> y) { return local(get() * y.value); }
  shared &operator/=(replicated<T> y) { return local(get() / y.value); }

  // Bounded reduction (floating-point T): see the header comment.
  grant<T> take(T demand, T bound);

  // shared op private -> reduction; shared op shared (or replicated) -> replicated.
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator+(const shared &x, U a) {
    return {&x, T(), detail::kind::sum, T(a)};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator+(U a, const shared &x) {
    return {&x, T(), detail::kind::sum, T(a)};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator-(const shared &x, U a) {
    return {&x, T(), detail::kind::sum, T(-T(a))};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator*(const shared &x, U a) {
    return {&x, T(), detail::kind::prod, T(a)};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator*(U a, const shared &x) {
    return {&x, T(), detail::kind::prod, T(a)};
  }
  template <class U, detail::if_arith<U> = 0> friend reduction<T> operator/(const shared &x, U a) {
    return {&x, T(), detail::kind::div, T(a)};
  }
  // private op shared where the shared is not the accumulator: a private value
  template <class U, detail::if_arith<U> = 0> friend T operator-(U a, const shared &x) { return T(a) - x.get(); }
  template <class U, detail::if_arith<U> = 0> friend T operator/(U a, const shared &x) { return T(a) / x.get(); }
  friend replicated<T> operator+(const shared &x, const shared &y) { return {x.get() + y.get()}; }
  friend replicated<T> operator-(const shared &x, const shared &y) { return {x.get() - y.get()}; }
  friend replicated<T> operator*(const shared &x, const shared &y) { return {x.get() * y.get()}; }
  friend replicated<T> operator/(const shared &x, const shared &y) { return {x.get() / y.get()}; }
  friend replicated<T> operator+(const shared &x, replicated<T> y) { return {x.get() + y.value}; }
  friend replicated<T> operator+(replicated<T> y, const shared &x) { return {y.value + x.get()}; }
  friend replicated<T> operator-(const shared &x, replicated<T> y) { return {x.get() - y.value}; }
  friend replicated<T> operator-(replicated<T> y, const shared &x) { return {y.value - x.get()}; }
  friend replicated<T> operator*(const shared &x, replicated<T> y) { return {x.get() * y.value}; }
  friend replicated<T> operator*(replicated<T> y, const shared &x) { return {y.value * x.get()}; }
  friend replicated<T> operator/(const shared &x, replicated<T> y) { return {x.get() / y.value}; }
  friend replicated<T> operator/(replicated<T> y, const shared &x) { return {y.value / x.get()}; }
  friend replicated<T> operator-(const shared &x) { return {T(-x.get())}; }

private:
  friend class grant<T>;

  // Deliver and apply every pending step (one fused collective for all
  // shared variables on the communicator, unless already delivered).
  void force() {
    if (!n_) return;
    if (mpiopt_lazy_pending(&steps_[n_ - 1].result, sizeof(T))) mpiopt_lazy_wait(&steps_[n_ - 1].result);
    for (int i = 0; i < n_; i++) {
      step &s = steps_[i];
      if (s.k == detail::kind::bounded) {
        T avail = value_ - s.bound, total = s.result;
        T scale = total <= avail ? T(1) : (avail > T(0) && total > T(0) ? avail / total : T(0));
        value_ = total <= avail ? value_ - total : (avail > T(0) ? s.bound : value_);
        if (s.g) s.g->settle(s.contrib * scale);
      } else {
        value_ = detail::apply(s.k, value_, s.result);
      }
    }
    n_ = 0;
  }

  // The hot path of "x += a" in a loop: the open sum step takes it.
  shared &add(T a) {
    if (n_) {
      step &s = steps_[n_ - 1];
      if (s.k == detail::kind::sum && s.epoch == mpiopt_lazy_epoch) {
        s.contrib += a;
        return *this;
      }
    }
    return update(detail::kind::sum, a);
  }

  shared &update(detail::kind k, T a) {
    if (n_ && steps_[n_ - 1].k == k && k != detail::kind::bounded && steps_[n_ - 1].epoch == mpiopt_lazy_epoch) {
      // still queued: the runtime reads the contribution at the flush
      steps_[n_ - 1].contrib = detail::combine(k, steps_[n_ - 1].contrib, a);
      return *this;
    }
    open(k, a, T(), nullptr);
    return *this;
  }

  step &open(detail::kind k, T a, T bound, grant<T> *g) {
    if (n_ && !mpiopt_lazy_pending(&steps_[n_ - 1].result, sizeof(T))) force(); // delivered: apply
    if (n_ == max_steps) force();
    step &s = steps_[n_++];
    s.k = k;
    s.contrib = a;
    s.result = T();
    s.bound = bound;
    s.g = g;
    s.epoch = mpiopt_lazy_epoch;
    mpiopt_lazy_allreduce_by_ref_at(&s.contrib, &s.result, 1, detail::mpi_type<T>(), detail::mpi_op(k), comm_,
                                    name_, 0);
    return s;
  }

  void overwrite(T v) {
    force();
    value_ = v;
  }
  shared &local(T v) {
    overwrite(v);
    return *this;
  }

  T value_;
  MPI_Comm comm_;
  const char *name_;
  step steps_[max_steps];
  int n_ = 0;
};

// This rank's share of a bounded reduction; reading it is a force point.
template <class T> class grant {
public:
  grant(const grant &) = delete;
  grant &operator=(const grant &) = delete;
  ~grant() {
    if (!done_ && var_) var_->force();
  }
  T get() const {
    if (!done_) var_->force();
    return value_;
  }
  operator T() const { return get(); }

private:
  friend class shared<T>;
  grant(shared<T> *v, T demand, T bound) : var_(v) { v->open(detail::kind::bounded, demand, bound, this); }
  void settle(T v) {
    value_ = v;
    done_ = true;
  }
  shared<T> *var_;
  T value_ = T();
  bool done_ = false;
};

template <class T> grant<T> shared<T>::take(T demand, T bound) {
  static_assert(std::is_floating_point<T>::value, "bounded reductions need a floating-point shared<T>");
  return grant<T>(this, demand, bound); // a prvalue: built in the caller's object, whose address the step keeps
}

template <class T> reduction<T> min(const shared<T> &x, detail::id_t<T> a) { return {&x, T(), detail::kind::min, a}; }
template <class T> reduction<T> max(const shared<T> &x, detail::id_t<T> a) { return {&x, T(), detail::kind::max, a}; }
template <class T> reduction<T> min(detail::id_t<T> a, const shared<T> &x) { return {&x, T(), detail::kind::min, a}; }
template <class T> reduction<T> max(detail::id_t<T> a, const shared<T> &x) { return {&x, T(), detail::kind::max, a}; }

// A fixed-length array of shared values, reduced element-wise. One step per
// kind of update covers the whole array (one queued operation of n
// elements); its contribution buffer is allocated once and reused.
template <class T> class shared_array {
  struct step {
    detail::kind k;
    std::vector<T> contrib, result;
    unsigned long long epoch;
  };

public:
  class element {
  public:
    element &operator+=(T a) { return upd(detail::kind::sum, a); }
    element &operator-=(T a) { return upd(detail::kind::sum, T(-a)); }
    element &operator*=(T a) { return upd(detail::kind::prod, a); }
    element &operator/=(T a) { return upd(detail::kind::div, a); }
    element &min(T a) { return upd(detail::kind::min, a); }
    element &max(T a) { return upd(detail::kind::max, a); }
    element &operator=(const T &) = delete;
    element &operator=(replicated<T> v) {
      a_->force();
      a_->values_[i_] = v.value;
      return *this;
    }
    operator T() const { return a_->get(i_); }

  private:
    friend class shared_array;
    element(shared_array *a, std::size_t i) : a_(a), i_(i) {}
    element &upd(detail::kind k, T v) {
      step &s = a_->current(k);
      s.contrib[i_] = detail::combine(k, s.contrib[i_], v);
      return *this;
    }
    shared_array *a_;
    std::size_t i_;
  };

  explicit shared_array(std::size_t n, T init = T(), MPI_Comm comm = MPI_COMM_WORLD,
                        const char *name = "mpiopt::shared_array")
      : values_(n, init), comm_(comm), name_(name) {
    steps_.reserve(4);
  }
  shared_array(const shared_array &) = delete;
  ~shared_array() { force(); }

  std::size_t size() const { return values_.size(); }
  element operator[](std::size_t i) { return element(this, i); }
  T get(std::size_t i) const {
    const_cast<shared_array *>(this)->force();
    return values_[i];
  }
  const T *data() const {
    const_cast<shared_array *>(this)->force();
    return values_.data();
  }

private:
  bool queued(const step &s) const { return mpiopt_lazy_pending(s.result.data(), s.result.size() * sizeof(T)); }

  void force() {
    if (!n_) return;
    step &last = steps_[n_ - 1];
    if (queued(last)) mpiopt_lazy_wait(last.result.data());
    for (int j = 0; j < n_; j++)
      for (std::size_t i = 0; i < values_.size(); i++)
        values_[i] = detail::apply(steps_[j].k, values_[i], steps_[j].result[i]);
    n_ = 0;
  }

  step &current(detail::kind k) {
    if (n_ && steps_[n_ - 1].k == k && steps_[n_ - 1].epoch == mpiopt_lazy_epoch) return steps_[n_ - 1];
    if (n_ && !queued(steps_[n_ - 1])) force();
    if (n_ == 4) force();
    if ((int)steps_.size() <= n_) steps_.resize(n_ + 1);
    step &s = steps_[n_++];
    s.k = k;
    s.contrib.assign(values_.size(), detail::identity<T>(k));
    s.result.resize(values_.size());
    s.epoch = mpiopt_lazy_epoch;
    mpiopt_lazy_allreduce_by_ref_at(s.contrib.data(), s.result.data(), (int)values_.size(), detail::mpi_type<T>(),
                                    detail::mpi_op(k), comm_, name_, 0);
    return s;
  }

  std::vector<T> values_;
  MPI_Comm comm_;
  const char *name_;
  std::vector<step> steps_; // slots reused; never shrinks (so queued buffers stay put)
  int n_ = 0;
};

} // namespace mpiopt

#endif // MPIOPT_SHARED_HPP
