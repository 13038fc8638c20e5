// The discrete staircase law (laws/staircase/): its certified sums against brute-force sums, the
// default r against a brute-force minimisation of E|X|, its profile and PLD route against
// brute-force sums over every shift |d| <= D, and its sampler by chi-square against the exact pmf
// (alpha = 1e-6 per test, fixed seeds) with a deliberately broken sampler that the same check
// rejects.
#include <gtest/gtest.h>

#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/laws/registry.h>
#include <exactdp/laws/staircase/staircase_privacy.h>
#include <exactdp/laws/staircase/staircase_reference.h>
#include <exactdp/laws/staircase/staircase_sampler.h>
#include <exactdp/laws/staircase/staircase_shape.h>
#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/samplers/uniform.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp::laws {
namespace {
namespace staircase_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using exactdp::Interval;
constexpr mpfr_prec_t kP = 256;

// The unnormalised weight b^c(m) of |x| = m, as an interval (brute force: c counted directly).
Interval weight(const StaircaseShape& s, long m) {
  long c = 0;
  const long d = s.sensitivity().get_si(), r = s.r().get_si();
  for (long start = r; start <= m; start += d) ++c;
  return exp(Interval(mpq_class(-s.gamma() * c), kP));
}

// sum_{|x| <= M} w(x) plus [0, tail] with the tail bounded by the geometric series beyond M.
Interval brute_normaliser(const StaircaseShape& s, long m_max) {
  Interval sum = weight(s, 0);
  for (long m = 1; m <= m_max; ++m) sum = sum + weight(s, m) * mpq_class(2);
  // beyond M every block of D has mass <= D b^c(M+1), and they decay by b
  const Interval tail = weight(s, m_max + 1) * mpq_class(2 * s.sensitivity().get_si()) / s.one_minus_b(kP);
  return hull(sum, sum + tail);
}

// Where b^(m/D) < e^-300: the brute-force sums stop there.
long cutoff(const StaircaseShape& s) {
  const mpq_class m = mpq_class(300) * s.sensitivity() / s.gamma();
  return mpz_class(m.get_num() / m.get_den()).get_si() + s.sensitivity().get_si() + 10;
}

bool meet(const Interval& a, const Interval& b) {
  return !certainly_less(a, b) && !certainly_less(b, a);
}

struct Case {
  const char* gamma;
  long d, r;
};
const Case kCases[] = {{"1/2", 1, 1}, {"1/2", 5, 2}, {"1", 3, 2}, {"3", 4, 1}, {"1/10", 6, 6}};

StaircaseShape shape_of(const Case& c) { return StaircaseShape::make(mpq_class(c.gamma), c.d, c.r); }

TEST(StaircaseShape, NormaliserAndMomentsMatchBruteForceSums) {
  for (const auto& c : kCases) {
    const StaircaseShape s = shape_of(c);
    const long m_max = cutoff(s);
    EXPECT_TRUE(meet(s.normaliser(kP), brute_normaliser(s, m_max))) << c.gamma << " " << c.d;
    Interval second(0L, kP), even(0L, kP);
    for (long m = 0; m <= m_max; ++m) {
      second = second + weight(s, m) * mpq_class(m * m);
      if (m % 2 == 0) even = even + weight(s, m);
    }
    // the neglected tails are below exp(-300) of the sums, far below the intervals' width
    EXPECT_TRUE(meet(s.one_sided_moment(2, kP), second)) << c.gamma << " " << c.d;
    EXPECT_TRUE(meet(s.one_sided_even(kP), even)) << c.gamma << " " << c.d;
    Interval tail(0L, kP);
    for (long m = 7; m <= m_max; ++m) tail = tail + weight(s, m);
    EXPECT_TRUE(meet(s.tail_from(7, kP), tail)) << c.gamma << " " << c.d;
  }
}

TEST(StaircaseShape, DefaultRMinimisesMeanAbsoluteNoise) {
  for (const char* gamma : {"1/10", "1/2", "1", "3", "8"}) {
    for (long d : {1L, 2L, 5L, 12L}) {
      const StaircaseShape chosen = StaircaseShape::make(mpq_class(gamma), d, 0);
      const Interval best = chosen.mean_absolute(kP);
      for (long r = 1; r <= d; ++r) {
        const Interval other = StaircaseShape::make(mpq_class(gamma), d, r).mean_absolute(kP);
        EXPECT_FALSE(certainly_less(other, best)) << "gamma " << gamma << " D " << d << " r " << r;
      }
    }
  }
}

TEST(StaircaseShape, RefusesOutOfRangeParameters) {
  EXPECT_THROW((void)StaircaseShape::make(0, 3, 1), ParameterError);
  EXPECT_THROW((void)StaircaseShape::make(1, 0, 1), ParameterError);
  EXPECT_THROW((void)StaircaseShape::make(1, 3, 4), ParameterError);
  EXPECT_THROW((void)StaircaseShape::make(1, mpz_class("1000000000"), 1), LimitError);  // D / r > 2^24
  EXPECT_THROW((void)law_named("staircase").parse({{"gamma", "1"}, {"sensitivity", "3"}, {"r", "0"}}, Use::kSample),
               ParameterError);
}

// delta(eps) of the pair (law at 0, law at d) in one order, brute force over |x| <= M.
Interval brute_delta(const StaircaseShape& s, long shift, const mpq_class& eps) {
  const Interval z = s.normaliser(kP);
  const Interval e = exp(Interval(eps, kP));
  Interval sum(0L, kP);
  const long m_max = cutoff(s);
  for (long x = -m_max; x <= m_max; ++x) {
    const Interval p = weight(s, std::labs(x)) / z, q = weight(s, std::labs(x - shift)) / z;
    const Interval term = p - e * q;
    if (!term.is_negative()) sum = sum + max(term, Interval(0L, kP));
  }
  return sum;
}

TEST(StaircasePrivacy, ProfileIsTheWorstShiftAndContainsTheBruteForceValue) {
  for (const auto& c : kCases) {
    // gamma = 1/10 would need |x| up to 18,000 per shift and eps (minutes); the shape sums above
    // and the chi-square test cover small gamma.
    if (mpq_class(c.gamma) < mpq_class(1, 2)) continue;
    const StaircaseShape s = shape_of(c);
    const StaircasePrivacy maps(s);
    for (const char* eps_text : {"0", "1/20", "1/4"}) {
      const mpq_class eps(eps_text);
      const Interval certified = maps.delta_at(eps, kP);
      if (eps >= s.gamma()) continue;
      EXPECT_TRUE(meet(certified, brute_delta(s, c.d, eps))) << c.gamma << " " << c.d << " eps " << eps_text;
      for (long d = 1; d < c.d; ++d) {  // every smaller shift is dominated
        EXPECT_FALSE(certainly_less(certified, brute_delta(s, d, eps))) << "shift " << d;
      }
    }
    EXPECT_TRUE(maps.delta_at(s.gamma(), kP).contains(0L));
  }
}

TEST(StaircasePrivacy, PldRouteContainsTheExactProfileOfOneStep) {
  const StaircaseShape s = StaircaseShape::make(mpq_class(1), 3, 2);
  const accounting::PrivacyEvent event = accounting::PrivacyEvent::of_law(std::make_shared<StaircasePrivacy>(s));
  accounting::RdpComposition events;
  events.emplace_back(accounting::RdpEvent::plain(event), 1UL);
  const mpq_class eps(1, 2);
  const auto answer = accounting::pld::pld_delta(events, eps);
  const Interval exact = StaircasePrivacy(s).delta_at(eps, kP);
  EXPECT_TRUE(meet(answer.value, exact));  // both enclose the true delta
}

// Chi-square of the exact sampler against the certified pmf (alpha = 1e-6), and of a broken
// sampler that keeps every proposal (no Bernoulli(exp(-gamma)) step for j >= r): the same check
// must reject it.
mpz_class broken_draw(const StaircaseShape& s, BitSource& bits) {
  for (;;) {
    const mpz_class i = exactdp::internal::sample_geometric_exp<mpz_class>(bits, s.gamma().get_den(), s.gamma().get_num());
    const mpz_class j = sample_uniform_below(bits, s.sensitivity());
    mpz_class m = i * s.sensitivity() + j;
    const bool negative = bits.bit();
    if (negative && m == 0) continue;
    return negative ? mpz_class(-m) : m;
  }
}

TEST(StaircaseSampler, MatchesTheExactPmfAndABrokenSamplerIsCaught) {
  const mpq_class alpha(1, 1'000'000);
  for (const auto& c : {Case{"1/2", 5, 2}, Case{"2", 4, 1}, Case{"1/10", 3, 3}}) {
    const StaircaseShape s = shape_of(c);
    const StaircaseReferenceLaw law(s, 0);
    const StaircaseSampler sampler(s, 0);
    const auto ok = test_support::chi_square_check(
        law, [&](BitSource& b) { mpz_class v; sampler.sample(b, v); return v; }, 200'000, test_support::fixed_seed(70, 1));
    EXPECT_FALSE(test_support::rejects(ok, alpha)) << c.gamma << " " << c.d;
    if (c.r == c.d) continue;  // the broken step is never taken when r = D
    const auto bad = test_support::chi_square_check(
        law, [&](BitSource& b) { return broken_draw(s, b); }, 200'000, test_support::fixed_seed(70, 2));
    EXPECT_TRUE(test_support::rejects(bad, alpha)) << c.gamma << " " << c.d;
  }
}

TEST(StaircaseLaw, IsInTheRegistryWithEveryInterfaceButHardening) {
  const Law& law = law_named("staircase");
  EXPECT_TRUE(law.supports(Capability::kSample));
  EXPECT_TRUE(law.supports(Capability::kAudit));
  EXPECT_TRUE(law.supports(Capability::kEvent));
  EXPECT_FALSE(law.supports(Capability::kHardened));
  const LawParameters p = law.parse({{"gamma", "1"}, {"sensitivity", "3"}}, Use::kSample);
  EXPECT_EQ(p.describe(), "gamma=1 sensitivity=3 r=2 mean=0");
  EXPECT_THROW((void)law.make_sampler(p, Hardening{}), UnsupportedError);
  EXPECT_THROW((void)law_named("discrete-staircase"), ParameterError);
}

}  // namespace staircase_test
}  // namespace
}  // namespace exactdp::laws
