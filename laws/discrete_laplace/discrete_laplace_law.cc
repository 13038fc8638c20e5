#include <exactdp/laws/discrete_laplace/discrete_laplace_law.h>

#include <exactdp/laws/internal/params_sampler.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>

namespace exactdp::laws {
namespace {

struct Ops {
  using Params = DiscreteLaplaceParams;
  using Hardened = HardenedDiscreteLaplaceParams;
  static void draw(BitSource& bits, const Params& p, mpz_class& out) { sample_discrete_laplace(bits, p, out); }
  static std::int64_t draw_hardened(BitSource& bits, const Hardened& p) noexcept {
    return sample_discrete_laplace(bits, p);
  }
};

class DiscreteLaplace final : public Law {
 public:
  DiscreteLaplace()
      : Law("discrete-laplace", "exact discrete Laplace, P[x] ~ exp(-|x - mean| / scale)",
            {{"scale", ValueKind::kRational, Role::kNoise, std::nullopt, "scale > 0", "the scale t"},
             {"mean", ValueKind::kInteger, Role::kSampling, "0", "any integer", "the centre"},
             {"sensitivity", ValueKind::kInteger, Role::kPrivacy, "1", "sensitivity >= 1",
              "the integer query's sensitivity"}},
            Capability::kSample | Capability::kHardened | Capability::kAudit | Capability::kProfile |
                Capability::kEvent | Capability::kSubsample | Capability::kTiming) {}

  std::unique_ptr<Sampler> make_sampler(const LawParameters& p, const std::optional<Hardening>& h) const override {
    const std::string text = internal::sampler_description(name(), p);
    if (h) {
      auto params = HardenedDiscreteLaplaceParams::make(p.rational("scale"), p.integer("mean"), *h);
      const unsigned bits = params.tau_bits();
      return std::make_unique<internal::HardenedSampler<Ops>>(std::move(params), text + internal::hardened_suffix(bits));
    }
    return std::make_unique<internal::ParamsSampler<Ops>>(
        DiscreteLaplaceParams::make(p.rational("scale"), p.integer("mean")), text);
  }

  std::unique_ptr<verification::ReferenceLaw> reference_law(const LawParameters& p) const override {
    return std::make_unique<verification::DiscreteLaplaceLaw>(p.rational("scale"), p.integer("mean"));
  }

  std::optional<TimingUnit> timing_unit(const LawParameters& p) const override {
    return TimingUnit{p.rational("scale") * p.rational("scale"), "scale = " + abbreviate(to_string(p.rational("scale")))};
  }

  accounting::PrivacyEvent privacy_event(const LawParameters& p) const override {
    return accounting::PrivacyEvent::discrete_laplace(p.rational("scale"), p.integer("sensitivity"));
  }
};

}  // namespace

const Law& discrete_laplace_law() {
  static const DiscreteLaplace law;
  return law;
}

}  // namespace exactdp::laws
