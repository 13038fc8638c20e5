// The RDP of the Poisson-subsampled Gaussian and Laplace at large orders, where
// sampled_gaussian_rdp_fractional() and subsampled_laplace_rdp() skip the add order's series
// (D_alpha(Q0 || M)) once a cheap bound proves it the smaller (rdp_fractional.cc,
// rdp_subsampled_laplace.cc), and the series' tail is measured against the sum's scale
// (accounting/internal/three_region_series.h). The checks: the shortcut's premise holds (both
// moments computed in full, independently, by the *_moment functions: the add order's upper end
// is below the remove order's lower end), and the returned RDP overlaps log(max of the two full
// moments)/(alpha-1) and is narrow. Power: the same check rejects the add order's value (what a
// shortcut taking the wrong side would return).
#include <gtest/gtest.h>

#include <exactdp/accounting/rdp_fractional.h>
#include <exactdp/accounting/rdp_subsampled_laplace.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {
namespace {
namespace rdp_large_order_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kP = 64;

bool overlaps(const Interval& a, const Interval& b) {
  return mpfr_lessequal_p(a.lower(), b.upper()) && mpfr_lessequal_p(b.lower(), a.upper());
}

bool narrow(const Interval& x) { return relative_width_at_most(x, mpq_class(1, mpz_class(1) << 50)); }

struct Sides {
  Interval remove, add;  // log G(alpha) / (alpha - 1), log G(1 - alpha) / (alpha - 1)
};

template <typename Moment>
Sides both_sides(const Moment& moment, const mpq_class& alpha) {
  return {log(moment(alpha)) / mpq_class(alpha - 1), log(moment(mpq_class(1 - alpha))) / mpq_class(alpha - 1)};
}

TEST(RdpLargeOrder, GaussianSkipsTheSmallerAddOrder) {
  const mpq_class mu(1), q(1, 100);
  for (const mpq_class& alpha : {mpq_class(3345, 16), mpq_class(201, 2)}) {
    const Sides s = both_sides([&](const mpq_class& g) { return sampled_gaussian_moment(mu, q, g, kP); }, alpha);
    ASSERT_TRUE(mpfr_less_p(s.add.upper(), s.remove.lower())) << alpha.get_str();
    const Interval rdp = sampled_gaussian_rdp_fractional(mu, q, alpha, kP);
    EXPECT_TRUE(narrow(rdp)) << alpha.get_str();
    EXPECT_TRUE(overlaps(rdp, s.remove)) << alpha.get_str();
    EXPECT_FALSE(overlaps(rdp, s.add)) << alpha.get_str();  // the power of the check above
  }
}

TEST(RdpLargeOrder, LaplaceSkipsTheSmallerAddOrder) {
  const mpq_class eps(1), q(1, 100);
  for (const mpq_class& alpha : {mpq_class(256), mpq_class(4001, 16)}) {
    const Sides s = both_sides([&](const mpq_class& g) { return subsampled_laplace_moment(eps, q, g, kP); }, alpha);
    ASSERT_TRUE(mpfr_less_p(s.add.upper(), s.remove.lower())) << alpha.get_str();
    const Interval rdp = subsampled_laplace_rdp(eps, q, alpha, kP);
    EXPECT_TRUE(narrow(rdp)) << alpha.get_str();
    EXPECT_TRUE(overlaps(rdp, s.remove)) << alpha.get_str();
    EXPECT_FALSE(overlaps(rdp, s.add)) << alpha.get_str();
  }
}

// Where the bound does not decide (a small order: D_alpha(M || Q0) < -log(1-q)), both sides are
// still computed; the answer is the larger, as before.
TEST(RdpLargeOrder, SmallOrdersStillTakeTheLarger) {
  const mpq_class mu(1, 4), q(1, 2), alpha(5, 2);
  const Sides s = both_sides([&](const mpq_class& g) { return sampled_gaussian_moment(mu, q, g, kP); }, alpha);
  const Interval rdp = sampled_gaussian_rdp_fractional(mu, q, alpha, kP);
  EXPECT_TRUE(overlaps(rdp, max(s.remove, s.add)));
}

}  // namespace rdp_large_order_test
}  // namespace
}  // namespace exactdp::accounting
