#include <exactdp/laws/discrete_gaussian/discrete_gaussian_law.h>

#include <exactdp/laws/internal/params_sampler.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>

namespace exactdp::laws {
namespace {

struct Ops {
  using Params = DiscreteGaussianParams;
  using Hardened = HardenedDiscreteGaussianParams;
  static void draw(BitSource& bits, const Params& p, mpz_class& out) { sample_discrete_gaussian(bits, p, out); }
  static std::int64_t draw_hardened(BitSource& bits, const Hardened& p) noexcept {
    return sample_discrete_gaussian(bits, p);
  }
};

class DiscreteGaussian final : public Law {
 public:
  DiscreteGaussian()
      : Law("discrete-gaussian", "exact discrete Gaussian, P[x] ~ exp(-(x - mean)^2 / (2 sigma2))",
            {{"sigma2", ValueKind::kRational, Role::kNoise, std::nullopt, "sigma2 > 0", "the variance parameter"},
             {"mean", ValueKind::kInteger, Role::kSampling, "0", "any integer", "the centre"},
             {"sensitivity", ValueKind::kInteger, Role::kPrivacy, "1", "sensitivity >= 1",
              "the integer query's sensitivity"}},
            Capability::kSample | Capability::kHardened | Capability::kAudit | Capability::kProfile |
                Capability::kEvent | Capability::kSubsample | Capability::kTiming) {}

  std::unique_ptr<Sampler> make_sampler(const LawParameters& p, const std::optional<Hardening>& h) const override {
    const std::string text = internal::sampler_description(name(), p);
    if (h) {
      auto params = HardenedDiscreteGaussianParams::make(p.rational("sigma2"), p.integer("mean"), *h);
      const unsigned bits = params.tau_bits();
      return std::make_unique<internal::HardenedSampler<Ops>>(std::move(params), text + internal::hardened_suffix(bits));
    }
    return std::make_unique<internal::ParamsSampler<Ops>>(
        DiscreteGaussianParams::make(p.rational("sigma2"), p.integer("mean")), text);
  }

  std::unique_ptr<verification::ReferenceLaw> reference_law(const LawParameters& p) const override {
    return std::make_unique<verification::DiscreteGaussianLaw>(p.rational("sigma2"), p.integer("mean"));
  }

  std::optional<TimingUnit> timing_unit(const LawParameters& p) const override {
    return TimingUnit{p.rational("sigma2"), "sqrt(sigma2) = sqrt(" + abbreviate(to_string(p.rational("sigma2"))) + ")"};
  }

  accounting::PrivacyEvent privacy_event(const LawParameters& p) const override {
    return accounting::PrivacyEvent::discrete_gaussian(p.rational("sigma2"), p.integer("sensitivity"));
  }
};

}  // namespace

const Law& discrete_gaussian_law() {
  static const DiscreteGaussian law;
  return law;
}

}  // namespace exactdp::laws
