// rational_generators.h — RapidCheck generators of exact rationals for the accounting tests.
#pragma once

#include <gmpxx.h>
#include <rapidcheck.h>

#include <string>

namespace exactdp::test_support {

// A positive rational p/q with 1 <= p, q <= 10^6, times 10^k for k in [-kmax, kmax].
inline rc::Gen<mpq_class> positive_rational(int kmax = 3) {
  return rc::gen::map(
      rc::gen::tuple(rc::gen::inRange<long>(1, 1'000'001), rc::gen::inRange<long>(1, 1'000'001),
                     rc::gen::inRange<int>(-kmax, kmax + 1)),
      [](const std::tuple<long, long, int>& t) {
        mpq_class q(std::get<0>(t), std::get<1>(t));
        mpz_class ten = 1;
        for (int i = 0; i < std::abs(std::get<2>(t)); ++i) ten *= 10;
        if (std::get<2>(t) >= 0) {
          q *= ten;
        } else {
          q /= ten;
        }
        q.canonicalize();
        return q;
      });
}

// A rational in [lo, hi] on a grid of 10^6 steps.
inline rc::Gen<mpq_class> rational_in(mpq_class lo, mpq_class hi) {
  return rc::gen::map(rc::gen::inRange<long>(0, 1'000'001), [lo, hi](long k) {
    mpq_class q = lo + (hi - lo) * mpq_class(k, 1'000'000);
    q.canonicalize();
    return q;
  });
}

inline rc::Gen<mpq_class> any_rational() {
  return rc::gen::map(
      rc::gen::tuple(rc::gen::inRange<long>(-1'000'000, 1'000'001),
                     rc::gen::inRange<long>(1, 1'000'001)),
      [](const std::tuple<long, long>& t) {
        mpq_class q(std::get<0>(t), std::get<1>(t));
        q.canonicalize();
        return q;
      });
}

}  // namespace exactdp::test_support

namespace rc {
template <>
struct Arbitrary<mpq_class> {
  static Gen<mpq_class> arbitrary() { return exactdp::test_support::any_rational(); }
};
}  // namespace rc
