// hardened_constant_time_test.cc — the branch-free primitives of internal/constant_time.h agree
// with ordinary comparisons (exhaustively on small words, by RapidCheck on full-width ones), and
// the table draws decode bits as documented (scripted bits, decoded independently with GMP).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/hardened_tables.h>
#include "tests/samplers/scripted_bits.h"

namespace exactdp::internal {
namespace {

TEST(CtLess, OneWordMatchesLessThanOnSmallValues) {
  // Every pair below 2^10, and pairs near 2^63 - 1 (the largest allowed values).
  for (std::uint64_t a = 0; a < 1024; ++a) {
    for (std::uint64_t b = 0; b < 1024; ++b) ASSERT_EQ(ct_less<1>(&a, &b), a < b ? 1u : 0u) << a << " " << b;
  }
  const std::uint64_t top = (std::uint64_t{1} << 63) - 1;
  for (std::uint64_t da = 0; da < 64; ++da) {
    for (std::uint64_t db = 0; db < 64; ++db) {
      const std::uint64_t a = top - da, b = top - db;
      ASSERT_EQ(ct_less<1>(&a, &b), a < b ? 1u : 0u);
    }
  }
}

// Numbers below 2^(64 L - 1), least significant word first.
template <unsigned L>
std::vector<std::uint64_t> words_of(const std::vector<std::uint64_t>& raw) {
  std::vector<std::uint64_t> w(L, 0);
  for (unsigned i = 0; i < L && i < raw.size(); ++i) w[i] = raw[i];
  w[L - 1] &= (std::uint64_t{1} << 63) - 1;
  return w;
}

template <unsigned L>
bool less_reference(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  for (unsigned i = L; i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return false;
}

template <unsigned L>
void check_less(const std::vector<std::uint64_t>& ra, const std::vector<std::uint64_t>& rb, bool share_top) {
  auto a = words_of<L>(ra);
  auto b = words_of<L>(rb);
  if (share_top) b[L - 1] = a[L - 1];  // equal top words: the borrow chain decides
  RC_ASSERT(ct_less<L>(a.data(), b.data()) == (less_reference<L>(a, b) ? 1u : 0u));
  RC_ASSERT(ct_less<L>(a.data(), a.data()) == 0u);
}

RC_GTEST_PROP(CtLess, TwoWordsMatchLexicographicOrder,
              (const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b, bool share_top)) {
  check_less<2>(a, b, share_top);
}

RC_GTEST_PROP(CtLess, ThreeWordsMatchLexicographicOrder,
              (const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b, bool share_top)) {
  check_less<3>(a, b, share_top);
}

TEST(CtNegateIf, NegatesExactlyWhenAsked) {
  for (std::int64_t v : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-5}, std::int64_t{1} << 61}) {
    EXPECT_EQ(ct_negate_if(v, 0), v);
    EXPECT_EQ(ct_negate_if(v, 1), -v);
  }
}

TEST(FixedWidth, KeepsTheTopBitClear) {
  for (unsigned w : {1u, 56u, 63u, 64u, 80u, 127u, 128u, 144u, 191u}) {
    const FixedWidth f = fixed_width(w);
    EXPECT_EQ(f.top_bits + 64 * (f.limbs - 1), w);
    EXPECT_LT(f.top_bits, 64u);
  }
  EXPECT_THROW((void)fixed_width(0), std::logic_error);
  EXPECT_THROW((void)fixed_width(192), std::logic_error);
}

// A symmetric table draw reads exactly W + 1 bits: W for u (first bits most significant), one
// sign bit; |Z| = #{i : u >= T_i}.
TEST(DrawSymmetricTable, DecodesScriptedBits) {
  const FixedWidth f = fixed_width(70);  // 2 words, top word 6 bits
  ThresholdTable table;
  for (const mpz_class& t : std::vector<mpz_class>{mpz_class(1) << 68, mpz_class(3) << 67, (mpz_class(1) << 70) - 5}) {
    const std::size_t at = table.words.size();
    table.words.resize(at + f.limbs, 0);
    std::size_t count = 0;
    mpz_export(table.words.data() + at, &count, -1, 8, 0, 0, t.get_mpz_t());
    ++table.entries;
  }
  struct Case {
    std::string u;  // 70 bits
    char sign;
    std::int64_t expected;
  };
  const std::string zeros(70, '0');
  const std::string ones(70, '1');
  const std::string quarter = "01" + std::string(68, '0');   // 2^68 = T_0: |Z| = 1
  const std::string just_below = "00" + std::string(68, '1');  // 2^68 - 1: |Z| = 0
  for (const Case& c : {Case{zeros, '0', 0}, Case{zeros, '1', 0}, Case{quarter, '0', 1}, Case{quarter, '1', -1},
                        Case{just_below, '1', 0}, Case{ones, '0', 3}, Case{ones, '1', -3},
                        Case{"10" + std::string(68, '0'), '0', 2}}) {
    testing_support::ScriptedBits bits(c.u + c.sign);
    EXPECT_EQ(draw_symmetric_table<2>(bits, table.words.data(), table.entries, f.top_bits), c.expected) << c.u;
    EXPECT_EQ(bits.bits_consumed(), 71u);
  }
}

TEST(DrawBernoulliDigits, DecodesScriptedBits) {
  // Three digits with probabilities 1/2, 1/4, 0 on W = 3 bits (one word).
  const FixedWidth f = fixed_width(3);
  const std::vector<std::uint64_t> table = {4, 2, 0};
  // u_0 = 011 < 4 -> digit 0 set; u_1 = 001 < 2 -> digit 1 set; u_2 = 000, never below 0.
  testing_support::ScriptedBits bits("011001000");
  EXPECT_EQ(draw_bernoulli_digits<1>(bits, table.data(), 3, f.top_bits), 3u);
  EXPECT_EQ(bits.bits_consumed(), 9u);
  testing_support::ScriptedBits high("100010111");
  EXPECT_EQ(draw_bernoulli_digits<1>(high, table.data(), 3, f.top_bits), 0u);
}

}  // namespace
}  // namespace exactdp::internal
