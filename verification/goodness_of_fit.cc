#include "verification/goodness_of_fit.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "samplers/rational.h"
#include "verification/p_values.h"

namespace exactdp::verification {
namespace {

mpz_class to_mpz(unsigned long long v) { return mpz_class(std::to_string(v)); }

std::string range_text(const Cell& c) {
  return "[" + (c.first ? to_string(*c.first) : std::string("-inf")) + ", " +
         (c.last ? to_string(*c.last) : std::string("+inf")) + "]";
}

// Expected count n * mass.
Bounds expected(const Cell& c, unsigned long long n) { return mul(c.mass, to_mpz(n)); }

TestResult not_applicable(std::string name, std::string statistic_name, std::string reason) {
  TestResult r;
  r.name = std::move(name);
  r.statistic_name = std::move(statistic_name);
  r.applicable = false;
  r.detail = std::move(reason);
  mpfr_set_ui(r.p_value.lower(), 1, MPFR_RNDD);
  mpfr_set_ui(r.p_value.upper(), 1, MPFR_RNDU);
  return r;
}

}  // namespace

mpq_class default_min_expected(unsigned long long n) {
  // A policy (how many bins), not a bound: any value >= 5 keeps the test valid.
  mpfr_t x;
  mpfr_init2(x, 64);
  mpfr_set_ui(x, 0, MPFR_RNDD);
  const mpz_class nz = to_mpz(n);
  mpfr_set_z(x, nz.get_mpz_t(), MPFR_RNDD);
  mpfr_t e;
  mpfr_init2(e, 64);
  mpfr_set_ui(e, 3, MPFR_RNDD);
  mpfr_div_ui(e, e, 5, MPFR_RNDD);
  mpfr_pow(x, x, e, MPFR_RNDD);
  mpfr_div_2ui(x, x, 1, MPFR_RNDD);
  mpz_class target;
  mpfr_get_z(target.get_mpz_t(), x, MPFR_RNDD);
  mpfr_clears(x, e, static_cast<mpfr_ptr>(nullptr));
  return target < 5 ? mpq_class(5) : mpq_class(target);
}

std::vector<Cell> make_cells(const ReferenceLaw& law, const SampleCounter& counter) {
  const unsigned long long n = counter.n();
  if (n == 0) throw std::invalid_argument("make_cells: no samples");
  const mpz_class& c = counter.center();
  const mpz_class& w = counter.width();
  const long h = SampleCounter::kHalfCells;
  const mpz_class nz = to_mpz(n);
  // n * mass upper <= 1 ?
  auto negligible = [&](const Bounds& m) {
    Bounds e = mul(m, nz);
    return mpfr_cmp_ui(e.upper(), 1) <= 0;
  };
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
  const Bounds target = Bounds::of(min_expected);
  std::vector<Cell> bins;
  Cell current;
  bool open = false;
  for (const Cell& cell : cells) {
    if (!open) {
      current = cell;
      open = true;
    } else {
      current.last = cell.last;
      current.mass = add(current.mass, cell.mass);
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
      last.mass = add(last.mass, current.mass);
      last.observed += current.observed;
    }
  }
  for (auto& b : bins) b.mass = clamp(b.mass, 0, 1);
  return bins;
}

TestResult pearson_chi_square(const std::vector<Cell>& bins, unsigned long long n) {
  if (bins.size() < 2) return not_applicable("chi-square", "X2", "fewer than 2 bins with expected count >= 5");
  Bounds stat;
  mpfr_t t, lo, hi;
  mpfr_inits2(kPrecision, t, lo, hi, static_cast<mpfr_ptr>(nullptr));
  for (const Cell& b : bins) {
    const Bounds e = expected(b, n);
    const mpz_class o = to_mpz(b.observed);
    // g(E) = (O - E)^2 / E: convex in E, minimum 0 at E = O; its maximum over [E_lower, E_upper] is
    // at an end, its minimum at O when O is inside. Each evaluation bounds |E - O| first.
    auto g_dir = [&](mpfr_ptr out, mpfr_srcptr ev, mpfr_rnd_t rnd) {
      // |ev - o| rounded in direction rnd
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
    };
    g_dir(hi, e.lower(), MPFR_RNDU);
    g_dir(t, e.upper(), MPFR_RNDU);
    mpfr_max(hi, hi, t, MPFR_RNDU);
    if (mpfr_cmp_z(e.lower(), o.get_mpz_t()) <= 0 && mpfr_cmp_z(e.upper(), o.get_mpz_t()) >= 0) {
      mpfr_set_zero(lo, 1);
    } else if (mpfr_cmp_z(e.upper(), o.get_mpz_t()) < 0) {
      g_dir(lo, e.upper(), MPFR_RNDD);
    } else {
      g_dir(lo, e.lower(), MPFR_RNDD);
    }
    mpfr_add(stat.lower(), stat.lower(), lo, MPFR_RNDD);
    mpfr_add(stat.upper(), stat.upper(), hi, MPFR_RNDU);
  }
  mpfr_clears(t, lo, hi, static_cast<mpfr_ptr>(nullptr));
  TestResult r;
  r.name = "chi-square";
  r.statistic_name = "X2";
  r.statistic = stat;
  r.asymptotic = true;
  const unsigned long df = static_cast<unsigned long>(bins.size() - 1);
  r.detail = "df = " + std::to_string(df) + " (" + std::to_string(bins.size()) +
             " bins, pooled tails, expected count >= 5 in each; first " + range_text(bins.front()) +
             ", last " + range_text(bins.back()) + ")";
  r.p_value = chi_square_sf(df, stat);
  return r;
}

TestResult g_test(const std::vector<Cell>& bins, unsigned long long n) {
  if (bins.size() < 2) return not_applicable("g-test", "G", "fewer than 2 bins with expected count >= 5");
  Bounds stat;
  for (const Cell& b : bins) {
    if (b.observed == 0) continue;  // O ln(O/E) -> 0
    const Bounds e = expected(b, n);
    const Bounds o = Bounds::of(to_mpz(b.observed));
    // O (ln O - ln E), decreasing in E.
    const Bounds term = mul(o, sub(log_of(o), log_of(e)));
    stat = add(stat, term);
  }
  stat = mul(stat, mpz_class(2));
  if (mpfr_sgn(stat.lower()) < 0) mpfr_set_zero(stat.lower(), 1);  // G >= 0 when sum E = sum O
  if (mpfr_sgn(stat.upper()) < 0) mpfr_set_zero(stat.upper(), 1);
  TestResult r;
  r.name = "g-test";
  r.statistic_name = "G";
  r.statistic = stat;
  r.asymptotic = true;
  const unsigned long df = static_cast<unsigned long>(bins.size() - 1);
  r.detail = "df = " + std::to_string(df) + " (same bins as chi-square)";
  r.p_value = chi_square_sf(df, stat);
  return r;
}

TestResult ks_dkw(const std::vector<Cell>& cells, unsigned long long n) {
  Bounds cdf;   // F at the right end of the current cell
  mpz_class cum = 0;
  const mpz_class nz = to_mpz(n);
  Bounds d;     // running max of |F_n - F| (as an interval)
  for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
    cdf = clamp(add(cdf, cells[i].mass), 0, 1);
    cum += to_mpz(cells[i].observed);
    const Bounds fn = Bounds::of(mpq_class(cum, nz));
    const Bounds diff = sub(fn, cdf);
    // |diff| interval
    Bounds a;
    if (mpfr_sgn(diff.lower()) > 0) {
      a = diff;
    } else if (mpfr_sgn(diff.upper()) < 0) {
      mpfr_neg(a.lower(), diff.upper(), MPFR_RNDD);
      mpfr_neg(a.upper(), diff.lower(), MPFR_RNDU);
    } else {
      mpfr_set_zero(a.lower(), 1);
      mpfr_neg(a.upper(), diff.lower(), MPFR_RNDU);
      mpfr_max(a.upper(), a.upper(), diff.upper(), MPFR_RNDU);
    }
    mpfr_max(d.lower(), d.lower(), a.lower(), MPFR_RNDD);
    mpfr_max(d.upper(), d.upper(), a.upper(), MPFR_RNDU);
  }
  TestResult r;
  r.name = "ks-dkw";
  r.statistic_name = "D";
  r.statistic = d;
  r.detail = "sup |F_n - F| over " + std::to_string(cells.size() - 1) +
             " cell boundaries; p <= 2 exp(-2 n D^2) (DKW, Massart's constant; conservative, not asymptotic)";
  // p bound = min(1, 2 exp(-2 n D^2)), decreasing in D.
  auto bound = [&](mpfr_ptr out, mpfr_srcptr dv, mpfr_rnd_t rnd) {
    const mpfr_rnd_t other = rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU;
    mpfr_sqr(out, dv, other);
    mpfr_mul_z(out, out, nz.get_mpz_t(), other);
    mpfr_mul_si(out, out, -2, rnd);
    mpfr_exp(out, out, rnd);
    mpfr_mul_ui(out, out, 2, rnd);
    if (mpfr_cmp_ui(out, 1) > 0) mpfr_set_ui(out, 1, rnd);
  };
  bound(r.p_value.upper(), d.lower(), MPFR_RNDU);
  bound(r.p_value.lower(), d.upper(), MPFR_RNDD);
  return r;
}

TestResult tail_binomial(const ReferenceLaw& law, const mpz_class& threshold, unsigned long long count,
                         unsigned long long n) {
  TestResult r;
  r.name = "tail |x - c| > " + to_string(threshold);
  r.statistic_name = "count";
  r.statistic = Bounds::of(to_mpz(count));
  const Bounds p0 = law.outside_mass(threshold);
  const Bounds e = mul(p0, to_mpz(n));
  r.detail = "exact two-sided binomial test, P = [" + p0.lower_text() + ", " + p0.upper_text() +
             "], expected count " + e.lower_text(4);
  r.p_value = binomial_two_sided(n, count, p0);
  return r;
}

TestResult parity_binomial(const ReferenceLaw& law, unsigned long long even, unsigned long long n) {
  TestResult r;
  r.name = "parity (x - c even)";
  r.statistic_name = "count";
  r.statistic = Bounds::of(to_mpz(even));
  const Bounds p0 = law.even_mass();
  r.detail = "exact two-sided binomial test, P[X - c even] = [" + p0.lower_text() + ", " + p0.upper_text() + "]";
  r.p_value = binomial_two_sided(n, even, p0);
  return r;
}

TestResult bernoulli_binomial(const BernoulliExpLaw& law, unsigned long long ones, unsigned long long n) {
  TestResult r;
  r.name = "binomial P[X = 1]";
  r.statistic_name = "count";
  r.statistic = Bounds::of(to_mpz(ones));
  r.detail = "exact two-sided binomial test, P[X = 1] = exp(-gamma) in [" + law.p_one().lower_text() + ", " +
             law.p_one().upper_text() + "]";
  r.p_value = binomial_two_sided(n, ones, law.p_one());
  return r;
}

namespace {
TestResult z_test(std::string name, const Bounds& sample_mean, const Bounds& expected_value,
                  const Bounds& variance, unsigned long long n, std::string detail) {
  if (mpfr_sgn(variance.lower()) <= 0) {
    return not_applicable(std::move(name), "z", "variance not bounded away from 0");
  }
  TestResult r;
  r.name = std::move(name);
  r.statistic_name = "z";
  const Bounds se = sqrt_of(div(variance, Bounds::of(to_mpz(n))));
  r.statistic = div(sub(sample_mean, expected_value), se);
  r.asymptotic = true;
  r.detail = std::move(detail);
  r.p_value = normal_two_sided(r.statistic);
  return r;
}
}  // namespace

TestResult mean_z(const ReferenceLaw& law, const SampleCounter& counter) {
  const mpz_class nz = to_mpz(counter.n());
  const Bounds mean = Bounds::of(mpq_class(counter.sum1(), nz));
  return z_test("mean-z", mean, law.central_moment(1), law.variance(), counter.n(),
                "mean of (x - c) against E[X - c], c = " + to_string(law.center()) + "; normal approximation");
}

TestResult variance_z(const ReferenceLaw& law, const SampleCounter& counter) {
  const mpz_class nz = to_mpz(counter.n());
  const Bounds m2 = law.central_moment(2);
  const Bounds var2 = sub(law.central_moment(4), square(m2));  // Var[(X - c)^2]
  const Bounds mean = Bounds::of(mpq_class(counter.sum2(), nz));
  return z_test("variance-z", mean, m2, var2, counter.n(),
                "mean of (x - c)^2 against E[(X - c)^2] = [" + m2.lower_text() + ", " + m2.upper_text() +
                    "]; normal approximation");
}

TestResult support_test(const std::vector<Cell>& cells) {
  TestResult r;
  r.name = "support";
  r.statistic_name = "count";
  unsigned long long impossible = 0;
  for (const Cell& c : cells) {
    if (mpfr_zero_p(c.mass.upper()) && c.observed > 0) impossible += c.observed;
  }
  r.statistic = Bounds::of(to_mpz(impossible));
  r.detail = "samples at values of probability 0";
  const long p = impossible == 0 ? 1 : 0;
  r.p_value = Bounds::of(p);
  return r;
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
    const Bounds thr = Bounds::of(t.threshold);
    const bool below = mpfr_cmp(t.p_value.upper(), thr.lower()) < 0;
    t.rejected = still_rejecting && below;
    if (!t.rejected) still_rejecting = false;
  }
}

}  // namespace exactdp::verification
