#include <exactdp/accounting/smoothed_pld.h>

#include <utility>

#include <exactdp/accounting/grid_noise.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

constexpr mpfr_prec_t kP = 128;

// The law's smoothing, when the event's law has one.
std::optional<GaussianSmoothing> smoothing_of(const RdpEvent& e) {
  const LawPrivacy* maps = e.base_maps();
  return maps ? maps->gaussian_smoothing() : std::nullopt;
}

// A continuous Gaussian event, plain or Poisson-subsampled.
bool is_gaussian(const RdpEvent& e) {
  return e.subsampled_gaussian() != nullptr || (e.base_maps() && e.base_maps()->gaussian_noise());
}

// G (the continuous composition) and ln R.
struct Comparison {
  RdpComposition gaussian;
  Interval log_ratio{0L, kP};
};

Comparison compare(const RdpComposition& events) {
  if (const std::optional<std::string> why = smoothed_pld_refusal(events, Neighbouring::kAddRemove)) {
    throw ParameterError("route", "route: " + *why);
  }
  Comparison c;
  for (const auto& [e, n] : events) {
    const std::optional<GaussianSmoothing> s = smoothing_of(e);
    if (!s) {  // a continuous Gaussian event: itself, ratio 1
      c.gaussian.emplace_back(e, n);
      continue;
    }
    c.log_ratio = c.log_ratio + lattice_log_ratio(s->t2, s->dim * mpz_class(n), kP);
    const bool subsampled = e.is_subsampled() && e.subsampled_q() != 1;
    c.gaussian.emplace_back(subsampled ? RdpEvent::poisson_gaussian(mpq_class(1), e.subsampled_q(), s->mu)
                                       : RdpEvent::plain(PrivacyEvent::of_law(s->gaussian)),
                            n);
  }
  return c;
}

}  // namespace

std::optional<std::string> smoothed_pld_refusal(const RdpComposition& events, Neighbouring relation) {
  if (relation != Neighbouring::kAddRemove) {
    return std::string("smoothed-pld holds under add/remove-one only (Theorem 5 of docs/REAL_VALUED_ACCOUNTING.md)");
  }
  for (const auto& [e, n] : events) {
    if (is_gaussian(e) || smoothing_of(e)) continue;
    return "smoothed-pld composes vector-discrete-gaussian (with a smoothing width, sigma/granularity >= 1/2) and "
           "gaussian events, plain or Poisson-subsampled; " + e.describe() + " is not one";
  }
  return std::nullopt;
}

bool has_smoothed_event(const RdpComposition& events) {
  for (const auto& [e, n] : events) {
    if (smoothing_of(e)) return true;
  }
  return false;
}

// An answer that so far holds only ln R of the comparison.
SmoothedPldAnswer answer_for(const Comparison& c) {
  SmoothedPldAnswer out;
  out.log_ratio = c.log_ratio;
  return out;
}

SmoothedPldAnswer smoothed_pld_epsilon(const RdpComposition& events, const mpq_class& delta,
                                       const pld::PldOptions& options) {
  const Comparison c = compare(events);
  SmoothedPldAnswer out = answer_for(c);
  out.target_used = to_mpq((Interval(delta, kP) / exp(c.log_ratio)).lower());  // delta / R rounded down
  out.gaussian = pld::pld_epsilon(c.gaussian, out.target_used, Neighbouring::kAddRemove, options);
  out.value = hull(out.gaussian.value, out.gaussian.value + mul_2si(c.log_ratio, 1));
  return out;
}

SmoothedPldAnswer smoothed_pld_delta(const RdpComposition& events, const mpq_class& epsilon,
                                     const pld::PldOptions& options) {
  const Comparison c = compare(events);
  SmoothedPldAnswer out = answer_for(c);
  out.target_used = to_mpq((Interval(epsilon, kP) - mul_2si(c.log_ratio, 1)).lower());  // eps - 2 ln R, down
  if (sgn(out.target_used) < 0) {
    throw ParameterError("route", "route: smoothed-pld needs epsilon above 2 ln R = " +
                                      to_decimal_string(mul_2si(c.log_ratio, 1), 6));
  }
  out.gaussian = pld::pld_delta(c.gaussian, out.target_used, Neighbouring::kAddRemove, options);
  out.value = hull(out.gaussian.value, at_most_one(exp(c.log_ratio) * out.gaussian.value));
  return out;
}

}  // namespace exactdp::accounting
