// release_calibration.h — calibrate_release: the per-cell noise of `exactdp release` and the
// certified guarantee of the whole release (docs/RELEASE.md has the proofs in full).
//
// Contribution model (the neighbouring relation). Two input tables are neighbours when one
// person's data differ. A person contributes at most K records (--contributions); a record
// changes at most ONE row of the table, and in that row it changes each noised column's cell by
// at most Delta (--sensitivity, an integer) in absolute value. The row set, the row order and
// every column that is not noised are public (they are copied as they are and must not depend
// on private data: e.g. the category keys of a count table). K records may land in K different
// rows or all in the same row, so for one person the change v of the released integer vector
// (C noised columns times R rows) has
//   per column  ||v_c||_1 <= K Delta  and  ||v_c||_2 <= ||v_c||_1 <= K Delta   (same row: equality),
//   overall     ||v||_1 <= C K Delta  and  ||v||_2^2 <= C K^2 Delta^2.
//
// Per-column sensitivities (ContributionModel::column_sensitivities): column c's cell changes by
// at most Delta_c, so ||v_c||_1 <= K Delta_c, ||v_c||_2 <= K Delta_c, ||v||_1 <= K sum_c Delta_c
// and ||v||_2^2 <= K^2 sum_c Delta_c^2. Each column then gets the parameter below with its own
// Delta_c in place of Delta (one scale in normalized units: t_c = C K Delta_c / epsilon, whose
// losses K Delta_c / t_c = epsilon / C add to epsilon; sigma2_c >= C K^2 Delta_c^2 / (2 rho),
// whose rho_c = K^2 Delta_c^2 / (2 sigma2_c) <= rho / C add to at most rho). With equal Delta_c
// this is the uniform calibration, value for value (docs/RELEASE.md, "Per-column sensitivity").
//
// Mechanisms (every cell of a column gets independent noise with the column's parameter):
//   discrete Laplace, scale t = C K Delta / epsilon. Privacy loss
//     |log P[M(D) = y] / P[M(D') = y]| <= sum_i |v_i| / t <= epsilon: pure epsilon-DP
//     (route "pure-dp-l1"). Then also rho = epsilon^2 / 2 zCDP (BS16 Prop. 3.3) and
//     mu-GDP with mu = 2 Phi^-1(e^eps / (1 + e^eps)) (DRS Sec. 2.4), certified upper end.
//   discrete Gaussian, variance parameter sigma2:
//     - C = 1 and K = 1 (one cell changes, by at most Delta): the exact profile of CKS20
//       Theorem 7, calibrated by accounting::calibrate_discrete_gaussian (route
//       "exact-profile"): delta(epsilon) certified <= the requested delta;
//     - otherwise: each cell is (alpha v_i^2 / (2 sigma2))-Renyi (CKS20 Prop. 5), independent
//       cells add (BS16 Lemma 2.3), so the release is rho-zCDP with rho = C K^2 Delta^2 /
//       (2 sigma2); sigma2 is the smallest 3-significant-digit value whose rho converts (CKS20
//       Cor. 13, accounting::zcdp_epsilon, searched alpha) to an epsilon whose certified upper
//       end is <= the requested epsilon at the requested delta (route "zcdp").
//     mu-GDP is not claimed for the discrete Gaussian (it is not exactly Delta/sigma-GDP).
//   --hardened: the isochronous samplers (samplers/hardened_*.h), each within TV tau_upper of
//     the exact law. The R C noise draws together are within TV N tau_upper (N = R C cells,
//     union bound over a coupling), so (accounting/hardened_charge.h) the release is
//     (epsilon, delta_mech + (1 + e^epsilon) N tau_upper)-DP. The calibration reserves that
//     charge out of the requested delta first (with tau_upper <= 2^-64 per cell), so a hardened
//     release needs a delta even with discrete Laplace. zCDP and GDP are not claimed then.
// Rounding: every reported quantity is an exact rational or a certified Interval whose UPPER
// end is the one the guarantee uses; epsilon.upper <= requested epsilon and delta.upper <=
// requested delta are checked before the result is returned (std::logic_error otherwise).
// Errors: ParameterError naming mechanism, epsilon, delta, sensitivity, contributions or columns;
// laws::UnsupportedError naming law.
// Cost: discrete Laplace: none; exact profile: ~40 profile evaluations; zcdp: ~60 conversions
// (well under a second). Thread-safety: pure function.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/laws/law.h>

namespace exactdp::mechanisms {

// The noise laws come from the registry (laws/registry.h): a law's calibration map
// (laws/noise_calibration.h) gives the noise parameter of the pure-dp-l1 and exact-profile routes
// and its sampler draws the noise. The composition routes are theorems about a law's shape
// (linear privacy loss for pure-dp-l1, Renyi divergence for zcdp), so the release serves the laws
// it has one for: release_law_names(). Any other registry law is refused by name
// (laws::UnsupportedError naming "law"); a name not in the registry is a ParameterError naming
// "mechanism".

// The laws the release serves, registry order: {"discrete-gaussian", "discrete-laplace"}.
[[nodiscard]] std::vector<std::string> release_laws();
// The same as "discrete-gaussian or discrete-laplace", for messages.
[[nodiscard]] std::string release_law_names();

// The registry law of that name, checked as above; hardened: its hardened sampler too.
[[nodiscard]] const laws::Law& release_law(const std::string& name, bool hardened = false);
// Whether a release law composes by zCDP (the discrete Gaussian: needs delta) rather than by
// its pure epsilon (the discrete Laplace).
[[nodiscard]] bool release_law_composes_by_zcdp(const laws::Law& law);
// The noise parameter a release law's sampler is built with: "sigma2" or "scale".
[[nodiscard]] std::string release_noise_parameter(const laws::Law& law);

inline constexpr unsigned long kMaxContributions = 1'000'000;
inline constexpr unsigned long kMaxNoisedColumns = 100'000;

struct ReleaseBudget {
  std::string mechanism = "discrete-gaussian";  // a law of release_law_names()
  mpq_class epsilon;               // > 0
  std::optional<mpq_class> delta;  // 0 < delta < 1; required for discrete Gaussian and hardened
  bool hardened = false;
};

struct ContributionModel {
  mpz_class sensitivity = 1;        // Delta >= 1, per record and cell
  unsigned long contributions = 1;  // K, 1..kMaxContributions records per person
  unsigned long columns = 1;        // C, 1..kMaxNoisedColumns noised columns
  // Per-column sensitivities Delta_c >= 1 (grid steps), in the draw order of the columns, when
  // the columns differ (a count and a sum): then exactly `columns` entries, and `sensitivity`
  // is not used. Empty: every column has `sensitivity` (the uniform model).
  std::vector<mpz_class> column_sensitivities;

  // Delta_c of column c (0 <= c < columns).
  [[nodiscard]] const mpz_class& sensitivity_of(std::size_t c) const {
    return column_sensitivities.empty() ? sensitivity : column_sensitivities[c];
  }
  [[nodiscard]] bool per_column() const { return !column_sensitivities.empty(); }
};

struct ReleaseCalibration {
  ReleaseBudget budget;
  ContributionModel model;
  std::uint64_t cells = 0;         // R C noise draws
  mpz_class l1_sensitivity;        // C K Delta (per column: K sum_c Delta_c)
  mpz_class l2_sensitivity_squared;  // C K^2 Delta^2 (per column: K^2 sum_c Delta_c^2)
  std::string route;               // "pure-dp-l1", "exact-profile" or "zcdp"
  std::string route_detail;        // one sentence: the theorems used
  std::string parameter;           // the law's noise parameter: "sigma2" or "scale" (noise())
  mpq_class scale;                 // discrete Laplace t (0 for the Gaussian); per column: column 0's
  mpq_class sigma2;                // discrete Gaussian sigma2 (0 for Laplace); per column: column 0's
  // Each column's noise parameter (scale or sigma2), in the model's column order, when the model
  // has per-column sensitivities. Empty for the uniform model (and in a hand-built calibration):
  // every column then has noise(), and noise_of() returns it.
  std::vector<mpq_class> column_noise;
  std::vector<mpq_class> column_tau_upper;  // hardened only: each column's sampler's tau
  exactdp::Interval epsilon{exactdp::kDefaultPrecision};  // certified; upper <= requested
  exactdp::Interval delta{exactdp::kDefaultPrecision};    // certified; upper <= requested
  // The exact values when the guarantee is an exact rational (then epsilon / delta above are
  // their outward roundings): epsilon of the pure-DP and exact-profile routes, delta of the
  // zcdp route and of a plain discrete Laplace (0).
  std::optional<mpq_class> epsilon_exact;
  std::optional<mpq_class> delta_exact;
  std::optional<mpq_class> rho;                 // rho-zCDP of the whole release, when it holds
  std::optional<exactdp::Interval> mu;       // mu-GDP (upper end safe), when it holds
  mpq_class tau_upper_per_cell;                 // hardened only: the samplers' certified tau (max over columns)
  exactdp::Interval hardened_charge{exactdp::kDefaultPrecision};  // (1+e^eps) N tau (0 if plain)

  // The value of `parameter`: scale or sigma2, what the law's sampler is built with.
  [[nodiscard]] const mpq_class& noise() const { return parameter == "scale" ? scale : sigma2; }
  // Column c's noise parameter (column_noise[c], or noise() when column_noise is empty).
  [[nodiscard]] const mpq_class& noise_of(std::size_t c) const {
    return column_noise.empty() ? noise() : column_noise[c];
  }
};

// The largest rho (to a relative 2^-30, verified) whose rho-zCDP converts by CKS20 Cor. 13
// (accounting::zcdp_epsilon, certified upper end) to at most epsilon at delta: what the "zcdp"
// route calibrates to (exactdp aggregate spreads it over its noisy quantities).
// ParameterError / LimitError naming epsilon when no rho meets it.
[[nodiscard]] mpq_class max_zcdp_rho(const mpq_class& epsilon, const mpq_class& delta);

// Checks the budget and the model alone (ParameterError naming the parameter), so that bad
// options are reported before any input is read.
void validate_release(const ReleaseBudget& budget, const ContributionModel& model);

// The noise parameter and the certified guarantee for a table of `rows` rows.
[[nodiscard]] ReleaseCalibration calibrate_release(const ReleaseBudget& budget,
                                                   const ContributionModel& model,
                                                   std::uint64_t rows);

}  // namespace exactdp::mechanisms
