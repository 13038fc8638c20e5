#include <exactdp/verification/goodness_of_fit.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <exactdp/core/decimal.h>
#include <exactdp/core/rational.h>
#include <exactdp/verification/p_values.h>
#include <exactdp/core/errors.h>

namespace exactdp::verification {
namespace {

using exactdp::Real;

mpz_class to_mpz(unsigned long long v) { return mpz_class(std::to_string(v)); }

std::string range_text(const Cell& c) {
  return "[" + (c.first ? to_string(*c.first) : std::string("-inf")) + ", " +
         (c.last ? to_string(*c.last) : std::string("+inf")) + "]";
}

// Expected count n * mass.
Interval expected(const Cell& c, unsigned long long n) { return c.mass * mpq_class(to_mpz(n)); }

// An exact count at the precision of `like`.
Interval exact_count(unsigned long long k, const Interval& like) {
  return Interval(to_mpz(k), like.precision());
}

Interval probability(const Interval& x) { return exactdp::clamp(x, mpq_class(0), mpq_class(1)); }

// "[lower, upper]" rounded outward, for the detail lines.
std::string text(const Interval& x, int digits = 6) { return exactdp::to_decimal_string(x, digits); }

TestResult not_applicable(std::string name, std::string statistic_name, std::string reason) {
  TestResult r;
  r.name = std::move(name);
  r.statistic_name = std::move(statistic_name);
  r.applicable = false;
  r.detail = std::move(reason);
  r.p_value = Interval(1L, kPrecision);
  return r;
}

}  // namespace

mpq_class default_min_expected(unsigned long long n) {
  // A policy (how many bins), not a bound: any value >= 5 keeps the test valid.
  Real x(64), e(64);
  const mpz_class nz = to_mpz(n);
  mpfr_set_z(x.get(), nz.get_mpz_t(), MPFR_RNDD);
  mpfr_set_ui(e.get(), 3, MPFR_RNDD);
  mpfr_div_ui(e.get(), e.get(), 5, MPFR_RNDD);
  mpfr_pow(x.get(), x.get(), e.get(), MPFR_RNDD);
  mpfr_div_2ui(x.get(), x.get(), 1, MPFR_RNDD);
  mpz_class target;
  mpfr_get_z(target.get_mpz_t(), x.get(), MPFR_RNDD);
  return target < 5 ? mpq_class(5) : mpq_class(target);
}

std::vector<Cell> make_cells(const ReferenceLaw& law, const SampleCounter& counter) {
  const unsigned long long n = counter.n();
  if (n == 0) throw ParameterError::out_of_range("samples", "0", "at least 1 sample (make_cells)");
  const mpz_class& c = counter.center();
  const mpz_class& w = counter.width();
  const long h = SampleCounter::kHalfCells;
  const mpz_class nz = to_mpz(n);
  // n * mass upper <= 1 ?
  auto negligible = [&](const Interval& m) { return exactdp::upper_at_most(m * mpq_class(nz), mpq_class(1)); };
  // Smallest j in [0, h] with the predicate true (monotone), h if none.
  auto search = [&](auto&& pred) {
    long lo = 0, hi = h;
    if (!pred(hi)) return hi;
    while (lo < hi) {
      const long mid = lo + (hi - lo) / 2;
      if (pred(mid)) hi = mid; else lo = mid + 1;
    }
    return lo;
  };
  const long j_hi = search([&](long j) { return negligible(law.mass(mpz_class(c + j * w), std::nullopt)); });
  const long j_lo = search([&](long j) { return negligible(law.mass(std::nullopt, mpz_class(c - j * w - 1))); });
  std::vector<Cell> cells;
  Cell lower;
  lower.last = mpz_class(c - j_lo * w - 1);
  lower.mass = law.mass(std::nullopt, lower.last);
  lower.observed = counter.below();
  for (long j = -h; j < -j_lo; ++j) lower.observed += counter.cells()[static_cast<std::size_t>(j + h)];
  cells.push_back(lower);
  for (long j = -j_lo; j < j_hi; ++j) {
    Cell cell;
    cell.first = mpz_class(c + j * w);
    cell.last = mpz_class(*cell.first + w - 1);
    cell.mass = law.mass(cell.first, cell.last);
    cell.observed = counter.cells()[static_cast<std::size_t>(j + h)];
    cells.push_back(cell);
  }
  Cell upper;
  upper.first = mpz_class(c + j_hi * w);
  upper.mass = law.mass(upper.first, std::nullopt);
  upper.observed = counter.above();
  for (long j = j_hi; j < h; ++j) upper.observed += counter.cells()[static_cast<std::size_t>(j + h)];
  cells.push_back(upper);
  return cells;
}

std::vector<Cell> merge_cells(const std::vector<Cell>& cells, unsigned long long n, const mpq_class& min_expected) {
  const Interval target(min_expected, cells.empty() ? kPrecision : cells.front().mass.precision());
  std::vector<Cell> bins;
  Cell current;
  bool open = false;
  for (const Cell& cell : cells) {
    if (!open) {
      current = cell;
      open = true;
    } else {
      current.last = cell.last;
      current.mass = current.mass + cell.mass;
      current.observed += cell.observed;
    }
    if (mpfr_cmp(expected(current, n).lower(), target.upper()) >= 0) {
      bins.push_back(current);
      open = false;
    }
  }
  if (open) {
    if (bins.empty()) {
      bins.push_back(current);
    } else {
      Cell& last = bins.back();
      last.last = current.last;
      last.mass = last.mass + current.mass;
      last.observed += current.observed;
    }
  }
  for (auto& b : bins) b.mass = probability(b.mass);
  return bins;
}

namespace {

// |ev - o| rounded in direction rnd, then squared and divided by ev: one end of
// g(E) = (O - E)^2 / E evaluated at E = ev.
void chi_square_term(mpfr_ptr out, mpfr_srcptr ev, const mpz_class& o, mpfr_rnd_t rnd) {
  mpfr_sub_z(out, ev, o.get_mpz_t(), MPFR_RNDU);
  if (mpfr_sgn(out) >= 0) {
    mpfr_sub_z(out, ev, o.get_mpz_t(), rnd);
  } else {
    mpfr_sub_z(out, ev, o.get_mpz_t(), rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU);
    mpfr_neg(out, out, rnd);
  }
  if (mpfr_sgn(out) < 0) mpfr_set_zero(out, 1);
  mpfr_sqr(out, out, rnd);
  mpfr_div(out, out, ev, rnd);
}

// The range of g(E) = (O - E)^2 / E over E in e, added to stat. g is convex in E with minimum 0 at
// E = O: its maximum over [E_lower, E_upper] is at an end, its minimum at O when O is inside.
void add_chi_square_term(Interval& stat, const Interval& e, const mpz_class& o) {
  Real t(e.precision()), lo(e.precision()), hi(e.precision());
  chi_square_term(hi.get(), e.lower(), o, MPFR_RNDU);
  chi_square_term(t.get(), e.upper(), o, MPFR_RNDU);
  mpfr_max(hi.get(), hi.get(), t.get(), MPFR_RNDU);
  if (mpfr_cmp_z(e.lower(), o.get_mpz_t()) <= 0 && mpfr_cmp_z(e.upper(), o.get_mpz_t()) >= 0) {
    mpfr_set_zero(lo.get(), 1);
  } else if (mpfr_cmp_z(e.upper(), o.get_mpz_t()) < 0) {
    chi_square_term(lo.get(), e.upper(), o, MPFR_RNDD);
  } else {
    chi_square_term(lo.get(), e.lower(), o, MPFR_RNDD);
  }
  mpfr_add(stat.lower(), stat.lower(), lo.get(), MPFR_RNDD);
  mpfr_add(stat.upper(), stat.upper(), hi.get(), MPFR_RNDU);
}

// A test whose statistic follows chi-square with bins - 1 degrees of freedom.
TestResult chi_square_result(std::string name, std::string statistic_name, Interval stat,
                             std::size_t bins, std::string detail) {
  TestResult r;
  r.name = std::move(name);
  r.statistic_name = std::move(statistic_name);
  r.asymptotic = true;
  const unsigned long df = static_cast<unsigned long>(bins - 1);
  r.detail = "df = " + std::to_string(df) + " " + detail;
  r.p_value = chi_square_sf(df, stat);
  r.statistic = std::move(stat);
  return r;
}

}  // namespace

TestResult pearson_chi_square(const std::vector<Cell>& bins, unsigned long long n) {
  if (bins.size() < 2) return not_applicable("chi-square", "X2", "fewer than 2 bins with expected count >= 5");
  Interval stat(bins.front().mass.precision());
  for (const Cell& b : bins) add_chi_square_term(stat, expected(b, n), to_mpz(b.observed));
  return chi_square_result("chi-square", "X2", std::move(stat), bins.size(),
                           "(" + std::to_string(bins.size()) +
                               " bins, pooled tails, expected count >= 5 in each; first " +
                               range_text(bins.front()) + ", last " + range_text(bins.back()) + ")");
}

TestResult g_test(const std::vector<Cell>& bins, unsigned long long n) {
  if (bins.size() < 2) return not_applicable("g-test", "G", "fewer than 2 bins with expected count >= 5");
  Interval stat(bins.front().mass.precision());
  for (const Cell& b : bins) {
    if (b.observed == 0) continue;  // O ln(O/E) -> 0
    const Interval o = exact_count(b.observed, b.mass);
    // O (ln O - ln E), decreasing in E.
    stat = stat + o * (log(o) - log(expected(b, n)));
  }
  stat = stat * mpq_class(2);
  if (mpfr_sgn(stat.lower()) < 0) mpfr_set_zero(stat.lower(), 1);  // G >= 0 when sum E = sum O
  if (mpfr_sgn(stat.upper()) < 0) mpfr_set_zero(stat.upper(), 1);
  return chi_square_result("g-test", "G", std::move(stat), bins.size(), "(same bins as chi-square)");
}

namespace {

// min(1, 2 exp(-2 n d^2)) rounded in direction rnd: the DKW bound, decreasing in d.
void dkw_bound(mpfr_ptr out, mpfr_srcptr d, const mpz_class& n, mpfr_rnd_t rnd) {
  const mpfr_rnd_t other = rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU;
  mpfr_sqr(out, d, other);
  mpfr_mul_z(out, out, n.get_mpz_t(), other);
  mpfr_mul_si(out, out, -2, rnd);
  mpfr_exp(out, out, rnd);
  mpfr_mul_ui(out, out, 2, rnd);
  if (mpfr_cmp_ui(out, 1) > 0) mpfr_set_ui(out, 1, rnd);
}

}  // namespace

TestResult ks_dkw(const std::vector<Cell>& cells, unsigned long long n) {
  const mpfr_prec_t precision = cells.empty() ? kPrecision : cells.front().mass.precision();
  Interval cdf(precision);  // F at the right end of the current cell
  mpz_class cum = 0;
  const mpz_class nz = to_mpz(n);
  Interval d(precision);    // running max of |F_n - F| (as an interval)
  for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
    cdf = probability(cdf + cells[i].mass);
    cum += to_mpz(cells[i].observed);
    d = exactdp::max(d, abs(Interval(mpq_class(cum, nz), precision) - cdf));
  }
  TestResult r;
  r.name = "ks-dkw";
  r.statistic_name = "D";
  r.detail = "sup |F_n - F| over " + std::to_string(cells.size() - 1) +
             " cell boundaries; p <= 2 exp(-2 n D^2) (DKW, Massart's constant; conservative, not asymptotic)";
  r.p_value = Interval(precision);
  dkw_bound(r.p_value.upper(), d.lower(), nz, MPFR_RNDU);
  dkw_bound(r.p_value.lower(), d.upper(), nz, MPFR_RNDD);
  r.statistic = std::move(d);
  return r;
}

namespace {

// The exact two-sided binomial test of `count` successes in n trials with success probability
// p0; `what` describes p0 in the detail line.
TestResult binomial_test(std::string name, unsigned long long count, unsigned long long n,
                         const Interval& p0, const std::string& what) {
  TestResult r;
  r.name = std::move(name);
  r.statistic_name = "count";
  r.statistic = Interval(to_mpz(count), p0.precision());
  r.detail = "exact two-sided binomial test, " + what;
  r.p_value = binomial_two_sided(n, count, p0);
  return r;
}

}  // namespace

TestResult tail_binomial(const ReferenceLaw& law, const mpz_class& threshold, unsigned long long count,
                         unsigned long long n) {
  const Interval p0 = law.outside_mass(threshold);
  const Interval e = p0 * mpq_class(to_mpz(n));
  return binomial_test("tail |x - c| > " + to_string(threshold), count, n, p0,
                       "P = " + text(p0) + ", expected count " + exactdp::decimal_lower(e.lower(), 4));
}

TestResult parity_binomial(const ReferenceLaw& law, unsigned long long even, unsigned long long n) {
  const Interval p0 = law.even_mass();
  return binomial_test("parity (x - c even)", even, n, p0, "P[X - c even] = " + text(p0));
}

TestResult bernoulli_binomial(const BernoulliExpLaw& law, unsigned long long ones, unsigned long long n) {
  return binomial_test("binomial P[X = 1]", ones, n, law.p_one(),
                       "P[X = 1] = exp(-gamma) in " + text(law.p_one()));
}

namespace {
TestResult z_test(std::string name, const Interval& sample_mean, const Interval& expected_value,
                  const Interval& variance, unsigned long long n, std::string detail) {
  if (mpfr_sgn(variance.lower()) <= 0) {
    return not_applicable(std::move(name), "z", "variance not bounded away from 0");
  }
  TestResult r;
  r.name = std::move(name);
  r.statistic_name = "z";
  const Interval se = sqrt(variance / mpq_class(to_mpz(n)));
  r.statistic = (sample_mean - expected_value) / se;
  r.asymptotic = true;
  r.detail = std::move(detail);
  r.p_value = normal_two_sided(r.statistic);
  return r;
}
}  // namespace

TestResult mean_z(const ReferenceLaw& law, const SampleCounter& counter) {
  const mpz_class nz = to_mpz(counter.n());
  const Interval mean(mpq_class(counter.sum1(), nz), law.precision());
  return z_test("mean-z", mean, law.central_moment(1), law.variance(), counter.n(),
                "mean of (x - c) against E[X - c], c = " + to_string(law.center()) + "; normal approximation");
}

TestResult variance_z(const ReferenceLaw& law, const SampleCounter& counter) {
  const mpz_class nz = to_mpz(counter.n());
  const Interval m2 = law.central_moment(2);
  const Interval var2 = law.central_moment(4) - square(m2);  // Var[(X - c)^2]
  const Interval mean(mpq_class(counter.sum2(), nz), law.precision());
  return z_test("variance-z", mean, m2, var2, counter.n(),
                "mean of (x - c)^2 against E[(X - c)^2] = " + text(m2) + "; normal approximation");
}

TestResult support_test(const std::vector<Cell>& cells) {
  TestResult r;
  r.name = "support";
  r.statistic_name = "count";
  unsigned long long impossible = 0;
  for (const Cell& c : cells) {
    if (mpfr_zero_p(c.mass.upper()) && c.observed > 0) impossible += c.observed;
  }
  r.statistic = Interval(to_mpz(impossible), kPrecision);
  r.detail = "samples at values of probability 0";
  r.p_value = Interval(impossible == 0 ? 1L : 0L, kPrecision);
  return r;
}

bool below_threshold(const TestResult& t) {
  return mpfr_cmp_q(t.p_value.upper(), t.threshold.get_mpq_t()) < 0;
}

bool undecided(const TestResult& t) {
  return t.applicable && !below_threshold(t) && mpfr_cmp_q(t.p_value.lower(), t.threshold.get_mpq_t()) < 0;
}

void holm_bonferroni(std::vector<TestResult>& tests, const mpq_class& alpha) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    if (tests[i].applicable) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return mpfr_cmp(tests[a].p_value.upper(), tests[b].p_value.upper()) < 0;
  });
  const std::size_t m = order.size();
  bool still_rejecting = true;
  for (std::size_t rank = 0; rank < m; ++rank) {
    TestResult& t = tests[order[rank]];
    t.threshold = alpha / mpq_class(static_cast<unsigned long>(m - rank));
    t.threshold.canonicalize();
    t.rejected = still_rejecting && below_threshold(t);
    if (!t.rejected) still_rejecting = false;
  }
}

}  // namespace exactdp::verification
