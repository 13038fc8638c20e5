#include <exactdp/laws/vector_grid/vector_grid_pld.h>

#include <exactdp/accounting/grid_noise.h>
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
  constexpr mpfr_prec_t kP = 128;
  GridPldAnswer out;
  out.log_ratio = accounting::lattice_log_ratio(*law.subsampling_width(), law.dimension() * steps, kP);
  // delta / R, rounded down to a rational
  out.delta_used = to_mpq((Interval(delta, kP) / exp(out.log_ratio)).lower());
  const accounting::PrivacyEvent gaussian = accounting::PrivacyEvent::gaussian(mpq_class(1), law.subsampling_mu());
  const accounting::RdpEvent event = q == 1 ? accounting::RdpEvent::plain(gaussian)
                                            : accounting::RdpEvent::poisson_subsampled(gaussian, q);
  out.gaussian = accounting::pld::pld_epsilon({{event, steps}}, out.delta_used, accounting::Neighbouring::kAddRemove,
                                              options);
  const Interval shift = mul_2si(out.log_ratio, 1);
  out.epsilon = hull(out.gaussian.value, out.gaussian.value + shift);
  return out;
}

}  // namespace exactdp::laws
