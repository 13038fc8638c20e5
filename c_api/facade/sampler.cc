// sampler.cc — Sampler of the C++ facade (<exactdp/sampler.h>): a registry law's laws::Sampler,
// made by the operation `sample` (operations/sample.h) as the command line, Python and the C
// interface's exactdp_sampler_new make theirs: the same checks in the same order, the same limits.
#include <exactdp/sampler.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/operations/draw_cost.h>
#include <exactdp/operations/sample.h>
#include <exactdp/operations/spelling.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp {

struct Sampler::State : internal::LawSampler {};

Sampler::Sampler(std::shared_ptr<const State> state) : state_(std::move(state)) {}

namespace {
// How the facade's messages name what the caller got wrong: SamplerOptions' fields.
const operations::Spelling kFacadeSpelling{"", "parameter", "", false, " (SamplerOptions::hardened)"};
}  // namespace

Sampler Sampler::make(std::string_view law, const LawArguments& arguments, const SamplerOptions& options) {
  operations::SampleRequest request;
  request.law = std::string(law);
  request.parameters.assign(arguments.begin(), arguments.end());
  request.hardened = options.hardened;
  if (options.hardened) request.tau_bits = std::to_string(options.tau_bits);
  request.spelling = kFacadeSpelling;
  operations::SamplePlan plan = operations::plan_sample(request);
  auto state = std::make_shared<State>();
  state->law = plan.law;
  state->parameters = std::move(plan.params);
  state->sampler = std::move(plan.sampler);
  return Sampler(std::move(state));
}

mpz_class Sampler::draw(Bits& bits) const {
  mpz_class v;
  state_->sampler->sample(bits.source(), v);
  return v;
}

void Sampler::draw(Bits& bits, std::span<std::int64_t> out) const {
  // A law whose sample is several draws is charged out.size() of them first, as `sample -n` is.
  operations::check_sample_cost(*state_->law, state_->parameters, out.size(), "out", true);
  const laws::Sampler& s = *state_->sampler;
  if (s.hardened()) {  // a plain loop over the isochronous draw: no branch on a value
    for (std::int64_t& x : out) x = s.sample_isochronous(bits.source());
    return;
  }
  const std::size_t made = s.sample_int64(bits.source(), out.data(), out.size());
  if (made < out.size()) {
    throw std::out_of_range("out: draw " + std::to_string(made) +
                            " does not fit in int64 (draw(bits) returns a value of any size)");
  }
}

bool Sampler::hardened() const noexcept { return state_->sampler->hardened(); }
const mpq_class& Sampler::tau_upper() const { return state_->sampler->tau_upper(); }
std::uint64_t Sampler::bits_per_sample() const { return state_->sampler->bits_per_sample(); }
const std::string& Sampler::law() const noexcept { return state_->law->name(); }
const std::string& Sampler::describe() const noexcept { return state_->sampler->describe(); }

}  // namespace exactdp
