// exactdp calibrate — certified noise calibration (docs/DESIGN.md, "Command-line contract").
//
//   exactdp calibrate gaussian          --epsilon R --delta R [--sensitivity R]
//       -> sigma {lower, upper} (use the upper end), delta at sigma, classical_sigma (eps < 1)
//   exactdp calibrate discrete-gaussian --epsilon R --delta R [--sensitivity INT]
//       -> sigma2 (exact rational to use), delta_at_sigma2 {lower, upper}, the optimum's bracket
// Every interval is printed rounded outward; "sigma_to_use" is the certified-private end,
// rounded up (a larger sigma is at least as private).
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/core/decimal.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/ziv.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/compose_events.h"
#include "cli/json.h"
#include "cli/mechanism_spec.h"
#include "cli/text_json_report.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>

namespace exactdp::cli {
namespace {

using exactdp::Interval;

constexpr const char* kHelp =
    "usage: exactdp calibrate gaussian --epsilon R --delta R [--sensitivity R] [options]\n"
    "       exactdp calibrate discrete-gaussian --epsilon R --delta R [--sensitivity INT]\n"
    "                                           [options]\n"
    "\n"
    "gaussian:          the smallest sigma making N(0, sigma^2) noise (epsilon, delta)-DP for\n"
    "                   L2 sensitivity R (Balle & Wang's analytic Gaussian mechanism), as a\n"
    "                   certified bracket: delta(sigma.upper) <= delta and delta(sigma.lower) >\n"
    "                   delta are both proven. Use sigma_to_use (= sigma.upper, rounded up).\n"
    "                   Also the classical sigma = sqrt(2 ln(1.25/delta)) sensitivity / epsilon\n"
    "                   (Dwork-Roth; only for epsilon < 1) and the variance ratio.\n"
    "discrete-gaussian: a convenient sigma2 (3 significant digits, rounded up) whose certified\n"
    "                   delta (CKS20 Theorem 7) meets the target, and sigma2_optimum: a certified\n"
    "                   bracket where delta crosses the target (delta > target proven at its\n"
    "                   lower end, <= target at its upper end). sigma2 is within 1% of that\n"
    "                   bracket's lower end unless significant_digits = 0 (then it is the upper\n"
    "                   end). That no smaller sigma2 meets the target is observed, not proven:\n"
    "                   the discrete profile is not monotone in sigma2.\n"
    "\n"
    "options:\n"
    "  --sensitivity R  gaussian: R > 0 (default 1); discrete-gaussian: an integer >= 1\n"
    "  --json           one JSON object; intervals as {\"lower\": \"...\", \"upper\": \"...\"}\n"
    "  --digits D       significant digits printed, 1 <= D <= 1000 (default 20)\n"
    "  --tolerance R    relative width of the bracket: gaussian 2^-2000 <= R < 1 (default\n"
    "                   2^-100); discrete-gaussian 2^-200 <= R <= 1/100 (default 2^-32)\n"
    "Parameters: epsilon >= 0, 0 < delta < 1. MPFR precision is capped at 65536 bits; past the\n"
    "cap the bracket is wider (still certified) and tolerance_met says false.\n"
    "dp-sgd: 'exactdp calibrate dp-sgd --help' (DP-SGD noise multiplier, certified).\n"
    "Numbers: decimals (0.1, 1e-5) or fractions (3/2), read exactly.\n";

constexpr int kMaxDigits = 1000;

// The report's first fields, what was asked: mechanism, epsilon, delta, sensitivity.
TextJsonReport calibration_report(const std::string& mechanism, const mpq_class& epsilon,
                                  const mpq_class& delta, const std::string& sensitivity) {
  TextJsonReport out;
  out.json.set("command", "calibrate");
  out.text("mechanism", mechanism);
  out.text("epsilon", exactdp::parameter_text(epsilon));
  out.text("delta", exactdp::parameter_text(delta));
  out.text("sensitivity", sensitivity);
  return out;
}

// The (epsilon, delta) both calibrations aim at, read (not yet range-checked: the law does).
laws::CalibrationTarget read_target(const ParsedArgs& parsed) {
  laws::CalibrationTarget t;
  t.epsilon = parsed.require_rational("--epsilon");
  t.delta = parsed.require_rational("--delta");
  return t;
}

// A registry law with a calibration map that this command does not print (the closed forms):
// refused by name, never reported as another law.
[[noreturn]] void refuse_law(const laws::Law& law) {
  throw laws::UnsupportedError(
      "law", "calibrate prints the certified calibrations of " + mechanism_list(MechanismCommand::kCalibrate) +
                 "; law " + law.name() + "'s calibration is a closed form (scale = sensitivity / epsilon, pure "
                 "epsilon-DP; the C call exactdp_law_calibrate returns it), which calibrate does not print");
}

// The law's privacy parameters (its sensitivity) as the law reads them for a calibration.
laws::LawParameters sensitivity_of(const laws::Law& law, const mpq_class& sensitivity) {
  return law.parse_values({{"sensitivity", sensitivity}}, laws::Use::kCalibrate);
}

int calibrate_gaussian_cmd(const laws::Law& law, laws::CalibrationTarget target, const ParsedArgs& parsed,
                           Io& io) {
  const mpq_class& epsilon = target.epsilon;
  const mpq_class& delta = target.delta;
  const mpq_class sensitivity = parsed.rational("--sensitivity").value_or(mpq_class(1));
  const laws::LawParameters privacy = sensitivity_of(law, sensitivity);
  law.check_calibration(target, privacy);
  const int digits = digits_option(parsed, kMaxDigits);
  const accounting::ZivOptions options =
      ziv_options_from_tolerance(parsed, TinyTolerance::kOutOfRange);
  target.tolerance = options.tolerance;

  const laws::NoiseCalibration calibration = law.calibrate(target, privacy);
  const auto& c = std::get<accounting::GaussianCalibration>(calibration.certificate);
  // Enough bits that printing the exact dyadic ends loses nothing at `digits` digits.
  const mpfr_prec_t p = 64 + 4 * static_cast<mpfr_prec_t>(digits) +
                        static_cast<mpfr_prec_t>(mpz_sizeinbase(c.sigma.get_den_mpz_t(), 2));
  TextJsonReport out = calibration_report("gaussian", epsilon, delta, exactdp::parameter_text(sensitivity));
  out.interval("sigma", accounting::sigma_bracket(c, p), digits);
  out.text("sigma_to_use", exactdp::decimal_upper(Interval(c.sigma, p).upper(), digits));
  out.interval("delta_at_sigma", c.delta_at_sigma, digits);
  out.interval("delta_at_sigma_lower", c.delta_at_sigma_lower, digits);
  if (sgn(epsilon) > 0 && epsilon < 1) {
    const Interval classical = accounting::classical_gaussian_sigma(epsilon, delta, sensitivity, p);
    out.interval("classical_sigma", classical, digits);
    out.interval("variance_ratio",
                 accounting::gaussian_variance_ratio(c, epsilon, delta, sensitivity, p), digits);
  } else {
    out.json.set("classical_sigma", JsonValue::null());
    out.lines.push_back("classical_sigma = n/a (the classical formula needs 0 < epsilon < 1)");
  }
  out.text("tolerance", tolerance_text(options.tolerance));
  out.flag("tolerance_met", c.tolerance_met);
  if (!c.tolerance_met) {
    io.err << "exactdp calibrate: note: the bracket is wider than the tolerance (precision cap "
              "reached); both ends are still certified\n";
  }
  return out.emit(io, parsed.has("--json"));
}

int calibrate_discrete_gaussian_cmd(const laws::Law& law, laws::CalibrationTarget target, const ParsedArgs& parsed,
                                    Io& io) {
  const mpz_class sensitivity = parsed.integer("--sensitivity").value_or(mpz_class(1));
  const mpq_class& epsilon = target.epsilon;
  const mpq_class& delta = target.delta;
  const laws::LawParameters privacy = sensitivity_of(law, mpq_class(sensitivity));
  law.check_calibration(target, privacy);
  const int digits = digits_option(parsed, kMaxDigits);
  mpq_class tolerance = accounting::default_bracket_tolerance();
  if (const auto t = parsed.rational("--tolerance")) tolerance = *t;  // range-checked below
  target.tolerance = tolerance;

  const laws::NoiseCalibration calibration = law.calibrate(target, privacy);
  const auto& c = std::get<accounting::DiscreteGaussianCalibration>(calibration.certificate);
  const mpfr_prec_t p = 64 + 4 * static_cast<mpfr_prec_t>(digits) + 256;
  TextJsonReport out =
      calibration_report("discrete-gaussian", epsilon, delta, exactdp::parameter_text(mpq_class(sensitivity)));
  out.text("sigma2", exactdp::exact_decimal(c.sigma2));  // short whatever its exponent
  out.interval("delta_at_sigma2", c.delta_at_sigma2, digits);
  out.json.set("significant_digits", c.significant_digits);
  out.lines.push_back("significant_digits = " + std::to_string(c.significant_digits));
  out.interval("sigma2_optimum",
               hull(Interval(c.optimum_lower, p), Interval(c.optimum_upper, p)), digits);
  out.text("tolerance", tolerance_text(tolerance));
  out.flag("tolerance_met", c.bracket_tolerance_met);
  return out.emit(io, parsed.has("--json"));
}

}  // namespace

int cmd_calibrate(Args args, Io& io) {
  if (!args.empty() && args[0] == "dp-sgd") return cmd_calibrate_dp_sgd(args.subspan(1), io);
  const ParsedArgs parsed(
      args,
      with_accounting_options({{"--epsilon", true}, {"--delta", true}, {"--sensitivity", true}}));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  const auto& pos = parsed.positionals();
  if (pos.size() != 1) {
    throw UsageError(pos.empty() ? "calibrate: name a mechanism: gaussian, discrete-gaussian or dp-sgd"
                                 : "calibrate: unexpected argument '" + abbreviate(pos[1]) + "'");
  }
  const MechanismRow* row = find_mechanism(MechanismCommand::kCalibrate, pos[0]);
  const laws::Law* law = laws::find_law(pos[0]);
  if (row == nullptr && law != nullptr && law->supports(laws::Capability::kCalibrate)) refuse_law(*law);
  if (row == nullptr) {
    throw UsageError("calibrate: unknown mechanism '" + abbreviate(pos[0]) + "' (allowed: " +
                     mechanism_list(MechanismCommand::kCalibrate) + ", dp-sgd)");
  }
  // The registry law calibrates; the table's sensitivity kind selects the report: a real L2
  // sensitivity (the analytic Gaussian's certificate) or an integer one (the discrete Gaussian's).
  const laws::CalibrationTarget target = read_target(parsed);
  return row->sensitivity == SensitivityKind::kInteger
             ? calibrate_discrete_gaussian_cmd(*law, target, parsed, io)
             : calibrate_gaussian_cmd(*law, target, parsed, io);
}

}  // namespace exactdp::cli
