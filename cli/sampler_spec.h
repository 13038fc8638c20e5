// sampler_spec.h — "<law> --param R [--mean INT]" on the command line, shared by
// `exactdp sample` and `exactdp audit`: which law, its validated parameters, and one draw.
#pragma once

#include <gmpxx.h>

#include <string>
#include <variant>
#include <vector>

#include "cli/args.h"
#include "samplers/bernoulli_exp.h"
#include "samplers/bit_source.h"
#include "samplers/discrete_gaussian.h"
#include "samplers/discrete_laplace.h"

namespace exactdp::cli {

enum class Law { kDiscreteGaussian, kDiscreteLaplace, kBernoulliExp };

struct SamplerSpec {
  Law law;
  std::variant<DiscreteGaussianParams, DiscreteLaplaceParams, BernoulliExpParams> params;

  // One draw into out (0/1 for bernoulli-exp).
  void draw(BitSource& bits, mpz_class& out) const;
  // "discrete-gaussian sigma2=9/4 mean=0" style description.
  [[nodiscard]] std::string describe() const;
};

// The law names, in help order: "discrete-gaussian", "discrete-laplace", "bernoulli-exp".
[[nodiscard]] const std::vector<std::string>& law_names();

// Option specs the laws use (--sigma2, --scale, --gamma, --mean), to merge into a command's specs.
[[nodiscard]] std::vector<OptionSpec> law_option_specs();

// Builds the spec from a law name and parsed options; UsageError for an unknown law or an option
// that does not belong to it, ParameterError for bad values (before any randomness is drawn).
[[nodiscard]] SamplerSpec parse_sampler_spec(const std::string& law, const ParsedArgs& args);

}  // namespace exactdp::cli
