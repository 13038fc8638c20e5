// sampler_spec.h — "<law> --param R [--mean INT] [--hardened [--tau-bits B]]" on the command
// line, shared by `exactdp sample`, `exactdp audit` and `exactdp audit-timing`: which law, its
// validated parameters, and one draw (from the hardened sampler when --hardened is given).
#pragma once

#include <gmpxx.h>

#include <string>
#include <variant>
#include <vector>

#include "cli/args.h"
#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>

namespace exactdp::cli {

enum class Law { kDiscreteGaussian, kDiscreteLaplace, kBernoulliExp };

struct SamplerSpec {
  Law law;
  // The exact law (what an audit compares with, hardened or not).
  std::variant<DiscreteGaussianParams, DiscreteLaplaceParams, BernoulliExpParams> params;
  // With --hardened: the isochronous sampler every draw comes from (never a fallback).
  std::variant<std::monostate, HardenedDiscreteGaussianParams, HardenedDiscreteLaplaceParams> hardened;

  [[nodiscard]] bool is_hardened() const noexcept { return hardened.index() != 0; }
  // One draw into out (0/1 for bernoulli-exp); the hardened sampler's when is_hardened().
  void draw(BitSource& bits, mpz_class& out) const;
  // One isochronous draw; requires is_hardened().
  [[nodiscard]] std::int64_t draw_hardened(BitSource& bits) const noexcept;
  // The hardened sampler's certified TV bound and fixed bits per draw; require is_hardened().
  [[nodiscard]] const mpq_class& tau_upper() const;
  [[nodiscard]] std::uint64_t hardened_bits_per_sample() const;
  // "discrete-gaussian sigma2=9/4 mean=0" style description (" hardened tau_bits=64" appended).
  [[nodiscard]] std::string describe() const;

 private:
  [[nodiscard]] std::string describe_exact() const;
};

// The law names, in help order: "discrete-gaussian", "discrete-laplace", "bernoulli-exp".
[[nodiscard]] const std::vector<std::string>& law_names();

// Option specs the laws use (--sigma2, --scale, --gamma, --mean, --hardened, --tau-bits), to merge
// into a command's specs.
[[nodiscard]] std::vector<OptionSpec> law_option_specs();

// Builds the spec from a law name and parsed options; UsageError for an unknown law or an option
// that does not belong to it, ParameterError for bad values (before any randomness is drawn),
// including a parameter outside the hardened range with --hardened.
[[nodiscard]] SamplerSpec parse_sampler_spec(const std::string& law, const ParsedArgs& args);

}  // namespace exactdp::cli
