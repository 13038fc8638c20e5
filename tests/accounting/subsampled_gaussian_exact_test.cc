// accounting/subsampled_gaussian_exact.h: one Poisson-subsampled Gaussian step from its closed
// form, against an independent brute force — the hockey-stick integral
// int max(0, p(x) - e^eps q(x)) dx of both pair orders, by composite Simpson in long double from
// the threshold found by bisection on the density ratio (no normal tails, no closed form) — and
// a deliberately broken closed form (one term dropped) that the same check rejects.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>

#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/subsampled_gaussian_exact.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {
namespace subsampled_gaussian_exact_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using Real80 = long double;

Real80 phi(Real80 x) { return std::exp(-x * x / 2) / std::sqrt(2 * static_cast<Real80>(M_PI)); }

// Composite Simpson of f on [a, b] with n (even) panels.
Real80 simpson(const std::function<Real80(Real80)>& f, Real80 a, Real80 b, int n) {
  const Real80 h = (b - a) / n;
  Real80 s = f(a) + f(b);
  for (int i = 1; i < n; ++i) s += f(a + i * h) * (i % 2 == 1 ? 4 : 2);
  return s * h / 3;
}

// The root of an increasing g on [-60, 60] by bisection.
Real80 root(const std::function<Real80(Real80)>& g) {
  Real80 lo = -60, hi = 60;
  for (int i = 0; i < 200; ++i) {
    const Real80 mid = (lo + hi) / 2;
    (g(mid) > 0 ? hi : lo) = mid;
  }
  return (lo + hi) / 2;
}

// max over both orders of sup_S P(S) - c Q(S), P = (1-q) N(0,1) + q N(mu,1), Q = N(0,1).
Real80 brute_force_delta(Real80 mu, Real80 q, Real80 eps) {
  const Real80 c = std::exp(eps);
  const auto ratio = [&](Real80 x) { return (1 - q) + q * std::exp(mu * x - mu * mu / 2); };  // P/Q
  const auto p = [&](Real80 x) { return (1 - q) * phi(x) + q * phi(x - mu); };
  const Real80 x1 = root([&](Real80 x) { return ratio(x) - c; });
  const Real80 remove = simpson([&](Real80 x) { return std::max<Real80>(0, p(x) - c * phi(x)); }, x1, x1 + 60, 400000);
  Real80 add = 0;
  if (1 / c > 1 - q) {
    const Real80 x2 = root([&](Real80 x) { return c * ratio(x) - 1; });
    add = simpson([&](Real80 x) { return std::max<Real80>(0, phi(x) - c * p(x)); }, x2 - 60, x2, 400000);
  }
  return std::max(remove, add);
}

// Whether the enclosure agrees with the brute force within its relative error (1e-9: Simpson's
// error at step 1.5e-4 on these smooth one-sided integrands is far smaller).
bool agrees(const Interval& v, Real80 bf) {
  return mpfr_get_ld(v.lower(), MPFR_RNDD) <= bf * (1 + 1e-9L) && mpfr_get_ld(v.upper(), MPFR_RNDU) >= bf * (1 - 1e-9L);
}

struct Case {
  const char *sigma, *q, *eps;
};

TEST(SubsampledGaussianExact, MatchesBruteForceAndIsNarrow) {
  // sigma 0.8 at eps 4 and sigma 2 at eps 1/2 (q 0.01: the remove order), and cases where the
  // add order decides (large q, small eps) or q = 1 (the plain Gaussian).
  for (const Case c : {Case{"0.8", "0.01", "4"}, Case{"2", "0.01", "0.5"}, Case{"1", "0.5", "0.1"},
                       Case{"1.5", "0.9", "0.05"}, Case{"1", "1", "1"}, Case{"1", "0.2", "0"}}) {
    const mpq_class mu = 1 / parse_rational("sigma", c.sigma), q = parse_rational("q", c.q),
                    eps = parse_rational("eps", c.eps);
    const Certified d = subsampled_gaussian_delta(mu, q, eps);
    const Real80 bf = brute_force_delta(mu.get_d(), q.get_d(), eps.get_d());
    EXPECT_TRUE(d.tolerance_met) << c.sigma;
    EXPECT_TRUE(relative_width_at_most(d.value, mpq_class(1, 1'000'000))) << c.sigma;
    EXPECT_TRUE(agrees(d.value, bf)) << c.sigma << " " << c.q << " " << c.eps << ": "
                                     << to_decimal_string(d.value, 12) << " vs " << static_cast<double>(bf);
  }
}

TEST(SubsampledGaussianExact, KnownValueAndInverse) {
  // sigma 2, eps 1/2, q 0.01: delta = 1.26e-19 (the true value; the rdp route is far above it).
  const Certified d = subsampled_gaussian_delta(mpq_class(1, 2), mpq_class(1, 100), mpq_class(1, 2));
  EXPECT_GT(mpfr_cmp_d(d.value.lower(), 1.25e-19), 0);
  EXPECT_LT(mpfr_cmp_d(d.value.upper(), 1.27e-19), 0);
  // epsilon at delta(4) of sigma 0.8 brackets 4.
  const mpq_class mu(5, 4), q(1, 100);
  const mpq_class delta = to_mpq(subsampled_gaussian_delta(mu, q, mpq_class(4)).value.upper());
  const std::optional<Certified> e = subsampled_gaussian_epsilon(mu, q, delta);
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(e->tolerance_met);
  EXPECT_LE(mpfr_cmp_ui(e->value.lower(), 4), 0);
  EXPECT_TRUE(relative_width_at_most(e->value, mpq_class(1, 1'000'000)));
  EXPECT_TRUE(upper_at_most(e->value, mpq_class(4) + mpq_class(1, 1'000'000)));
}

TEST(SubsampledGaussianExact, ADroppedTermIsCaught) {
  // The remove order without the (1 - q) Phi^c(x1) part of P: q Phi^c(x1 - mu) - (c - 1) Phi^c(x1)
  // evaluated by the same library pieces. The brute-force check must reject it.
  const mpq_class mu(5, 4), q(1, 100), eps(4);
  constexpr mpfr_prec_t p = 256;
  const Interval e(eps, p);
  const Interval x1 = (log((expm1(e) + q) / q) + mpq_class(mu * mu / 2)) / mu;
  const Interval broken = normal_sf(x1 - mu) * q - expm1(e) * normal_sf(x1);
  const Real80 bf = brute_force_delta(mu.get_d(), q.get_d(), eps.get_d());
  EXPECT_FALSE(agrees(broken, bf)) << to_decimal_string(broken, 12) << " vs " << static_cast<double>(bf);
  EXPECT_TRUE(agrees(subsampled_gaussian_delta(mu, q, eps, p), bf));
}

TEST(SubsampledGaussianExact, BadInputNamesTheParameter) {
  const auto names = [](const std::function<void()>& f, const std::string& name) {
    try {
      f();
      ADD_FAILURE() << "no error, expected one naming " << name;
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), name) << e.what();
    }
  };
  names([] { (void)subsampled_gaussian_delta(mpq_class(1), mpq_class(0), mpq_class(1)); }, "q");
  names([] { (void)subsampled_gaussian_delta(mpq_class(1), mpq_class(2), mpq_class(1)); }, "q");
  names([] { (void)subsampled_gaussian_delta(mpq_class(0), mpq_class(1, 2), mpq_class(1)); }, "mu");
  names([] { (void)subsampled_gaussian_delta(mpq_class(1), mpq_class(1, 2), mpq_class(-1)); }, "epsilon");
  names([] { (void)subsampled_gaussian_epsilon(mpq_class(1), mpq_class(1, 2), mpq_class(0)); }, "delta");
}

}  // namespace subsampled_gaussian_exact_test
}  // namespace
}  // namespace exactdp::accounting
