// c_api_accounting.cc — certified accounting through the C interface (exactdp.h), read from the
// registry (laws/registry.h): privacy profiles delta(epsilon) of a law at its parameters (with an
// optional hardened charge) and its calibration map (laws/noise_calibration.h), as decimal text
// rounded outward (exact text for a calibrated parameter).
//
// Every profile goes through the operation `law delta` (operations/law_delta.h) and every
// calibration through the operation `calibrate` (operations/calibrate.h), so a refused value reads
// as `exactdp profile` / `exactdp calibrate` word it, in the C spelling. The per-law calls
// (exactdp_discrete_gaussian_delta, exactdp_discrete_laplace_delta,
// exactdp_calibrate_discrete_gaussian) are the generic ones at a fixed law; exactdp_sampler_delta
// takes the law of the sampler (every handle holds a registry law).
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
#include <exactdp/laws/c_interface_laws.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/law_delta.h>
#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/c_api/internal/law_calls.h>

namespace exactdp::internal {
namespace {

using exactdp::Interval;

// The operation `law delta` (operations/law_delta.h: the law, its parameters and epsilon checked
// as `exactdp profile` checks them, in the C spelling), written rounded outward.
void write_law_delta(const char* law, operations::GivenParameters given, const char* epsilon,
                     std::optional<std::string> tau, char* lower, char* upper, std::size_t len) {
  require_non_null(lower, "lower");
  require_non_null(upper, "upper");
  require_non_null(epsilon, "epsilon");
  const operations::LawDeltaRequest request{law, std::move(given), epsilon, std::move(tau), std::nullopt, kCSpelling};
  const exactdp::DecimalInterval text = exactdp::to_decimal(operations::law_delta(request).delta, EXACTDP_DECIMAL_DIGITS);
  write_text(text.lower, lower, len, "lower");
  write_text(text.upper, upper, len, "upper");
}

std::optional<std::string> optional_text(const char* text) {
  return text == nullptr ? std::nullopt : std::optional<std::string>(text);
}

// The noise parameters of a sampler's law and the sensitivity of this call: a law with a
// certified profile whose sensitivity is a privacy parameter apart from its noise (never another
// law standing in for it). EXACTDP_E_UNSUPPORTED for any other law (bernoulli-exp: no additive
// noise; the staircase: its sensitivity is part of the noise).
operations::GivenParameters sampler_privacy(const exactdp_sampler& s, const char* sensitivity) {
  const laws::Law& law = *s.law;
  bool separate = false;
  for (const auto& spec : law.parameters()) separate = separate || (spec.name == "sensitivity" && spec.role == laws::Role::kPrivacy);
  if (!law.supports(laws::Capability::kProfile) || !separate) {
    throw CApiError(EXACTDP_E_UNSUPPORTED, "sampler: exactdp_sampler_delta covers the laws with a profile at a "
                                           "given sensitivity; law " + law.name() + " (" + law.summary() +
                                           ") is not one of them");
  }
  operations::GivenParameters given;
  for (const auto& spec : law.parameters()) {
    if (spec.role == laws::Role::kNoise) given.emplace_back(spec.name, to_string(s.parameters.rational(spec.name)));
  }
  if (sensitivity != nullptr) given.emplace_back("sensitivity", sensitivity);
  return given;
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

// The per-law profile calls: the law (laws/c_interface_laws.h) at {its noise = parameter,
// sensitivity}.
int profile(const laws::CInterfaceLaw& law, const char* epsilon, const char* parameter, const char* sensitivity,
            const char* tau, char* lower, char* upper, std::size_t len) {
  const MpfrCacheRelease release;
  require_non_null(epsilon, "epsilon");
  require_non_null(parameter, law.noise);
  operations::GivenParameters given{{law.noise, parameter}};
  if (sensitivity != nullptr) given.emplace_back("sensitivity", sensitivity);
  write_law_delta(law.law, std::move(given), epsilon, optional_text(tau), lower, upper, len);
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
    return internal::profile(exactdp::laws::kCDiscreteGaussian, epsilon, sigma2, sensitivity, tau, lower, upper, len);
  });
}

int exactdp_discrete_laplace_delta(const char* epsilon, const char* scale, const char* sensitivity,
                                   const char* tau, char* lower, char* upper, size_t len) {
  return guard([&] {
    return internal::profile(exactdp::laws::kCDiscreteLaplace, epsilon, scale, sensitivity, tau, lower, upper, len);
  });
}

int exactdp_sampler_delta(const exactdp_sampler* sampler, const char* epsilon,
                          const char* sensitivity, char* lower, char* upper, size_t len) {
  return guard([&] {
    const internal::MpfrCacheRelease release;
    require_non_null(sampler, "sampler");
    require_non_null(epsilon, "epsilon");
    const mpq_class* tau = internal::tau_upper_or_null(*sampler);
    internal::write_law_delta(sampler->law->name().c_str(), internal::sampler_privacy(*sampler, sensitivity), epsilon,
                              tau ? std::optional(exactdp::to_string(*tau)) : std::nullopt, lower, upper, len);
    return EXACTDP_OK;
  });
}

int exactdp_calibrate_discrete_gaussian(const char* epsilon, const char* delta,
                                        const char* sensitivity, char* sigma2, size_t len) {
  return guard([&] {
    const internal::MpfrCacheRelease release;
    require_non_null(sigma2, "sigma2");
    const mpq_class e = internal::rational_argument("epsilon", epsilon);
    const mpq_class d = internal::rational_argument("delta", delta);
    // An integer by this call's contract, read as `exactdp calibrate discrete-gaussian` reads it.
    internal::NamedText given;
    if (sensitivity != nullptr) given.emplace_back("sensitivity", exactdp::parse_integer("sensitivity", sensitivity).get_str());
    const exactdp::laws::NoiseCalibration c =
        internal::calibrate_law(exactdp::laws::kCDiscreteGaussian.law, given, e, d, internal::kCSpelling);
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
    auto given = internal::named_values(names, values, count);
    require_non_null(law, "law");
    internal::write_law_delta(law, std::move(given), epsilon, internal::optional_text(tau), lower, upper, len);
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
    const mpq_class e = internal::rational_argument("epsilon", epsilon);
    const mpq_class d = internal::rational_argument("delta", delta);
    const exactdp::laws::NoiseCalibration c = internal::calibrate_law(law, given, e, d, internal::kCSpelling);
    internal::write_text(internal::private_side_text(c.value), value, len, "value");  // EXACTDP_E_BUFFER first when it does not fit
    internal::write_text(c.parameter, parameter, len, "parameter");
    return EXACTDP_OK;
  });
}

}  // extern "C"
