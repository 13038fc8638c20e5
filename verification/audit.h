// audit.h — the whole goodness-of-fit audit of a sample against a ReferenceLaw: the entry point of
// `exactdp audit` and of the statistical tests in tests/.
//
// Usage:
//   DiscreteGaussianLaw law(mpq_class(9, 4), 0);
//   SampleCounter counter = make_audit_counter(law);
//   for (...) counter.add(x);                       // streaming, bounded memory
//   AuditReport report = run_audit(law, counter, mpq_class(1, 1'000'000));
//   report.passed ...
//
// Tests run (goodness_of_fit.h): for the discrete Gaussian and Laplace, Pearson chi-square,
// G-test, KS/DKW, exact binomial tests of P[|X - c| > 2 s] and P[|X - c| > 3 s] (s = spread,
// about one standard deviation) and of P[X - c even], mean and variance z-tests; for Bernoulli(exp(-gamma)), the exact
// binomial test of P[X = 1], the support check, chi-square and G-test. Combined by Holm-Bonferroni
// at overall level alpha: a correct sampler fails with probability at most about alpha.
// Requires n >= 1 (std::invalid_argument otherwise).
//
// Precision: the tests are computed at the law's working precision (256 bits by default); while
// some test's certified p-value straddles its threshold (verification::undecided), the whole
// report is recomputed at twice the precision, up to kMaxAuditPrecision bits (a Ziv loop on the
// verdicts). The report returned is certified either way.
#pragma once

#include <gmpxx.h>

#include <string>
#include <vector>

#include <exactdp/verification/goodness_of_fit.h>
#include <exactdp/verification/reference_law.h>
#include <exactdp/verification/sample_counter.h>

namespace exactdp::verification {

inline constexpr mpfr_prec_t kMaxAuditPrecision = 4096;  // bits

struct AuditReport {
  std::string law;
  unsigned long long n = 0;
  mpq_class alpha;
  std::vector<TestResult> tests;
  bool passed = true;
};

// The tail thresholds T an audit counts (|x - c| > T): 2 and 3 spreads for the symmetric laws.
[[nodiscard]] std::vector<mpz_class> audit_thresholds(const ReferenceLaw& law);
[[nodiscard]] SampleCounter make_audit_counter(const ReferenceLaw& law);
[[nodiscard]] AuditReport run_audit(const ReferenceLaw& law, const SampleCounter& counter,
                                    const mpq_class& alpha);

}  // namespace exactdp::verification
