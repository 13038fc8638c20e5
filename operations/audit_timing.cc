#include <exactdp/operations/audit_timing.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include <exactdp/core/errors.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/operations/draw_cost.h>
#include <exactdp/operations/law_names.h>

namespace exactdp::operations {
namespace {

using verification::OutputClass;
using verification::TimedSampler;

// The plain sampler: GMP output; its class computed after the clock stopped.
class PlainTimed final : public TimedSampler {
 public:
  PlainTimed(const laws::Sampler& sampler, mpz_class mean, const mpq_class& sigma_squared)
      : sampler_(sampler), mean_(std::move(mean)), classes_(sigma_squared) {}
  void draw(BitSource& bits) override { sampler_.sample(bits, value_); }
  [[nodiscard]] OutputClass last_class() const override {
    mpz_sub(scratch_.get_mpz_t(), value_.get_mpz_t(), mean_.get_mpz_t());
    return classes_.of(scratch_);
  }

 private:
  const laws::Sampler& sampler_;
  mpz_class mean_;
  verification::SigmaClasses classes_;
  mpz_class value_;
  mutable mpz_class scratch_;
};

// The hardened sampler: exactly the isochronous call, int64 out (no GMP on the timed path).
class HardenedTimed final : public TimedSampler {
 public:
  HardenedTimed(const laws::Sampler& sampler, std::int64_t mean, const mpq_class& sigma_squared)
      : sampler_(sampler), mean_(mean), classes_(sigma_squared) {}
  void draw(BitSource& bits) override { value_ = sampler_.sample_isochronous(bits); }
  [[nodiscard]] OutputClass last_class() const override {
    // |mean| <= 2^62 and |noise| < 2^61 (hardening.h): the difference fits in int64.
    return classes_.of(value_ - mean_);
  }

 private:
  const laws::Sampler& sampler_;
  std::int64_t mean_;
  verification::SigmaClasses classes_;
  std::int64_t value_ = 0;
};

[[noreturn]] void refuse_law(const std::string& name) {
  throw laws::UnsupportedError("law", "audit-timing applies to " + timing_law_list() + ", not " + name);
}

}  // namespace

std::string timing_law_list() { return law_names_and(laws::Capability::kTiming); }

AuditTimingPlan plan_audit_timing(const AuditTimingRequest& request) {
  const laws::Law* timed = laws::find_law(request.law);
  if (timed != nullptr && !timed->supports(laws::Capability::kTiming)) refuse_law(timed->name());
  AuditTimingPlan plan;
  plan.sample = plan_sample({request.law, request.parameters, request.hardened, request.tau_bits, request.spelling});
  if (request.calls) {
    plan.options.calls =
        checked_count("calls", *request.calls, verification::kMinTimingCalls, verification::kMaxTimingCalls);
  }
  plan.warmup = std::min(plan.options.calls, verification::kTimingWarmupCalls);
  check_draw_cost(*plan.sample.law, plan.sample.params, plan.options.calls + plan.warmup, "calls",
                  "calls = " + std::to_string(plan.options.calls) + " (plus " + std::to_string(plan.warmup) +
                      " warm-up calls)");
  const std::optional<laws::TimingUnit> unit = plan.sample.law->timing_unit(plan.sample.params);
  if (!unit) refuse_law(plan.sample.law->name());
  plan.unit = *unit;
  plan.mean = plan.sample.params.integer("mean");
  return plan;
}

verification::TimingAuditReport run_audit_timing(const AuditTimingPlan& plan, BitSource& bits) {
  const laws::Sampler& sampler = *plan.sample.sampler;
  std::unique_ptr<TimedSampler> timed;
  if (sampler.hardened()) {
    timed = std::make_unique<HardenedTimed>(sampler, plan.mean.get_si(), plan.unit.square);  // |mean| <= 2^62
  } else {
    timed = std::make_unique<PlainTimed>(sampler, plan.mean, plan.unit.square);
  }
  return verification::run_timing_audit(*timed, bits, plan.options);
}

}  // namespace exactdp::operations
