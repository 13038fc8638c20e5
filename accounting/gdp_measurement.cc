#include <exactdp/accounting/gdp_measurement.h>

#include <stdexcept>
#include <string>
#include <utility>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/event_profile.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

const mpq_class kMinNaturalMu(1, 1'000'000);
const mpq_class kMaxNaturalMu(30);

bool outside_scale(const mpq_class& x) { return x < kMinNaturalMu || x > kMaxNaturalMu; }

void require_scale(const std::string& parameter, const std::string& value, const mpq_class& x,
                   const std::string& what) {
  if (outside_scale(x)) {
    throw ParameterError::out_of_range(parameter, abbreviate(value), "1e-6 <= " + what + " <= 30 for measure-gdp");
  }
}

// The event's maps (every GdpMeasurable but pure-dp-composition's has them).
const LawPrivacy& maps_of(const GdpMeasurable& m) {
  if (!m.maps) throw std::logic_error("GdpMeasurable " + m.name + ": no privacy maps");
  return *m.maps;
}

bool is_composition(const GdpMeasurable& m) { return m.name == "pure-dp-composition"; }

// The tail limit L of gdp_bridge Theorem 3.3 where it is known analytically, by what the law's
// maps state: Gaussian noise, an exact mu, discrete Gaussian noise; else delta = 0 beyond a pure
// epsilon.
void set_tail_limit(const GdpMeasurable& m, GdpTail& out) {
  const LawPrivacy* maps = is_composition(m) ? nullptr : &maps_of(m);
  if (maps != nullptr && maps->gaussian_noise()) {
    out.limit = abbreviate(to_string(mpq_class(m.sensitivity / m.noise)));
    out.limit_source = "Delta/sigma: the Gaussian mechanism is exactly (Delta/sigma)-GDP";
  } else if (maps != nullptr && maps->exact_mu()) {
    out.limit = abbreviate(to_string(m.noise));
    out.limit_source = "mu (Lemma 3.1)";
  } else if (maps != nullptr && maps->discrete_gaussian_noise()) {
    const Interval l = discrete_gaussian_tail_limit(m.noise, mpz_class(m.sensitivity), 64);
    out.limit = "Delta/sqrt(sigma2) in " + to_decimal_string(l, 10);
    out.limit_source = "CKS20 Thm 7: delta(eps) <= P[Z > eps sigma2/Delta - Delta/2], a Gaussian tail";
  } else {
    out.limit = "0";
    out.limit_source = maps == nullptr            ? "delta = 0 beyond k epsilon"
                       : !maps->is_noise_law()    ? "delta = 0 beyond epsilon"
                                                  : "delta = 0 beyond Delta/scale";
  }
}

}  // namespace

GdpMeasurable measurable_event(const PrivacyEvent& event, GdpMeasurable named) {
  if (!has_profile(event)) throw ParameterError("mechanism", "mechanism: a zCDP event has no privacy profile to measure");
  named.profile = event_profile(event);
  named.maps = event.shared_maps();
  if (event.is_pure()) named.pure_epsilon = event.pure_epsilon();
  return named;
}

GdpMeasurable measurable_pure_dp_composition(const mpq_class& epsilon, unsigned long k) {
  if (k < 1 || k > kMaxCompositionK) {
    throw ParameterError::out_of_range("k", std::to_string(k), "1 <= k <= " + std::to_string(kMaxCompositionK));
  }
  GdpMeasurable m;
  m.name = "pure-dp-composition";
  m.noise_name = "epsilon";
  m.noise = epsilon;
  m.description = "pure-dp-composition(epsilon=" + abbreviate(to_string(epsilon)) + ", k=" + std::to_string(k) + ")";
  m.profile = kov_profile(epsilon, k);  // validates epsilon and k
  m.pure_epsilon = epsilon * mpq_class(static_cast<long>(k));
  return m;
}

void require_measurable(const GdpMeasurable& m) {
  const std::string& noise = m.noise_name;
  if (is_composition(m)) {
    require_scale(noise, to_string(m.noise), m.noise, noise);
    require_scale(noise, to_string(m.noise), *m.pure_epsilon, "k epsilon");
    return;
  }
  const LawPrivacy& maps = maps_of(m);
  if (!maps.is_noise_law()) {  // a bare guarantee (gdp, pure-dp): its own parameter is the scale
    require_scale(noise, to_string(m.noise), m.noise, noise);
    return;
  }
  const bool blame_sensitivity = m.sensitivity_given && outside_scale(m.sensitivity);
  const std::string parameter = blame_sensitivity ? std::string("sensitivity") : noise;
  const std::string value = to_string(blame_sensitivity ? m.sensitivity : m.noise);
  if (maps.discrete_gaussian_noise()) {
    // (Delta/sigma)^2 in [1e-12, 900]  <=>  Delta/sigma in [1e-6, 30]
    const mpq_class ratio2 = m.sensitivity * m.sensitivity / m.noise;
    if (ratio2 < kMinNaturalMu * kMinNaturalMu || ratio2 > kMaxNaturalMu * kMaxNaturalMu) {
      throw ParameterError::out_of_range(parameter, abbreviate(value),
                                         "1e-6 <= sensitivity/sqrt(sigma2) <= 30 for measure-gdp");
    }
    return;
  }
  require_scale(parameter, value, m.sensitivity / m.noise, "sensitivity/" + noise);
}

GdptOptions gdp_measure_options(const GdpMeasurable& m, const GdpMeasureSettings& s) {
  GdptOptions options;
  if (s.eps_max) {
    options.eps_max = *s.eps_max;
  } else if (m.pure_epsilon) {
    options.eps_max = *m.pure_epsilon > 0 ? *m.pure_epsilon : mpq_class(1);
    if (options.eps_max > 1000) options.eps_max = 1000;
  }
  if (s.tolerance) options.tolerance = *s.tolerance;
  if (s.mu_max) options.mu_max = *s.mu_max;
  if (s.seed) options.seed = *s.seed;
  options.naive = s.naive;
  options.max_grid_points = kMaxCliGridPoints;  // seconds, not minutes
  options.validate();
  return options;
}

GdpMeasurement measure_gdp(const GdpMeasurable& m, const GdptOptions& options) {
  require_measurable(m);
  options.validate();
  GdpMeasurement out;
  out.result = gdpt_measure(m.profile, options);
  out.complete = m.pure_epsilon && *m.pure_epsilon <= options.eps_max;
  set_tail_limit(m, out.tail);
  for (const mpq_class& e : {options.eps_max, mpq_class(2 * options.eps_max)}) {
    try {
      out.tail.ratios.emplace_back(e, tail_ratio(m.profile, e, 64));
    } catch (const std::domain_error&) {
      // delta(e) may be >= 1: no ratio there
    }
  }
  return out;
}

}  // namespace exactdp::accounting
