// hardened_scan_test.cc — the vectorised table scan (internal/hardened_scan.h) counts exactly what
// the word-by-word scan counts (internal/constant_time.h, ct_less), on random tables of every
// width including ties in the high digits, and the hardened Gaussian's table draws give the same
// values from the same bits as draw_symmetric_table (so the draws of a seed are those of the
// word-by-word scan).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <gmpxx.h>

#include <exactdp/core/rational.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/samplers/internal/hardened_scan.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp::internal {
namespace {

// A random W-bit number; with `near` given, one that agrees with it on all but the low 31 bits.
mpz_class random_number(unsigned width_bits, const mpz_class* near) {
  mpz_class x = 0;
  for (int i = 0; i < 3; ++i) x = (x << 64) + mpz_class(*rc::gen::arbitrary<std::uint64_t>());
  x &= (mpz_class(1) << width_bits) - 1;
  if (near != nullptr) x = (*near >> kScanDigitBits << kScanDigitBits) + (x & ((mpz_class(1) << kScanDigitBits) - 1));
  return x;
}

std::vector<std::uint64_t> words_of(const mpz_class& x, unsigned limbs) {
  std::vector<std::uint64_t> w(limbs, 0);
  std::size_t count = 0;
  mpz_export(w.data(), &count, -1, sizeof(std::uint64_t), 0, 0, x.get_mpz_t());
  return w;
}

std::uint64_t scalar_count(const ThresholdTable& table, const std::vector<std::uint64_t>& u, unsigned limbs) {
  return with_limbs(limbs, [&](auto l) {
    std::uint64_t below = 0;
    for (std::size_t i = 0; i < table.entries; ++i) below += ct_less<l()>(u.data(), table.words.data() + i * l());
    return below;
  });
}

RC_GTEST_PROP(HardenedScan, CountsWhatTheWordScanCounts, ()) {
  const unsigned tau_bits = *rc::gen::inRange(40u, 129u);
  const FixedWidth width = fixed_width(tau_bits + 16);
  const mpz_class u = random_number(width.width_bits, nullptr);
  const auto entries = *rc::gen::inRange<std::size_t>(1, 40);
  std::vector<mpz_class> thresholds;
  for (std::size_t i = 0; i < entries; ++i) {
    const bool tie = *rc::gen::inRange(0, 3) == 0;  // equal high digits: the low digit decides
    thresholds.push_back(*rc::gen::inRange(0, 8) == 0 ? u : random_number(width.width_bits, tie ? &u : nullptr));
  }
  std::sort(thresholds.begin(), thresholds.end());
  ThresholdTable table;
  for (const mpz_class& t : thresholds) {
    const auto w = words_of(t, width.limbs);
    table.words.insert(table.words.end(), w.begin(), w.end());
    ++table.entries;
  }
  const ScanTable scan = make_scan_table(table, width);
  RC_ASSERT(scan.padded % kScanLanes == 0 && scan.padded >= entries && scan.padded < entries + kScanLanes);
  const std::vector<std::uint64_t> u_words = words_of(u, width.limbs);
  std::uint32_t digits[kMaxScanDigits];
  with_limbs(width.limbs, [&](auto l) { split_digits<l()>(u_words.data(), scan.digits_per_number, digits); });
  std::uint64_t expected = 0;
  for (const mpz_class& t : thresholds) expected += u < t ? 1 : 0;
  RC_ASSERT(scalar_count(table, u_words, width.limbs) == expected);
  RC_ASSERT(scan.count(scan.digits.data(), scan.padded, digits) == expected);
}

// The group scan (ScanTable::count_group, the batch's) counts what GMP counts for each of its 32
// uniforms: random tables of every width, uniforms tied with thresholds in their high digits or
// equal to them, and digits at the ends of their range (0 and 2^31 - 1, where a borrow mask
// added to a digit must not wrap).
RC_GTEST_PROP(HardenedScan, GroupCountsWhatGmpCounts, ()) {
  const unsigned tau_bits = *rc::gen::inRange(40u, 129u);
  const FixedWidth width = fixed_width(tau_bits + 16);
  const auto entries = *rc::gen::inRange<std::size_t>(1, 40);
  const mpz_class all_ones = (mpz_class(1) << width.width_bits) - 1;
  std::vector<mpz_class> thresholds;
  for (std::size_t i = 0; i < entries; ++i) {
    const int kind = *rc::gen::inRange(0, 6);
    thresholds.push_back(kind == 0 ? mpz_class(0) : kind == 1 ? all_ones : random_number(width.width_bits, nullptr));
  }
  std::sort(thresholds.begin(), thresholds.end());
  ThresholdTable table;
  for (const mpz_class& t : thresholds) {
    const auto w = words_of(t, width.limbs);
    table.words.insert(table.words.end(), w.begin(), w.end());
    ++table.entries;
  }
  const ScanTable scan = make_scan_table(table, width);
  std::vector<mpz_class> u(kScanGroup);
  std::vector<std::uint32_t> digits(kMaxScanDigits * kScanGroup);
  for (std::size_t s = 0; s < kScanGroup; ++s) {
    const mpz_class& near = thresholds[*rc::gen::inRange<std::size_t>(0, entries)];
    const int kind = *rc::gen::inRange(0, 5);
    u[s] = kind == 0 ? near : kind == 1 ? all_ones : kind == 2 ? mpz_class(0) : random_number(width.width_bits, kind == 3 ? &near : nullptr);
    const std::vector<std::uint64_t> w = words_of(u[s], width.limbs);
    std::uint32_t d[kMaxScanDigits];
    with_limbs(width.limbs, [&](auto l) { split_digits<l()>(w.data(), scan.digits_per_number, d); });
    for (unsigned c = 0; c < scan.digits_per_number; ++c) digits[c * kScanGroup + s] = d[c];
  }
  std::vector<std::uint32_t> below(kScanGroup, 99);
  scan.count_group(scan.digits.data(), scan.padded, scan.entries, digits.data(), below.data());
  for (std::size_t s = 0; s < kScanGroup; ++s) {
    std::uint32_t expected = 0;
    for (const mpz_class& t : thresholds) expected += u[s] < t ? 1 : 0;
    RC_ASSERT(below[s] == expected);
  }
}

TEST(HardenedScan, SplitDigitsCutsThirtyOneBitDigits) {
  // u = 2^79 + 2^62 + 2^31 + 5 (W = 80, two words): digits 5, 1, 2^(62-62) + 2^(79-62) = 1 + 2^17.
  const mpz_class u = (mpz_class(1) << 79) + (mpz_class(1) << 62) + (mpz_class(1) << 31) + 5;
  const std::vector<std::uint64_t> w = words_of(u, 2);
  std::uint32_t d[3];
  split_digits<2>(w.data(), 3, d);
  EXPECT_EQ(d[0], 5u);
  EXPECT_EQ(d[1], 1u);
  EXPECT_EQ(d[2], 1u + (1u << 17));
}

// The hardened Gaussian's draws, table by table, against draw_symmetric_table on the same bits.
TEST(HardenedScan, TableDrawsMatchTheWordScanBitForBit) {
  std::uint32_t k = 0;
  for (const char* s : {"1/4", "100", "1e12", "18446744073709551616"}) {
    for (unsigned tau_bits : {40u, 64u, 100u, 128u}) {
      const auto params = HardenedDiscreteGaussianParams::make(parse_rational("sigma2", s), 0, {tau_bits});
      const HardenedGaussianPlan& plan = params.plan();
      SeededBits a(test_support::fixed_seed(71, ++k)), b(test_support::fixed_seed(71, k));
      for (int i = 0; i < 20'000; ++i) {
        const bool fine = plan.levels > 0 && i % 2 == 0;
        const ThresholdTable& table = fine ? plan.fine : plan.base;
        const ScanTable& scan = fine ? plan.fine_scan : plan.base_scan;
        with_limbs(plan.width.limbs, [&](auto l) {
          const std::int64_t word_scan = draw_symmetric_table<l()>(a, table.words.data(), table.entries, plan.width.top_bits);
          const std::int64_t simd_scan = draw_symmetric_scan<l()>(b, scan, plan.width.top_bits);
          ASSERT_EQ(word_scan, simd_scan) << s << " tau_bits " << tau_bits << " draw " << i;
        });
        ASSERT_EQ(a.bits_consumed(), b.bits_consumed());
      }
    }
  }
}

}  // namespace
}  // namespace exactdp::internal
