// privacy_audit.h — empirical privacy audit: a statistical LOWER bound on the epsilon of a
// mechanism M from samples of M(0) and M(Delta) (neighbouring inputs), for a given delta.
//
// If M is (epsilon, delta)-DP then for every event S, P[M(a) in S] <= e^epsilon P[M(b) in S] + delta
// for (a, b) = (0, Delta) and (Delta, 0). For the threshold events S_c = {y >= c} and their
// complements {y < c} (c from a list fixed BEFORE looking at the data), the audit takes a
// Clopper-Pearson lower confidence bound L on P[M(a) in S] and an upper bound U on P[M(b) in S]
// and reports
//     epsilon_lower = max over events and directions of ln((L - delta) / U)   (when L > delta).
// Every Clopper-Pearson bound is taken at level 1 - beta with beta = (1 - confidence) / (4 |c|)
// (4 bounds per threshold), so with probability >= confidence ALL of them hold at once, and then
// the true epsilon of M is >= epsilon_lower. Verdict "violation" when epsilon_lower exceeds the
// claimed epsilon: with probability >= confidence, M is not (claimed epsilon, delta)-DP.
//
// Outputs are integers: the caller maps a mechanism's output to an integer feature first (the
// identity for integer mechanisms; for floating-point mechanisms, e.g., "is this output a value
// the noise alone can produce", which turns Mironov's 2012 attack into a threshold event).
// The bound is one-sided: a "no violation" verdict is not a proof of privacy.
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <map>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp::verification {

using CountMap = std::map<mpz_class, unsigned long long>;

struct PrivacyAuditResult {
  Interval epsilon_lower{kPrecision};  // lower end: the certified-at-confidence lower bound (-inf: none)
  bool violation = false;  // epsilon_lower > claimed epsilon
  std::string witness;     // the event and direction that gave epsilon_lower
  unsigned long long n0 = 0, n1 = 0;
};

// samples0: outputs of M(0); samples1: outputs of M(Delta). delta in [0, 1), confidence in (0, 1),
// thresholds non-empty. Throws std::invalid_argument otherwise.
[[nodiscard]] PrivacyAuditResult audit_threshold_events(const CountMap& samples0, const CountMap& samples1,
                                                        const std::vector<mpz_class>& thresholds,
                                                        const mpq_class& delta, const mpq_class& confidence,
                                                        const mpq_class& claimed_epsilon);

}  // namespace exactdp::verification
