// sampler_spec.h — "<law> --param R ... [--mean INT] [--hardened [--tau-bits B]]" on the command
// line, shared by `exactdp sample`, `exactdp audit` and `exactdp audit-timing`: the options read
// into an operations::SampleRequest, whose plan (operations/sample.h) is the law from the
// registry, its validated parameters and its sampler (the hardened one when --hardened is given;
// never a fallback). The options are the registry's parameter names with "--" in front.
#pragma once

#include <gmpxx.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/args.h"
#include <exactdp/laws/registry.h>

namespace exactdp::cli {

struct SamplerSpec {
  const laws::Law* law = nullptr;
  laws::LawParameters params;                    // noise and sampling parameters
  std::shared_ptr<const laws::Sampler> sampler;  // hardened when --hardened was given

  [[nodiscard]] bool is_hardened() const noexcept { return sampler->hardened(); }
  // One draw into out (0/1 for bernoulli-exp); the hardened sampler's when is_hardened().
  void draw(BitSource& bits, mpz_class& out) const { sampler->sample(bits, out); }
  // One isochronous draw; requires is_hardened().
  [[nodiscard]] std::int64_t draw_hardened(BitSource& bits) const { return sampler->sample_isochronous(bits); }
  // The hardened sampler's certified TV bound and fixed bits per draw; require is_hardened().
  [[nodiscard]] const mpq_class& tau_upper() const { return sampler->tau_upper(); }
  [[nodiscard]] std::uint64_t hardened_bits_per_sample() const { return sampler->bits_per_sample(); }
  // "discrete-gaussian sigma2=9/4 mean=0" style description (" hardened tau_bits=64" appended).
  [[nodiscard]] const std::string& describe() const { return sampler->describe(); }
};

// Option specs of every samplable law's parameters, --hardened and --tau-bits, to merge into a
// command's specs.
[[nodiscard]] std::vector<OptionSpec> law_option_specs();

// The law parameters given as options (every option of law_option_specs but --hardened and
// --tau-bits), as (name, text) in the specs' order: a SampleRequest's or an AuditRequest's.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> sampler_parameters(const ParsedArgs& args);

// Builds the spec from a law name and parsed options by operations::plan_sample: ParameterError
// for an unknown law, a law without a sampler, a missing option or one that does not belong to
// the law, and for bad values (before any randomness is drawn), including a parameter outside the
// hardened range with --hardened.
[[nodiscard]] SamplerSpec parse_sampler_spec(const std::string& law, const ParsedArgs& args);

}  // namespace exactdp::cli
