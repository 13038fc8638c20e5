#include <exactdp/operations/law_delta.h>

#include <gmpxx.h>

#include <exactdp/accounting/hardened_charge.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/profile.h>

namespace exactdp::operations {
namespace {

mpq_class checked_tau(const std::string& text) {
  const mpq_class tau = parse_rational("tau", text);
  if (sgn(tau) < 0 || tau > 1) throw ParameterError::out_of_range("tau", abbreviate(text), "0 <= tau <= 1");
  return tau;
}

}  // namespace

LawDeltaReport law_delta(const LawDeltaRequest& request) {
  const ProfileRequest profile{request.law, request.parameters, false, std::nullopt, request.tolerance,
                               request.spelling};
  const ProfilePlan plan = plan_profile(profile);
  const accounting::ZivOptions options = profile_options(profile);
  const mpq_class epsilon = checked_epsilon(request.epsilon);
  const std::optional<mpq_class> tau = request.tau ? std::optional(checked_tau(*request.tau)) : std::nullopt;
  const accounting::Certified c = plan.mechanism.delta(epsilon, options);
  if (!tau) return {c.value, c.tolerance_met};
  return {accounting::hardened_delta(c.value, epsilon, *tau), c.tolerance_met};
}

}  // namespace exactdp::operations
