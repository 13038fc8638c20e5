#include <exactdp/verification/privacy_audit.h>

#include <stdexcept>

#include <exactdp/core/rational.h>
#include <exactdp/verification/p_values.h>
#include <exactdp/core/errors.h>

namespace exactdp::verification {
namespace {

unsigned long long total(const CountMap& m) {
  unsigned long long n = 0;
  for (const auto& [v, c] : m) n += c;
  return n;
}

unsigned long long at_least(const CountMap& m, const mpz_class& c) {
  unsigned long long k = 0;
  for (auto it = m.lower_bound(c); it != m.end(); ++it) k += it->second;
  return k;
}

}  // namespace

PrivacyAuditResult audit_threshold_events(const CountMap& samples0, const CountMap& samples1,
                                          const std::vector<mpz_class>& thresholds, const mpq_class& delta,
                                          const mpq_class& confidence, const mpq_class& claimed_epsilon) {
  if (thresholds.empty()) throw ParameterError::out_of_range("thresholds", "none", "at least one threshold (audit_threshold_events)");
  if (delta < 0 || delta >= 1) throw ParameterError::out_of_range("delta", to_string(delta), "0 <= delta < 1");
  if (confidence <= 0 || confidence >= 1) throw ParameterError::out_of_range("confidence", to_string(confidence), "0 < confidence < 1");
  PrivacyAuditResult out;
  out.n0 = total(samples0);
  out.n1 = total(samples1);
  if (out.n0 == 0 || out.n1 == 0) throw ParameterError::out_of_range("samples", std::to_string(out.n0) + " and " + std::to_string(out.n1), "at least 1 sample in each (audit_threshold_events)");
  mpfr_set_inf(out.epsilon_lower.lower(), -1);
  mpfr_set_inf(out.epsilon_lower.upper(), -1);
  mpq_class beta = (1 - confidence) / mpq_class(4 * static_cast<long>(thresholds.size()));
  beta.canonicalize();
  exactdp::Real l(kPrecision), u(kPrecision), e(kPrecision), d(kPrecision);
  mpfr_set_q(d.get(), delta.get_mpq_t(), MPFR_RNDU);  // subtracting an upper bound of delta: safe side
  for (const mpz_class& c : thresholds) {
    const unsigned long long k0 = at_least(samples0, c), k1 = at_least(samples1, c);
    struct Event {
      unsigned long long ka, na, kb, nb;
      std::string text;
    };
    const std::string cs = to_string(c);
    const Event events[4] = {
        {k1, out.n1, k0, out.n0, "P[M(Delta) >= " + cs + "] vs P[M(0) >= " + cs + "]"},
        {k0, out.n0, k1, out.n1, "P[M(0) >= " + cs + "] vs P[M(Delta) >= " + cs + "]"},
        {out.n1 - k1, out.n1, out.n0 - k0, out.n0, "P[M(Delta) < " + cs + "] vs P[M(0) < " + cs + "]"},
        {out.n0 - k0, out.n0, out.n1 - k1, out.n1, "P[M(0) < " + cs + "] vs P[M(Delta) < " + cs + "]"},
    };
    for (const Event& ev : events) {
      // L <= P[M(a) in S], U >= P[M(b) in S], each at level 1 - beta.
      clopper_pearson_lower(l.get(), ev.na, ev.ka, beta);
      clopper_pearson_upper(u.get(), ev.nb, ev.kb, beta);
      mpfr_sub(l.get(), l.get(), d.get(), MPFR_RNDD);
      if (mpfr_sgn(l.get()) <= 0 || mpfr_sgn(u.get()) <= 0) continue;
      mpfr_div(e.get(), l.get(), u.get(), MPFR_RNDD);
      mpfr_log(e.get(), e.get(), MPFR_RNDD);
      if (mpfr_cmp(e.get(), out.epsilon_lower.lower()) > 0) {
        mpfr_set(out.epsilon_lower.lower(), e.get(), MPFR_RNDD);
        mpfr_set(out.epsilon_lower.upper(), e.get(), MPFR_RNDU);
        out.witness = ev.text + " (" + std::to_string(ev.ka) + "/" + std::to_string(ev.na) + " vs " +
                      std::to_string(ev.kb) + "/" + std::to_string(ev.nb) + ")";
      }
    }
  }
  out.violation = mpfr_cmp_q(out.epsilon_lower.lower(), claimed_epsilon.get_mpq_t()) > 0;
  return out;
}

}  // namespace exactdp::verification
