// sampler.cc — Sampler of the C++ facade (<exactdp/sampler.h>): a registry law's laws::Sampler,
// made by the call the C interface's exactdp_sampler_new makes (internal/law_calls.h).
#include <exactdp/sampler.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/hardening.h>

namespace exactdp {

struct Sampler::State : internal::LawSampler {};

Sampler::Sampler(std::shared_ptr<const State> state) : state_(std::move(state)) {}

Sampler Sampler::make(std::string_view law, const LawArguments& arguments, const SamplerOptions& options) {
  std::optional<Hardening> hardening;
  if (options.hardened) {
    hardening.emplace();
    hardening->tau_bits = options.tau_bits;  // range-checked by the law's sampler, naming tau_bits
  }
  auto state = std::make_shared<State>();
  static_cast<internal::LawSampler&>(*state) = internal::make_law_sampler(law, arguments, hardening);
  return Sampler(std::move(state));
}

mpz_class Sampler::draw(Bits& bits) const {
  mpz_class v;
  state_->sampler->sample(bits.source(), v);
  return v;
}

void Sampler::draw(Bits& bits, std::span<std::int64_t> out) const {
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
