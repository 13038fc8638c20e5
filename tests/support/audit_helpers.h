// audit_helpers.h — run the verification audit on any sampler (tests only).
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <string>

#include "samplers/seeded_bits.h"
#include "verification/audit.h"

namespace exactdp::test_support {

// Draws n samples from draw(bits) (an int64 or mpz_class) under the given seed and audits them.
template <class Draw>
verification::AuditReport audit_sampler(const verification::ReferenceLaw& law, Draw&& draw, unsigned long long n,
                                        const Seed& seed, const mpq_class& alpha = mpq_class(1, 1'000'000)) {
  SeededBits bits(seed);
  verification::SampleCounter counter = verification::make_audit_counter(law);
  for (unsigned long long i = 0; i < n; ++i) counter.add(draw(bits));
  return verification::run_audit(law, counter, alpha);
}

// One line per test: "name statistic p=[lo, hi] threshold rejected".
inline std::string summary(const verification::AuditReport& r) {
  std::string out = r.law + " n=" + std::to_string(r.n) + (r.passed ? " PASS\n" : " FAIL\n");
  for (const auto& t : r.tests) {
    out += "  " + t.name + " " + t.statistic_name + "=[" + t.statistic.lower_text(5) + ", " +
           t.statistic.upper_text(5) + "] p=[" + t.p_value.lower_text(3) + ", " + t.p_value.upper_text(3) +
           "] thr=" + t.threshold.get_str() + (t.rejected ? " REJECTED" : "") + (t.applicable ? "" : " (n/a)") + "\n";
  }
  return out;
}

}  // namespace exactdp::test_support
