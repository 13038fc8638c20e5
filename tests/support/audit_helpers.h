// audit_helpers.h — run the verification audit on any sampler (tests only).
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <string>

#include <exactdp/core/decimal.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/verification/audit.h>

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
    out += "  " + t.name + " " + t.statistic_name + "=" + exactdp::to_decimal_string(t.statistic, 5) +
           " p=" + exactdp::to_decimal_string(t.p_value, 3) + " thr=" + t.threshold.get_str() + (t.rejected ? " REJECTED" : "") + (t.applicable ? "" : " (n/a)") + "\n";
  }
  return out;
}

}  // namespace exactdp::test_support

namespace exactdp::test_support {

// The Pearson chi-square test alone (bins with expected count >= 5, pooled tails) of n draws
// against law: the check of the samplers' statistical tests.
template <class Draw>
verification::TestResult chi_square_check(const verification::ReferenceLaw& law, Draw&& draw, unsigned long long n,
                                          const Seed& seed) {
  SeededBits bits(seed);
  verification::SampleCounter counter(law, {});
  for (unsigned long long i = 0; i < n; ++i) counter.add(draw(bits));
  const auto cells = verification::make_cells(law, counter);
  const auto bins = verification::merge_cells(cells, n, verification::default_min_expected(n));
  return verification::pearson_chi_square(bins, n);
}

// True when the p-value's upper bound is below alpha (the test rejects).
inline bool rejects(const verification::TestResult& t, const mpq_class& alpha) {
  return t.applicable && mpfr_cmp_q(t.p_value.upper(), alpha.get_mpq_t()) < 0;
}

// The failure message of a rejection: "what: detail, p <= P < alpha = ALPHA" (P the p-value's
// upper bound, 6 digits; alpha_text the test's alpha as written, e.g. "1e-6").
inline std::string rejection_message(const std::string& what, const verification::TestResult& t,
                                     const char* alpha_text) {
  return what + ": " + t.detail + ", p <= " + exactdp::decimal_upper(t.p_value.upper(), 6) + " < alpha = " + alpha_text;
}

}  // namespace exactdp::test_support
