#include <exactdp/operations/sample.h>

#include <set>
#include <string_view>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/operations/draw_cost.h>
#include <exactdp/operations/law_names.h>
#include <exactdp/operations/mechanisms.h>
#include <exactdp/samplers/hardening.h>

namespace exactdp::operations {
namespace {

using laws::Capability;
using laws::Law;

bool accepted_for_sampling(const laws::ParameterSpec& p) { return p.role != laws::Role::kPrivacy; }

const Law& sampled_law(const SampleRequest& r) {
  const Law* law = laws::find_law(r.law);
  if (law == nullptr || !law->supports(Capability::kSample)) {
    throw laws::UnsupportedError("law", "unknown law '" + abbreviate(r.law) + "'" +
                                            (law == nullptr ? "" : " here: it has no sampler") + ": allowed " +
                                            laws::law_names_with(Capability::kSample));
  }
  return *law;
}

// nullopt without hardened (tau_bits is then refused); the hardening with tau_bits otherwise.
std::optional<Hardening> hardening_of(const SampleRequest& r) {
  const Spelling& s = r.spelling;
  if (!r.hardened) {
    if (r.tau_bits) throw ParameterError("tau_bits", s.name("tau_bits") + " applies only with " + s.flag("hardened"));
    return std::nullopt;
  }
  Hardening h;
  if (r.tau_bits) h.tau_bits = checked_tau_bits(*r.tau_bits, s);
  return h;
}

// The parameters given, in the law's schema order; ParameterError for a name given twice, one that
// is not a noise or sampling parameter of the law, or a required one left out.
std::vector<std::pair<std::string, std::string>> given_parameters(const Law& law, const SampleRequest& r) {
  std::set<std::string_view> seen;  // a list from C or C++ may repeat a name by mistake
  for (const auto& [name, text] : r.parameters) {
    if (!seen.insert(name).second) throw ParameterError(name, abbreviate(name) + " is given twice");
    bool own = false;
    for (const auto& p : law.parameters()) own = own || (accepted_for_sampling(p) && p.name == name);
    if (!own) {
      throw ParameterError(name, r.spelling.noun + " " + r.spelling.name(name) + " does not apply to " + law.name());
    }
  }
  std::vector<std::pair<std::string, std::string>> given;
  for (const auto& p : law.parameters()) {
    if (!accepted_for_sampling(p)) continue;
    bool found = false;
    for (const auto& [name, text] : r.parameters) {
      if (name == p.name && !found) given.emplace_back(name, text), found = true;
    }
    if (!found && !p.fallback) throw ParameterError(p.name, r.spelling.missing(p.name));
  }
  return given;
}

}  // namespace

SamplePlan plan_sample(const SampleRequest& request) {
  const Law& law = sampled_law(request);
  const std::optional<Hardening> hardening = hardening_of(request);
  const auto given = given_parameters(law, request);
  if (hardening && !law.supports(Capability::kHardened)) {
    throw laws::UnsupportedError("hardened", request.spelling.flag("hardened") + " applies to " +
                                                 law_names_and(Capability::kHardened) + ", not " + law.name());
  }
  SamplePlan plan;
  plan.law = &law;
  plan.params = law.parse(given, laws::Use::kSample);
  plan.sampler = law.make_sampler(plan.params, hardening);
  return plan;
}

unsigned long long checked_sample_count(const std::string& parameter, const std::string& text) {
  return checked_count(parameter, text, 0, kMaxSamples);
}

unsigned long long checked_sample_count(const laws::Law& law, const laws::LawParameters& params,
                                        const std::string& parameter, const std::string& text) {
  const unsigned long long n = checked_sample_count(parameter, text);
  check_sample_cost(law, params, n, parameter, true);
  return n;
}

}  // namespace exactdp::operations
