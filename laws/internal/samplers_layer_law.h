// internal/samplers_layer_law.h — SamplersLayerLaw<Ops>: the registry law of a symmetric integer
// noise whose samplers live in the samplers layer (discrete Gaussian, discrete Laplace). One noise
// parameter (Ops::kNoise), an integer mean (sampling only) and an integer sensitivity (privacy
// only); every capability. Ops supplies the law's own pieces:
//   Params, Hardened                         the samplers' parameter types (make(value, mean[, h]))
//   draw(bits, params, out), draw_hardened   one draw (params_sampler.h); draw_hardened_n a batch
//   reference(value, mean)                   the audit's exact law
//   event(value, sensitivity)                the accounting event
//   timing(value)                            audit-timing's class unit
//   calibrate, check_calibration             the calibration map (noise_calibration.h)
//   kReleaseRoute                            release's composition route (law.h ReleaseRoute)
//   kDrawCosts                               the measured cost of a draw (law.h Law::draw_costs)
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>

#include <exactdp/laws/internal/params_sampler.h>
#include <exactdp/laws/law.h>

namespace exactdp::laws::internal {

template <class Ops>
class SamplersLayerLaw final : public Law {
 public:
  SamplersLayerLaw(std::string name, std::string summary, std::string range, std::string help)
      : Law(std::move(name), std::move(summary),
            {{Ops::kNoise, ValueKind::kRational, Role::kNoise, std::nullopt, std::move(range), std::move(help)},
             {"mean", ValueKind::kInteger, Role::kSampling, "0", "any integer", "the centre"},
             {"sensitivity", ValueKind::kInteger, Role::kPrivacy, "1", "sensitivity >= 1",
              "the integer query's sensitivity"}},
            Capability::kSample | Capability::kHardened | Capability::kAudit | Capability::kProfile |
                Capability::kEvent | Capability::kSubsample | Capability::kTiming | Capability::kCalibrate) {}

  std::unique_ptr<Sampler> make_sampler(const LawParameters& p, const std::optional<Hardening>& h) const override {
    const std::string text = sampler_description(name(), p);
    if (h) {
      auto params = Ops::Hardened::make(p.rational(Ops::kNoise), p.integer("mean"), *h);
      const unsigned bits = params.tau_bits();
      return std::make_unique<HardenedSampler<Ops>>(std::move(params), text + hardened_suffix(bits));
    }
    return std::make_unique<ParamsSampler<Ops>>(Ops::Params::make(p.rational(Ops::kNoise), p.integer("mean")), text);
  }

  std::unique_ptr<verification::ReferenceLaw> reference_law(const LawParameters& p) const override {
    return Ops::reference(p.rational(Ops::kNoise), p.integer("mean"));
  }

  accounting::PrivacyEvent privacy_event(const LawParameters& p) const override {
    return Ops::event(p.rational(Ops::kNoise), p.integer("sensitivity"));
  }

  ReleaseRoute release_route() const override { return Ops::kReleaseRoute; }

  std::span<const DrawCostPoint> draw_costs() const override { return Ops::kDrawCosts; }

  std::optional<TimingUnit> timing_unit(const LawParameters& p) const override {
    return Ops::timing(p.rational(Ops::kNoise));
  }

  NoiseCalibration calibrate(const CalibrationTarget& t, const LawParameters& p) const override {
    return Ops::calibrate(t, p.rational("sensitivity"));
  }

  void check_calibration(const CalibrationTarget& t, const LawParameters& p) const override {
    Ops::check_calibration(t, p.rational("sensitivity"));
  }
};

}  // namespace exactdp::laws::internal
