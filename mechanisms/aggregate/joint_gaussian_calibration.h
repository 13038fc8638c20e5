// joint_gaussian_calibration.h — calibrate several discrete Gaussian quantities together from
// the exact profile of their product (accounting/product_discrete_gaussian_profile.h), instead
// of splitting a zCDP budget between them.
//
// Quantity i is released in `copies` coordinates (the L0 groups a unit may change), each moved by
// at most shifts[i] by a neighbour. Its noise is sigma2_i = start_sigma2[i] / x for one factor
// x >= 1 shared by all quantities: start_sigma2 is the zCDP split's answer, so the ratios between
// the quantities (sigma2_i proportional to their L2^2) are the split's, and x = 1 is known to be
// private. The largest x whose certified delta(epsilon) <= delta is searched to a relative 2^-8
// (accounting::largest_meeting under a SearchBudget); each sigma2_i is then rounded up to 3
// significant digits and the product's delta at those values certified again (raised by 2^-10
// steps up to 16 times if the rounding crossed the target).
//
// Returns std::nullopt (the caller keeps the zCDP split) when the product has more outer points
// than accounting::kMaxProductProfilePoints at x = 1 (the cost grows with the number of
// coordinates: two quantities in one group each are served; three, or L0 >= 2, are not), or
// when no rounded value certifies, or when a profile is over its own cost (LimitError caught).
// Cost: at most 24 + 17 product evaluations (about 14 in practice) of at most 256 one-
// dimensional profiles each (a 1-D profile costs up to ~0.6 ms at sigma2 ~ 10^10: about 2 s at most).
#pragma once

#include <gmpxx.h>

#include <optional>
#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::mechanisms {

struct JointGaussianCalibration {
  std::vector<mpq_class> sigma2;  // per quantity, <= start_sigma2
  exactdp::Interval delta_at{exactdp::kDefaultPrecision};  // certified; upper <= delta
  unsigned long outer_points = 0;  // of the product evaluation at sigma2
};

[[nodiscard]] std::optional<JointGaussianCalibration> calibrate_joint_gaussian(
    const std::vector<mpz_class>& shifts, unsigned long copies, const mpq_class& epsilon,
    const mpq_class& delta, const std::vector<mpq_class>& start_sigma2);

// The certified delta(epsilon) of the product at these per-quantity sigma2 (each quantity in
// `copies` coordinates), for reports and tests. LimitError naming "delta" when over the cost.
[[nodiscard]] exactdp::Interval joint_gaussian_delta(const std::vector<mpz_class>& shifts, unsigned long copies,
                                                     const std::vector<mpq_class>& sigma2, const mpq_class& epsilon,
                                                     const mpq_class& delta);

}  // namespace exactdp::mechanisms
