#include <exactdp/mechanisms/aggregate/joint_gaussian_calibration.h>

#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/product_discrete_gaussian_profile.h>
#include <exactdp/accounting/search_budget.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

constexpr int kSearchBits = 8;
constexpr int kRoundingBumps = 16;
constexpr int kMaxSearchEvaluations = 24;  // the search needs about 12 (2^-8 from x = 1)

std::vector<accounting::GaussianCoordinate> coordinates(const std::vector<mpz_class>& shifts, unsigned long copies,
                                                        const std::vector<mpq_class>& sigma2) {
  std::vector<accounting::GaussianCoordinate> out;
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    for (unsigned long k = 0; k < copies; ++k) out.push_back({sigma2[i], shifts[i]});
  }
  return out;
}

std::vector<mpq_class> scaled(const std::vector<mpq_class>& start, const mpq_class& x) {
  std::vector<mpq_class> out;
  for (const auto& s : start) {
    mpq_class v = s / x;
    v.canonicalize();
    out.push_back(v);
  }
  return out;
}

}  // namespace

exactdp::Interval joint_gaussian_delta(const std::vector<mpz_class>& shifts, unsigned long copies,
                                       const std::vector<mpq_class>& sigma2, const mpq_class& epsilon,
                                       const mpq_class& delta) {
  return accounting::product_discrete_gaussian_delta_at(coordinates(shifts, copies, sigma2), epsilon, delta);
}

namespace {

std::optional<JointGaussianCalibration> search_joint_gaussian(const std::vector<mpz_class>& shifts,
                                                              unsigned long copies, const mpq_class& epsilon,
                                                              const mpq_class& delta,
                                                              const std::vector<mpq_class>& start_sigma2) {
  if (shifts.empty() || shifts.size() != start_sigma2.size() || copies == 0) return std::nullopt;
  const unsigned long points = accounting::product_profile_points(coordinates(shifts, copies, start_sigma2), delta);
  if (points > accounting::kMaxProductProfilePoints) return std::nullopt;
  auto meets = [&](const std::vector<mpq_class>& sigma2) {
    return exactdp::upper_at_most(joint_gaussian_delta(shifts, copies, sigma2, epsilon, delta), delta);
  };
  // x >= 1 only: below 1 the zCDP split is already the answer.
  auto meets_factor = [&](const mpq_class& x) { return x >= 1 && meets(scaled(start_sigma2, x)); };
  accounting::SearchBudget budget(
      [] { return LimitError("delta", "delta: the joint discrete Gaussian search ran out of evaluations"); },
      accounting::kMaxSearchProbeBits, kMaxSearchEvaluations);
  mpq_class x = 1;
  if (meets_factor(1)) x = accounting::largest_meeting(meets_factor, mpq_class(1), budget, kSearchBits);
  std::vector<mpq_class> sigma2;
  for (const auto& s : scaled(start_sigma2, x)) sigma2.push_back(accounting::round_up_significant(s, 3));
  for (int bump = 0; bump <= kRoundingBumps; ++bump) {
    const exactdp::Interval d = joint_gaussian_delta(shifts, copies, sigma2, epsilon, delta);
    if (exactdp::upper_at_most(d, delta)) {
      return JointGaussianCalibration{
          sigma2, d, accounting::product_profile_points(coordinates(shifts, copies, sigma2), delta)};
    }
    for (auto& s : sigma2) s = accounting::round_up_significant(s * (1 + power_of_two(-10)), 3);
  }
  return std::nullopt;
}

}  // namespace

std::optional<JointGaussianCalibration> calibrate_joint_gaussian(const std::vector<mpz_class>& shifts,
                                                                 unsigned long copies, const mpq_class& epsilon,
                                                                 const mpq_class& delta,
                                                                 const std::vector<mpq_class>& start_sigma2) {
  try {
    return search_joint_gaussian(shifts, copies, epsilon, delta, start_sigma2);
  } catch (const LimitError&) {  // a one-dimensional profile over its cost, or the search's budget
    return std::nullopt;
  }
}

}  // namespace exactdp::mechanisms
