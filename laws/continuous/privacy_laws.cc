#include <exactdp/laws/continuous/privacy_laws.h>

#include <functional>

#include <exactdp/laws/continuous/gaussian_privacy.h>
#include <exactdp/laws/continuous/guarantee_privacy.h>
#include <exactdp/laws/continuous/laplace_privacy.h>

namespace exactdp::laws {
namespace {

using accounting::PrivacyEvent;
using EventOf = std::function<PrivacyEvent(const LawParameters&)>;

// A calibration map of noise_calibration.h and its checks (both null: the law has none).
struct CalibrationOf {
  NoiseCalibration (*calibrate)(const CalibrationTarget&, const mpq_class&) = nullptr;
  void (*check)(const CalibrationTarget&, const mpq_class&) = nullptr;
};

// A law with privacy maps only: its event is one of the accounting layer's closed forms.
class PrivacyOnlyLaw final : public Law {
 public:
  PrivacyOnlyLaw(std::string name, std::string summary, std::vector<ParameterSpec> parameters, unsigned capabilities,
                 EventOf event, CalibrationOf calibration = {})
      : Law(std::move(name), std::move(summary), std::move(parameters),
            calibration.calibrate != nullptr ? capabilities | Capability::kCalibrate : capabilities),
        event_(std::move(event)), calibration_(calibration) {}
  PrivacyEvent privacy_event(const LawParameters& p) const override { return event_(p); }
  NoiseCalibration calibrate(const CalibrationTarget& t, const LawParameters& p) const override {
    if (calibration_.calibrate == nullptr) return Law::calibrate(t, p);
    return calibration_.calibrate(t, p.rational("sensitivity"));
  }
  void check_calibration(const CalibrationTarget& t, const LawParameters& p) const override {
    if (calibration_.check == nullptr) return Law::check_calibration(t, p);
    calibration_.check(t, p.rational("sensitivity"));
  }

 private:
  EventOf event_;
  CalibrationOf calibration_;
};

ParameterSpec real_sensitivity() {
  return {"sensitivity", ValueKind::kRational, Role::kPrivacy, "1", "sensitivity > 0", "the query's sensitivity"};
}
ParameterSpec positive(const char* name, const char* help) {
  return {name, ValueKind::kRational, Role::kNoise, std::nullopt, std::string(name) + " > 0", help};
}

constexpr unsigned kNoiseEvents = Capability::kProfile | Capability::kEvent | Capability::kSubsample;

}  // namespace

const Law& gaussian_law() {
  static const PrivacyOnlyLaw law("gaussian", "continuous Gaussian N(0, sigma^2) noise (accounting only)",
                                  {positive("sigma", "the standard deviation"), real_sensitivity()}, kNoiseEvents,
                                  [](const LawParameters& p) {
                                    return gaussian_event(p.rational("sigma"), p.rational("sensitivity"));
                                  },
                                  {&calibration::gaussian, &calibration::check_gaussian});
  return law;
}

const Law& laplace_law() {
  static const PrivacyOnlyLaw law("laplace", "continuous Laplace(scale) noise (accounting only)",
                                  {positive("scale", "the scale b"), real_sensitivity()}, kNoiseEvents,
                                  [](const LawParameters& p) {
                                    return laplace_event(p.rational("scale"), p.rational("sensitivity"));
                                  },
                                  {&calibration::laplace_scale, &calibration::check_laplace});
  return law;
}

const Law& gdp_law() {
  static const PrivacyOnlyLaw law("gdp", "a mu-GDP mechanism (accounting only)", {positive("mu", "mu")},
                                  Capability::kProfile | Capability::kEvent,
                                  [](const LawParameters& p) { return gdp_event(p.rational("mu")); });
  return law;
}

const Law& pure_dp_law() {
  static const PrivacyOnlyLaw law("pure-dp", "an epsilon-DP mechanism (accounting only)",
                                  {{"epsilon", ValueKind::kRational, Role::kNoise, std::nullopt, "epsilon >= 0", "epsilon"}},
                                  static_cast<unsigned>(Capability::kEvent),
                                  [](const LawParameters& p) { return pure_dp_event(p.rational("epsilon")); });
  return law;
}

const Law& zcdp_law() {
  static const PrivacyOnlyLaw law("zcdp", "a rho-zCDP mechanism (accounting only)", {positive("rho", "rho")},
                                  static_cast<unsigned>(Capability::kEvent),
                                  [](const LawParameters& p) { return zcdp_event(p.rational("rho")); });
  return law;
}

}  // namespace exactdp::laws
