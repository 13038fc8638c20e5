// gdp_measurement.h — the mu-GDP bracket of a mechanism by the GDP transformation with its
// checks and tail identification: what `exactdp measure-gdp` and exactdp.measure_gdp compute
// (both describe the mechanism as a GdpMeasurable and call measure_gdp; the CLI only reads
// options and prints). gdp_transformation.h is the algorithm; this file is the contract of the
// command: which mechanisms are measurable, the defaults, and the tail (gdp_bridge Thm 3.3).
//
// Errors: ParameterError naming the parameter out of range (require_measurable, GdptOptions::
// validate); LimitError naming "tolerance" past the grid bound kMaxCliGridPoints.
// Thread-safety: pure functions (the profile function must be safe to call).
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/accounting/accountant.h>
#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// A mechanism to measure.
struct GdpMeasurable {
  std::string name;         // gaussian, laplace, discrete-gaussian, discrete-laplace, gdp, pure-dp,
                            // pure-dp-composition, or a registry law with its own maps
  std::string description;  // how the answer names it, e.g. "gaussian(sigma=2, sensitivity=1)"
  std::string noise_name;   // sigma, scale, sigma2, mu, epsilon (or the law's first parameter)
  mpq_class noise;
  mpq_class sensitivity = 1;
  bool sensitivity_given = false;  // errors blame the sensitivity when it is out of scale itself
  ProfileFunction profile;         // certified delta(eps) at a working precision
  std::optional<mpq_class> pure_epsilon;  // delta(eps) = 0 for eps >= this (pure-DP kinds)
  // The event's maps (law_privacy.h; null only for pure-dp-composition): the scale check and the
  // tail limit ask them what the law is (a bare guarantee, Gaussian or discrete Gaussian noise,
  // an exact mu).
  std::shared_ptr<const LawPrivacy> maps;
};

// The measurable mechanism of a privacy event of kind gaussian, laplace, discrete-gaussian,
// discrete-laplace, gdp, pure-dp or a law with its own maps (ParameterError naming "mechanism"
// for zcdp). name, description, noise_name and noise are the caller's (how it names them).
[[nodiscard]] GdpMeasurable measurable_event(const PrivacyEvent& event, GdpMeasurable named);

// The largest k of a measured k-fold pure-DP composition: each profile evaluation is a KOV pass
// of up to k/2 steps, and k <= 1000 keeps the thousands of evaluations of the GDP transformation
// within seconds (the operation `measure gdp` checks the same bound on the text).
inline constexpr unsigned long kMaxCompositionK = 1000;

// k-fold epsilon-DP composition by its exact KOV profile; 1 <= k <= kMaxCompositionK, else
// ParameterError naming "k".
[[nodiscard]] GdpMeasurable measurable_pure_dp_composition(const mpq_class& epsilon, unsigned long k);

// The mechanism's natural mu (sensitivity/sigma, sensitivity/scale, mu, epsilon, k epsilon) must
// lie in [1e-6, 30] (outside, the thousands of profile evaluations would not finish):
// ParameterError naming the sensitivity when it is out of that range itself, else the noise.
void require_measurable(const GdpMeasurable& m);

// What the caller may set; the rest are the defaults below.
struct GdpMeasureSettings {
  std::optional<mpq_class> eps_max;    // default 10; pure-DP kinds: their epsilon (1 if 0), <= 1000
  std::optional<mpq_class> tolerance;  // absolute width of the bracket, default 10^-3
  std::optional<mpq_class> mu_max;     // default 100
  std::optional<std::uint64_t> seed;   // shuffle order (speed only)
  bool naive = false;                  // the paper's Algorithm 3
};

// The options of the measurement (grid bound kMaxCliGridPoints), validated.
[[nodiscard]] GdptOptions gdp_measure_options(const GdpMeasurable& m, const GdpMeasureSettings& settings);

struct GdpTail {
  std::optional<std::string> limit;  // L of gdp_bridge Thm 3.3, when known analytically
  std::string limit_source;
  // eps / sqrt(-2 log delta(eps)) at eps_max and 2 eps_max (where delta < 1), certified.
  std::vector<std::pair<mpq_class, Interval>> ratios;
};

struct GdpMeasurement {
  GdptResult result;
  GdpTail tail;
  bool complete = false;  // delta(eps) = 0 beyond eps_max: the bracket is the full mu-GDP
};

// require_measurable, then the GDP transformation on [0, options.eps_max] and the tail.
[[nodiscard]] GdpMeasurement measure_gdp(const GdpMeasurable& m, const GdptOptions& options);

}  // namespace exactdp::accounting
