// joint_gaussian_calibration.h — calibrate several discrete Gaussian quantities together from
// the privacy profile of their product, instead of splitting a zCDP budget between them.
//
// Quantity i is released in `copies` coordinates (the L0 groups a unit may change), each moved by
// at most shifts[i] by a neighbour. Its noise is sigma2_i = start_sigma2[i] / x for one factor
// x >= 1 shared by all quantities: start_sigma2 is the zCDP split's answer, so the ratios between
// the quantities (sigma2_i proportional to their L2^2) are the split's, and x = 1 is known to be
// private. Two certified profiles of the product are searched, and the larger x kept:
//   exact ("product-profile (exact)", accounting/product_discrete_gaussian_profile.h): the exact
//     delta(epsilon), enclosed; only when the product has at most
//     accounting::kMaxProductProfilePoints outer points at x = 1 (two quantities with L0 = 1 and
//     a small count sigma); searched to a relative 2^-8 in at most 24 evaluations;
//   smoothed ("product-profile (smoothed)", accounting/product_discrete_gaussian_smoothed.h): an
//     upper bound through the continuous Gaussian by lattice smoothing, for any number of
//     quantities and copies, within about t2 / (2 sigma2) of the exact optimum (widths chosen
//     once at x = 1); needs every start sigma2 >= 2; searched to a relative 2^-12 in at most 40
//     evaluations of a closed form.
// Each sigma2_i is then rounded up to 3 significant digits and the profile at those values
// certified again (raised by 2^-10 steps up to 16 times if the rounding crossed the target).
//
// Returns std::nullopt (the caller keeps the zCDP split) when neither route applies or certifies
// a rounded value, or when a profile is over its own cost (LimitError caught); the smoothed route
// only up to kMaxSmoothedQuantities quantities.
// Cost: the exact route at most 24 + 17 product evaluations of at most 256 one-dimensional
// profiles each (about 2 s at most, sigma2 ~ 10^10); the smoothed one a few milliseconds.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::mechanisms {

// The smoothed route is tried for at most this many quantities: its width choice grows with the
// square of their number (1,000 released columns took 7.4 s of CPU, 1,500 took 14.8 s). Past it
// the zCDP split (or the exact route) answers.
inline constexpr std::size_t kMaxSmoothedQuantities = 1000;

// JointGaussianCalibration::route of the exact product-profile search (compare with this, not a literal).
inline constexpr const char* kJointExactRoute = "product-profile (exact)";

struct JointGaussianCalibration {
  std::vector<mpq_class> sigma2;  // per quantity, <= start_sigma2
  // exact route: an enclosure of the product's delta(epsilon); smoothed route: of the bound.
  // Either way upper <= delta.
  exactdp::Interval delta_at{exactdp::kDefaultPrecision};
  std::string route;               // "product-profile (exact)" or "product-profile (smoothed)"
  unsigned long outer_points = 0;  // exact route: of the product evaluation at sigma2
};

[[nodiscard]] std::optional<JointGaussianCalibration> calibrate_joint_gaussian(
    const std::vector<mpz_class>& shifts, unsigned long copies, const mpq_class& epsilon,
    const mpq_class& delta, const std::vector<mpq_class>& start_sigma2);

// The certified delta(epsilon) of the product at these per-quantity sigma2 (each quantity in
// `copies` coordinates), for reports and tests. LimitError naming "delta" when over the cost.
[[nodiscard]] exactdp::Interval joint_gaussian_delta(const std::vector<mpz_class>& shifts, unsigned long copies,
                                                     const std::vector<mpq_class>& sigma2, const mpq_class& epsilon,
                                                     const mpq_class& delta);

// The smoothed route's bound at these sigma2 (widths chosen for them); [1, 1] when a sigma2 is
// below 2. For reports and tests.
[[nodiscard]] exactdp::Interval joint_gaussian_smoothed_delta(const std::vector<mpz_class>& shifts,
                                                              unsigned long copies,
                                                              const std::vector<mpq_class>& sigma2,
                                                              const mpq_class& epsilon);

}  // namespace exactdp::mechanisms
