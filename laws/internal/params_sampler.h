// internal/params_sampler.h — laws::Sampler adapters over the samplers layer's parameter objects,
// shared by the laws whose samplers live in samplers/ (discrete Gaussian, discrete Laplace):
//   ParamsSampler<Ops>    the exact sampler: Ops::draw(bits, params, out) for one draw, and the
//                         samplers' own batch calls sample_n / sample_n_wide (same values and
//                         bits as single draws, without their per-call overhead);
//   HardenedSampler<Ops>  the isochronous sampler: Ops::draw_hardened(bits, params) noexcept for
//                         one draw, Ops::draw_hardened_n(bits, params, out, n) noexcept for a
//                         batch (the values and bits of n single draws).
// Ops names the law's types and draw functions (see discrete_gaussian_law.cc).
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/laws/law.h>

namespace exactdp::laws::internal {

template <class Ops>
class ParamsSampler final : public Sampler {
 public:
  ParamsSampler(typename Ops::Params params, std::string description)
      : Sampler(std::move(description)), params_(std::move(params)) {}
  void sample(BitSource& bits, mpz_class& out) const override { Ops::draw(bits, params_, out); }
  std::size_t sample_int64(BitSource& bits, std::int64_t* out, std::size_t n) const override {
    return sample_n(bits, params_, out, n);
  }
  void sample_wide(BitSource& bits, std::int64_t* out, std::size_t n, std::vector<WideValue>& wide) const override {
    sample_n_wide(bits, params_, out, n, wide);
  }

 private:
  typename Ops::Params params_;
};

template <class Ops>
class HardenedSampler final : public Sampler {
 public:
  HardenedSampler(typename Ops::Hardened params, std::string description)
      : Sampler(std::move(description)), params_(std::move(params)) {}
  void sample(BitSource& bits, mpz_class& out) const override {
    mpz_set_si(out.get_mpz_t(), static_cast<long>(Ops::draw_hardened(bits, params_)));
  }
  // The noexcept isochronous batch: no branch on a value, no range check.
  std::size_t sample_int64(BitSource& bits, std::int64_t* out, std::size_t n) const override {
    Ops::draw_hardened_n(bits, params_, out, n);
    return n;
  }
  void sample_wide(BitSource& bits, std::int64_t* out, std::size_t n, std::vector<WideValue>& /*wide*/) const override {
    (void)sample_int64(bits, out, n);  // |value| < 2^62: always int64
  }
  [[nodiscard]] bool hardened() const noexcept override { return true; }
  [[nodiscard]] std::int64_t sample_isochronous(BitSource& bits) const override {
    return Ops::draw_hardened(bits, params_);
  }
  [[nodiscard]] const mpq_class& tau_upper() const override { return params_.tau_upper(); }
  [[nodiscard]] unsigned tau_bits() const override { return params_.tau_bits(); }
  [[nodiscard]] std::uint64_t bits_per_sample() const override { return params_.bits_per_sample(); }

 private:
  typename Ops::Hardened params_;
};

// "NAME k=v k=v" (the sampler's description), " hardened tau_bits=B" appended by the caller.
inline std::string sampler_description(const std::string& law, const LawParameters& p) {
  return law + " " + p.describe();
}
inline std::string hardened_suffix(unsigned tau_bits) { return " hardened tau_bits=" + std::to_string(tau_bits); }

}  // namespace exactdp::laws::internal
