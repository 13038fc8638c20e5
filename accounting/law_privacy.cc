#include <exactdp/accounting/law_privacy.h>

#include <stdexcept>

#include <exactdp/core/errors.h>

namespace exactdp::accounting {

Interval LawPrivacy::delta_at(const mpq_class& /*epsilon*/, mpfr_prec_t /*precision*/) const {
  throw std::logic_error("LawPrivacy::delta_at: no profile for " + describe());
}

Certified LawPrivacy::delta(const mpq_class& epsilon, const ZivOptions& options) const {
  return evaluate_to_tolerance([&](mpfr_prec_t p) { return delta_at(epsilon, p); }, options);
}

std::string LawPrivacy::describe_subsampled(const std::string& q) const {
  return "poisson(" + describe() + ", q=" + q + ")";
}

Interval LawPrivacy::subsampled_rdp(const mpq_class& /*q*/, const mpq_class& /*alpha*/, mpfr_prec_t /*precision*/) const {
  throw std::logic_error("LawPrivacy::subsampled_rdp: not available for " + describe());
}

std::vector<LawAtom> LawPrivacy::base_atoms(mpfr_prec_t /*precision*/) const {
  throw ParameterError("route", "route: the pld route does not apply to " + describe() +
                                    ": its law states no atoms (use another route)");
}

}  // namespace exactdp::accounting
