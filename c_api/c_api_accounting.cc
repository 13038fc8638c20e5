// c_api_accounting.cc — certified accounting through the C interface (exactdp.h), read from the
// registry (laws/registry.h): privacy profiles delta(epsilon) of a law at its parameters (with an
// optional hardened charge) and its calibration map (laws/noise_calibration.h), as decimal text
// rounded outward (exact text for a calibrated parameter).
//
// The per-law calls (exactdp_discrete_gaussian_delta, exactdp_discrete_laplace_delta,
// exactdp_calibrate_discrete_gaussian) are the generic ones at a fixed law; exactdp_sampler_delta
// takes the law of the sampler (every handle holds a registry law). A law without the capability asked for is refused by name.
#include <gmpxx.h>
#include <mpfr.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/core/interval.h>
#include <exactdp/core/rational.h>
#include <exactdp/exactdp.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/calibrate.h>
#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/c_api/internal/law_calls.h>

namespace exactdp::internal {
namespace {

using exactdp::Interval;

mpq_class epsilon_argument(const char* text) {
  mpq_class e = rational_argument("epsilon", text);
  require_epsilon(e, text);
  return e;
}

// NULL: no hardened charge; else 0 <= tau <= 1.
std::optional<mpq_class> tau_argument(const char* tau) {
  if (tau == nullptr) return std::nullopt;
  mpq_class t = parse_rational("tau", tau);
  if (sgn(t) < 0 || t > 1) throw ParameterError::out_of_range("tau", abbreviate(tau), "0 <= tau <= 1");
  return t;
}

// The privacy parameters of a sampler's law with the sensitivity of this call: a law with a
// certified profile whose sensitivity is a privacy parameter apart from its noise (never another
// law standing in for it). EXACTDP_E_UNSUPPORTED for any other law (bernoulli-exp: no additive
// noise; the staircase: its sensitivity is part of the noise).
laws::LawParameters sampler_privacy(const exactdp_sampler& s, const mpz_class& sensitivity) {
  const laws::Law& law = *s.law;
  bool separate = false;
  for (const auto& spec : law.parameters()) separate = separate || (spec.name == "sensitivity" && spec.role == laws::Role::kPrivacy);
  if (!law.supports(laws::Capability::kProfile) || !separate) {
    throw CApiError(EXACTDP_E_UNSUPPORTED, "sampler: exactdp_sampler_delta covers the laws with a profile at a "
                                           "given sensitivity; law " + law.name() + " (" + law.summary() +
                                           ") is not one of them");
  }
  std::vector<std::pair<std::string, mpq_class>> given;
  for (const auto& spec : law.parameters()) {
    if (spec.role == laws::Role::kNoise) given.emplace_back(spec.name, s.parameters.rational(spec.name));
  }
  given.emplace_back("sensitivity", mpq_class(sensitivity));
  return law.parse_values(given, laws::Use::kPrivacy);
}

// The operation `calibrate` (operations/calibrate.h: the command line's and Python's checks and
// limits, before any work) at the law's default tolerance.
laws::NoiseCalibration calibrate_via_operation(const std::string& law, const mpq_class& epsilon, const mpq_class& delta,
                                               const mpq_class& sensitivity) {
  operations::CalibrateRequest request{law, epsilon, delta, sensitivity, std::nullopt, 20, kCSpelling};
  operations::CalibratePlan plan = operations::plan_calibration(request);
  return operations::calibrate(request, std::move(plan)).calibration;
}

// A calibrated noise parameter as text: exact when its decimal terminates within
// EXACTDP_DECIMAL_DIGITS significant digits (every calibrated sigma2), else rounded UP to that
// many digits (the analytic Gaussian's dyadic sigma, a Laplace scale such as 1/3): a larger
// sigma or scale is at least as private for these laws.
std::string private_side_text(const mpq_class& v) {
  const Interval x(v, 64 + 4 * EXACTDP_DECIMAL_DIGITS + static_cast<mpfr_prec_t>(mpz_sizeinbase(v.get_den_mpz_t(), 2)));
  const std::string rounded = exactdp::decimal_upper(x.upper(), EXACTDP_DECIMAL_DIGITS);
  return parse_rational("value", rounded) == v ? exactdp::exact_decimal(v) : rounded;
}

void write_interval(const Interval& x, char* lower, char* upper, std::size_t len) {
  const exactdp::DecimalInterval text = exactdp::to_decimal(x, EXACTDP_DECIMAL_DIGITS);
  write_text(text.lower, lower, len, "lower");
  write_text(text.upper, upper, len, "upper");
}

// The per-law profile calls: the law at {parameter_name = parameter, sensitivity}.
int profile(const char* law_name, const char* parameter_name, const char* epsilon, const char* parameter,
            const char* sensitivity, const char* tau, char* lower, char* upper, std::size_t len) {
  const MpfrCacheRelease release;
  require_non_null(lower, "lower");
  require_non_null(upper, "upper");
  const mpq_class e = epsilon_argument(epsilon);
  const mpq_class p = rational_argument(parameter_name, parameter);
  const mpz_class s = sensitivity_argument(sensitivity);
  const std::optional<mpq_class> t = tau_argument(tau);
  const laws::Law& law = laws::law_named(law_name);
  const laws::LawParameters params =
      law.parse_values({{parameter_name, p}, {"sensitivity", mpq_class(s)}}, laws::Use::kPrivacy);
  write_interval(certified_delta(law, params, e, t ? &*t : nullptr), lower, upper, len);
  return EXACTDP_OK;
}

}  // namespace
}  // namespace exactdp::internal

namespace internal = exactdp::internal;
using internal::guard;
using internal::require_non_null;

extern "C" {

int exactdp_discrete_gaussian_delta(const char* epsilon, const char* sigma2,
                                    const char* sensitivity, const char* tau, char* lower,
                                    char* upper, size_t len) {
  return guard([&] {
    return internal::profile("discrete-gaussian", "sigma2", epsilon, sigma2, sensitivity, tau, lower, upper, len);
  });
}

int exactdp_discrete_laplace_delta(const char* epsilon, const char* scale, const char* sensitivity,
                                   const char* tau, char* lower, char* upper, size_t len) {
  return guard([&] {
    return internal::profile("discrete-laplace", "scale", epsilon, scale, sensitivity, tau, lower, upper, len);
  });
}

int exactdp_sampler_delta(const exactdp_sampler* sampler, const char* epsilon,
                          const char* sensitivity, char* lower, char* upper, size_t len) {
  return guard([&] {
    const internal::MpfrCacheRelease release;
    require_non_null(sampler, "sampler");
    require_non_null(lower, "lower");
    require_non_null(upper, "upper");
    const mpq_class e = internal::epsilon_argument(epsilon);
    const mpz_class s = internal::sensitivity_argument(sensitivity);
    const exactdp::laws::LawParameters p = internal::sampler_privacy(*sampler, s);
    internal::write_interval(internal::certified_delta(*sampler->law, p, e, internal::tau_upper_or_null(*sampler)),
                             lower, upper, len);
    return EXACTDP_OK;
  });
}

int exactdp_calibrate_discrete_gaussian(const char* epsilon, const char* delta,
                                        const char* sensitivity, char* sigma2, size_t len) {
  return guard([&] {
    const internal::MpfrCacheRelease release;
    require_non_null(sigma2, "sigma2");
    const mpq_class e = internal::epsilon_argument(epsilon);
    const mpq_class d = internal::rational_argument("delta", delta);
    const mpz_class s = internal::sensitivity_argument(sensitivity);
    const exactdp::laws::NoiseCalibration c = internal::calibrate_via_operation("discrete-gaussian", e, d, mpq_class(s));
    // Exact: sigma2 has 3 or 4 significant decimal digits, so its decimal expansion terminates.
    internal::write_text(exactdp::exact_decimal(c.value), sigma2, len, "sigma2");
    return EXACTDP_OK;
  });
}

int exactdp_law_delta(const char* law, const char* const* names, const char* const* values, size_t count,
                      const char* epsilon, const char* tau, char* lower, char* upper, size_t len) {
  return guard([&] {
    const internal::MpfrCacheRelease release;
    require_non_null(lower, "lower");
    require_non_null(upper, "upper");
    const auto given = internal::named_values(names, values, count);
    require_non_null(law, "law");
    const exactdp::laws::Law& l = internal::law_with(law, exactdp::laws::Capability::kProfile, "certified profile");
    const mpq_class e = internal::epsilon_argument(epsilon);
    const std::optional<mpq_class> t = internal::tau_argument(tau);
    const exactdp::laws::LawParameters p = l.parse(given, exactdp::laws::Use::kPrivacy);
    internal::write_interval(internal::certified_delta(l, p, e, t ? &*t : nullptr), lower, upper, len);
    return EXACTDP_OK;
  });
}

int exactdp_law_calibrate(const char* law, const char* const* names, const char* const* values, size_t count,
                          const char* epsilon, const char* delta, char* parameter, char* value, size_t len) {
  return guard([&] {
    const internal::MpfrCacheRelease release;
    require_non_null(parameter, "parameter");
    require_non_null(value, "value");
    const auto given = internal::named_values(names, values, count);
    require_non_null(law, "law");
    const exactdp::laws::Law& l = internal::law_with(law, exactdp::laws::Capability::kCalibrate, "calibration");
    const mpq_class e = internal::epsilon_argument(epsilon);
    const mpq_class d = internal::rational_argument("delta", delta);
    const exactdp::laws::LawParameters p = l.parse(given, exactdp::laws::Use::kCalibrate);  // the names, their values
    const exactdp::laws::NoiseCalibration c = internal::calibrate_via_operation(l.name(), e, d, p.rational("sensitivity"));
    internal::write_text(internal::private_side_text(c.value), value, len, "value");  // EXACTDP_E_BUFFER first when it does not fit
    internal::write_text(c.parameter, parameter, len, "parameter");
    return EXACTDP_OK;
  });
}

}  // extern "C"
