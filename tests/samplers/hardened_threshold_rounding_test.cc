// hardened_threshold_rounding_test.cc — the hardened magnitude table's thresholds are the nearest
// integers to 2^W P[|Z| <= i] (samplers/internal/hardened_tables.cc: T = round(2^W (lo + hi) / 2)
// from an enclosure far narrower than a unit, at most 2^W - 1), checked against the independent certified reference
// law (verification/reference_law.h, 256 bits). The table's tv_upper is derived from the
// thresholds it stores, so a table with every threshold one unit off still certifies itself
// (hardened_law_test.cc's containment holds); this check pins the rounding. Deterministic.
#include <gtest/gtest.h>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/hardened_tables.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp {
namespace {
namespace hardened_threshold_rounding_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

TEST(HardenedThresholds, AreTheNearestIntegersToTheScaledCdf) {
  const mpq_class slack = mpq_class(1, 2) + mpq_class(mpz_class(1), mpz_class(1) << 32);
  for (const char* sigma2 : {"9/4", "40"}) {
    const mpq_class s2(sigma2);
    const internal::FixedWidth width = internal::fixed_width(72);
    const internal::CertifiedTable t = internal::build_gaussian_magnitude_table(s2, width, -80);
    const verification::DiscreteGaussianLaw law(s2, 0, 256);
    ASSERT_GT(t.table.entries, 3U) << sigma2;
    for (std::size_t i = 0; i < t.table.entries; ++i) {
      // P[|Z| <= i] = (2 S(0, i) - 1) / N, S(a, b) = sum_{k=a}^{b} exp(-k^2 / (2 sigma2)).
      const Interval s = law.partial_sum(0, mpz_class(static_cast<unsigned long>(i)));
      const Interval cdf = (mul_2si(s, 1) - Interval(1L, 256)) / law.normaliser();
      const Interval scaled = mul_2si(cdf, static_cast<long>(width.width_bits));
      const mpq_class threshold(t.table.threshold(i, width.limbs));
      EXPECT_LE(threshold, to_mpq(scaled.upper()) + slack) << "sigma2 " << sigma2 << ", T_" << i;
      const mpq_class top((mpz_class(1) << width.width_bits) - 1);  // the clamp where 2^W P rounds to 2^W
      const mpq_class lowest = to_mpq(scaled.lower()) - slack;
      EXPECT_GE(threshold, lowest < top ? lowest : top) << "sigma2 " << sigma2 << ", T_" << i;
    }
  }
}

}  // namespace hardened_threshold_rounding_test
}  // namespace
}  // namespace exactdp
