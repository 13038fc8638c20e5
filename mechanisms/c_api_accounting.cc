// c_api_accounting.cc — certified accounting through the C interface (exactdp.h): privacy
// profiles of the discrete Gaussian and discrete Laplace mechanisms (with an optional hardened
// charge) and the discrete Gaussian calibration, as decimal text rounded outward.
//
// Only the public functions of accounting/ are called (profiles, hardened_charge, calibration,
// decimal), so this file follows that layer's internals without change.
#include <gmpxx.h>
#include <mpfr.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include <exactdp/core/decimal.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/exactdp.h>
#include <exactdp/mechanisms/internal/c_api_support.h>
#include <exactdp/core/rational.h>

namespace exactdp::internal {
namespace {

using exactdp::Interval;

enum class Noise { kDiscreteGaussian, kDiscreteLaplace };

// Releases this thread's MPFR caches (constants such as pi) on every exit, so that a thread
// calling the accounting functions leaks nothing when it ends.
struct MpfrCacheRelease {
  MpfrCacheRelease() = default;
  MpfrCacheRelease(const MpfrCacheRelease&) = delete;
  MpfrCacheRelease& operator=(const MpfrCacheRelease&) = delete;
  ~MpfrCacheRelease() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

mpq_class epsilon_argument(const char* text) {
  mpq_class e = rational_argument("epsilon", text);
  if (sgn(e) < 0) throw ParameterError::out_of_range("epsilon", abbreviate(text), "epsilon >= 0");
  return e;
}

// delta(epsilon) of the noise, plus (1 + e^epsilon) tau_upper when tau_upper is given.
Interval delta_interval(Noise noise, const mpq_class& epsilon, const mpq_class& parameter,
                        const mpz_class& sensitivity, const mpq_class* tau_upper) {
  const accounting::Certified d =
      noise == Noise::kDiscreteGaussian
          ? accounting::discrete_gaussian_delta(epsilon, parameter, sensitivity)
          : accounting::discrete_laplace_delta(epsilon, parameter, sensitivity);
  if (tau_upper == nullptr) return d.value;
  return accounting::hardened_delta(d.value, epsilon, *tau_upper);
}

// The noise of a registry sampler (exactdp_sampler_new) whose law this call covers, by the law
// itself (never another law standing in for it): the discrete Gaussian's sigma2, the discrete
// Laplace's scale. EXACTDP_E_UNSUPPORTED for any other law.
std::pair<Noise, mpq_class> registry_noise(const RegistrySampler& r) {
  if (r.law->name() == "discrete-gaussian") return {Noise::kDiscreteGaussian, r.parameters.rational("sigma2")};
  if (r.law->name() == "discrete-laplace") return {Noise::kDiscreteLaplace, r.parameters.rational("scale")};
  throw CApiError(EXACTDP_E_UNSUPPORTED, "sampler: exactdp_sampler_delta covers the discrete Gaussian and discrete "
                                         "Laplace; law " + r.law->name() + " is not one of them");
}

void write_interval(const Interval& x, char* lower, char* upper, std::size_t len) {
  const exactdp::DecimalInterval text = exactdp::to_decimal(x, EXACTDP_DECIMAL_DIGITS);
  write_text(text.lower, lower, len, "lower");
  write_text(text.upper, upper, len, "upper");
}

int profile(Noise noise, const char* parameter_name, const char* epsilon, const char* parameter,
            const char* sensitivity, const char* tau, char* lower, char* upper, std::size_t len) {
  const MpfrCacheRelease release;
  require_non_null(lower, "lower");
  require_non_null(upper, "upper");
  const mpq_class e = epsilon_argument(epsilon);
  const mpq_class p = rational_argument(parameter_name, parameter);
  const mpz_class s = sensitivity_argument(sensitivity);
  std::optional<mpq_class> t;
  if (tau != nullptr) {
    t = parse_rational("tau", tau);
    if (sgn(*t) < 0 || *t > 1) throw ParameterError::out_of_range("tau", abbreviate(tau), "0 <= tau <= 1");
  }
  write_interval(delta_interval(noise, e, p, s, t ? &*t : nullptr), lower, upper, len);
  return EXACTDP_OK;
}

}  // namespace
}  // namespace exactdp::internal

using exactdp::internal::guard;
using exactdp::internal::require_non_null;
namespace internal = exactdp::internal;

extern "C" {

int exactdp_discrete_gaussian_delta(const char* epsilon, const char* sigma2,
                                    const char* sensitivity, const char* tau, char* lower,
                                    char* upper, size_t len) {
  return guard([&] {
    return internal::profile(internal::Noise::kDiscreteGaussian, "sigma2", epsilon, sigma2,
                             sensitivity, tau, lower, upper, len);
  });
}

int exactdp_discrete_laplace_delta(const char* epsilon, const char* scale, const char* sensitivity,
                                   const char* tau, char* lower, char* upper, size_t len) {
  return guard([&] {
    return internal::profile(internal::Noise::kDiscreteLaplace, "scale", epsilon, scale,
                             sensitivity, tau, lower, upper, len);
  });
}

int exactdp_sampler_delta(const exactdp_sampler* sampler, const char* epsilon,
                          const char* sensitivity, char* lower, char* upper, size_t len) {
  return guard([&] {
    const internal::MpfrCacheRelease release;
    require_non_null(sampler, "sampler");
    require_non_null(lower, "lower");
    require_non_null(upper, "upper");
    internal::Noise noise{};
    mpq_class parameter;
    const auto& v = sampler->params;
    if (const auto* g = std::get_if<exactdp::DiscreteGaussianParams>(&v)) {
      noise = internal::Noise::kDiscreteGaussian, parameter = g->sigma2();
    } else if (const auto* hg = std::get_if<exactdp::HardenedDiscreteGaussianParams>(&v)) {
      noise = internal::Noise::kDiscreteGaussian, parameter = hg->sigma2();
    } else if (const auto* l = std::get_if<exactdp::DiscreteLaplaceParams>(&v)) {
      noise = internal::Noise::kDiscreteLaplace, parameter = l->scale();
    } else if (const auto* hl = std::get_if<exactdp::HardenedDiscreteLaplaceParams>(&v)) {
      noise = internal::Noise::kDiscreteLaplace, parameter = hl->scale();
    } else if (const auto* r = std::get_if<internal::RegistrySampler>(&v)) {
      std::tie(noise, parameter) = internal::registry_noise(*r);
    } else {
      throw internal::CApiError(EXACTDP_E_UNSUPPORTED,
                                "sampler: Bernoulli(exp(-gamma)) has no additive-noise profile");
    }
    const mpq_class e = internal::epsilon_argument(epsilon);
    const mpz_class s = internal::sensitivity_argument(sensitivity);
    internal::write_interval(
        internal::delta_interval(noise, e, parameter, s, internal::tau_upper_or_null(*sampler)),
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
    const exactdp::accounting::DiscreteGaussianCalibration c =
        exactdp::accounting::calibrate_discrete_gaussian(e, d, s);
    // Exact: sigma2 has 3 or 4 significant decimal digits, so its decimal expansion terminates.
    internal::write_text(exactdp::exact_decimal(c.sigma2), sigma2, len, "sigma2");
    return EXACTDP_OK;
  });
}

}  // extern "C"
