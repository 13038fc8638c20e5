// sample.h — the operation `sample`: exact draws of a registry law (laws/registry.h), plain or
// hardened (docs/DESIGN.md, "Operations"). The command line (cli/cmd_sample.cc, and `audit` and
// `audit-timing` through cli/sampler_spec.h) and Python (python/src/sampling.cc) build a
// SampleRequest and draw from the SamplePlan; every check and limit is here, run before any bit
// is drawn, and no law is ever treated as another or falls back to another sampler.
//
// Example:
//   SampleRequest r{.law = "discrete-gaussian", .parameters = {{"sigma2", "9/4"}}};
//   const SamplePlan plan = plan_sample(r);
//   const unsigned long long n = checked_sample_count("n", "1000");   // 0..10^10
//   for (unsigned long long i = 0; i < n; ++i) plan.sampler->sample(bits, value);
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/laws/registry.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

// The most draws one request may ask for (SECURITY.md, "Limits").
inline constexpr unsigned long long kMaxSamples = 10'000'000'000ULL;

struct SampleRequest {
  std::string law{};  // its one spelling: "discrete-gaussian"
  // The law's noise and sampling parameters as given, (name, exact text), in the face's order.
  std::vector<std::pair<std::string, std::string>> parameters{};
  bool hardened = false;                // the isochronous sampler (samplers/hardening.h)
  std::optional<std::string> tau_bits{};  // integer text, 40..128; only with hardened
  Spelling spelling = kCommandLineSpelling;
};

// The validated law, its parameters and its ready sampler (hardened when asked).
struct SamplePlan {
  const laws::Law* law = nullptr;
  laws::LawParameters params;
  std::shared_ptr<const laws::Sampler> sampler;
};

// Checks, in this order: the law (a registry law with a sampler; UnsupportedError naming "law"),
// tau_bits (only with hardened, 40..128), each parameter (one of the law's noise or sampling
// parameters; every required one given), hardened (a law with a hardened sampler), then the
// values (Law::parse, ParameterError naming the parameter) and the hardened range (the law's
// sampler); builds the sampler.
[[nodiscard]] SamplePlan plan_sample(const SampleRequest& request);

// The number of draws from its integer text, 0 <= count <= kMaxSamples, else ParameterError
// naming `parameter` (the command line's n, Python's size).
[[nodiscard]] unsigned long long checked_sample_count(const std::string& parameter, const std::string& text);
// The same for draws of a law at validated parameters, also refused (LimitError naming
// `parameter`) when a sample is several draws (Law::draws_per_sample) and the count's draws are
// over the cost limit (operations/draw_cost.h: check_sample_cost).
[[nodiscard]] unsigned long long checked_sample_count(const laws::Law& law, const laws::LawParameters& params,
                                                      const std::string& parameter, const std::string& text);

}  // namespace exactdp::operations
