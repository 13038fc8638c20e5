// accounting/subsampled_discrete_gaussian_exact.h: one Poisson-subsampled discrete Gaussian step
// from its closed form, against (1) an independent brute force — both orders' hockey-stick sums
// over a truncated lattice in long double from the pmf alone (no thresholds, no tail sums) — and
// (2) at q = 1, the plain discrete Gaussian profile (CKS20 Theorem 7, discrete_gaussian_profile.h).
// The same comparison fails for a neighbouring rate or sensitivity.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/event_composition.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/subsampled_discrete_gaussian_exact.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace subsampled_discrete_gaussian_exact_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using Real80 = long double;

// max over both orders of sum_z (A(z) - e^eps B(z))_+, P = (1-q) N_Z(0) + q N_Z(Delta), Q = N_Z(0).
Real80 brute_force(Real80 sigma2, long delta, Real80 q, Real80 eps) {
  const long m = static_cast<long>(40 * std::sqrt(sigma2)) + 40;  // mass beyond: < e^-800
  std::vector<Real80> f;
  Real80 n = 0;
  for (long z = -m - delta; z <= m + delta; ++z) {
    f.push_back(std::exp(-static_cast<Real80>(z) * z / (2 * sigma2)));
    n += f.back();
  }
  const auto pmf = [&](long z) { return f[static_cast<std::size_t>(z + m + delta)] / n; };
  const Real80 c = std::exp(eps);
  Real80 remove = 0, add = 0;
  for (long z = -m; z <= m + delta; ++z) {
    const Real80 p = (1 - q) * pmf(z) + q * pmf(z - delta), qq = pmf(z);
    remove += std::max<Real80>(0, p - c * qq);
    add += std::max<Real80>(0, qq - c * p);
  }
  return std::max(remove, add);
}

bool agrees(const Interval& v, Real80 bf) {
  return mpfr_get_ld(v.lower(), MPFR_RNDD) <= bf * (1 + 1e-9L) + 1e-40L &&
         mpfr_get_ld(v.upper(), MPFR_RNDU) >= bf * (1 - 1e-9L) - 1e-40L;
}

TEST(SubsampledDiscreteGaussianExact, MatchesBruteForce) {
  for (const char* s2 : {"2", "10", "1/3"}) {
    for (long delta : {1L, 3L}) {
      for (const char* qt : {"0.01", "0.3", "0.9", "1"}) {
        for (const char* et : {"0", "0.1", "1", "4"}) {
          const mpq_class sigma2 = parse_rational("sigma2", s2), q = parse_rational("q", qt),
                          eps = parse_rational("eps", et);
          const Certified d = subsampled_discrete_gaussian_delta(sigma2, delta, q, eps);
          EXPECT_TRUE(d.tolerance_met);
          const Real80 bf = brute_force(sigma2.get_d(), delta, q.get_d(), eps.get_d());
          EXPECT_TRUE(agrees(d.value, bf)) << s2 << " " << delta << " " << qt << " " << et << ": "
                                           << d.value.debug_string() << " vs " << static_cast<double>(bf);
        }
      }
    }
  }
}

TEST(SubsampledDiscreteGaussianExact, AtRateOneIsThePlainProfile) {
  for (const char* s2 : {"1/2", "7", "1000000", "1e40"}) {
    for (long delta : {1L, 5L}) {
      for (const char* et : {"0", "0.01", "2", "30"}) {
        const mpq_class sigma2 = parse_rational("sigma2", s2), eps = parse_rational("eps", et);
        const Interval a = subsampled_discrete_gaussian_delta(sigma2, delta, mpq_class(1), eps).value;
        const Interval b = discrete_gaussian_delta(eps, sigma2, delta).value;
        EXPECT_FALSE(certainly_less(a, b) || certainly_less(b, a))
            << s2 << " " << delta << " " << et << ": " << a.debug_string() << " vs " << b.debug_string();
      }
    }
  }
}

TEST(SubsampledDiscreteGaussianExact, TheCheckCatchesAWrongRateOrSensitivity) {
  const Real80 bf = brute_force(10, 3, 0.3L, 0.1L);
  const mpq_class eps(1, 10);
  EXPECT_TRUE(agrees(subsampled_discrete_gaussian_delta(mpq_class(10), 3, mpq_class(3, 10), eps).value, bf));
  EXPECT_FALSE(agrees(subsampled_discrete_gaussian_delta(mpq_class(10), 2, mpq_class(3, 10), eps).value, bf));
  EXPECT_FALSE(agrees(subsampled_discrete_gaussian_delta(mpq_class(10), 3, mpq_class(303, 1000), eps).value, bf));
}

TEST(SubsampledDiscreteGaussianExact, AutoRouteIsExactAndInsideThePldBracket) {
  EventCompositionRequest r;
  r.events = {{RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(4), 1), mpq_class(1, 100)), 1}};
  r.want_epsilon = true;
  r.target = mpq_class(1, 100000);
  const EventCompositionResult out = compose_events(r);
  EXPECT_EQ(out.answer().route, "exact");
  const mpq_class hi = to_mpq(out.answer().value.upper());
  EXPECT_LE(to_mpq(subsampled_discrete_gaussian_delta(mpq_class(4), 1, mpq_class(1, 100), hi).value.upper()),
            r.target);
  for (const auto& route : out.routes) {
    if (route.route == "pld") {
      EXPECT_LE(mpfr_cmp(route.value.lower(), out.answer().value.upper()), 0);
    }
  }
}

TEST(SubsampledDiscreteGaussianExact, RefusesBadParametersByName) {
  EXPECT_THROW((void)subsampled_discrete_gaussian_delta(mpq_class(0), 1, mpq_class(1, 2), mpq_class(1)),
               ParameterError);
  EXPECT_THROW((void)subsampled_discrete_gaussian_delta(mpq_class(1), 0, mpq_class(1, 2), mpq_class(1)),
               ParameterError);
  EXPECT_THROW((void)subsampled_discrete_gaussian_delta(mpq_class(1), 1, mpq_class(0), mpq_class(1)), ParameterError);
  EXPECT_THROW((void)subsampled_discrete_gaussian_delta(mpq_class(1), 1, mpq_class(1, 2), mpq_class(-1)),
               ParameterError);
}

}  // namespace subsampled_discrete_gaussian_exact_test
}  // namespace
}  // namespace exactdp::accounting
