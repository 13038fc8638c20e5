// selection_law_test.cc — every selection mechanism (mechanisms/selection/selection.h) against its
// exact law computed with MPFR (tests/mechanisms/selection_laws.h): Pearson chi-square on the
// index counts (or, for two peeling rounds, the ordered pairs) of 10^6 draws, fixed seeds.
//
// Threshold: a check fails when the certified upper end of its p-value is below alpha = 10^-5.
// With the 14 law checks below, the family-wise false-alarm probability is at most 1.4 * 10^-4
// (asymptotic chi-square; cells are merged until every bin expects at least n^0.6 / 2 draws).
// Power, at the same alpha: deliberately broken selections — exponential and permute-and-flip
// with one candidate's acceptance coin multiplied by 99/100 (a 1 % error in one weight), and for
// report-noisy-max the correct sampler's counts against the law with its heaviest probability
// changed by 1 % — must be rejected. They use 4 * 10^6 draws: at 10^6 a 1 % change of a weight p
// moves its expected count by about 0.01 p (1 - p) 10^6 ~ 2500, about 5 standard deviations,
// which the 4-5 degree-of-freedom chi-square sees at alpha = 10^-5 only about half of the time.
// Each power test computes the noncentrality lambda = N sum (p'_i - p_i)^2 / p_i of its design
// and requires lambda >= 60 (then P[X2 below the 10^-5 critical value, < 30 for df <= 5] is
// below 10^-3: the power is at least 0.999).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/samplers/bernoulli.h>
#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/uniform.h>
#include <exactdp/verification/goodness_of_fit.h>
#include "tests/mechanisms/selection_laws.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace selection_law_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using mechanisms::NoiseKind;
using mechanisms::Selection;
using mechanisms::SelectionMechanism;
using mechanisms::SelectionOptions;
using test_support::fixed_seed;
using test_support::Interval;

const mpq_class kAlpha(1, 100'000);

std::vector<mpq_class> scores(std::initializer_list<const char*> texts) {
  std::vector<mpq_class> out;
  for (const char* t : texts) out.push_back(parse_rational("score", t));
  return out;
}

verification::TestResult chi_square(const std::vector<Interval>& law,
                                    const std::vector<unsigned long long>& counts,
                                    unsigned long long n) {
  std::vector<verification::Cell> cells;
  for (std::size_t i = 0; i < law.size(); ++i) {
    verification::Cell c;
    c.first = mpz_class(static_cast<unsigned long>(i));
    c.last = c.first;
    c.mass = law[i];
    c.observed = counts[i];
    // Impossible cells (peeling's i == j) must not be observed; they are left out of the bins.
    if (mpfr_zero_p(law[i].upper()) != 0) {
      EXPECT_EQ(counts[i], 0u) << "an impossible outcome was drawn: cell " << i;
      continue;
    }
    cells.push_back(std::move(c));
  }
  // Cells with small expected counts (the far tail of spread scores) are merged with their
  // neighbours until each bin expects at least max(5, n^0.6 / 2) draws (goodness_of_fit.h).
  const auto bins = verification::merge_cells(cells, n, verification::default_min_expected(n));
  return verification::pearson_chi_square(bins, n);
}

bool rejects(const verification::TestResult& t) {
  return mpfr_cmp_q(t.p_value.upper(), kAlpha.get_mpq_t()) < 0;
}

std::string p_text(const verification::TestResult& t) {
  return "X2 in " + t.statistic.debug_string() + ", p <= " +
         exactdp::decimal_upper(t.p_value.upper(), 6) + " (" + t.detail + ")";
}

// The law with cell k's weight multiplied by 101/100, renormalised.
std::vector<Interval> perturbed(const std::vector<Interval>& law, std::size_t k) {
  const mpq_class f(101, 100);
  const Interval total = law[k] * mpq_class(1, 100) + mpq_class(1);
  std::vector<Interval> out;
  for (std::size_t i = 0; i < law.size(); ++i) out.push_back((i == k ? law[i] * f : law[i]) / total);
  return out;
}

// The most likely cell (by lower end): the one whose 1 % change is easiest to see.
std::size_t heaviest(const std::vector<Interval>& law) {
  std::size_t k = 0;
  for (std::size_t i = 1; i < law.size(); ++i) {
    if (mpfr_cmp(law[i].lower(), law[k].lower()) > 0) k = i;
  }
  return k;
}

struct LawCase {
  std::string name;
  SelectionMechanism mechanism;
  NoiseKind noise;
  bool monotonic;
  std::vector<mpq_class> u;
  const char* epsilon;
  const char* sensitivity;
  unsigned top;  // 1: one selection; 2: two peeling rounds (cells i * n + j)
  unsigned long long draws;
  mechanisms::ExponentialSampler sampler = mechanisms::ExponentialSampler::kRejection;
};

void PrintTo(const LawCase& c, std::ostream* os) { *os << c.name; }

class SelectionLaw : public ::testing::TestWithParam<LawCase> {};

TEST_P(SelectionLaw, ChiSquareAgainstExactLaw) {
  const LawCase& c = GetParam();
  SelectionOptions o;
  o.mechanism = c.mechanism;
  o.noise = c.noise;
  o.monotonic = c.monotonic;
  o.epsilon = parse_rational("epsilon", c.epsilon);
  o.sensitivity = parse_rational("sensitivity", c.sensitivity);
  o.exponential_sampler = c.sampler;
  Selection s = Selection::make(c.u, o);
  EXPECT_EQ(s.uses_inversion(), c.sampler == mechanisms::ExponentialSampler::kInversion);
  const std::size_t n = c.u.size();
  const auto law = c.top == 1 ? test_support::selection_law(c.u, o)
                              : test_support::two_round_peeling_law(c.u, o);
  std::vector<unsigned long long> counts(law.size(), 0);
  SeededBits bits(fixed_seed(140, static_cast<std::uint32_t>(c.name.size() * 7 + c.u.size())));
  for (unsigned long long d = 0; d < c.draws; ++d) {
    if (c.top == 1) {
      ++counts[s.select(bits)];
    } else {
      const auto two = s.select_top(bits, 2);
      ASSERT_EQ(two.size(), 2u);
      ASSERT_NE(two[0], two[1]);
      ++counts[two[0] * n + two[1]];
    }
  }
  const auto t = chi_square(law, counts, c.draws);
  EXPECT_FALSE(rejects(t)) << c.name << ": " << p_text(t);
}

SelectionOptions options_of(SelectionMechanism m) {
  SelectionOptions o;
  o.mechanism = m;
  return o;
}

const LawCase kCases[] = {
    {"exponential5", SelectionMechanism::kExponential, NoiseKind::kDiscreteLaplace, false,
     scores({"0", "1", "5/2", "3", "-1/3"}), "1", "1", 1, 1'000'000},
    {"exponential3_monotonic", SelectionMechanism::kExponential, NoiseKind::kDiscreteLaplace, true,
     scores({"2", "1.5", "0.25"}), "0.7", "1/2", 1, 1'000'000},
    {"permute_and_flip6", SelectionMechanism::kPermuteAndFlip, NoiseKind::kDiscreteLaplace, false,
     scores({"1", "0", "2", "2", "-1", "0.5"}), "3/2", "1", 1, 1'000'000},
    {"permute_and_flip3", SelectionMechanism::kPermuteAndFlip, NoiseKind::kDiscreteLaplace, false,
     scores({"10", "9", "7"}), "1", "2", 1, 1'000'000},
    {"noisy_max_laplace4", SelectionMechanism::kReportNoisyMax, NoiseKind::kDiscreteLaplace, false,
     scores({"3", "1", "3", "2"}), "2", "1", 1, 1'000'000},
    {"noisy_max_laplace_fixed_point", SelectionMechanism::kReportNoisyMax,
     NoiseKind::kDiscreteLaplace, false, scores({"0.25", "0.5", "0", "0.75", "0.5"}), "4", "1/4",
     1, 1'000'000},
    {"noisy_max_laplace_monotonic", SelectionMechanism::kReportNoisyMax,
     NoiseKind::kDiscreteLaplace, true, scores({"5", "4", "6"}), "1", "2", 1, 1'000'000},
    {"noisy_max_exponential", SelectionMechanism::kReportNoisyMax, NoiseKind::kExponential, false,
     scores({"1", "2", "0", "1/2"}), "1", "1", 1, 1'000'000},
    {"peeling_exponential4", SelectionMechanism::kExponential, NoiseKind::kDiscreteLaplace, false,
     scores({"0", "1", "2", "1/2"}), "1", "1", 2, 1'000'000},
    {"peeling_permute_and_flip4", SelectionMechanism::kPermuteAndFlip, NoiseKind::kDiscreteLaplace,
     false, scores({"0", "1", "2", "1/2"}), "1", "1", 2, 1'000'000},
    {"peeling_noisy_max_laplace4", SelectionMechanism::kReportNoisyMax,
     NoiseKind::kDiscreteLaplace, false, scores({"0", "1", "2", "1"}), "1", "1", 2, 1'000'000},
    // Certified inversion (exponential_inversion.h): forced on 5 candidates, and on 20 spread
    // scores (gaps up to 38: rejection would need about 7 attempts a draw here, inversion one
    // binary search), alone and as the first of two peeling rounds.
    {"exponential5_inversion", SelectionMechanism::kExponential, NoiseKind::kDiscreteLaplace,
     false, scores({"0", "1", "5/2", "3", "-1/3"}), "1", "1", 1, 1'000'000,
     mechanisms::ExponentialSampler::kInversion},
    {"exponential20_spread_inversion", SelectionMechanism::kExponential,
     NoiseKind::kDiscreteLaplace, false,
     scores({"0", "-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-9", "-10", "-12", "-14",
             "-16", "-20", "-25", "-30", "-40", "-60", "-1/2"}),
     "5/4", "1", 1, 1'000'000, mechanisms::ExponentialSampler::kInversion},
    {"peeling_exponential4_inversion", SelectionMechanism::kExponential,
     NoiseKind::kDiscreteLaplace, false, scores({"0", "1", "2", "1/2"}), "1", "1", 2, 1'000'000,
     mechanisms::ExponentialSampler::kInversion},
};

INSTANTIATE_TEST_SUITE_P(Mechanisms, SelectionLaw, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<LawCase>& p) { return p.param.name; });

// A deliberately broken selection: rejection (exponential) or permute-and-flip whose coin for
// candidate k is additionally multiplied by 99/100 (a 1 % error in one weight; for
// permute-and-flip, in one acceptance probability). Written apart from the library's code on
// purpose, apart from the exact coins.
struct BrokenSelection {
  std::vector<BernoulliExpParams> coins;  // exp(-c (u* - u_i))
  std::size_t k;                          // the candidate whose coin is also Bernoulli(99/100)
  bool permute_and_flip;
  std::vector<std::size_t> order;
};

BrokenSelection make_broken(const std::vector<mpq_class>& u, const mpq_class& c, bool pf, std::size_t k) {
  const mpq_class best = *std::max_element(u.begin(), u.end());
  BrokenSelection b{{}, k, pf, std::vector<std::size_t>(u.size())};
  for (const auto& x : u) b.coins.push_back(BernoulliExpParams::make(mpq_class(c * (best - x))));
  std::iota(b.order.begin(), b.order.end(), std::size_t{0});
  return b;
}

std::size_t broken_select(BitSource& bits, BrokenSelection& b) {
  static const auto off = BernoulliParams::make(mpq_class(99, 100));
  auto coin = [&](std::size_t i) {
    return sample_bernoulli_exp(bits, b.coins[i]) && (i != b.k || sample_bernoulli(bits, off));
  };
  const std::uint64_t n = b.coins.size();
  if (!b.permute_and_flip) {
    for (;;) {
      const auto i = static_cast<std::size_t>(sample_uniform_below(bits, n));
      if (coin(i)) return i;
    }
  }
  for (;;) {  // candidate k may be the best: then no coin is certain, so start again
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t r = j + static_cast<std::size_t>(sample_uniform_below(bits, n - j));
      std::swap(b.order[j], b.order[r]);
      if (coin(b.order[j])) return b.order[j];
    }
  }
}

// lambda = N sum (q_i - p_i)^2 / p_i (lower ends: a conservative design figure).
mpq_class noncentrality(const std::vector<Interval>& p, const std::vector<Interval>& q,
                        unsigned long long draws) {
  Interval sum(test_support::kLawPrecision);
  for (std::size_t i = 0; i < p.size(); ++i) sum = sum + exactdp::square(q[i] - p[i]) / p[i];
  mpq_class lower;
  mpfr_get_q(lower.get_mpq_t(), sum.lower());  // exact value of the lower end
  return lower * mpq_class(mpz_class(std::to_string(draws)));
}

const unsigned long long kPowerDraws = 4'000'000;

TEST(SelectionLawPower, BrokenExponentialAndPermuteAndFlipAreRejected) {
  const auto u = scores({"0", "1", "5/2", "3", "-1/3"});
  for (const bool pf : {false, true}) {
    SelectionOptions o = options_of(pf ? SelectionMechanism::kPermuteAndFlip : SelectionMechanism::kExponential);
    const auto law = test_support::selection_law(u, o);
    const std::size_t k = heaviest(law);
    BrokenSelection broken_selection = make_broken(u, mpq_class(1, 2), pf, k);
    SeededBits bits(fixed_seed(141, pf ? 1 : 0));
    std::vector<unsigned long long> counts(u.size(), 0);
    for (unsigned long long d = 0; d < kPowerDraws; ++d) ++counts[broken_select(bits, broken_selection)];
    const auto t = chi_square(law, counts, kPowerDraws);
    EXPECT_TRUE(rejects(t)) << (pf ? "permute-and-flip" : "exponential")
                            << ": the broken sampler was not caught: " << p_text(t);
    if (!pf) {
      // Exponential: the broken law is exactly the law with weight k times 99/100.
      const mpq_class f(99, 100);
      const Interval total = law[k] * mpq_class(-1, 100) + mpq_class(1);
      std::vector<Interval> broken;
      for (std::size_t i = 0; i < law.size(); ++i) broken.push_back((i == k ? law[i] * f : law[i]) / total);
      EXPECT_GE(noncentrality(law, broken, kPowerDraws), 60);
    }
  }
}

TEST(SelectionLawPower, NoisyMaxCountsRejectALawWithOneWeightOnePercentOff) {
  const auto u = scores({"5", "4", "6"});
  SelectionOptions o = options_of(SelectionMechanism::kReportNoisyMax);
  o.monotonic = true;
  o.sensitivity = 2;
  const auto law = test_support::selection_law(u, o);
  const auto wrong = perturbed(law, heaviest(law));
  ASSERT_GE(noncentrality(law, wrong, kPowerDraws), 60);
  Selection s = Selection::make(u, o);
  SeededBits bits(fixed_seed(141, 7));
  std::vector<unsigned long long> counts(u.size(), 0);
  for (unsigned long long d = 0; d < kPowerDraws; ++d) ++counts[s.select(bits)];
  EXPECT_FALSE(rejects(chi_square(law, counts, kPowerDraws)));
  const auto t = chi_square(wrong, counts, kPowerDraws);
  EXPECT_TRUE(rejects(t)) << "a 1 % error in one probability was not seen: " << p_text(t);
}

}  // namespace selection_law_test
}  // namespace
}  // namespace exactdp
