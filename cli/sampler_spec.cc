#include "cli/sampler_spec.h"

#include "samplers/rational.h"

namespace exactdp::cli {

const std::vector<std::string>& law_names() {
  static const std::vector<std::string> names = {"discrete-gaussian", "discrete-laplace", "bernoulli-exp"};
  return names;
}

std::vector<OptionSpec> law_option_specs() {
  return {{"--sigma2", true}, {"--scale", true}, {"--gamma", true}, {"--mean", true}};
}

namespace {
void forbid(const ParsedArgs& args, const std::string& law, const std::vector<std::string>& options) {
  for (const auto& o : options) {
    if (args.has(o)) throw UsageError("option " + o + " does not apply to " + law);
  }
}
}  // namespace

SamplerSpec parse_sampler_spec(const std::string& law, const ParsedArgs& args) {
  const mpz_class mean = args.integer("--mean").value_or(mpz_class(0));
  if (law == "discrete-gaussian") {
    forbid(args, law, {"--scale", "--gamma"});
    return {Law::kDiscreteGaussian, DiscreteGaussianParams::make(args.require_rational("--sigma2"), mean)};
  }
  if (law == "discrete-laplace") {
    forbid(args, law, {"--sigma2", "--gamma"});
    return {Law::kDiscreteLaplace, DiscreteLaplaceParams::make(args.require_rational("--scale"), mean)};
  }
  if (law == "bernoulli-exp") {
    forbid(args, law, {"--sigma2", "--scale", "--mean"});
    return {Law::kBernoulliExp, BernoulliExpParams::make(args.require_rational("--gamma"))};
  }
  std::string known;
  for (const auto& n : law_names()) known += (known.empty() ? "" : ", ") + n;
  throw UsageError("unknown law '" + abbreviate(law) + "': allowed " + known);
}

void SamplerSpec::draw(BitSource& bits, mpz_class& out) const {
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

std::string SamplerSpec::describe() const {
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
