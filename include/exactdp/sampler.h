// sampler.h — Sampler, the samplers of the C++ facade: any law of the library's registry
// (<exactdp/laws.h> lists them: the discrete Gaussian and Laplace, Bernoulli(exp(-gamma)), the
// discrete staircase, ...) made by name, its parameters by name as exact decimal text, drawn
// exactly with a Bits. Installed; part of the source-compatibility promise (docs/ABI.md).
//
//   exactdp::Bits bits = exactdp::Bits::system();
//   const auto s = exactdp::Sampler::make("discrete-gaussian", {{"sigma2", "9/4"}});
//   mpz_class noise = s.draw(bits);
//
// Parameters are validated once, when the sampler is made: ParameterError naming the parameter
// (or "law") with the allowed range, LimitError over a resource limit (SECURITY.md, "Limits").
// A Sampler is immutable and may be shared between threads (each with its own Bits); copies
// share one state.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <exactdp/bits.h>

namespace exactdp {

// A law's parameters by name, values as exact decimal text ("9/4", "0.1", "1e-5", "-7"):
// {{"sigma2", "9/4"}, {"mean", "3"}}. Parameters left out take the law's default.
using LawArguments = std::vector<std::pair<std::string, std::string>>;

struct SamplerOptions {
  // The isochronous (timing-hardened) sampler (docs/HARDENED.md): every draw runs the same
  // instructions and reads the same bits, and its law is within total variation 2^-tau_bits of
  // the exact law. Only laws with a hardened sampler (the discrete Gaussian and Laplace).
  bool hardened = false;
  unsigned tau_bits = 64;  // hardened only: 40..128
};

class Sampler {
 public:
  // ParameterError naming "law" for an unknown law or one without the sampler asked for.
  [[nodiscard]] static Sampler make(std::string_view law, const LawArguments& arguments,
                                    const SamplerOptions& options = {});

  // One draw, of any size.
  [[nodiscard]] mpz_class draw(Bits& bits) const;
  // out.size() draws, the values and bits of that many draw() calls; std::out_of_range when a
  // value does not fit in int64 (that draw is spent, the ones after it not made). A law whose
  // sample is several draws (the distributed discrete Gaussian: one per surviving client) is
  // charged out.size() samples first, as `exactdp sample -n` is: LimitError naming "out" over the
  // cost limit (SECURITY.md, "Limits"), before any draw.
  void draw(Bits& bits, std::span<std::int64_t> out) const;

  [[nodiscard]] bool hardened() const noexcept;
  // A hardened sampler's certified bound on its total-variation distance to the exact law, and
  // the bits each draw reads (std::logic_error for a plain sampler).
  [[nodiscard]] const mpq_class& tau_upper() const;
  [[nodiscard]] std::uint64_t bits_per_sample() const;
  // The law's registry name, and "discrete-gaussian sigma2=9/4 mean=0" (" hardened tau_bits=64").
  [[nodiscard]] const std::string& law() const noexcept;
  [[nodiscard]] const std::string& describe() const noexcept;

 private:
  struct State;
  explicit Sampler(std::shared_ptr<const State> state);
  std::shared_ptr<const State> state_;
};

}  // namespace exactdp
