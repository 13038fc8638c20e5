#include <exactdp/accounting/rdp_fractional.h>

#include <algorithm>
#include <string>
#include <vector>

#include <exactdp/accounting/internal/three_region_series.h>
#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/core/rational_rounding.h>

namespace exactdp::accounting {
namespace {

// The Gaussian pair's regions in z (rdp_fractional.h): r(z) = e^((z - z0)/s^2), weight Q0 =
// N(0, s^2); z1 = z0 - s^2 ln 2, z2 = z0 + s^2 ln 2 (exact reals, enclosed at each precision).
// int_a^b Q0 r^j = e^(j lambda + (j^2 - j) mu^2/2) [Phi((b-j) mu) - Phi((a-j) mu)].
class GaussianPairProblem final : public internal::ThreeRegionProblem {
 public:
  GaussianPairProblem(const mpq_class& mu, const mpq_class& q) : mu_(mu), q_(q) {}

  // lambda = ln(q/(1-q)), z1, z2 at precision p (kept for the last precision asked).
  struct Constants {
    mpfr_prec_t precision = 0;
    Interval lambda, z1, z2;
  };
  [[nodiscard]] const Constants& constants(mpfr_prec_t p) const {
    if (constants_.precision != p) {
      const Interval lambda = log(Interval(q_, p) / Interval(mpq_class(1 - q_), p));
      const mpq_class s2 = 1 / (mu_ * mu_);
      const Interval z0 = Interval(mpq_class(1, 2), p) - lambda * s2;
      const Interval s2_ln2 = log2_interval(p) * s2;
      constants_ = Constants{p, lambda, z0 - s2_ln2, z0 + s2_ln2};
    }
    return constants_;
  }

  [[nodiscard]] Interval moment(internal::Region region, const Interval& j, const mpq_class& /*j_exact*/,
                                mpfr_prec_t p) const override {
    const Constants& c = constants(p);
    const Interval e = j * c.lambda + (square(j) - j) * mpq_class(mu_ * mu_ / 2);
    switch (region) {
      case internal::Region::kLeft:
        return exp(e + log_normal_cdf((c.z1 - j) * mu_));
      case internal::Region::kRight:
        return exp(e + log_normal_sf((c.z2 - j) * mu_));
      case internal::Region::kMiddle: {
        const Interval below_z2 = exp(e + log_normal_cdf((c.z2 - j) * mu_));
        const Interval below_z1 = exp(e + log_normal_cdf((c.z1 - j) * mu_));
        return max(below_z2 - below_z1, Interval(p));  // >= 0
      }
    }
    return Interval::entire(p);
  }

  [[nodiscard]] std::string cache_key() const override { return "gaussian " + mu_.get_str() + " " + q_.get_str(); }

 private:
  mpq_class mu_, q_;
  mutable Constants constants_;
};

void check_pair(const mpq_class& mu, const mpq_class& q) {
  require_positive("sigma", mu);
  if (mu > fractional_order_max_mu()) {
    throw ParameterError("order", "order: fractional orders need sensitivity/sigma <= 16 (allowed: integer orders)");
  }
  if (sgn(q) <= 0 || q >= 1) throw ParameterError::out_of_range("q", abbreviate(to_string(q)), "0 < q < 1");
}

// G(g) = (1-q)^g S(g), at least 1 (Jensen: t -> t^g is convex for g >= 1 or g <= 0 and
// E_Q0[M/Q0] = 1).
Interval moment_from_sum(const Interval& sum, const mpq_class& q, const mpq_class& g) {
  const mpfr_prec_t p = sum.precision();
  return max(sum * exp(log(Interval(mpq_class(1 - q), p)) * g), Interval(1L, p));
}

// Whether D_alpha(Q0 || M) <= D_alpha(M || Q0) is proven cheaply, so that the larger of the two
// is the first and the second's series (g = 1 - alpha < 0: an alternating series of about 4 alpha
// terms carried at alpha extra bits, most of the cost at large orders) is not needed:
//   D_alpha(Q0 || M) <= D_inf(Q0 || M) = sup log(Q0 / M) <= -log(1 - q)   (M >= (1 - q) Q0),
//   D_alpha(M || Q0) >= D_n(M || Q0), n = floor(alpha) >= 2   (Renyi divergence is nondecreasing
//   in the order: van Erven and Harremoes 2014, Thm. 3), the closed form poisson_binomial_rdp.
// Both sides at 64 bits, outward; false (compute both) whenever the comparison is not decided.
bool add_order_is_smaller(const mpq_class& mu, const mpq_class& q, const mpq_class& alpha) {
  const mpz_class n = floor_of(alpha);
  if (n < 2) return false;
  const mpfr_prec_t p = 64;
  const Interval add_bound = -log(Interval(mpq_class(1 - q), p));
  const Interval remove_floor = poisson_binomial_rdp(mpq_class(mu * mu), q, n.get_ui(), p);
  return mpfr_lessequal_p(add_bound.upper(), remove_floor.lower()) != 0;
}

}  // namespace

const mpq_class& fractional_order_max_mu() {
  static const mpq_class max_mu(16);
  return max_mu;
}

Interval sampled_gaussian_moment(const mpq_class& mu, const mpq_class& q, const mpq_class& g,
                                 mpfr_prec_t precision) {
  check_pair(mu, q);
  return moment_from_sum(internal::three_region_sum(GaussianPairProblem(mu, q), g, precision), q, g);
}

Interval sampled_gaussian_rdp_fractional(const mpq_class& mu, const mpq_class& q, const mpq_class& alpha,
                                         mpfr_prec_t precision) {
  if (alpha <= 1 || alpha > kMaxFractionalOrder) {
    throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)), "1 < order <= 256");
  }
  check_pair(mu, q);
  const mpfr_prec_t p = precision + 16;
  const mpq_class beta = 1 - alpha;
  const GaussianPairProblem problem(mu, q);
  Interval larger(p);
  if (add_order_is_smaller(mu, q, alpha)) {
    larger = moment_from_sum(internal::three_region_sum(problem, alpha, p), q, alpha);
  } else {
    const internal::SumPair sums = internal::three_region_sums(problem, alpha, beta, p);
    larger = max(moment_from_sum(sums.first, q, alpha), moment_from_sum(sums.second, q, beta));
  }
  Interval value = log(larger) / mpq_class(alpha - 1);
  value = clamp(value, mpq_class(0), mpq_class(alpha * mu * mu / 2));
  value.set_precision(precision);
  return value;
}

}  // namespace exactdp::accounting
