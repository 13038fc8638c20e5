// exactdp calibrate — certified noise calibration (docs/DESIGN.md, "Command-line contract").
//
//   exactdp calibrate gaussian          --epsilon R --delta R [--sensitivity R]
//       -> sigma {lower, upper} (use the upper end), delta at sigma, classical_sigma (eps < 1)
//   exactdp calibrate discrete-gaussian --epsilon R --delta R [--sensitivity INT]
//       -> sigma2 (exact rational to use), delta_at_sigma2 {lower, upper}, the optimum's bracket
//   exactdp calibrate skellam | distributed-discrete-gaussian --epsilon R --delta R
//       [--rounds N] [--q R] [--clients N] [law parameters]
//       -> the law's noise parameter for a training run (operations::calibrate_run), printed by
//          one printer for every law it serves
// Every interval is printed rounded outward; "sigma_to_use" is the certified-private end,
// rounded up (a larger sigma is at least as private). This file reads the options into an
// operations::CalibrateRequest and prints the report; the checks, the tolerance's limits and the
// computed fields are the operation's (operations/calibrate.h).
#include <ostream>
#include <string>
#include <utility>
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
#include <exactdp/operations/calibrate.h>

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
    "\n"
    "A training run of a law with an event and no calibration of its own (skellam,\n"
    "distributed-discrete-gaussian):\n"
    "  exactdp calibrate LAW --epsilon R --delta R [--rounds N] [--q R] [--clients N]\n"
    "                        [--sensitivity R] [the law's other parameters: --dropout, --dim, ...]\n"
    "  the law's noise parameter (skellam: mu; distributed-discrete-gaussian: sigma2 per client)\n"
    "  at 3 significant digits, rounded up, whose certified epsilon over N rounds (default 1),\n"
    "  each Poisson-subsampled at rate q (default 1: no subsampling), add/remove-one, on the rdp\n"
    "  route is <= epsilon at delta; PARAM_below (2^-12 relative below the search's value) is\n"
    "  shown to miss. skellam's mu is the sum's: --clients N adds mu_per_client = mu / N.\n"
    "  Ranges: 0 < epsilon <= 10^6, 1 <= rounds <= 10^9, 0 < q <= 1, 1 <= clients <= 10^9.\n"
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

// A registry law with a calibration map that this command does not print (the closed forms):
// refused by name, never reported as another law.
[[noreturn]] void refuse_law(const laws::Law& law) {
  throw laws::UnsupportedError(
      "law", "calibrate prints the certified calibrations of " + mechanism_list(MechanismCommand::kCalibrate) +
                 "; law " + law.name() + "'s calibration is a closed form (scale = sensitivity / epsilon, pure "
                 "epsilon-DP; the C call exactdp_law_calibrate returns it), which calibrate does not print");
}

void print_gaussian(const operations::CalibrateReport& r, int digits, TextJsonReport& out, Io& io) {
  const auto& c = std::get<accounting::GaussianCalibration>(r.calibration.certificate);
  const mpfr_prec_t p = r.precision;
  out.interval("sigma", accounting::sigma_bracket(c, p), digits);
  out.text("sigma_to_use", exactdp::decimal_upper(Interval(c.sigma, p).upper(), digits));
  out.interval("delta_at_sigma", c.delta_at_sigma, digits);
  out.interval("delta_at_sigma_lower", c.delta_at_sigma_lower, digits);
  if (r.classical_sigma) {
    out.interval("classical_sigma", *r.classical_sigma, digits);
    out.interval("variance_ratio", *r.variance_ratio, digits);
  } else {
    out.json.set("classical_sigma", JsonValue::null());
    out.lines.push_back("classical_sigma = n/a (the classical formula needs 0 < epsilon < 1)");
  }
  out.text("tolerance", tolerance_text(*r.target.tolerance));
  out.flag("tolerance_met", c.tolerance_met);
  if (!c.tolerance_met) {
    io.err << "exactdp calibrate: note: the bracket is wider than the tolerance (precision cap "
              "reached); both ends are still certified\n";
  }
}

void print_discrete_gaussian(const operations::CalibrateReport& r, int digits, TextJsonReport& out) {
  const auto& c = std::get<accounting::DiscreteGaussianCalibration>(r.calibration.certificate);
  out.text("sigma2", exactdp::exact_decimal(c.sigma2));  // short whatever its exponent
  out.interval("delta_at_sigma2", c.delta_at_sigma2, digits);
  out.json.set("significant_digits", c.significant_digits);
  out.lines.push_back("significant_digits = " + std::to_string(c.significant_digits));
  out.interval("sigma2_optimum", hull(Interval(c.optimum_lower, r.precision), Interval(c.optimum_upper, r.precision)),
               digits);
  out.text("tolerance", tolerance_text(*r.target.tolerance));
  out.flag("tolerance_met", c.bracket_tolerance_met);
}

// The options of a training run's calibration (beyond --epsilon, --delta, --sensitivity, --clients):
// --rounds, --q and every parameter of the laws it serves.
std::vector<OptionSpec> run_option_specs() {
  std::vector<OptionSpec> out = {{"--rounds", true}, {"--q", true}};
  for (const laws::Law* law : laws::all_laws()) {
    const std::string calibrated = operations::run_calibration_parameter(*law);
    if (calibrated.empty()) continue;
    for (const auto& p : law->parameters()) {
      const std::string name = "--" + p.name;
      bool known = p.name == calibrated || name == "--sensitivity" || name == "--clients" || name == "--epsilon" ||
                   name == "--delta";
      for (const auto& o : out) known = known || o.name == name;
      if (!known) out.push_back({name, true});
    }
  }
  return out;
}

// "skellam, distributed-discrete-gaussian, ...": the laws a run calibration serves.
std::string run_law_names() {
  std::string out;
  for (const laws::Law* law : laws::all_laws()) {
    if (!operations::run_calibration_parameter(*law).empty()) out += (out.empty() ? "" : ", ") + law->name();
  }
  return out;
}

// The generic printer of a law's run calibration: what was asked, then the value to use.
int run_run_calibration(const laws::Law& law, const ParsedArgs& parsed, Io& io) {
  operations::CalibrateRunRequest request;
  request.law = law.name();
  request.epsilon = parsed.require_rational("--epsilon");
  request.delta = parsed.require_rational("--delta");
  if (const auto rounds = parsed.integer("--rounds")) request.rounds = *rounds;
  if (const auto q = parsed.rational("--q")) request.q = *q;
  request.clients = parsed.integer("--clients");
  for (const auto& p : law.parameters()) {
    if (p.name == "clients") continue;  // request.clients
    if (const auto v = parsed.get("--" + p.name)) request.parameters.emplace_back(p.name, *v);
  }
  for (const OptionSpec& o : run_option_specs()) {
    if (o.name == "--rounds" || o.name == "--q" || !parsed.has(o.name)) continue;
    bool belongs = false;
    for (const auto& p : law.parameters()) belongs = belongs || o.name == "--" + p.name;
    if (!belongs) throw UsageError("calibrate " + law.name() + ": option " + o.name + " is not a parameter of this law");
  }
  const int digits = digits_option(parsed, kMaxDigits);
  const operations::CalibrateRunReport r = operations::calibrate_run(request);
  TextJsonReport out;
  out.json.set("command", "calibrate");
  out.text("mechanism", r.law);
  out.text("epsilon", exactdp::parameter_text(request.epsilon));
  out.text("delta", exactdp::parameter_text(request.delta));
  out.text("rounds", request.rounds.get_str());
  out.text("q", exactdp::parameter_text(request.q));
  if (request.clients) out.text("clients", request.clients->get_str());
  for (const auto& [name, value] : request.parameters) out.text(name, value);
  out.text("event", r.event);
  out.text(r.parameter, exactdp::exact_decimal(r.value));
  if (r.per_client) out.text(r.parameter + "_per_client", exactdp::exact_decimal(*r.per_client));
  out.interval("epsilon_at_" + r.parameter, r.epsilon_at, digits);
  out.text("order", exactdp::exact_decimal(r.order));
  if (sgn(r.value_below) > 0) out.text(r.parameter + "_below", exactdp::exact_decimal(r.value_below));
  if (r.epsilon_below) out.interval("epsilon_at_" + r.parameter + "_below", *r.epsilon_below, digits);
  out.text("route", "rdp");
  return out.emit(io, parsed.has("--json"));
}

// The options into a request (--sensitivity read as the law's kind: an integer for the discrete
// Gaussian), the operation's checks, then the report as text or JSON.
int run_calibration(const laws::Law& law, const ParsedArgs& parsed, Io& io) {
  operations::CalibrateRequest request;
  request.law = law.name();
  request.epsilon = parsed.require_rational("--epsilon");
  request.delta = parsed.require_rational("--delta");
  const bool integer = operations::integer_sensitivity(law);
  if (integer) {
    request.sensitivity = mpq_class(parsed.integer("--sensitivity").value_or(mpz_class(1)));
  } else {
    request.sensitivity = parsed.rational("--sensitivity").value_or(mpq_class(1));
  }
  operations::CalibratePlan plan = operations::plan_calibration(request);
  request.digits = digits_option(parsed, kMaxDigits);
  request.tolerance = parsed.rational("--tolerance");
  const operations::CalibrateReport report = operations::calibrate(request, std::move(plan));

  TextJsonReport out = calibration_report(report.law, request.epsilon, request.delta,
                                          exactdp::parameter_text(request.sensitivity));
  if (integer) {
    print_discrete_gaussian(report, request.digits, out);
  } else {
    print_gaussian(report, request.digits, out, io);
  }
  return out.emit(io, parsed.has("--json"));
}

}  // namespace

int cmd_calibrate(Args args, Io& io) {
  if (!args.empty() && args[0] == "dp-sgd") return cmd_calibrate_dp_sgd(args.subspan(1), io);
  std::vector<OptionSpec> specs = {{"--epsilon", true}, {"--delta", true}, {"--sensitivity", true}, {"--clients", true}};
  for (OptionSpec& o : run_option_specs()) specs.push_back(std::move(o));
  const ParsedArgs parsed(args, with_accounting_options(specs));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  const auto& pos = parsed.positionals();
  if (pos.size() != 1) {
    throw UsageError(pos.empty() ? "calibrate: name a mechanism: gaussian, discrete-gaussian or dp-sgd"
                                 : "calibrate: unexpected argument '" + abbreviate(pos[1]) + "'");
  }
  const MechanismRow* row = find_mechanism(MechanismCommand::kCalibrate, pos[0]);
  const laws::Law* law = laws::find_law(pos[0]);
  if (row == nullptr && law != nullptr && !operations::run_calibration_parameter(*law).empty()) {
    return run_run_calibration(*law, parsed, io);
  }
  std::vector<OptionSpec> run_only = run_option_specs();
  run_only.push_back({"--clients", true});
  for (const OptionSpec& o : run_only) {
    if (parsed.has(o.name)) {
      throw UsageError("calibrate: option " + o.name + " is for a training run of a noise law with no "
                       "calibration of its own (" + run_law_names() + "), not " + abbreviate(pos[0]));
    }
  }
  if (row == nullptr && law != nullptr && law->supports(laws::Capability::kCalibrate)) refuse_law(*law);
  if (row == nullptr) {
    throw UsageError("calibrate: unknown mechanism '" + abbreviate(pos[0]) + "' (allowed: " +
                     mechanism_list(MechanismCommand::kCalibrate) + ", dp-sgd)");
  }
  // The operation calibrates; the law's sensitivity kind selects the report: a real L2
  // sensitivity (the analytic Gaussian's certificate) or an integer one (the discrete Gaussian's).
  return run_calibration(*law, parsed, io);
}

}  // namespace exactdp::cli
