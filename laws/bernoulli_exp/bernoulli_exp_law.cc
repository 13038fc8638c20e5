#include <exactdp/laws/bernoulli_exp/bernoulli_exp_law.h>

#include <array>

#include <exactdp/laws/internal/params_sampler.h>
#include <exactdp/samplers/bernoulli_exp.h>

namespace exactdp::laws {
namespace {

class BernoulliExpSampler final : public Sampler {
 public:
  BernoulliExpSampler(BernoulliExpParams params, std::string description)
      : Sampler(std::move(description)), params_(std::move(params)) {}
  void sample(BitSource& bits, mpz_class& out) const override { out = sample_bernoulli_exp(bits, params_) ? 1 : 0; }
  std::size_t sample_int64(BitSource& bits, std::int64_t* out, std::size_t n) const override {
    for (std::size_t i = 0; i < n; ++i) out[i] = sample_bernoulli_exp(bits, params_) ? 1 : 0;
    return n;
  }
  void sample_wide(BitSource& bits, std::int64_t* out, std::size_t n, std::vector<WideValue>& /*wide*/) const override {
    (void)sample_int64(bits, out, n);
  }

 private:
  BernoulliExpParams params_;
};

// CPU nanoseconds a draw by audit and sample (the most of them, x1.25, rounded up;
// bench/draw_cost_bench.py): a huge gamma ends at the first of its exp(-1) coins that fails, so
// gamma = 10^10000 takes 0.12 us and 10^100000 1.8 us.
constexpr std::array<DrawCostPoint, 5> kDrawCosts{
    {{10, 75}, {100, 100}, {1000, 120}, {10'000, 160}, {100'000, 2'300}}};

class BernoulliExp final : public Law {
 public:
  BernoulliExp()
      : Law("bernoulli-exp", "Bernoulli(exp(-gamma)): 1 with probability exp(-gamma), else 0",
            {{"gamma", ValueKind::kRational, Role::kNoise, std::nullopt, "gamma >= 0", "the exponent"}},
            Capability::kSample | Capability::kAudit) {}

  std::unique_ptr<Sampler> make_sampler(const LawParameters& p, const std::optional<Hardening>& h) const override {
    if (h) unsupported("hardened sampler");
    return std::make_unique<BernoulliExpSampler>(BernoulliExpParams::make(p.rational("gamma")),
                                                 internal::sampler_description(name(), p));
  }

  std::unique_ptr<verification::ReferenceLaw> reference_law(const LawParameters& p) const override {
    return std::make_unique<verification::BernoulliExpLaw>(p.rational("gamma"));
  }

  std::span<const DrawCostPoint> draw_costs() const override { return kDrawCosts; }
};

}  // namespace

const Law& bernoulli_exp_law() {
  static const BernoulliExp law;
  return law;
}

}  // namespace exactdp::laws
