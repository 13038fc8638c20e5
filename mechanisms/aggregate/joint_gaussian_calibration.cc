#include <exactdp/mechanisms/aggregate/joint_gaussian_calibration.h>

#include <functional>

#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/product_discrete_gaussian_profile.h>
#include <exactdp/accounting/product_discrete_gaussian_smoothed.h>
#include <exactdp/accounting/search_budget.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

constexpr int kRoundingBumps = 16;

std::vector<accounting::GaussianCoordinate> coordinates(const std::vector<mpz_class>& shifts, unsigned long copies,
                                                        const std::vector<mpq_class>& sigma2) {
  std::vector<accounting::GaussianCoordinate> out;
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    for (unsigned long k = 0; k < copies; ++k) out.push_back({sigma2[i], shifts[i]});
  }
  return out;
}

std::vector<accounting::SmoothedGaussianBlock> blocks(const std::vector<mpz_class>& shifts, unsigned long copies,
                                                      const std::vector<mpq_class>& sigma2) {
  std::vector<accounting::SmoothedGaussianBlock> out;
  for (std::size_t i = 0; i < shifts.size(); ++i) out.push_back({sigma2[i], shifts[i], mpz_class(copies), 0});
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

// One certified profile of the product, as a function of the per-quantity sigma2.
struct Route {
  std::string name;
  int search_bits;
  int max_evaluations;
  std::function<exactdp::Interval(const std::vector<mpq_class>&)> delta_of;
};

// The largest common factor x >= 1 whose sigma2 = start / x meets delta, rounded up to 3
// significant digits and certified again (joint_gaussian_calibration.h).
std::optional<JointGaussianCalibration> search_route(const Route& route, const mpq_class& delta,
                                                     const std::vector<mpq_class>& start) {
  auto meets_factor = [&](const mpq_class& x) {
    return x >= 1 && exactdp::upper_at_most(route.delta_of(scaled(start, x)), delta);
  };
  accounting::SearchBudget budget(
      [] { return LimitError("delta", "delta: the joint discrete Gaussian search ran out of evaluations"); },
      accounting::kMaxSearchProbeBits, route.max_evaluations);
  mpq_class x = 1;
  if (meets_factor(1)) x = accounting::largest_meeting(meets_factor, mpq_class(1), budget, route.search_bits);
  std::vector<mpq_class> sigma2;
  for (const auto& s : scaled(start, x)) sigma2.push_back(accounting::round_up_significant(s, 3));
  for (int bump = 0; bump <= kRoundingBumps; ++bump) {
    const exactdp::Interval d = route.delta_of(sigma2);
    if (exactdp::upper_at_most(d, delta)) return JointGaussianCalibration{sigma2, d, route.name, 0};
    for (auto& s : sigma2) s = accounting::round_up_significant(s * (1 + power_of_two(-10)), 3);
  }
  return std::nullopt;
}

std::optional<JointGaussianCalibration> search_exact(const std::vector<mpz_class>& shifts, unsigned long copies,
                                                     const mpq_class& epsilon, const mpq_class& delta,
                                                     const std::vector<mpq_class>& start) {
  if (accounting::product_profile_points(coordinates(shifts, copies, start), delta) >
      accounting::kMaxProductProfilePoints) {
    return std::nullopt;
  }
  const Route route{kJointExactRoute, 8, 24, [&](const std::vector<mpq_class>& sigma2) {
                      return joint_gaussian_delta(shifts, copies, sigma2, epsilon, delta);
                    }};
  try {
    auto out = search_route(route, delta, start);
    if (out) out->outer_points = accounting::product_profile_points(coordinates(shifts, copies, out->sigma2), delta);
    return out;
  } catch (const LimitError&) {  // a one-dimensional profile over its cost, or the search's budget
    return std::nullopt;
  }
}

std::optional<JointGaussianCalibration> search_smoothed(const std::vector<mpz_class>& shifts, unsigned long copies,
                                                        const mpq_class& epsilon, const mpq_class& delta,
                                                        const std::vector<mpq_class>& start) {
  if (shifts.size() > kMaxSmoothedQuantities) return std::nullopt;
  std::vector<accounting::SmoothedGaussianBlock> widths = blocks(shifts, copies, start);
  if (!accounting::choose_smoothing(widths, epsilon)) return std::nullopt;
  const Route route{"product-profile (smoothed)", 12, 40, [&](const std::vector<mpq_class>& sigma2) {
                      std::vector<accounting::SmoothedGaussianBlock> b = widths;
                      for (std::size_t i = 0; i < b.size(); ++i) {
                        if (sigma2[i] <= b[i].t2) return exactdp::Interval(1L, exactdp::kDefaultPrecision);
                        b[i].sigma2 = sigma2[i];
                      }
                      return accounting::smoothed_product_delta_at(b, epsilon);
                    }};
  try {
    return search_route(route, delta, start);
  } catch (const LimitError&) {  // the search's budget
    return std::nullopt;
  }
}

}  // namespace

exactdp::Interval joint_gaussian_delta(const std::vector<mpz_class>& shifts, unsigned long copies,
                                       const std::vector<mpq_class>& sigma2, const mpq_class& epsilon,
                                       const mpq_class& delta) {
  return accounting::product_discrete_gaussian_delta_at(coordinates(shifts, copies, sigma2), epsilon, delta);
}

exactdp::Interval joint_gaussian_smoothed_delta(const std::vector<mpz_class>& shifts, unsigned long copies,
                                                const std::vector<mpq_class>& sigma2, const mpq_class& epsilon) {
  std::vector<accounting::SmoothedGaussianBlock> b = blocks(shifts, copies, sigma2);
  if (!accounting::choose_smoothing(b, epsilon)) return exactdp::Interval(1L, exactdp::kDefaultPrecision);
  return accounting::smoothed_product_delta_at(b, epsilon);
}

std::optional<JointGaussianCalibration> calibrate_joint_gaussian(const std::vector<mpz_class>& shifts,
                                                                 unsigned long copies, const mpq_class& epsilon,
                                                                 const mpq_class& delta,
                                                                 const std::vector<mpq_class>& start_sigma2) {
  if (shifts.empty() || shifts.size() != start_sigma2.size() || copies == 0) return std::nullopt;
  auto exact = search_exact(shifts, copies, epsilon, delta, start_sigma2);
  auto smoothed = search_smoothed(shifts, copies, epsilon, delta, start_sigma2);
  if (!exact) return smoothed;
  if (!smoothed) return exact;
  // Both keep the split's ratios: the smaller first sigma2 is the smaller noise (ties: exact).
  return smoothed->sigma2[0] < exact->sigma2[0] ? smoothed : exact;
}

}  // namespace exactdp::mechanisms
