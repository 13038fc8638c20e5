// The Poisson sampler's fixed-point acceptance (samplers/internal/poisson_fixed.h) against the MPFR
// path it stands in for: from the same bits both give the same values and read the same bits, at
// mu from the envelope's first values to 10^15 (the envelope forced below 10^7, where the table
// serves by default) (integer and fractional mu); a pinned seeded
// sequence; the fixed-point bounds' range.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cstdlib>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/poisson_fixed.h>
#include <exactdp/samplers/poisson.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

std::vector<mpz_class> draws(const PoissonParams& params, std::uint32_t index, int n, bool fixed_path,
                             std::uint64_t& bits_read) {
  SeededBits bits(test_support::fixed_seed(406, index));
  std::vector<mpz_class> out(static_cast<std::size_t>(n));
  for (auto& v : out) {
    if (fixed_path) {
      sample_poisson(bits, params, v);
    } else {
      internal::sample_poisson_mpfr_only(bits, params, v);
    }
  }
  bits_read = bits.bits_consumed();
  return out;
}

TEST(PoissonFixedPath, GivesTheMpfrPathsValuesFromTheSameBits) {
  std::uint32_t index = 0;
  for (const char* mu : {"64", "65", "100", "1000", "3001/3", "1000000", "1000001/7", "1000000000000", "1000000000000000"}) {
    const PoissonParams params = internal::make_poisson_params(mpq_class(mu), nullptr);  // the envelope
    ASSERT_EQ(params.table(), nullptr) << mu;
    std::uint64_t fixed_bits = 0, mpfr_bits = 0;
    const auto fixed = draws(params, ++index, 1500, true, fixed_bits);
    const auto reference = draws(params, index, 1500, false, mpfr_bits);
    EXPECT_EQ(fixed, reference) << "mu = " << mu;
    EXPECT_EQ(fixed_bits, mpfr_bits) << "mu = " << mu;
  }
}

TEST(PoissonFixedPath, PinnedSeededSequence) {
  const PoissonParams params = internal::make_poisson_params(mpq_class(1'000'000), nullptr);
  std::uint64_t bits_read = 0;
  const auto values = draws(params, 100, 6, true, bits_read);
  const std::vector<mpz_class> expected = {999848, 999161, 1000408, 1000178, 999943, 998800};
  EXPECT_EQ(values, expected);
}

constexpr mpfr_prec_t kPrecision = 256;

Interval log_factorial(const mpz_class& n) {
  Real x(kPrecision), lo(kPrecision), hi(kPrecision);
  mpfr_set_z(x, mpz_class(n + 1).get_mpz_t(), MPFR_RNDN);  // exact: n < 2^60
  mpfr_lngamma(lo, x, MPFR_RNDD);
  mpfr_lngamma(hi, x, MPFR_RNDU);
  return Interval::from_ends(lo, hi, kPrecision);
}

mpz_class to_mpz(uint128 v) {
  return (mpz_class(static_cast<unsigned long>(v >> 64)) << 64) + mpz_class(static_cast<unsigned long>(v));
}

// Whether lo / 2^80 <= x <= hi / 2^80 for every x in the enclosure a.
bool contains(const internal::AcceptanceBounds& b, const Interval& a) {
  Real scaled(kPrecision);
  mpfr_mul_2ui(scaled, a.lower(), 80, MPFR_RNDD);
  if (mpfr_cmp_z(scaled, to_mpz(b.lo).get_mpz_t()) < 0) return false;
  mpfr_mul_2ui(scaled, a.upper(), 80, MPFR_RNDU);
  return mpfr_cmp_z(scaled, to_mpz(b.hi).get_mpz_t()) <= 0;
}

// a(m + j) = exp(j log mu - log k! + log m! + lambda (|j| - t)) from MPFR's log-gamma at 256 bits
// holds within the fixed-point bounds for every j of the range (|j| <= m / 4), and the bounds are
// narrow where a(k) >= 2^-31: 2^-50 from m = 10^6 on, 2^-36 from m = 1000 (Stirling's remainder
// 1 / (360 k^3) sets the width at small m).
TEST(PoissonFixedPath, BoundsHoldTheAcceptanceFromLogGamma) {
  for (const char* mu_text : {"64", "3001/3", "1000000", "7000000000001/7", "1000000000000000"}) {
    const mpq_class mu(mu_text);
    const mpz_class m = mu.get_num() / mu.get_den(), t = sqrt(m);
    const mpq_class lambda(1, mpz_class(4 * t));  // at most the envelope's rate: a(k) <= 1
    const auto terms = internal::make_poisson_fixed_terms(mu, m, t, lambda);
    const Interval log_mu = log(Interval(mu, kPrecision)), log_m = log_factorial(m);
    const long quarter = mpz_class(m / 4).get_si();
    const long step = quarter / 300 > 0 ? quarter / 300 : 1;
    const mpz_class width_cap = mpz_class(1) << (m < 1000 ? 60 : m < 1000000 ? 44 : 30);
    for (long j = -quarter; j <= quarter; j += (j > -40 && j < 40) || (std::labs(std::labs(j) - t.get_si()) < 3) ? 1 : step) {
      const auto bounds = internal::poisson_fixed_acceptance(terms, j);
      if (j >= (1L << 31) || -j >= (1L << 31)) {
        EXPECT_FALSE(bounds.has_value());
        continue;
      }
      ASSERT_TRUE(bounds.has_value()) << mu_text << " j = " << j;
      const mpz_class k = m + j;
      const Interval d = log_mu * mpq_class(j) - log_factorial(k) + log_m +
                         Interval(mpq_class(lambda * (std::labs(j) - t)), kPrecision);
      EXPECT_TRUE(contains(*bounds, exp(d))) << mu_text << " j = " << j;
      if (bounds->hi > (uint128{1} << 49)) {  // below 2^-31 the bounds are [0, 2^-31]
        EXPECT_LT(to_mpz(bounds->hi - bounds->lo), width_cap) << mu_text << " j = " << j;
      }
    }
    EXPECT_FALSE(internal::poisson_fixed_acceptance(terms, quarter + 1).has_value()) << mu_text;
  }
}

}  // namespace
}  // namespace exactdp
