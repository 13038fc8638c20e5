#include <exactdp/mechanisms/release/release_calibration.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/accounting/search_budget.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/registry.h>
#include <exactdp/mechanisms/aggregate/joint_gaussian_calibration.h>
#include <exactdp/samplers/hardening.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

using exactdp::Interval;
constexpr mpfr_prec_t kPrec = exactdp::kDefaultPrecision;

// The composition route of a law: a theorem about its shape (docs/RELEASE.md), which the law
// states (laws::Law::release_route). pure-dp-l1 needs a privacy loss linear in the change
// (|v| / t); the Gaussian routes need the exact profile (one cell) and Renyi DP (many cells).
using Route = laws::ReleaseRoute;

Route route_of(const laws::Law& law) {
  if (!law.supports(laws::Capability::kCalibrate) || !law.supports(laws::Capability::kSample)) return Route::kNone;
  return law.release_route();
}

// The law's calibration map at (epsilon, delta) for an integer sensitivity.
laws::NoiseCalibration law_calibration(const laws::Law& law, const mpq_class& epsilon, const mpq_class& delta,
                                       const mpz_class& sensitivity) {
  const laws::LawParameters p = law.parse_values({{"sensitivity", mpq_class(sensitivity)}}, laws::Use::kCalibrate);
  return law.calibrate({epsilon, delta, std::nullopt}, p);
}

// rho-zCDP => (epsilon', delta)-DP with epsilon'.upper <= epsilon (CKS20 Cor. 13, searched alpha).
bool zcdp_meets(const mpq_class& rho, const mpq_class& delta, const mpq_class& epsilon,
                Interval* epsilon_out) {
  const accounting::ZcdpConversion c = accounting::zcdp_epsilon(rho, delta);
  if (!exactdp::upper_at_most(c.bound.value, epsilon)) return false;
  if (epsilon_out != nullptr) *epsilon_out = c.bound.value;
  return true;
}

// The refusal of a (epsilon, delta) no searched rho serves: CKS20 Cor. 13's alpha is at most
// 1 + 2^2000 (accounting/zcdp.h), so as rho -> 0 the bound tends to about
// (log(1/delta) - 1387) / 2^2000, not 0: epsilon = delta = 10^-1000 is below it (the bound is
// ~8e-600 for every rho). `smallest` is the smallest rho probed: its epsilon is (about) the
// least this conversion reaches at this delta.
LimitError no_feasible_rho(const mpq_class& epsilon, const mpq_class& delta, const mpq_class& smallest) {
  const accounting::ZcdpConversion floor = accounting::zcdp_epsilon(smallest, delta);
  return LimitError("epsilon", "epsilon = " + abbreviate(exact_decimal(epsilon)) + " at delta = " +
                                   abbreviate(exact_decimal(delta)) +
                                   ": no zCDP parameter rho converts to at most epsilon (CKS20 Cor. 13 "
                                   "with alpha <= 1 + 2^2000); allowed: epsilon >= " +
                                   exactdp::decimal_upper(floor.bound.value.upper(), 3) +
                                   " at this delta, or a larger delta");
}

// The largest rho (to a relative 2^-30) found with zcdp_meets; a verified feasible value. The
// search runs under accounting::SearchBudget (probes of at most 2^22 bits, 4,096 conversions): a
// target no rho meets is refused after ~22 conversions, naming epsilon and delta.
mpq_class max_feasible_rho(const mpq_class& epsilon, const mpq_class& delta) {
  // Start from BS16's rho + 2 sqrt(rho L) = epsilon, L = log(1/delta):
  // rho0 = epsilon^2 / (sqrt(L + epsilon) + sqrt(L))^2 (lower end, rounded down).
  const Interval L = exactdp::log(Interval(mpq_class(1) / delta, kPrec));
  const Interval eps_i(epsilon, kPrec);
  const Interval root = exactdp::sqrt(L + eps_i) + exactdp::sqrt(L);
  const Interval rho0 = exactdp::square(eps_i) / exactdp::square(root);
  mpq_class start = exactdp::to_mpq(rho0.lower());
  if (sgn(start) <= 0) start = power_of_two(-1000);
  const mpq_class rho_cap(1'000'000'000);  // zcdp.h's limit: anything above counts as not meeting
  mpq_class smallest = start;
  auto meets = [&](const mpq_class& rho) {
    if (rho < smallest) smallest = rho;
    return rho <= rho_cap && zcdp_meets(rho, delta, epsilon, nullptr);
  };
  accounting::SearchBudget budget([&] { return no_feasible_rho(epsilon, delta, smallest); });
  return accounting::largest_meeting(meets, start, budget, 30);
}

// sigma2_c = C K^2 Delta_c^2 / (2 rho) rounded up to 3 significant digits, for every column.
std::vector<mpq_class> zcdp_sigma2s(const ContributionModel& m, const mpq_class& rho) {
  std::vector<mpq_class> out;
  const mpz_class ck2 = mpz_class(m.columns) * m.contributions * m.contributions;
  for (std::size_t c = 0; c < m.columns; ++c) {
    const mpz_class d = m.sensitivity_of(c);
    out.push_back(accounting::round_up_significant(mpq_class(ck2 * d * d) / (2 * rho), 3));
  }
  return out;
}

// rho = sum_c K^2 Delta_c^2 / (2 sigma2_c): the columns' zCDP parameters added (BS16 Lemma 2.3).
mpq_class release_rho(const ContributionModel& m, const std::vector<mpq_class>& sigma2s) {
  mpq_class rho = 0;
  const mpz_class k2 = mpz_class(m.contributions) * m.contributions;
  for (std::size_t c = 0; c < m.columns; ++c) {
    const mpz_class d = m.sensitivity_of(c);
    rho += mpq_class(k2 * d * d) / (2 * sigma2s[c]);
  }
  return rho;
}

void calibrate_zcdp(ReleaseCalibration& out, const mpq_class& delta_mech) {
  const mpq_class& epsilon = out.budget.epsilon;
  const ContributionModel& m = out.model;
  const mpq_class rho_max = max_feasible_rho(epsilon, delta_mech);
  std::vector<mpq_class> sigma2s = zcdp_sigma2s(m, rho_max);
  Interval eps_claim(kPrec);
  bool met = false;
  for (int bump = 0; bump < 100 && !met; ++bump) {
    met = zcdp_meets(release_rho(m, sigma2s), delta_mech, epsilon, &eps_claim);
    if (!met) {
      for (auto& s2 : sigma2s) s2 = accounting::round_up_significant(s2 * (1 + power_of_two(-60)), 3);
    }
  }
  if (!met) {  // rho_max itself was verified; sigma2_c = C K^2 Delta_c^2 / (2 rho_max) exactly
    const mpz_class ck2 = mpz_class(m.columns) * m.contributions * m.contributions;
    for (std::size_t c = 0; c < m.columns; ++c) {
      sigma2s[c] = mpq_class(ck2 * m.sensitivity_of(c) * m.sensitivity_of(c)) / (2 * rho_max);
    }
    if (!zcdp_meets(rho_max, delta_mech, epsilon, &eps_claim)) {
      throw std::logic_error("release calibration: a verified rho no longer meets epsilon");
    }
  }
  if (m.per_column()) out.column_noise = sigma2s;
  out.sigma2 = sigma2s[0];
  out.rho = release_rho(m, sigma2s);
  out.epsilon = eps_claim;
  out.delta = Interval(delta_mech, kPrec);
  out.delta_exact = delta_mech;
  out.route = "zcdp";
  out.route_detail =
      m.per_column()
          ? "each cell's discrete Gaussian is (alpha v^2/(2 sigma2_c))-Renyi DP (CKS20 Prop. 5); the "
            "cells compose by adding rho (BS16 Lemma 2.3) to rho = sum_c K^2 Delta_c^2 / (2 sigma2_c), "
            "with sigma2_c >= C K^2 Delta_c^2 / (2 rho_max) so that each column spends at most rho_max / C; "
            "rho-zCDP is converted to (epsilon, delta) by CKS20 Cor. 13 with a searched alpha, certified"
          : "each cell's discrete Gaussian is (alpha v^2/(2 sigma2))-Renyi DP (CKS20 Prop. 5); the cells "
            "compose by adding rho (BS16 Lemma 2.3) to rho = C K^2 Delta^2 / (2 sigma2); rho-zCDP is "
            "converted to (epsilon, delta) by CKS20 Cor. 13 with a searched alpha, certified";
}

// One contribution: a person changes one row, each column's cell by at most Delta_c, so the
// noise of that row is the product of C discrete Gaussians shifted by (Delta_c)
// (joint_gaussian_calibration.h). When a profile of that product certifies, the zCDP sigma2_c are
// lowered by one common factor to its optimum; epsilon is then met exactly.
void calibrate_product_profile(ReleaseCalibration& out, const mpq_class& delta_mech) {
  const ContributionModel& m = out.model;
  if (m.contributions != 1 || m.columns < 2) return;
  std::vector<mpz_class> shifts;
  std::vector<mpq_class> start;
  for (std::size_t c = 0; c < m.columns; ++c) {
    shifts.push_back(m.sensitivity_of(c));
    start.push_back(out.noise_of(c));
  }
  const auto joint = calibrate_joint_gaussian(shifts, 1, out.budget.epsilon, delta_mech, start);
  if (!joint) return;
  if (m.per_column()) out.column_noise = joint->sigma2;
  out.sigma2 = joint->sigma2[0];
  out.rho = release_rho(m, joint->sigma2);
  out.epsilon = Interval(out.budget.epsilon, kPrec);
  out.epsilon_exact = out.budget.epsilon;
  out.delta = joint->delta_at;
  out.delta_exact.reset();
  out.route = "product-profile";
  const bool exact = joint->route == kJointExactRoute;
  out.route_detail =
      std::string("one contribution: a person changes one row, each column's cell by at most Delta_c; the C "
                  "discrete Gaussians of that row are a product shifted by (Delta_c), whose ") +
      (exact ? "exact privacy profile (CKS20 Thm. 7 of one column summed over the others' points, certified)"
             : "privacy profile, bounded through the continuous Gaussian at sigma2_c - t2_c by lattice smoothing "
               "(certified)") +
      " is <= delta at epsilon";
}

void calibrate_pure_l1(ReleaseCalibration& out, const laws::Law& law) {
  const ReleaseBudget& budget = out.budget;
  const ContributionModel& m = out.model;
  const mpz_class ck = mpz_class(m.columns) * m.contributions;
  std::vector<mpq_class> scales;
  for (std::size_t c = 0; c < m.columns; ++c) {  // t_c = C K Delta_c / epsilon
    scales.push_back(law_calibration(law, budget.epsilon, 0, ck * m.sensitivity_of(c)).value);
  }
  out.scale = scales[0];
  if (m.per_column()) out.column_noise = scales;
  out.epsilon = Interval(budget.epsilon, kPrec);
  out.epsilon_exact = budget.epsilon;
  out.delta = Interval(0L, kPrec);
  out.delta_exact = mpq_class(0);
  out.route = "pure-dp-l1";
  out.route_detail =
      m.per_column()
          ? "independent discrete Laplace noise of scale t_c = C K Delta_c / epsilon on every cell of "
            "column c has privacy loss at most sum_c ||v_c||_1 / t_c <= sum_c K Delta_c / t_c = epsilon "
            "for a person's change v (pure DP, delta = 0)"
          : "independent discrete Laplace noise of scale t on every cell has privacy loss at most "
            "||v||_1 / t <= C K Delta / t = epsilon for a person's change v (pure DP, delta = 0)";
  out.rho = budget.epsilon * budget.epsilon / 2;
  out.mu = accounting::gdp_mu_of_pure_dp(budget.epsilon).value;
}

// --hardened: each column's sampler's own certified tau (<= 2^-64, the bound reserved out of
// delta), charged for its R cells. Building the samplers also checks the hardened range
// (ParameterError naming sigma2 or scale).
void charge_hardened(ReleaseCalibration& out, const laws::Law& law, std::uint64_t rows) {
  const mpq_class rows_q(mpz_class(std::to_string(rows)));
  mpq_class tau_sum = 0;
  out.tau_upper_per_cell = 0;
  for (std::size_t c = 0; c < out.model.columns; ++c) {
    const laws::LawParameters noise = law.parse_values({{out.parameter, out.noise_of(c)}}, laws::Use::kSample);
    out.column_tau_upper.push_back(law.make_sampler(noise, Hardening{})->tau_upper());
    tau_sum += out.column_tau_upper.back();
    if (out.column_tau_upper.back() > out.tau_upper_per_cell) out.tau_upper_per_cell = out.column_tau_upper.back();
  }
  const mpq_class eps_claim = out.epsilon_exact.value_or(exactdp::to_mpq(out.epsilon.upper()));
  out.hardened_charge = accounting::hardened_delta_charge(eps_claim, rows_q * tau_sum, kPrec);
  out.delta = accounting::hardened_delta(out.delta, eps_claim, rows_q * tau_sum);
  out.delta_exact.reset();
  out.rho.reset();
  out.mu.reset();
}

void calibrate_exact_profile(ReleaseCalibration& out, const laws::Law& law, const mpq_class& delta_mech) {
  const laws::NoiseCalibration cal = law_calibration(law, out.budget.epsilon, delta_mech, out.model.sensitivity_of(0));
  out.sigma2 = cal.value;
  if (out.model.per_column()) out.column_noise = {cal.value};
  out.rho = mpq_class(out.l2_sensitivity_squared) / (2 * cal.value);
  out.epsilon = Interval(out.budget.epsilon, kPrec);
  out.epsilon_exact = out.budget.epsilon;
  out.delta = cal.delta_at;
  out.route = "exact-profile";
  out.route_detail =
      "one column and one contribution: a person changes one cell by at most Delta, and the "
      "discrete Gaussian's exact privacy profile (CKS20 Thm. 7) is certified <= delta";
}

}  // namespace

std::vector<std::string> release_laws() {
  std::vector<std::string> out;
  for (const laws::Law* law : laws::all_laws()) {
    if (route_of(*law) != Route::kNone) out.push_back(law->name());
  }
  return out;
}

std::string release_law_names() {
  std::string out;
  for (const auto& name : release_laws()) out += (out.empty() ? "" : " or ") + name;
  return out;
}

const laws::Law& release_law(const std::string& name, bool hardened) {
  const laws::Law* law = laws::find_law(name);
  if (law == nullptr) {
    throw ParameterError("mechanism", "mechanism = " + abbreviate(name) + " is not known: allowed " + release_law_names());
  }
  if (route_of(*law) == Route::kNone) {
    throw laws::UnsupportedError("law", "release adds the noise of " + release_law_names() + "; law " + law->name() +
                                            " has no release route (docs/RELEASE.md)");
  }
  if (hardened && !law->supports(laws::Capability::kHardened)) {
    throw laws::UnsupportedError("law", "law " + law->name() + " has no hardened sampler");
  }
  return *law;
}

bool release_law_composes_by_zcdp(const laws::Law& law) { return route_of(law) == Route::kRenyi; }

std::string release_noise_parameter(const laws::Law& law) {
  return release_law_composes_by_zcdp(law) ? "sigma2" : "scale";
}

mpq_class max_zcdp_rho(const mpq_class& epsilon, const mpq_class& delta) {
  accounting::require_positive_at_most("epsilon", epsilon, mpq_class(1'000'000), "10^6");
  accounting::require_open_unit("delta", delta);
  return max_feasible_rho(epsilon, delta);
}

void validate_release(const ReleaseBudget& budget, const ContributionModel& model) {
  const laws::Law& law = release_law(budget.mechanism, budget.hardened);
  accounting::require_positive_at_most("epsilon", budget.epsilon, mpq_class(1'000'000), "10^6");
  if (budget.delta) accounting::require_open_unit("delta", *budget.delta);
  if (!budget.delta && route_of(law) == Route::kRenyi) {
    throw ParameterError("delta", "delta is required with the discrete Gaussian: allowed 0 < delta < 1");
  }
  if (!budget.delta && budget.hardened) {
    throw ParameterError("delta", "delta is required with --hardened (it pays the samplers' "
                                  "certified distance tau): allowed 0 < delta < 1");
  }
  accounting::require_integer_sensitivity(model.sensitivity);
  if (model.per_column() && model.column_sensitivities.size() != model.columns) {
    throw ParameterError("sensitivity", "sensitivity: " + std::to_string(model.column_sensitivities.size()) +
                                            " per-column sensitivities for " + std::to_string(model.columns) +
                                            " columns: allowed one per column");
  }
  for (const mpz_class& d : model.column_sensitivities) accounting::require_integer_sensitivity(d);
  if (model.contributions < 1 || model.contributions > kMaxContributions) {
    throw ParameterError::out_of_range("contributions", std::to_string(model.contributions),
                                       "1 <= contributions <= 1000000");
  }
  if (model.columns < 1 || model.columns > kMaxNoisedColumns) {
    throw ParameterError::out_of_range("columns", std::to_string(model.columns),
                                       "1 to 100000 noised columns");
  }
}

ReleaseCalibration calibrate_release(const ReleaseBudget& budget, const ContributionModel& model,
                                     std::uint64_t rows) {
  validate_release(budget, model);
  const laws::Law& law = release_law(budget.mechanism, budget.hardened);
  ReleaseCalibration out;
  out.budget = budget;
  out.model = model;
  out.cells = rows * model.columns;
  const mpz_class k(model.contributions);
  mpz_class sum_d = 0, sum_d2 = 0;
  for (std::size_t c = 0; c < model.columns; ++c) {
    sum_d += model.sensitivity_of(c);
    sum_d2 += model.sensitivity_of(c) * model.sensitivity_of(c);
  }
  out.l1_sensitivity = k * sum_d;            // C K Delta when uniform
  out.l2_sensitivity_squared = k * k * sum_d2;  // C K^2 Delta^2 when uniform
  out.hardened_charge = Interval(0L, kPrec);

  // --hardened: reserve (1 + e^eps) N 2^-tau_bits out of delta before calibrating.
  mpq_class delta_mech = budget.delta.value_or(0);
  const mpq_class cells(mpz_class(std::to_string(out.cells)));
  if (budget.hardened) {
    const mpq_class tau_bound = power_of_two(-static_cast<long>(kDefaultTauBits));
    const Interval reserve = accounting::hardened_delta_charge(budget.epsilon, cells * tau_bound, kPrec);
    delta_mech -= exactdp::to_mpq(reserve.upper());
    if (sgn(delta_mech) <= 0) {
      throw ParameterError::out_of_range(
          "delta", abbreviate(to_string(*budget.delta)),
          "delta > (1 + e^epsilon) N 2^-64 = " + exactdp::decimal_upper(reserve.upper(), 6) +
              ", the charge of the hardened samplers for N = " + std::to_string(out.cells) + " cells");
    }
  }

  if (route_of(law) == Route::kPureL1) {
    calibrate_pure_l1(out, law);
  } else if (model.columns == 1 && model.contributions == 1) {
    calibrate_exact_profile(out, law, delta_mech);
  } else {
    calibrate_zcdp(out, delta_mech);
    calibrate_product_profile(out, delta_mech);
  }

  out.parameter = release_noise_parameter(law);
  if (budget.hardened) charge_hardened(out, law, rows);

  // The guarantee never exceeds the request (certified comparisons on the upper ends).
  const bool epsilon_ok = out.epsilon_exact ? *out.epsilon_exact <= budget.epsilon
                                            : exactdp::upper_at_most(out.epsilon, budget.epsilon);
  const bool delta_ok = out.delta_exact ? *out.delta_exact <= budget.delta.value_or(0)
                                        : exactdp::upper_at_most(out.delta, budget.delta.value_or(0));
  if (!epsilon_ok || !delta_ok) {
    throw std::logic_error("release calibration: the certified guarantee exceeds the budget");
  }
  return out;
}

}  // namespace exactdp::mechanisms
