#include "cli/sampler_spec.h"

#include <exactdp/operations/sample.h>

namespace exactdp::cli {

std::vector<OptionSpec> law_option_specs() {
  std::vector<OptionSpec> out;
  for (const laws::Law* law : laws::all_laws()) {
    if (!law->supports(laws::Capability::kSample)) continue;
    for (const auto& p : law->parameters()) {
      if (p.role == laws::Role::kPrivacy) continue;
      bool known = false;
      for (const auto& s : out) known = known || s.name == "--" + p.name;
      if (!known) out.push_back({"--" + p.name, true});
    }
  }
  out.push_back({"--hardened", false});
  out.push_back({"--tau-bits", true});
  return out;
}

std::vector<std::pair<std::string, std::string>> sampler_parameters(const ParsedArgs& args) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& spec : law_option_specs()) {
    if (!args.has(spec.name) || spec.name == "--hardened" || spec.name == "--tau-bits") continue;
    out.emplace_back(parameter_name(spec.name), args.require(spec.name));
  }
  return out;
}

SamplerSpec parse_sampler_spec(const std::string& name, const ParsedArgs& args) {
  operations::SampleRequest request;
  request.law = name;
  request.parameters = sampler_parameters(args);
  request.hardened = args.has("--hardened");
  request.tau_bits = args.get("--tau-bits");
  operations::SamplePlan plan = operations::plan_sample(request);
  return {plan.law, std::move(plan.params), std::move(plan.sampler)};
}

}  // namespace exactdp::cli
