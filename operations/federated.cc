// federated.cc — plan_federated (federated.h): the request's texts parsed exactly and checked, the
// plan built, and the report's numbers written as text once for every face.
#include <exactdp/operations/federated.h>

#include <gmpxx.h>

#include <string>
#include <utility>

#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/samplers/poisson.h>

namespace exactdp::operations {
namespace {

constexpr int kDigits = 6;

long granularity_of(const std::string& text) {
  const mpq_class k = parse_rational("granularity", text);
  if (k.get_den() != 1 || k < -4096 || k > 4096) {
    throw ParameterError::out_of_range("granularity", abbreviate(text),
                                       "an integer exponent k, -4096 <= k <= 4096 (granularity 2^-k)");
  }
  return k.get_num().get_si();
}

mechanisms::FederatedSpec spec_of(const FederatedRequest& r) {
  mechanisms::FederatedSpec s;
  s.dimension = checked_count("dimension", r.dimension, 1, mechanisms::kMaxFederatedDimension);
  s.clip = parse_rational("c", r.clip);
  if (r.granularity) s.granularity_exponent = granularity_of(*r.granularity);
  s.bits = static_cast<unsigned>(checked_count("bits", r.bits, mechanisms::kMinFederatedBits, mechanisms::kMaxFederatedBits));
  s.clients = checked_count("clients", r.clients, 1, mechanisms::kMaxFederatedClients);
  s.dropout = parse_rational("dropout", r.dropout);
  s.noise = r.noise;
  const char* value_name = mechanisms::client_noise_parameter(r.noise);  // naming "noise" for another
  s.noise_value = parse_rational(value_name, r.noise_value);
  s.beta = parse_rational("beta", r.beta);
  s.max_wrap = parse_rational("max_wrap", r.max_wrap);
  s.rotation_seed = r.rotation_seed;
  if (r.hardened) s.hardening = Hardening{};  // refused for skellam by the plan, naming "hardened"
  return s;
}

// ceil(sqrt(v) 2^10) / 2^10 >= sqrt(v), as exact text.
std::string root_upper(const mpz_class& v) {
  mpz_class scaled = v << 20;
  mpz_class root;
  mpz_class rest;
  mpz_sqrtrem(root.get_mpz_t(), rest.get_mpz_t(), scaled.get_mpz_t());
  if (rest != 0) root += 1;
  mpq_class bound(root, 1024);
  bound.canonicalize();
  return parameter_text(bound);
}

// The Skellam shares of the surviving clients, m = ceil(n (1 - dropout)) = n - floor(n dropout),
// sum to Sk(m mu) on each of the D coordinates (mu on the lattice).
mpq_class survivors_mu(const mechanisms::FederatedPlan& plan) {
  const mechanisms::FederatedSpec& s = plan.spec();
  const mpq_class dropped = mpq_class(mpz_class(static_cast<unsigned long>(s.clients))) * s.dropout;
  const mpz_class survivors = mpz_class(static_cast<unsigned long>(s.clients)) - dropped.get_num() / dropped.get_den();
  return mpq_class(plan.lattice_noise() * survivors);
}

void write_event(const mechanisms::FederatedPlan& plan, FederatedReport& report) {
  const char* law = plan.skellam() ? "skellam" : "distributed-discrete-gaussian";
  if (laws::find_law(law) == nullptr) {
    report.no_event_reason = std::string("the ") + law + " law is not in this build";
    return;
  }
  FederatedEvent e;
  e.law = law;
  e.noise = parameter_text(plan.skellam() ? survivors_mu(plan) : plan.lattice_noise());
  e.clients = plan.spec().clients;
  e.dropout = parameter_text(plan.spec().dropout);
  e.sensitivity = report.sensitivity;
  e.dim = plan.padded_dimension();
  report.event = event_text(e);
  report.event_fields = std::move(e);
}

}  // namespace

std::string event_text(const FederatedEvent& e) {
  const std::string tail = ",sensitivity=" + e.sensitivity + ",dim=" + std::to_string(e.dim);
  if (e.law == "skellam") return "skellam:mu=" + e.noise + tail;
  return e.law + ":sigma2=" + e.noise + ",clients=" + std::to_string(e.clients) + ",dropout=" + e.dropout + tail;
}

FederatedReport plan_federated(const FederatedRequest& request) {
  const mechanisms::FederatedSpec spec = spec_of(request);
  auto plan = std::make_shared<const mechanisms::FederatedPlan>(mechanisms::FederatedPlan::make(spec));
  // d <= 2^20 = 4^10 pads to at most 2^20 coordinates.
  if (plan->skellam() && spec.dimension > kMaxSkellamPaddedDimension && plan->lattice_noise() > poisson_table_max_mu()) {
    throw LimitError("dimension", "dimension = " + std::to_string(spec.dimension) +
                                      " is over the skellam limit: allowed dimension <= 1048576 with noise = skellam "
                                      "when the lattice's mu (mu / g^2) is above 10^7 (each coordinate's share then "
                                      "costs about 1.5 microseconds); up to 10^7, dimension <= 2^24 as with "
                                      "discrete-gaussian noise");
  }
  FederatedReport report;
  report.norm_bound = plan->norm_bound().get_str();
  report.sensitivity = root_upper(plan->norm_bound());
  report.retry_probability = decimal_upper(plan->retry_probability().upper(), kDigits);
  report.wrap_probability = decimal_upper(plan->wrap_probability().upper(), kDigits);
  const mpq_class tau = plan->sampler().hardened() ? plan->sampler().tau_upper() : mpq_class(0);
  const Interval charge(mpq_class(tau * mpz_class(static_cast<unsigned long>(spec.clients)) * plan->padded_dimension()), 128);
  report.hardened_tau = decimal_upper(charge.upper(), kDigits);
  report.plan = std::move(plan);
  write_event(*report.plan, report);
  return report;
}

Interval hardened_run_delta(const FederatedReport& report, const std::string& epsilon, const std::string& delta,
                            const std::string& rounds) {
  const mpq_class eps = parse_rational("epsilon", epsilon);
  if (eps < 0 || eps > 1'000'000) throw ParameterError::out_of_range("epsilon", abbreviate(epsilon), "0 <= epsilon <= 10^6");
  const mpq_class d = parse_rational("delta", delta);
  if (d < 0 || d > 1) throw ParameterError::out_of_range("delta", abbreviate(delta), "0 <= delta <= 1");
  const unsigned long long r = checked_count("rounds", rounds, 1, 1'000'000'000ULL);
  const mechanisms::FederatedPlan& plan = *report.plan;
  const mpq_class tau = plan.sampler().hardened() ? plan.sampler().tau_upper() : mpq_class(0);
  const mpz_class draws = mpz_class(static_cast<unsigned long>(r)) * static_cast<unsigned long>(plan.spec().clients) *
                          static_cast<unsigned long>(plan.padded_dimension());
  return accounting::hardened_delta(Interval(d, 128), eps, mpq_class(tau * draws));
}

}  // namespace exactdp::operations
