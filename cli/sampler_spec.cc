#include "cli/sampler_spec.h"

#include <exactdp/samplers/rational.h>

namespace exactdp::cli {

const std::vector<std::string>& law_names() {
  static const std::vector<std::string> names = {"discrete-gaussian", "discrete-laplace", "bernoulli-exp"};
  return names;
}

std::vector<OptionSpec> law_option_specs() {
  return {{"--sigma2", true}, {"--scale", true},   {"--gamma", true},
          {"--mean", true},   {"--hardened", false}, {"--tau-bits", true}};
}

namespace {
void forbid(const ParsedArgs& args, const std::string& law, const std::vector<std::string>& options) {
  for (const auto& o : options) {
    if (args.has(o)) throw UsageError("option " + o + " does not apply to " + law);
  }
}
Hardening hardening_of(const ParsedArgs& args) {
  if (!args.has("--hardened")) {
    if (args.has("--tau-bits")) throw UsageError("--tau-bits applies only with --hardened");
    return {};
  }
  Hardening h;
  if (args.has("--tau-bits")) {
    h.tau_bits = static_cast<unsigned>(*args.count("--tau-bits", kMinTauBits, kMaxTauBits));
  }
  return h;
}
}  // namespace

SamplerSpec parse_sampler_spec(const std::string& law, const ParsedArgs& args) {
  const mpz_class mean = args.integer("--mean").value_or(mpz_class(0));
  const Hardening hardening = hardening_of(args);
  const bool hardened = args.has("--hardened");
  if (law == "discrete-gaussian") {
    forbid(args, law, {"--scale", "--gamma"});
    const mpq_class sigma2 = args.require_rational("--sigma2");
    SamplerSpec spec{Law::kDiscreteGaussian, DiscreteGaussianParams::make(sigma2, mean), {}};
    if (hardened) spec.hardened = HardenedDiscreteGaussianParams::make(sigma2, mean, hardening);
    return spec;
  }
  if (law == "discrete-laplace") {
    forbid(args, law, {"--sigma2", "--gamma"});
    const mpq_class scale = args.require_rational("--scale");
    SamplerSpec spec{Law::kDiscreteLaplace, DiscreteLaplaceParams::make(scale, mean), {}};
    if (hardened) spec.hardened = HardenedDiscreteLaplaceParams::make(scale, mean, hardening);
    return spec;
  }
  if (law == "bernoulli-exp") {
    forbid(args, law, {"--sigma2", "--scale", "--mean"});
    if (hardened) {
      throw UsageError("--hardened applies to discrete-gaussian and discrete-laplace, not bernoulli-exp");
    }
    return {Law::kBernoulliExp, BernoulliExpParams::make(args.require_rational("--gamma")), {}};
  }
  std::string known;
  for (const auto& n : law_names()) known += (known.empty() ? "" : ", ") + n;
  throw UsageError("unknown law '" + abbreviate(law) + "': allowed " + known);
}

void SamplerSpec::draw(BitSource& bits, mpz_class& out) const {
  if (is_hardened()) {
    const std::int64_t v = draw_hardened(bits);
    mpz_set_si(out.get_mpz_t(), static_cast<long>(v));
    return;
  }
  switch (law) {
    case Law::kDiscreteGaussian:
      sample_discrete_gaussian(bits, std::get<DiscreteGaussianParams>(params), out);
      return;
    case Law::kDiscreteLaplace:
      sample_discrete_laplace(bits, std::get<DiscreteLaplaceParams>(params), out);
      return;
    case Law::kBernoulliExp:
      out = sample_bernoulli_exp(bits, std::get<BernoulliExpParams>(params)) ? 1 : 0;
      return;
  }
}

std::int64_t SamplerSpec::draw_hardened(BitSource& bits) const noexcept {
  if (const auto* g = std::get_if<HardenedDiscreteGaussianParams>(&hardened)) {
    return sample_discrete_gaussian(bits, *g);
  }
  return sample_discrete_laplace(bits, *std::get_if<HardenedDiscreteLaplaceParams>(&hardened));
}

const mpq_class& SamplerSpec::tau_upper() const {
  if (const auto* g = std::get_if<HardenedDiscreteGaussianParams>(&hardened)) return g->tau_upper();
  return std::get<HardenedDiscreteLaplaceParams>(hardened).tau_upper();
}

std::uint64_t SamplerSpec::hardened_bits_per_sample() const {
  if (const auto* g = std::get_if<HardenedDiscreteGaussianParams>(&hardened)) return g->bits_per_sample();
  return std::get<HardenedDiscreteLaplaceParams>(hardened).bits_per_sample();
}

std::string SamplerSpec::describe() const {
  if (is_hardened()) {
    const unsigned tau_bits = std::holds_alternative<HardenedDiscreteGaussianParams>(hardened)
                                  ? std::get<HardenedDiscreteGaussianParams>(hardened).tau_bits()
                                  : std::get<HardenedDiscreteLaplaceParams>(hardened).tau_bits();
    return describe_exact() + " hardened tau_bits=" + std::to_string(tau_bits);
  }
  return describe_exact();
}

std::string SamplerSpec::describe_exact() const {
  switch (law) {
    case Law::kDiscreteGaussian: {
      const auto& p = std::get<DiscreteGaussianParams>(params);
      return "discrete-gaussian sigma2=" + to_string(p.sigma2()) + " mean=" + to_string(p.mean());
    }
    case Law::kDiscreteLaplace: {
      const auto& p = std::get<DiscreteLaplaceParams>(params);
      return "discrete-laplace scale=" + to_string(p.scale()) + " mean=" + to_string(p.mean());
    }
    case Law::kBernoulliExp:
      return "bernoulli-exp gamma=" + to_string(std::get<BernoulliExpParams>(params).gamma());
  }
  return "";
}

}  // namespace exactdp::cli
