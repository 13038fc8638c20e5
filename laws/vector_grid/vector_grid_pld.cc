#include <exactdp/laws/vector_grid/vector_grid_pld.h>

#include <memory>

#include <exactdp/accounting/smoothed_pld.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {

GridPldAnswer vector_discrete_gaussian_pld_epsilon(const VectorDiscreteGaussianPrivacy& law, const mpq_class& q,
                                                   unsigned long steps, const mpq_class& delta,
                                                   const accounting::pld::PldOptions& options) {
  if (sgn(q) <= 0 || q > 1) throw ParameterError::out_of_range("q", abbreviate(to_string(q)), "0 < q <= 1");
  if (steps < 1 || steps > 1'000'000'000UL) {
    throw ParameterError::out_of_range("count", std::to_string(steps), "1 <= count <= 10^9");
  }
  if (!law.subsampling_width()) {
    throw ParameterError("route", "route: " + law.describe() + " has no smoothing width (sigma/granularity < 1/2)");
  }
  const accounting::PrivacyEvent event =
      accounting::PrivacyEvent::of_law(std::make_shared<VectorDiscreteGaussianPrivacy>(law));
  const accounting::RdpEvent release =
      q == 1 ? accounting::RdpEvent::plain(event) : accounting::RdpEvent::poisson_subsampled(event, q);
  accounting::SmoothedPldAnswer a = accounting::smoothed_pld_epsilon({{release, steps}}, delta, options);
  GridPldAnswer out;
  out.epsilon = a.value;
  out.log_ratio = a.log_ratio;
  out.delta_used = a.target_used;
  out.gaussian = std::move(a.gaussian);
  return out;
}

}  // namespace exactdp::laws
