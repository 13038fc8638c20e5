// exactdp measure-gdp — the mu-GDP bracket of a mechanism by the GDP transformation with
// staircase bounds (gdp_bridge Section 4, Algorithm 1; accounting/gdp_transformation.h).
//
//   exactdp measure-gdp <mechanism and parameters> [--eps-max R] [--tolerance R] [--svg FILE]
// prints mu {lower, upper} for the head [0, eps_max]: the mechanism is eps_max-head
// mu_upper-GDP (proven) and not eps_max-head mu-GDP for any mu < mu_lower (proven), plus the
// tail identification (gdp_bridge Theorem 3.3).
#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "accounting/decimal.h"
#include "accounting/discrete_gaussian_profile.h"
#include "accounting/discrete_laplace_profile.h"
#include "accounting/gaussian_profile.h"
#include "accounting/laplace_profile.h"
#include "accounting/gdp_transformation.h"
#include "accounting/pure_dp_composition.h"
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/sensitivity_options.h"
#include "cli/svg_plot.h"
#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::cli {
namespace {

using accounting::Interval;

constexpr const char* kHelp =
    "usage: exactdp measure-gdp <mechanism> <its parameters> [options]\n"
    "\n"
    "mechanisms (parameters as in 'exactdp profile'):\n"
    "  gaussian          --sigma R  [--sensitivity R]\n"
    "  laplace           --scale R  [--sensitivity R]\n"
    "  discrete-gaussian --sigma2 R [--sensitivity INT]\n"
    "  discrete-laplace  --scale R  [--sensitivity INT]\n"
    "  gdp               --mu R\n"
    "  pure-dp           --epsilon R            (worst case of any epsilon-DP mechanism)\n"
    "  pure-dp-composition --epsilon R --k K    (exact KOV profile of k-fold epsilon-DP, k <= 1000)\n"
    "  The mechanism's natural mu (sensitivity/sigma, sensitivity/scale, mu, epsilon, k epsilon)\n"
    "  must lie in [1e-6, 30].\n"
    "\n"
    "options:\n"
    "  --eps-max R      measure the head on [0, eps_max] (default 10; for pure-DP kinds their\n"
    "                   total epsilon, beyond which delta = 0)\n"
    "  --tolerance R    absolute width of the mu bracket (default 0.001), 1e-9..1\n"
    "  --mu-max R       give up above this mu (default 100)\n"
    "  --svg FILE       draw the GDPT curve T(eps) with its bracket and the mu band\n"
    "  --points N       points of the drawn curve, 2..2000 (default 120)\n"
    "  --naive          the paper's Algorithm 3 (binary search at every grid point), to compare\n"
    "  --json, --digits D (1..10000, default 20)\n"
    "\n"
    "Result: mu = [lower, upper] contains sup over [0, eps_max] of the GDPT; 'mu_upper' is the\n"
    "guarantee to use (proven); printed ends are rounded outward.\n";

std::string dec_upper(mpfr_srcptr x, int digits) { return accounting::decimal_upper(x, digits); }

// A mechanism to measure: its certified profile and what is known about its tail.
struct MeasuredMechanism {
  std::string description;
  accounting::ProfileFunction profile;
  std::optional<mpq_class> pure_epsilon;  // delta(eps) = 0 for eps >= this (pure DP kinds)
  std::optional<std::string> tail_limit;  // L of gdp_bridge Thm 3.3, when known analytically
  std::string tail_limit_source;
  [[nodiscard]] bool complete_beyond(const mpq_class& eps_max) const {
    return pure_epsilon && *pure_epsilon <= eps_max;
  }
};

std::vector<OptionSpec> mechanism_option_specs() {
  return {{"--sigma", true}, {"--sigma2", true},  {"--scale", true}, {"--sensitivity", true},
          {"--mu", true},    {"--epsilon", true}, {"--k", true}};
}

// Rejects options that belong to other mechanisms, so a typo is not silently ignored.
void only_options(const ParsedArgs& parsed, const std::string& mechanism,
                  const std::vector<std::string>& allowed) {
  for (const auto& spec : mechanism_option_specs()) {
    if (!parsed.has(spec.name)) continue;
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == spec.name;
    if (!ok) throw UsageError("measure-gdp " + mechanism + " does not take " + spec.name);
  }
}

// measure-gdp works on the scale of mu: the profile of a mechanism whose natural mu (Delta/sigma,
// Delta/scale, ...) is far outside [1e-6, 1000] costs so much per evaluation (arguments like
// eps/mu = 10^99999) that the thousands of evaluations of the GDPT would not finish; such
// mechanisms are refused up front (a mu below 1e-6 is below any useful tolerance anyway; above
// 30, delta(0) is within e^-110 of 1 and every evaluation needs hundreds of bits — and such a
// mechanism gives "almost no privacy", gdp_bridge Section 4.2). Measured worst cases: mu = 30
// about 5 s, epsilon = 30 about 2 s.
void require_scale(const std::string& parameter, const std::string& value, const mpq_class& x,
                   const std::string& what);

// sensitivity / noise in [1e-6, 30]: the error names the sensitivity when it is the one out of
// that range itself, else the noise parameter.
void require_ratio(const ParsedArgs& parsed, const std::string& noise, const mpq_class& noise_value,
                   const mpq_class& sensitivity) {
  const mpq_class ratio = sensitivity / noise_value;
  const std::string what = "sensitivity/" + noise;
  const bool blame_sensitivity = parsed.has("--sensitivity") &&
                                 (sensitivity < mpq_class(1, 1'000'000) || sensitivity > 30);
  if (blame_sensitivity) {
    require_scale("sensitivity", to_string(sensitivity), ratio, what);
  } else {
    require_scale(noise, to_string(noise_value), ratio, what);
  }
}

// "name(noise=N, sensitivity=S)", the mechanism as the output and the plot's title name it.
std::string describe_noise_mechanism(const std::string& name, const std::string& noise,
                                     const mpq_class& noise_value, const std::string& sensitivity) {
  return name + "(" + noise + "=" + abbreviate(to_string(noise_value)) +
         ", sensitivity=" + abbreviate(sensitivity) + ")";
}

void require_scale(const std::string& parameter, const std::string& value, const mpq_class& x,
                   const std::string& what) {
  if (x < mpq_class(1, 1'000'000) || x > 30) {
    throw ParameterError::out_of_range(parameter, abbreviate(value),
                                       "1e-6 <= " + what + " <= 30 for measure-gdp");
  }
}

mpz_class integer_sensitivity(const ParsedArgs& parsed) {
  if (!parsed.has("--sensitivity")) return mpz_class(1);
  const mpz_class s = *parsed.integer("--sensitivity");
  if (s < 1) {
    throw ParameterError::out_of_range("sensitivity", abbreviate(to_string(s)),
                                       "integer sensitivity >= 1");
  }
  return s;
}

MeasuredMechanism mechanism_from_args(const std::string& name, const ParsedArgs& parsed) {
  MeasuredMechanism m;
  if (name == "gaussian") {
    only_options(parsed, name, {"--sigma", "--sensitivity"});
    const mpq_class sigma = positive_option(parsed, "--sigma");
    const mpq_class sens = real_sensitivity_option(parsed);
    require_ratio(parsed, "sigma", sigma, sens);
    m.description = describe_noise_mechanism(name, "sigma", sigma, to_string(sens));
    m.profile = [sigma, sens](const mpq_class& eps, mpfr_prec_t p) {
      return accounting::gaussian_delta_at(eps, sigma, sens, p);
    };
    m.tail_limit = abbreviate(to_string(mpq_class(sens / sigma)));
    m.tail_limit_source = "Delta/sigma: the Gaussian mechanism is exactly (Delta/sigma)-GDP";
  } else if (name == "laplace") {
    only_options(parsed, name, {"--scale", "--sensitivity"});
    const mpq_class scale = positive_option(parsed, "--scale");
    const mpq_class sens = real_sensitivity_option(parsed);
    require_ratio(parsed, "scale", scale, sens);
    m.description = describe_noise_mechanism(name, "scale", scale, to_string(sens));
    m.profile = [scale, sens](const mpq_class& eps, mpfr_prec_t p) {
      return accounting::laplace_delta_at(eps, scale, sens, p);
    };
    m.pure_epsilon = sens / scale;
    m.tail_limit = "0";
    m.tail_limit_source = "delta = 0 beyond Delta/scale";
  } else if (name == "discrete-laplace") {
    only_options(parsed, name, {"--scale", "--sensitivity"});
    const mpq_class scale = positive_option(parsed, "--scale");
    const mpz_class sens = integer_sensitivity(parsed);
    require_ratio(parsed, "scale", scale, mpq_class(sens));
    m.description = describe_noise_mechanism(name, "scale", scale, to_string(sens));
    m.profile = [scale, sens](const mpq_class& eps, mpfr_prec_t p) {
      return accounting::discrete_laplace_delta_at(eps, scale, sens, p);
    };
    m.pure_epsilon = mpq_class(sens) / scale;
    m.tail_limit = "0";
    m.tail_limit_source = "delta = 0 beyond Delta/scale";
  } else if (name == "discrete-gaussian") {
    only_options(parsed, name, {"--sigma2", "--sensitivity"});
    const mpq_class sigma2 = positive_option(parsed, "--sigma2");
    const mpz_class sens = integer_sensitivity(parsed);
    accounting::validate_discrete_gaussian(mpq_class(0), sigma2, sens);
    // (Delta/sigma)^2 in [1e-12, 1e6]  <=>  Delta/sigma in [1e-6, 1000]
    const mpq_class ratio2 = mpq_class(sens * sens) / sigma2;
    if (ratio2 < mpq_class(1, 1'000'000'000'000L) || ratio2 > 900) {
      const bool blame_sensitivity = parsed.has("--sensitivity") && sens > 30;
      throw ParameterError::out_of_range(
          blame_sensitivity ? "sensitivity" : "sigma2",
          abbreviate(blame_sensitivity ? to_string(sens) : to_string(sigma2)),
          "1e-6 <= sensitivity/sqrt(sigma2) <= 30 for measure-gdp");
    }
    m.description = describe_noise_mechanism(name, "sigma2", sigma2, to_string(sens));
    m.profile = [sigma2, sens](const mpq_class& eps, mpfr_prec_t p) {
      return accounting::discrete_gaussian_delta_at(eps, sigma2, sens, p);
    };
    const Interval l = Interval(mpq_class(sens), 64) / accounting::sqrt(Interval(sigma2, 64));
    m.tail_limit = "Delta/sqrt(sigma2) in " + accounting::to_decimal_string(l, 10);
    m.tail_limit_source =
        "CKS20 Thm 7: delta(eps) <= P[Z > eps sigma2/Delta - Delta/2], a Gaussian tail";
  } else if (name == "gdp") {
    only_options(parsed, name, {"--mu"});
    const mpq_class mu = positive_option(parsed, "--mu");
    require_scale("mu", to_string(mu), mu, "mu");
    m.description = "gdp(mu=" + abbreviate(to_string(mu)) + ")";
    m.profile = accounting::gdp_profile(mu);
    m.tail_limit = abbreviate(to_string(mu));
    m.tail_limit_source = "mu (Lemma 3.1)";
  } else if (name == "pure-dp") {
    only_options(parsed, name, {"--epsilon"});
    const mpq_class eps = positive_option(parsed, "--epsilon");
    require_scale("epsilon", to_string(eps), eps, "epsilon");
    m.description = "pure-dp(epsilon=" + abbreviate(to_string(eps)) + ")";
    m.profile = accounting::pure_dp_profile(eps);
    m.pure_epsilon = eps;
    m.tail_limit = "0";
    m.tail_limit_source = "delta = 0 beyond epsilon";
  } else if (name == "pure-dp-composition") {
    only_options(parsed, name, {"--epsilon", "--k"});
    const mpq_class eps = positive_option(parsed, "--epsilon");
    (void)parsed.require("--k");
    // Each profile evaluation is a KOV pass of up to k/2 steps: k <= 1000 keeps the thousands
    // of evaluations of the GDPT within seconds.
    const unsigned long k = static_cast<unsigned long>(*parsed.count("--k", 1, 1000));
    m.profile = accounting::kov_profile(eps, k);  // validates epsilon and k
    require_scale("epsilon", to_string(eps), eps, "epsilon");
    require_scale("epsilon", to_string(eps), eps * mpq_class(static_cast<long>(k)), "k epsilon");
    m.description = "pure-dp-composition(epsilon=" + abbreviate(to_string(eps)) +
                    ", k=" + std::to_string(k) + ")";
    m.pure_epsilon = eps * mpq_class(static_cast<long>(k));
    m.tail_limit = "0";
    m.tail_limit_source = "delta = 0 beyond k epsilon";
  } else {
    throw UsageError("unknown mechanism '" + abbreviate(name) + "' for measure-gdp (see --help)");
  }
  return m;
}

double to_pixel_value(const mpq_class& x) { return x.get_d(); }  // exactdp-allow-float: pixels
double to_pixel_value(mpfr_srcptr x) { return mpfr_get_d(x, MPFR_RNDN); }  // exactdp-allow-float: pixels

// The GDPT curve at `points` evenly spaced eps in [0, eps_max]: each T(eps) as a certified
// bracket of width <= tolerance (gdpt_point), for the plot.
struct CurvePoint {
  mpq_class eps;
  Interval t;
};

std::vector<CurvePoint> gdpt_curve(const MeasuredMechanism& mech,
                                   const accounting::GdptOptions& options, int points) {
  std::vector<CurvePoint> curve;
  for (int j = 0; j < points; ++j) {
    const mpq_class eps = options.eps_max * mpq_class(j, points - 1);
    curve.push_back({eps, accounting::gdpt_point(mech.profile, eps, options.tolerance,
                                                 options.mu_max, options.precision)});
  }
  return curve;
}

void write_gdpt_svg(const std::string& file, const MeasuredMechanism& mech,
                    const accounting::GdptOptions& options, const accounting::GdptResult& r,
                    int points) {
  const std::vector<CurvePoint> curve = gdpt_curve(mech, options, points);
  std::vector<SvgSeries> series(2);
  series[0].name = "GDPT T(eps) upper";
  series[1].name = "GDPT T(eps) lower";
  for (const auto& c : curve) {
    series[0].points.emplace_back(to_pixel_value(c.eps), to_pixel_value(c.t.upper()));
    series[1].points.emplace_back(to_pixel_value(c.eps), to_pixel_value(c.t.lower()));
  }
  SvgSeries band_hi, band_lo;
  band_hi.name = "mu upper (head bound)";
  band_lo.name = "mu lower";
  if (r.bounded) {
    for (const mpq_class& e : {mpq_class(0), options.eps_max}) {
      band_hi.points.emplace_back(to_pixel_value(e), to_pixel_value(r.mu.upper()));
      band_lo.points.emplace_back(to_pixel_value(e), to_pixel_value(r.mu.lower()));
    }
    band_hi.dashed = band_lo.dashed = true;
    series.push_back(std::move(band_hi));
    series.push_back(std::move(band_lo));
  }
  SvgChart chart;
  chart.title = "GDP transformation of " + mech.description;
  chart.x_label = "epsilon";
  chart.y_label = "mu = GDPT(eps)";
  chart.series = std::move(series);
  try {
    write_svg_file(file, chart);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("--svg: ") + e.what());
  }
}

}  // namespace

int cmd_measure_gdp(Args args, Io& io) {
  std::vector<OptionSpec> specs = {{"--eps-max", true}, {"--mu-max", true}, {"--svg", true},
                                   {"--points", true},  {"--naive", false}, {"--seed", true}};
  for (const auto& s : mechanism_option_specs()) specs.push_back(s);
  const ParsedArgs parsed(args, with_accounting_options(specs));
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  if (parsed.positionals().size() != 1) {
    throw UsageError("measure-gdp needs exactly one mechanism (see --help)");
  }
  const MeasuredMechanism mech = mechanism_from_args(parsed.positionals()[0], parsed);
  const int digits = digits_option(parsed, 10'000);

  accounting::GdptOptions options;
  if (const auto e = parsed.rational("--eps-max")) {
    options.eps_max = *e;
  } else if (mech.pure_epsilon) {
    options.eps_max = *mech.pure_epsilon > 0 ? *mech.pure_epsilon : mpq_class(1);
    if (options.eps_max > 1000) options.eps_max = 1000;
  }
  if (const auto t = parsed.rational("--tolerance")) options.tolerance = *t;
  if (const auto m = parsed.rational("--mu-max")) options.mu_max = *m;
  if (const auto s = parsed.count("--seed", 0, ~0ULL)) options.seed = *s;
  options.naive = parsed.has("--naive");
  options.validate();
  const unsigned long long points =
      parsed.has("--points") ? *parsed.count("--points", 2, 2000) : 120;

  const accounting::GdptResult r = accounting::gdpt_measure(mech.profile, options);

  // Tail: the certified ratio eps / sqrt(-2 log delta(eps)) at eps_max and 2 eps_max.
  JsonValue tail = JsonValue::object();
  std::string tail_text;
  if (mech.tail_limit) {
    tail.set("limit", *mech.tail_limit).set("limit_source", mech.tail_limit_source);
    tail_text = "tail limit L = " + *mech.tail_limit + " (" + mech.tail_limit_source + ")";
  }
  std::vector<std::pair<mpq_class, Interval>> ratios;
  for (const mpq_class& e : {options.eps_max, mpq_class(2 * options.eps_max)}) {
    try {
      ratios.emplace_back(e, accounting::tail_ratio(mech.profile, e, 64));
    } catch (const std::domain_error&) {
      // delta(e) may be >= 1: no ratio there
    }
  }
  JsonValue ratio_json = JsonValue::array();
  for (const auto& [e, ratio] : ratios) {
    JsonValue one = JsonValue::object();
    one.set("epsilon", to_string(e)).set_interval("ratio", ratio, 10);
    ratio_json.push(std::move(one));
  }
  tail.set("ratios", std::move(ratio_json));

  std::string svg_note;
  if (const auto file = parsed.get("--svg")) {
    write_gdpt_svg(*file, mech, options, r, static_cast<int>(points));
    svg_note = *file;
  }

  if (parsed.has("--json")) {
    JsonValue out = JsonValue::object();
    out.set("command", "measure-gdp")
        .set("mechanism", mech.description)
        .set("eps_max", to_string(options.eps_max))
        .set("tolerance", to_string(options.tolerance))
        .set_interval("mu", r.mu, digits)
        .set("mu_upper", r.bounded ? dec_upper(r.mu.upper(), digits) : std::string("inf"))
        .set("bounded", r.bounded)
        .set("complete", mech.complete_beyond(options.eps_max))
        .set("grid_points", static_cast<unsigned long long>(r.grid_points))
        .set("binary_searches", static_cast<unsigned long long>(r.binary_searches))
        .set("profile_evaluations", static_cast<unsigned long long>(r.profile_evaluations))
        .set("gdp_evaluations", static_cast<unsigned long long>(r.gdp_evaluations))
        .set("algorithm", options.naive ? "naive (Algorithm 3)" : "shuffled (Algorithm 1)")
        .set("tail", std::move(tail));
    if (!svg_note.empty()) out.set("svg", svg_note);
    io.out << out.dump() << "\n";
    return 0;
  }
  io.out << "mu = " << accounting::to_decimal_string(r.mu, digits) << "\n";
  if (r.bounded) {
    io.out << "mu_upper = " << dec_upper(r.mu.upper(), digits) << "   (" << mech.description
           << " is " << to_string(options.eps_max) << "-head mu_upper-GDP, proven)\n";
  } else {
    io.out << "mu_upper = inf   (the GDPT exceeds mu-max = " << to_string(options.mu_max)
           << " on [0, " << to_string(options.eps_max) << "])\n";
  }
  if (mech.complete_beyond(options.eps_max)) {
    io.out << "complete: delta(eps) = 0 for eps >= eps_max, so this is the full mu-GDP bracket\n";
  } else {
    io.out << "head only: [0, " << to_string(options.eps_max)
           << "]; beyond it see the tail (gdp_bridge Thm 3.3)\n";
  }
  if (!tail_text.empty()) io.out << tail_text << "\n";
  for (const auto& [e, ratio] : ratios) {
    io.out << "tail ratio eps/sqrt(-2 log delta) at eps = " << to_string(e) << ": "
           << accounting::to_decimal_string(ratio, 10) << "\n";
  }
  io.out << "grid points " << r.grid_points << ", binary searches " << r.binary_searches
         << ", profile evaluations " << r.profile_evaluations << ", GDP evaluations "
         << r.gdp_evaluations << (options.naive ? " (naive Algorithm 3)" : " (Algorithm 1)")
         << "\n";
  if (!svg_note.empty()) io.out << "svg written: " << svg_note << "\n";
  return 0;
}

}  // namespace exactdp::cli
