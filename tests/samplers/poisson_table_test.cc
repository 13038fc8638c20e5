// The Poisson table sampler (samplers/internal/poisson_table.h): chi-square against the exact
// Poisson masses at mu = 1/3 .. 10^7 on the default table, and on test tables whose pool and tails
// carry a large share of the draws (8..16-bit units, a narrowed range); the table's weights against
// an independent MPFR computation (log-gamma at 256 bits for every k); the route by mu.
// Each chi-square case is a fixed seed at alpha = 1e-6: a correct sampler fails it with
// probability 1e-6 (to the accuracy of the chi-square approximation, cells merged to the default
// least expected count). Ten such cases (six mu on the default table, four test tables): a
// false alarm for the file with probability at most 1e-5 (union bound), decided once per seed.
// The off-by-1% case is the power check, not a false-alarm one.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cstdint>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/poisson_table.h>
#include <exactdp/samplers/poisson.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/verification/goodness_of_fit.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

constexpr mpfr_prec_t kP = 256;

// p(k) = exp(k log mu - mu - log k!), with MPFR's log-gamma (independent of the table's recurrence).
Interval poisson_mass(const mpq_class& mu, long k) {
  Real x(kP), lo(kP), hi(kP);
  mpfr_set_si(x, k + 1, MPFR_RNDN);
  mpfr_lngamma(lo, x, MPFR_RNDD);
  mpfr_lngamma(hi, x, MPFR_RNDU);
  return exp(log(Interval(mu, kP)) * mpq_class(k) - Interval(mu, kP) - Interval::from_ends(lo, hi, kP));
}

// Chi-square of n draws against Poisson(mu): one cell per k within 9 standard deviations of mu
// (masses by the recurrence from the mode, outward rounding), both tails pooled into the end
// cells (their masses enclosed in [0, the rest]).
verification::TestResult chi_square(const mpq_class& mu, const PoissonParams& params, unsigned long long n,
                                    std::uint32_t index) {
  const long m = mpz_class(mu.get_num() / mu.get_den()).get_si();
  const long spread = 9 * mpz_class(sqrt(mpz_class(m + 1))).get_si() + 12;
  const long lo = m > spread ? m - spread : 0, hi = m + spread;
  std::vector<verification::Cell> cells(static_cast<std::size_t>(hi - lo + 3));
  Interval mass = poisson_mass(mu, m), inside(mpq_class(0), verification::kPrecision);
  for (long k = m, step = 0; k >= lo; --k, ++step) {  // downward: p(k - 1) = p(k) k / mu
    if (step > 0) mass = mass * (mpq_class(k + 1) / mu);
    cells[static_cast<std::size_t>(k - lo + 1)].mass = mass;
  }
  for (long k = lo; k <= hi; ++k) cells[static_cast<std::size_t>(k - lo + 1)].first = cells[static_cast<std::size_t>(k - lo + 1)].last = mpz_class(k);
  cells.front().last = mpz_class(lo - 1);
  cells.back().first = mpz_class(hi + 1);
  mass = poisson_mass(mu, m);
  for (long k = m + 1; k <= hi; ++k) {
    mass = mass * (mu / mpq_class(k));
    cells[static_cast<std::size_t>(k - lo + 1)].mass = mass;
  }
  for (std::size_t i = 1; i + 1 < cells.size(); ++i) inside = inside + cells[i].mass;
  const Interval rest = Interval::from_ends(Interval(0L, kP).lower(), (mpq_class(1) - inside).upper(), kP);
  cells.front().mass = rest;
  cells.back().mass = rest;
  SeededBits bits(test_support::fixed_seed(407, index));
  mpz_class v;
  for (unsigned long long i = 0; i < n; ++i) {
    sample_poisson(bits, params, v);
    const long k = v.get_si();
    ++cells[k < lo ? 0 : k > hi ? cells.size() - 1 : static_cast<std::size_t>(k - lo + 1)].observed;
  }
  const auto bins = verification::merge_cells(cells, n, verification::default_min_expected(n));
  return verification::pearson_chi_square(bins, n);
}

void expect_poisson(const char* mu, const PoissonParams& params, unsigned long long n, std::uint32_t index) {
  const auto t = chi_square(mpq_class(mu), params, n, index);
  EXPECT_TRUE(t.applicable) << mu;
  EXPECT_FALSE(test_support::rejects(t, mpq_class(1, 1'000'000))) << test_support::rejection_message(mu, t, "1e-6");
}

PoissonParams table_params(const char* mu, unsigned total_bits, std::int64_t half_width) {
  internal::PoissonTableOptions options;
  options.total_bits = total_bits;
  options.half_width = half_width;
  return internal::make_poisson_params(mpq_class(mu), &options);
}

TEST(PoissonTable, MatchesTheExactPmfAtSeveralMu) {
  std::uint32_t index = 0;
  for (const char* mu : {"1/3", "25", "1000", "7000001/7", "1000000", "10000000"}) {
    const PoissonParams params = PoissonParams::make(mpq_class(mu));
    ASSERT_NE(params.table(), nullptr) << mu;
    expect_poisson(mu, params, 300'000, ++index);
  }
}

// 8-bit units and a range of 15 values at mu = 25: 1 in 8 proposals lands in the pool and the
// tails carry about 15 % of the output; likewise at mu = 1/3 (range [0, 1], the upper tail only),
// 7/2 (12 bits, range [1, 5]) and mu = 1000 (16 bits, 3 standard deviations each side).
TEST(PoissonTable, ThePoolAndTheTailsHaveTheLaw) {
  expect_poisson("25", table_params("25", 8, 7), 40'000, 20);
  expect_poisson("1/3", table_params("1/3", 8, 1), 40'000, 21);
  expect_poisson("7/2", table_params("7/2", 12, 2), 40'000, 23);
  expect_poisson("1000", table_params("1000", 16, 95), 100'000, 22);
}

TEST(PoissonTable, ASamplerAtMuOffByOnePercentIsCaught) {
  const auto t = chi_square(mpq_class(1'000'000), PoissonParams::make(mpq_class(1'010'000)), 300'000, 30);
  EXPECT_TRUE(test_support::rejects(t, mpq_class(1, 1'000'000)));
}

// w(k) = floor(c p(k)) for every k of the range, T- >= c p(L) s / (1 - s), T+ >= c p(R) r / (1 - r),
// and the units add up to at most 2^B, with p(k) from log-gamma at 256 bits.
void expect_weights(const char* mu_text, const PoissonParams& params) {
  const mpq_class mu(mu_text);
  const internal::PoissonTable& table = *params.table();
  const mpq_class c(mpz_class(static_cast<unsigned long>(table.scale())));
  mpz_class sum = 0;
  for (long k = table.low(); k <= table.high(); ++k) {
    const Interval scaled = poisson_mass(mu, k) * c;
    mpz_class lo, hi;
    mpfr_get_z(lo.get_mpz_t(), scaled.lower(), MPFR_RNDD);
    mpfr_get_z(hi.get_mpz_t(), scaled.upper(), MPFR_RNDD);
    ASSERT_EQ(lo, hi) << mu_text << " k = " << k;  // 256 bits settle the floor
    EXPECT_EQ(mpz_class(table.weights()[static_cast<std::size_t>(k - table.low())]), lo) << mu_text << " k = " << k;
    sum += lo;
  }
  const long low = table.low(), high = table.high();
  const Interval upper = poisson_mass(mu, high) * c * (mu / (high + 1 - mu));
  EXPECT_TRUE(upper_at_most(upper, mpq_class(mpz_class(static_cast<unsigned long>(table.upper_tail_units()))))) << mu_text;
  if (low > 0) {
    const Interval lower = poisson_mass(mu, low) * c * (mpq_class(low) / (mu - low));
    EXPECT_TRUE(upper_at_most(lower, mpq_class(mpz_class(static_cast<unsigned long>(table.lower_tail_units()))))) << mu_text;
  } else {
    EXPECT_EQ(table.lower_tail_units(), 0U) << mu_text;
  }
  sum += table.lower_tail_units() + table.upper_tail_units();
  EXPECT_LE(sum, mpz_class(1) << table.total_bits()) << mu_text;
}

TEST(PoissonTable, WeightsMatchAnIndependentComputation) {
  for (const char* mu : {"1/3", "25", "1000/3", "4096"}) expect_weights(mu, PoissonParams::make(mpq_class(mu)));
  expect_weights("25", table_params("25", 8, 7));
  expect_weights("1000", table_params("1000", 16, 95));
}

TEST(PoissonTable, TheRouteByMu) {
  EXPECT_NE(PoissonParams::make(mpq_class(1, 1000)).table(), nullptr);
  EXPECT_NE(PoissonParams::make(mpq_class(10'000'000)).table(), nullptr);
  EXPECT_EQ(PoissonParams::make(mpq_class(10'000'001)).table(), nullptr);
  EXPECT_EQ(internal::make_poisson_params(mpq_class(1000), nullptr).table(), nullptr);
  EXPECT_THROW((void)internal::make_poisson_params(mpq_class(63), nullptr), std::invalid_argument);
  // the default range reaches about 13 standard deviations: 13000 values at 10^6, 2^16 buckets at most
  const PoissonParams million = PoissonParams::make(mpq_class(1'000'000));
  const internal::PoissonTable* table = million.table();
  EXPECT_GT(table->high() - table->low(), 11'000);
  EXPECT_LT(table->high() - table->low(), 15'000);
  EXPECT_LE(PoissonParams::make(mpq_class(10'000'000)).table()->memory_bytes(), 512U * 1024U);
}

TEST(PoissonTable, PinnedSeededSequence) {
  const PoissonParams params = PoissonParams::make(mpq_class(1'000'000));
  SeededBits bits(test_support::fixed_seed(408, 1));
  std::vector<long> values;
  for (int i = 0; i < 6; ++i) values.push_back(sample_poisson(bits, params).get_si());
  const std::vector<long> expected = {999393, 999408, 999661, 1001210, 1000925, 1001054};
  EXPECT_EQ(values, expected);
}

}  // namespace
}  // namespace exactdp
