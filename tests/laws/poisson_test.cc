// The exact Poisson sampler (samplers/poisson.h) by chi-square against the exact Poisson masses on
// both of its routes (the table up to mu = 10^7, the envelope rejection forced from mu = 64 on),
// alpha = 1e-6 per case (a correct sampler fails with probability 1e-6 each; fixed seeds), and a
// sampler at mu off by 5 % that the same check rejects. The Skellam tests (skellam_test.cc) see
// the Poisson draws only through their difference, which hides an error common to both.
#include <gtest/gtest.h>

#include <cmath>

#include <exactdp/samplers/poisson.h>
#include <exactdp/verification/reference_law.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

// Poisson(mu) with certified masses: p_0 = exp(-mu), p_k = p_(k-1) mu / k (positive products) up
// to N = mu + 40 sqrt(mu) + 60, and beyond N the geometric bound p_N r / (1 - r), r = mu / (N + 1).
// Centre floor(mu); moments about it from the central ones (mu, mu, mu + 3 mu^2) and d = mu - c.
class PoissonReference final : public verification::ReferenceLaw {
 public:
  PoissonReference(const mpq_class& mu, mpfr_prec_t precision = verification::kPrecision)
      : ReferenceLaw(mpz_class(mu.get_num() / mu.get_den()), precision), mu_(mu), beyond_(precision) {
    const long n = static_cast<long>(mu.get_d() + 40 * std::sqrt(mu.get_d()) + 60);
    masses_.push_back(exp(Interval(mpq_class(-mu), precision)));
    for (long k = 1; k <= n; ++k) masses_.push_back(masses_.back() * (mu / mpq_class(k)));
    const mpq_class r = mu / mpq_class(n + 1);
    beyond_ = Interval::from_ends(Interval(0L, precision).lower(), (masses_.back() * (r / (1 - r))).upper(), precision);
  }
  [[nodiscard]] std::string describe() const override { return "poisson mu=" + mu_.get_str(); }
  [[nodiscard]] std::unique_ptr<verification::ReferenceLaw> at_precision(mpfr_prec_t p) const override {
    return std::make_unique<PoissonReference>(mu_, p);
  }
  [[nodiscard]] mpz_class spread() const override {
    const mpz_class s = sqrt(mpz_class(mu_.get_num() / mu_.get_den()));
    return s < 1 ? mpz_class(1) : s;
  }
  [[nodiscard]] Interval central_moment(int m) const override {
    const mpq_class d = mu_ - mpq_class(center());
    if (m == 1) return exact(d);
    if (m == 2) return exact(mu_ + d * d);
    return exact(mu_ + 3 * mu_ * mu_ + 4 * d * mu_ + 6 * d * d * mu_ + d * d * d * d);
  }
  [[nodiscard]] Interval even_mass() const override {
    const Interval e = exp(Interval(mpq_class(-2 * mu_), precision()));
    return (center() % 2 == 0 ? e + mpq_class(1) : mpq_class(1) - e) / mpq_class(2);
  }

 private:
  [[nodiscard]] Interval centered_mass(const mpz_class&, const std::optional<mpz_class>&) const override {
    throw std::logic_error("PoissonReference: not symmetric");
  }
  [[nodiscard]] bool symmetric() const override { return false; }
  [[nodiscard]] Interval mass_general(const std::optional<mpz_class>& a, const std::optional<mpz_class>& b) const override {
    const long end = static_cast<long>(masses_.size()) - 1;
    const long lo = (!a || sgn(*a) < 0) ? 0 : (*a > end ? end + 1 : a->get_si());
    const long hi = (!b || *b > end) ? end : b->get_si();
    Interval sum(precision());
    for (long k = lo; k <= hi; ++k) sum = sum + masses_[static_cast<std::size_t>(k)];
    if (!b || *b > end) sum = sum + beyond_;
    return sum;
  }
  mpq_class mu_;
  std::vector<Interval> masses_;
  Interval beyond_;
};

verification::TestResult chi_square(const char* mu, const PoissonParams& params, unsigned long long n,
                                    std::uint32_t index) {
  const PoissonReference law{mpq_class(mu)};
  return test_support::chi_square_check(
      law, [&](BitSource& b) { return sample_poisson(b, params); }, n, test_support::fixed_seed(405, index));
}

TEST(PoissonSampler, MatchesTheExactPmfOnBothPaths) {
  const mpq_class alpha(1, 1'000'000);
  std::uint32_t index = 0;
  for (const auto& [mu, n] : {std::pair{"1/3", 200'000ULL}, std::pair{"5", 200'000ULL}, std::pair{"127/2", 50'000ULL},
                              std::pair{"64", 50'000ULL}, std::pair{"100", 50'000ULL}, std::pair{"1000", 20'000ULL}}) {
    const PoissonParams table = PoissonParams::make(mpq_class(mu));
    EXPECT_NE(table.table(), nullptr) << mu;
    const auto t = chi_square(mu, table, n, ++index);
    EXPECT_TRUE(t.applicable) << mu;
    EXPECT_FALSE(test_support::rejects(t, alpha)) << test_support::rejection_message(mu, t, "1e-6");
    if (mpq_class(mu) < 64) continue;
    const auto e = chi_square(mu, internal::make_poisson_params(mpq_class(mu), nullptr), n, index + 100);
    EXPECT_TRUE(e.applicable) << mu;
    EXPECT_FALSE(test_support::rejects(e, alpha)) << test_support::rejection_message(mu, e, "1e-6") << " (envelope)";
  }
}

TEST(PoissonSampler, ASamplerWithMuOffByFivePercentIsCaught) {
  const mpq_class alpha(1, 1'000'000);
  EXPECT_TRUE(test_support::rejects(chi_square("5", PoissonParams::make(mpq_class(21, 4)), 200'000, 20), alpha));
  EXPECT_TRUE(test_support::rejects(chi_square("100", PoissonParams::make(mpq_class(105)), 50'000, 21), alpha));
  EXPECT_TRUE(test_support::rejects(chi_square("100", internal::make_poisson_params(mpq_class(105), nullptr), 50'000, 22),
                                    alpha));
}

}  // namespace
}  // namespace exactdp
