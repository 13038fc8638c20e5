#include <exactdp/operations/audit.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/operations/draw_cost.h>
#include <exactdp/verification/sample_reader.h>

namespace exactdp::operations {

AuditPlan plan_audit(const AuditRequest& request) {
  AuditPlan plan;
  plan.sample = plan_sample({request.law, request.parameters, request.hardened, request.tau_bits, request.spelling});
  plan.reference = plan.sample.law->reference_law(plan.sample.params);
  if (request.alpha) {
    const mpq_class a = parse_rational("alpha", *request.alpha);
    if (a <= 0 || a >= 1) throw ParameterError::out_of_range("alpha", abbreviate(to_string(a)), "0 < alpha < 1");
    plan.alpha = a;
  }
  if (request.samples) {
    plan.draws = checked_count("samples", *request.samples, 1, verification::kMaxSampleCount);
    // The reference law and report are charged with the draws (draw_cost.h).
    const double digits = parameter_digits(plan.sample.params);
    check_sample_cost(*plan.sample.law, plan.sample.params, plan.draws, "samples", false,
                      estimated_audit_reference_seconds(digits));
  }
  return plan;
}

verification::SampleCounter audit_counter(const AuditPlan& plan) { return verification::make_audit_counter(*plan.reference); }

void draw_audit_samples(const AuditPlan& plan, BitSource& bits, verification::SampleCounter& counter,
                        const std::function<void(unsigned long long)>& on_draw) {
  mpz_class value;
  for (unsigned long long i = 0; i < plan.draws; ++i) {
    plan.sample.sampler->sample(bits, value);
    counter.add(value);
    if (on_draw) on_draw(i + 1);
  }
}

verification::AuditReport run_audit(const AuditPlan& plan, const verification::SampleCounter& counter) {
  if (counter.n() == 0) throw ParameterError::out_of_range("samples", "0 samples", "at least one sample");
  return verification::run_audit(*plan.reference, counter, plan.alpha);
}

}  // namespace exactdp::operations
