#include <exactdp/verification/audit.h>

#include <stdexcept>

#include <exactdp/core/errors.h>

namespace exactdp::verification {

std::vector<mpz_class> audit_thresholds(const ReferenceLaw& law) {
  if (law.has_bounded_support()) return {};
  const mpz_class s = law.spread();
  return {mpz_class(2 * s), mpz_class(3 * s)};
}

SampleCounter make_audit_counter(const ReferenceLaw& law) { return SampleCounter(law, audit_thresholds(law)); }

namespace {

// The report at the law's working precision.
AuditReport audit_at(const ReferenceLaw& law, const SampleCounter& counter, const mpq_class& alpha) {
  AuditReport report;
  report.law = law.describe();
  report.n = counter.n();
  report.alpha = alpha;
  const std::vector<Cell> cells = make_cells(law, counter);
  const std::vector<Cell> bins = merge_cells(cells, counter.n(), default_min_expected(counter.n()));
  if (const auto* bern = dynamic_cast<const BernoulliExpLaw*>(&law)) {
    unsigned long long ones = 0;
    for (const Cell& c : cells) {
      if (c.first && c.last && *c.first == 1 && *c.last == 1) ones = c.observed;
    }
    report.tests.push_back(support_test(cells));
    report.tests.push_back(bernoulli_binomial(*bern, ones, counter.n()));
    report.tests.push_back(pearson_chi_square(bins, counter.n()));
    report.tests.push_back(g_test(bins, counter.n()));
  } else {
    report.tests.push_back(pearson_chi_square(bins, counter.n()));
    report.tests.push_back(g_test(bins, counter.n()));
    report.tests.push_back(ks_dkw(cells, counter.n()));
    for (std::size_t i = 0; i < counter.thresholds().size(); ++i) {
      report.tests.push_back(tail_binomial(law, counter.thresholds()[i], counter.beyond()[i], counter.n()));
    }
    report.tests.push_back(parity_binomial(law, counter.even(), counter.n()));
    report.tests.push_back(mean_z(law, counter));
    report.tests.push_back(variance_z(law, counter));
  }
  holm_bonferroni(report.tests, alpha);
  report.passed = true;
  for (const auto& t : report.tests) {
    if (t.rejected) report.passed = false;
  }
  return report;
}

bool any_undecided(const AuditReport& report) {
  for (const auto& t : report.tests) {
    if (undecided(t)) return true;
  }
  return false;
}

}  // namespace

AuditReport run_audit(const ReferenceLaw& law, const SampleCounter& counter, const mpq_class& alpha) {
  if (counter.n() == 0) throw ParameterError::out_of_range("samples", "0", "at least 1 sample (run_audit)");
  AuditReport report = audit_at(law, counter, alpha);
  // The Ziv strategy for verdicts: while a p-value interval straddles its threshold, recompute
  // everything at twice the precision (each result stays certified; only the last is kept).
  for (mpfr_prec_t p = 2 * law.precision(); p <= kMaxAuditPrecision && any_undecided(report); p *= 2) {
    report = audit_at(*law.at_precision(p), counter, alpha);
  }
  return report;
}

}  // namespace exactdp::verification
