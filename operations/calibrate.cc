#include <exactdp/operations/calibrate.h>

#include <stdexcept>
#include <utility>
#include <variant>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/composition_limits.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/noise_calibration.h>
#include <exactdp/operations/tolerance.h>

namespace exactdp::operations {
namespace {

// The analytic Gaussian's report: the precision of its printed ends (enough bits that printing
// the exact dyadic ends loses nothing at `digits` digits) and the classical comparison.
void add_gaussian_fields(const CalibrateRequest& r, CalibrateReport& report) {
  const auto* c = std::get_if<accounting::GaussianCalibration>(&report.calibration.certificate);
  if (c == nullptr) return;
  report.precision = 64 + 4 * static_cast<mpfr_prec_t>(r.digits) +
                     static_cast<mpfr_prec_t>(mpz_sizeinbase(c->sigma.get_den_mpz_t(), 2));
  if (sgn(r.epsilon) > 0 && r.epsilon < 1) {
    report.classical_sigma = accounting::classical_gaussian_sigma(r.epsilon, r.delta, r.sensitivity, report.precision);
    report.variance_ratio =
        accounting::gaussian_variance_ratio(*c, r.epsilon, r.delta, r.sensitivity, report.precision);
  }
}

}  // namespace

bool integer_sensitivity(const laws::Law& law) {
  for (const auto& p : law.parameters()) {
    if (p.name == "sensitivity") return p.kind == laws::ValueKind::kInteger;
  }
  return false;
}

CalibratePlan plan_calibration(const CalibrateRequest& request) {
  const laws::Law* law = laws::find_law(request.law);
  if (law == nullptr || !law->supports(laws::Capability::kCalibrate)) {
    throw ParameterError("mechanism", "mechanism = " + abbreviate(request.law) + ": allowed " +
                                          laws::law_names_with(laws::Capability::kCalibrate) + ", dp-sgd");
  }
  // An integer sensitivity is refused in the words of parse_integer, which the command line's
  // --sensitivity INT and exactdp_calibrate_discrete_gaussian read it with, for every face.
  if (integer_sensitivity(*law) && request.sensitivity.get_den() != 1) {
    throw ParameterError("sensitivity", "sensitivity = " + abbreviate(to_string(request.sensitivity)) +
                                            " is not an integer: allowed whole numbers only");
  }
  CalibratePlan plan{law, {request.epsilon, request.delta, std::nullopt}, {}};
  plan.privacy = law->parse_values({{"sensitivity", request.sensitivity}}, laws::Use::kCalibrate);
  law->check_calibration(plan.target, plan.privacy);
  return plan;
}

CalibrateReport calibrate(const CalibrateRequest& request, CalibratePlan plan) {
  if (integer_sensitivity(*plan.law)) {
    plan.target.tolerance = request.tolerance.value_or(accounting::default_bracket_tolerance());
  } else {
    plan.target.tolerance = checked_ziv_options(request.tolerance, TinyTolerance::kOutOfRange).tolerance;
  }
  CalibrateReport report{plan.law->name(), plan.target, plan.law->calibrate(plan.target, plan.privacy), 64, {}, {}};
  if (std::holds_alternative<accounting::DiscreteGaussianCalibration>(report.calibration.certificate)) {
    report.precision = 64 + 4 * static_cast<mpfr_prec_t>(request.digits) + 256;
  }
  add_gaussian_fields(request, report);
  return report;
}

// ---- a training run (calibrate_run) ------------------------------------------------------------

namespace {

const mpz_class kMaxRounds(1'000'000'000);
const mpz_class kMaxRunClients(1'000'000'000);
const mpq_class kMaxRunEpsilon(1'000'000);
const mpq_class kSearchFloor(1, 1'000'000);
const mpq_class kSearchCeiling(mpz_class("1000000000000000"));

void check_run_request(const CalibrateRunRequest& r) {
  if (sgn(r.epsilon) <= 0 || r.epsilon > kMaxRunEpsilon) {
    throw ParameterError::out_of_range("epsilon", abbreviate(to_string(r.epsilon)), "0 < epsilon <= 10^6");
  }
  if (sgn(r.delta) <= 0 || r.delta >= 1) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(r.delta)), "0 < delta < 1");
  }
  if (r.rounds < 1 || r.rounds > kMaxRounds) {
    throw ParameterError::out_of_range("rounds", abbreviate(r.rounds.get_str()), "1 <= rounds <= 10^9");
  }
  if (sgn(r.q) <= 0 || r.q > 1) throw ParameterError::out_of_range("q", abbreviate(to_string(r.q)), "0 < q <= 1");
  if (r.clients && (*r.clients < 1 || *r.clients > kMaxRunClients)) {
    throw ParameterError::out_of_range("clients", abbreviate(r.clients->get_str()), "1 <= clients <= 10^9");
  }
}

// 3 significant digits, rounded up.
mpq_class round_up_significant(const mpq_class& x) {
  mpq_class scale(1);
  while (x * scale >= 1000) scale /= 10;
  while (x * scale < 100) scale *= 10;
  const mpq_class scaled = x * scale;
  mpz_class whole = scaled.get_num() / scaled.get_den();
  if (whole * scaled.get_den() != scaled.get_num()) ++whole;
  mpq_class out = mpq_class(whole) / scale;
  out.canonicalize();
  return out;
}

// The law, its calibrated parameter and the run's certified epsilon at one value of it.
class RunEpsilon {
 public:
  RunEpsilon(const CalibrateRunRequest& r, const laws::Law& law, std::string parameter)
      : request_(r), law_(law), parameter_(std::move(parameter)) {
    given_ = r.parameters;
    if (r.clients && has_parameter("clients")) given_.emplace_back("clients", r.clients->get_str());
  }
  [[nodiscard]] bool has_parameter(const std::string& name) const {
    for (const auto& p : law_.parameters()) {
      if (p.name == name) return true;
    }
    return false;
  }
  // The law's refusal of `value` (its ParameterError), or std::logic_error if it accepts it.
  [[noreturn]] void refuse(const mpq_class& value) const {
    GivenParameters given = given_;
    given.emplace_back(parameter_, value.get_str());
    (void)law_.parse(given, laws::Use::kPrivacy);
    throw std::logic_error("calibrate_run: the law accepts the value it refused");
  }
  // The run's event at `value` (nullopt: the law refuses the value, naming the parameter).
  [[nodiscard]] std::optional<accounting::RdpEvent> event(const mpq_class& value) const {
    GivenParameters given = given_;
    given.emplace_back(parameter_, value.get_str());
    laws::LawParameters p;
    try {
      p = law_.parse(given, laws::Use::kPrivacy);
    } catch (const ParameterError& e) {
      if (e.parameter() == parameter_) return std::nullopt;
      throw;
    }
    const accounting::PrivacyEvent e = law_.privacy_event(p);
    return request_.q == 1 ? accounting::RdpEvent::plain(e) : accounting::RdpEvent::poisson_subsampled(e, request_.q);
  }
  [[nodiscard]] std::optional<accounting::RdpAnswer> at(const mpq_class& value, const accounting::ZivOptions& o) const {
    const std::optional<accounting::RdpEvent> e = event(value);
    if (!e || !e->has_rdp()) return std::nullopt;
    return accounting::rdp_epsilon({{*e, request_.rounds.get_ui()}}, request_.delta,
                                   accounting::Neighbouring::kAddRemove, o);
  }
  [[nodiscard]] const mpq_class& target() const { return request_.epsilon; }
  [[nodiscard]] bool meets(const mpq_class& value, const accounting::ZivOptions& o) const {
    const std::optional<accounting::RdpAnswer> a = at(value, o);
    return a && upper_at_most(a->value.value, request_.epsilon);
  }

 private:
  const CalibrateRunRequest& request_;
  const laws::Law& law_;
  std::string parameter_;
  GivenParameters given_;
};

// [lo, hi]: hi meets the target, lo misses it (lo = 0: every value down to 10^-6 meets).
std::pair<mpq_class, mpq_class> search_run(const RunEpsilon& run) {
  accounting::ZivOptions coarse;
  coarse.tolerance = mpq_class(1, 1 << 20);
  mpq_class lo, hi(1);
  if (run.meets(hi, coarse)) {
    for (lo = hi / 4; run.meets(lo, coarse); lo /= 4) {
      hi = lo;
      if (lo < kSearchFloor) return {mpq_class(0), hi};
    }
  } else {
    for (lo = hi, hi *= 4; !run.meets(hi, coarse); hi *= 4) {
      lo = hi;
      if (hi > kSearchCeiling) {
        throw LimitError("epsilon", "epsilon: no value of the noise parameter up to 10^15 reaches epsilon <= " +
                                        abbreviate(to_string(run.target())) + " on the rdp route");
      }
    }
  }
  while ((hi - lo) * 4096 > hi) {
    mpq_class mid = (lo + hi) / 2;
    mid.canonicalize();
    (run.meets(mid, coarse) ? hi : lo) = mid;
  }
  return {lo, hi};
}

}  // namespace

std::string run_calibration_parameter(const laws::Law& law) {
  if (!law.supports(laws::Capability::kSubsample) || law.supports(laws::Capability::kCalibrate)) return "";
  // the first noise parameter, when it is a scale or a variance (more noise when larger);
  // staircase's gamma, a privacy level, is not
  for (const auto& p : law.parameters()) {
    if (p.role != laws::Role::kNoise) continue;
    const bool scale = p.name == "mu" || p.name == "sigma2" || p.name == "sigma" || p.name == "scale";
    return scale && p.kind == laws::ValueKind::kRational ? p.name : "";
  }
  return "";
}

CalibrateRunReport calibrate_run(const CalibrateRunRequest& request) {
  const laws::Law* law = laws::find_law(request.law);
  const std::string parameter = law == nullptr ? "" : run_calibration_parameter(*law);
  if (parameter.empty()) {
    throw ParameterError("law", "law = " + abbreviate(request.law) + ": a run is calibrated for a registry law with "
                                "an event and no calibration map of its own (e.g. skellam, "
                                "distributed-discrete-gaussian)");
  }
  check_run_request(request);
  const RunEpsilon run(request, *law, parameter);
  // the other parameters' checks and the composition's size limits (q's digits), before any
  // search, on an event the law accepts (none: the law's own refusal at value 1)
  std::optional<accounting::RdpEvent> probe;
  for (const mpq_class& v : {mpq_class(1), kSearchCeiling, kSearchFloor}) {
    if (!probe) probe = run.event(v);
  }
  if (!probe) run.refuse(mpq_class(1));
  accounting::check_compose_event_limits({{*probe, request.rounds.get_ui()}});
  if (!probe->has_rdp()) {
    throw ParameterError("law", "law = " + law->name() + ": the rdp route has no bound for " + probe->describe() +
                                    " (a run is calibrated on the rdp route)");
  }
  const auto [lo, hi] = search_run(run);
  CalibrateRunReport report{law->name(), parameter, round_up_significant(hi)};
  std::optional<accounting::RdpAnswer> answer = run.at(report.value, {});
  if (!answer || !upper_at_most(answer->value.value, request.epsilon)) {
    report.value = hi;  // the rounded value missed on the finer evaluation: the searched one
    answer = run.at(report.value, {});
  }
  if (!answer || !upper_at_most(answer->value.value, request.epsilon)) {
    throw std::logic_error("calibrate_run: the searched value does not meet the target");
  }
  report.epsilon_at = answer->value.value;
  report.order = answer->order;
  report.event = run.event(report.value)->describe() + " x " + request.rounds.get_str();
  if (request.clients && !run.has_parameter("clients")) report.per_client = report.value / mpq_class(*request.clients);
  report.value_below = lo;
  if (sgn(lo) > 0) {
    if (const auto below = run.at(lo, {})) report.epsilon_below = below->value.value;
  }
  return report;
}

}  // namespace exactdp::operations
