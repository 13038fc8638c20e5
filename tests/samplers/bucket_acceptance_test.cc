// bucket_acceptance_test.cc — the bucket round's acceptance Bernoulli(exp(-gamma)) by lazy
// comparison with Taylor brackets (samplers/internal/bucket_acceptance.h).
//
// Paths: stage 1 (quick_decision), stage 2 (machine brackets) and the GMP entry agree with the
// exact stage 3 on the answer and the bits read, for random gamma and every first block near
// exp(-gamma) (the blocks that need stages 2-3, including the one containing exp(-gamma), which
// reads further blocks).
// Law: chi-square (2 bins) and the exact binomial test against P[1] = exp(-gamma) (certified
// MPFR), alpha = 1e-6 each, fixed seeds; the DELIBERATELY BROKEN quick test (gamma^2/2 dropped)
// is rejected by the same checks (power).
#include <gtest/gtest.h>

#include <gmpxx.h>

#include <cstdint>

#include <exactdp/core/decimal.h>
#include <exactdp/samplers/internal/bucket_acceptance.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/verification/p_values.h>
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace bucket_acceptance_test {  // this file's own names in a unity build (tests/CMakeLists.txt)
using namespace test_support;
using internal::BlockDecision;
using internal::kBlockBits;

const mpq_class kAlpha(1, 1'000'000);
constexpr std::uint64_t kOne = std::uint64_t{1} << kBlockBits;

// The blocks v whose interval may hold exp(-gamma) or lie near it: from 2^16 S_1 - 3 to
// 2^16 S_2 + 3 (S_1 < exp(-gamma) < S_2).
void near_blocks(const mpq_class& gamma, std::uint64_t& first, std::uint64_t& last) {
  const mpq_class s1 = (1 - gamma) * kOne, s2 = (1 - gamma + gamma * gamma / 2) * kOne;
  const mpz_class a = mpz_class(s1.get_num() / s1.get_den()), b = mpz_class(s2.get_num() / s2.get_den());
  first = a.get_ui() >= 3 ? a.get_ui() - 3 : 0;
  last = std::min<std::uint64_t>(b.get_ui() + 3, kOne - 1);
}

TEST(BucketAcceptance, StagesAgreeWithTheExactComparison) {
  SeededBits pick(fixed_seed(171, 1));
  int containing = 0;
  for (int c = 0; c < 300; ++c) {
    // gamma = num / den, den < 2^62, gamma spread over (0, 0.9): small ones most.
    const std::uint64_t den = (pick.bits(62) | 1) + 1;
    const std::uint64_t scale = pick.bits(3) + 1;  // gamma ~ 2^-(scale)..
    const std::uint64_t num = (pick.bits(62) % den) >> scale;
    if (num == 0) continue;
    mpq_class gamma(mpz_class(static_cast<unsigned long>(num)), mpz_class(static_cast<unsigned long>(den)));
    gamma.canonicalize();
    std::uint64_t first = 0, last = 0;
    near_blocks(gamma, first, last);
    for (std::uint64_t v = first; v <= last; ++v) {
      SeededBits a(fixed_seed(172, static_cast<std::uint32_t>(c))), b(fixed_seed(172, static_cast<std::uint32_t>(c))),
          e(fixed_seed(172, static_cast<std::uint32_t>(c)));
      const bool machine = internal::exp_minus_below(a, num, den, v);
      const bool gmp = internal::bernoulli_exp_blocks(b, mpz_class(static_cast<unsigned long>(num)),
                                                      mpz_class(static_cast<unsigned long>(den)), v);
      const bool exact = internal::exp_minus_below_exact(e, mpz_class(static_cast<unsigned long>(num)),
                                                         mpz_class(static_cast<unsigned long>(den)),
                                                         mpz_class(static_cast<unsigned long>(v)), kBlockBits);
      ASSERT_EQ(machine, exact) << num << "/" << den << " v = " << v;
      ASSERT_EQ(gmp, exact) << num << "/" << den << " v = " << v;
      ASSERT_EQ(a.bits_consumed(), e.bits_consumed()) << num << "/" << den << " v = " << v;
      ASSERT_EQ(b.bits_consumed(), e.bits_consumed()) << num << "/" << den << " v = " << v;
      if (e.bits_consumed() > 0) ++containing;
      // Stage 1 decides only what the exact comparison decides without a further block.
      const mpz_class g = (mpz_class(static_cast<unsigned long>(num)) << kBlockBits) / den;
      const BlockDecision quick = internal::quick_decision(v, g.get_ui(), g.get_ui() + 2, false);
      if (quick != BlockDecision::kUndecided) {
        ASSERT_EQ(quick == BlockDecision::kAccept, exact) << num << "/" << den << " v = " << v;
        ASSERT_EQ(e.bits_consumed(), 0U);
      }
    }
  }
  EXPECT_GT(containing, 200);  // the block holding exp(-gamma) was met (one per gamma)
}

// Draws of the acceptance through the GMP entry (stage 1 first, as the sampler does).
bool draw(BitSource& bits, const mpq_class& gamma, bool drop_square) {
  const std::uint64_t v = bits.bits(kBlockBits);
  return internal::bernoulli_exp_blocks(bits, gamma.get_num(), gamma.get_den(), v, drop_square);
}

// The chi-square and exact binomial checks of P[1] = exp(-gamma); true when either rejects.
bool law_rejects(const mpq_class& gamma, bool drop_square, std::uint32_t seed) {
  const verification::BernoulliExpLaw law(gamma);
  const unsigned long long n = 100'000;
  const auto t = chi_square_check(law, [&](BitSource& b) { return std::int64_t{draw(b, gamma, drop_square)}; }, n,
                                  fixed_seed(173, seed));
  EXPECT_TRUE(t.applicable) << t.detail;
  SeededBits bits(fixed_seed(174, seed));
  unsigned long long ones = 0;
  for (unsigned long long i = 0; i < n; ++i) ones += draw(bits, gamma, drop_square) ? 1 : 0;
  const auto p = verification::binomial_two_sided(n, ones, law.p_one());
  return rejects(t, kAlpha) || mpfr_cmp_d(p.upper(), 1e-6) < 0;
}

TEST(BucketAcceptance, MatchesExpMinusGamma) {
  std::uint32_t seed = 0;
  for (const char* g : {"1/3", "7/100", "9/10", "5/2", "3/200"}) {
    EXPECT_FALSE(law_rejects(mpq_class(g), false, ++seed)) << "gamma = " << g;
  }
}

TEST(BucketAcceptance, RejectsTheQuickTestWithoutTheSquareTerm) {
  EXPECT_TRUE(law_rejects(mpq_class(1, 3), true, 10));
}

}  // namespace bucket_acceptance_test
}  // namespace
}  // namespace exactdp
