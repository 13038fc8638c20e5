#include <exactdp/laws/staircase/staircase_law.h>

#include <array>

#include <exactdp/laws/internal/params_sampler.h>
#include <exactdp/laws/staircase/staircase_privacy.h>
#include <exactdp/laws/staircase/staircase_reference.h>
#include <exactdp/laws/staircase/staircase_sampler.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

class StaircaseLawSampler final : public Sampler {
 public:
  StaircaseLawSampler(const StaircaseShape& shape, const mpz_class& mean, std::string description)
      : Sampler(std::move(description)), sampler_(shape, mean) {}
  void sample(BitSource& bits, mpz_class& out) const override { sampler_.sample(bits, out); }

 private:
  StaircaseSampler sampler_;
};

const mpz_class kMaxMean = mpz_class(1) << 62;
// CPU nanoseconds a draw by audit, audit-timing and sample (the most of them, x1.25, rounded up;
// bench/draw_cost_bench.py; gamma = 10^-10 and 10^-100). gamma's numerator and denominator stay
// below 2^512, so the parameters never reach draw_cost.h's 1,000 digits.
constexpr std::array<DrawCostPoint, 2> kDrawCosts{{{10, 720}, {100, 1'500}}};

class Staircase final : public Law {
 public:
  Staircase()
      : Law("staircase", "discrete staircase (Geng-Viswanath): optimal gamma-DP noise for integer queries",
            {{"gamma", ValueKind::kRational, Role::kNoise, std::nullopt, "0 < gamma <= 10^4",
              "privacy level: the law is gamma-DP at the sensitivity"},
             {"sensitivity", ValueKind::kInteger, Role::kNoise, std::nullopt, "1 <= sensitivity <= 10^9",
              "the integer query's sensitivity D"},
             {"r", ValueKind::kInteger, Role::kNoise, "", "1 <= r <= sensitivity",
              "first-step width (default: the r minimising E|noise|)"},
             {"mean", ValueKind::kInteger, Role::kSampling, "0", "|mean| < 2^62", "the centre"}},
            Capability::kSample | Capability::kAudit | Capability::kProfile | Capability::kEvent |
                Capability::kSubsample | Capability::kTiming) {}

  std::unique_ptr<Sampler> make_sampler(const LawParameters& p, const std::optional<Hardening>& h) const override {
    if (h) unsupported("hardened sampler");
    return std::make_unique<StaircaseLawSampler>(shape(p), p.integer("mean"), internal::sampler_description(name(), p));
  }

  std::unique_ptr<verification::ReferenceLaw> reference_law(const LawParameters& p) const override {
    return std::make_unique<StaircaseReferenceLaw>(shape(p), p.integer("mean"));
  }

  std::span<const DrawCostPoint> draw_costs() const override { return kDrawCosts; }

  std::optional<TimingUnit> timing_unit(const LawParameters& p) const override {
    const mpq_class d(p.integer("sensitivity"));
    return TimingUnit{d * d, "sensitivity = " + abbreviate(to_string(d))};
  }

  accounting::PrivacyEvent privacy_event(const LawParameters& p) const override {
    return accounting::PrivacyEvent::of_law(std::make_shared<StaircasePrivacy>(shape(p)));
  }

 protected:
  // Checks the ranges and fills in the default r (so that every interface reports it).
  void validate(LawParameters& p, Use /*use*/) const override {
    if (p.has("r") && p.integer("r") < 1) {
      throw ParameterError::out_of_range("r", abbreviate(to_string(p.integer("r"))), "1 <= r <= sensitivity");
    }
    if (p.has("mean") && abs(p.integer("mean")) >= kMaxMean) {
      throw ParameterError::out_of_range("mean", abbreviate(to_string(p.integer("mean"))), "|mean| < 2^62");
    }
    const StaircaseShape s =
        StaircaseShape::make(p.rational("gamma"), p.integer("sensitivity"), p.has("r") ? p.integer("r") : mpz_class(0));
    if (!p.has("r")) p.set("r", mpq_class(s.r()), false);
  }

 private:
  static StaircaseShape shape(const LawParameters& p) {
    return StaircaseShape::make(p.rational("gamma"), p.integer("sensitivity"), p.integer("r"));
  }
};

}  // namespace

const Law& staircase_law() {
  static const Staircase law;
  return law;
}

}  // namespace exactdp::laws
