// profile.cc — the operation `profile` through the C++ facade (<exactdp/profile.h>): the public
// request into an operations::ProfileRequest (operations/profile.h, shared with `exactdp profile`
// and exactdp.profile), the plan's certified delta at each epsilon into the public report.
#include <exactdp/profile.h>

#include <string>
#include <vector>

#include <exactdp/accounting/ziv.h>
#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/operations/profile.h>

namespace exactdp {

ProfileReport profile(const ProfileRequest& request) {
  const internal::MpfrCacheRelease release;
  const operations::ProfileRequest r{request.law, request.parameters, request.hardened, request.tau_bits,
                                     request.tolerance, internal::kFacadeSpelling};
  const operations::MechanismSpec mechanism = operations::plan_profile(r).mechanism;
  const accounting::ZivOptions options = operations::profile_options(r);
  const std::vector<mpq_class> epsilons = operations::checked_epsilons(mechanism, request.epsilons);
  ProfileReport report{mechanism.name, {}, mechanism.hardened_tau, {}};
  for (const auto& p : mechanism.parameters) {
    if (p.first != "tau_bits") report.parameters.push_back(p);  // the request's, not the law's
  }
  for (const mpq_class& e : epsilons) {
    const accounting::Certified c = mechanism.delta(e, options);
    report.rows.push_back({e, c.value, c.tolerance_met});
  }
  return report;
}

}  // namespace exactdp
