#include <exactdp/accounting/gdp_transformation.h>

#include <stdexcept>
#include <string>
#include <utility>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/internal/kov_fixed_precision.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

constexpr int kMaxSearchSteps = 200;
// When T(e_i) looks larger than mu_max at the working precision (e.g. delta = 1 - e^-1000 rounds
// to 1 at 40 bits), the point is re-evaluated at doubled precisions up to this many bits before
// the result is declared unbounded.
constexpr mpfr_prec_t kMaxRetryPrecision = 2048;

// splitmix64: the shuffle's generator (the order affects running time only, never results).
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The mu-GDP profile at eps for a mu given as an MPFR number (exact rational conversion).
Interval gdp_at(const mpq_class& eps, mpfr_srcptr mu, mpfr_prec_t precision) {
  return gdp_delta_at(eps, to_mpq(mu), precision);
}

// A rational step h with h <= h0 / B(e), B(e) = min(sqrt(pi/2), 1/sqrt(2e)) (see the header;
// any positive step keeps the result certified, this one keeps its width within tolerance).
mpq_class grid_step(const mpq_class& e, const mpq_class& h0) {
  // sqrt(pi/2) < 1.2534 = 6267/5000
  const mpq_class b_small(6267, 5000);
  if (e == 0) return h0 / b_small;
  // 1/B >= sqrt(2e) when 1/sqrt(2e) < sqrt(pi/2); sqrt(2e) rounded DOWN keeps h <= h0 / B.
  Real s(64);
  mpfr_set_q(s.get(), mpq_class(2 * e).get_mpq_t(), MPFR_RNDD);
  mpfr_sqrt(s.get(), s.get(), MPFR_RNDD);
  const mpq_class sqrt_2e = to_mpq(s.get());
  const mpq_class inv_b = sqrt_2e > 1 / b_small ? sqrt_2e : 1 / b_small;
  return h0 * inv_b;
}

// True when delta's interval at precision p does not separate it from 1 by a margin that p bits
// can resolve: 1 - delta.upper <= 2^-(p - 16) (or delta may be >= 1).
bool too_close_to_one(const Interval& d, mpfr_prec_t p) {
  Real gap(p);
  mpfr_ui_sub(gap.get(), 1, d.upper(), MPFR_RNDD);
  if (mpfr_sgn(gap.get()) <= 0) return true;
  return mpfr_get_exp(gap.get()) < -(static_cast<long>(p) - 16);
}

class Measurer {
 public:
  Measurer(const ProfileFunction& profile, const GdptOptions& options)
      : profile_(profile), o_(options), b_(options.tolerance / 5), precision_(options.precision) {}

  // The working precision of every evaluation (raised by gdpt_measure when a low precision
  // cannot separate delta from 1; see kMaxRetryPrecision).
  void set_precision(mpfr_prec_t p) { precision_ = p; }
  [[nodiscard]] mpfr_prec_t precision() const { return precision_; }

  Interval profile_at(const mpq_class& eps) {
    ++profile_evaluations;
    Interval d = profile_(eps, precision_);
    if (!d.is_valid()) throw std::logic_error("GDPT: profile returned an invalid interval");
    return d;
  }

  // U <= M proven, for U = mu_{e_next}(d): delta_M(e_next) >= d.upper.
  bool upper_ok(const Interval& d, const mpq_class& e_next, mpfr_srcptr m) {
    if (mpfr_sgn(d.upper()) == 0) return true;  // delta = 0: mu_e(0) = 0 <= M
    if (mpfr_sgn(m) <= 0) return false;
    ++gdp_evaluations;
    const Interval g = gdp_at(e_next, m, precision_);
    return mpfr_cmp(g.lower(), d.upper()) >= 0;
  }

  // m <= T = mu_e(d) proven: delta_m(e) <= d.lower.
  bool lower_ok(const Interval& d, const mpq_class& e, mpfr_srcptr m) {
    if (mpfr_sgn(m) <= 0) return true;
    ++gdp_evaluations;
    const Interval g = gdp_at(e, m, precision_);
    return mpfr_cmp(g.upper(), d.lower()) <= 0;
  }

  // The smallest M (to within b) in [from, mu_max] with upper_ok; +inf if mu_max fails.
  Real search_upper(const Interval& d, const mpq_class& e_next, mpfr_srcptr from) {
    ++binary_searches;
    Real lo(precision_), hi(precision_);
    mpfr_set(lo.get(), from, MPFR_RNDD);
    if (upper_ok(d, e_next, lo.get())) return lo;  // already covered
    mpfr_set_q(hi.get(), o_.mu_max.get_mpq_t(), MPFR_RNDU);
    if (!upper_ok(d, e_next, hi.get())) {
      mpfr_set_inf(hi.get(), 1);
      return hi;
    }
    bisect(lo, hi, [&](mpfr_srcptr m) { return upper_ok(d, e_next, m); }, true);
    return hi;
  }

  // The largest m (to within b) in [from, to] with lower_ok.
  Real search_lower(const Interval& d, const mpq_class& e, mpfr_srcptr from, mpfr_srcptr to) {
    ++binary_searches;
    Real lo(precision_), hi(precision_);
    mpfr_set(lo.get(), from, MPFR_RNDD);
    if (mpfr_inf_p(to)) {
      mpfr_set_q(hi.get(), o_.mu_max.get_mpq_t(), MPFR_RNDU);
    } else {
      mpfr_set(hi.get(), to, MPFR_RNDU);
    }
    if (!lower_ok(d, e, lo.get())) return lo;  // from was not proven: keep it as is
    if (lower_ok(d, e, hi.get())) return hi;
    bisect(lo, hi, [&](mpfr_srcptr m) { return lower_ok(d, e, m); }, false);
    return lo;
  }

  std::size_t profile_evaluations = 0, gdp_evaluations = 0, binary_searches = 0;

 private:
  // Keeps pred(hi) (if upper) or pred(lo) (if !upper) true; the midpoint rounding direction
  // does not matter (any point between lo and hi will do).
  template <typename Pred>
  void bisect(Real& lo, Real& hi, Pred pred, bool upper) {
    Real mid(precision_), gap(precision_);
    const Interval b_iv(b_, precision_);
    for (int step = 0; step < kMaxSearchSteps; ++step) {
      mpfr_sub(gap.get(), hi.get(), lo.get(), MPFR_RNDU);
      if (mpfr_cmp(gap.get(), b_iv.lower()) <= 0) return;
      mpfr_add(mid.get(), lo.get(), hi.get(), MPFR_RNDD);
      mpfr_div_2ui(mid.get(), mid.get(), 1, MPFR_RNDD);
      if (mpfr_cmp(mid.get(), lo.get()) <= 0 || mpfr_cmp(mid.get(), hi.get()) >= 0) return;
      const bool ok = pred(mid.get());
      if (upper == ok) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
  }

  const ProfileFunction& profile_;
  const GdptOptions& o_;
  mpq_class b_;  // binary-search resolution: tolerance / 5
  mpfr_prec_t precision_;
};

}  // namespace

void GdptOptions::validate() const {
  if (eps_max <= 0 || eps_max > 1000) {
    throw ParameterError::out_of_range("eps-max", abbreviate(to_string(eps_max)),
                                       "0 < eps-max <= 1000");
  }
  if (tolerance < mpq_class(1, 1'000'000'000) || tolerance > 1) {
    throw ParameterError::out_of_range("tolerance", abbreviate(to_string(tolerance)),
                                       "1e-9 <= tolerance <= 1");
  }
  if (mu_max <= 0 || mu_max > 1000) {
    throw ParameterError::out_of_range("mu-max", abbreviate(to_string(mu_max)),
                                       "0 < mu-max <= 1000");
  }
  if (precision < 32 || precision > 4096) {
    throw ParameterError::out_of_range("precision", std::to_string(precision),
                                       "32 <= precision <= 4096 bits");
  }
}

namespace {

// Grid e_0 = 0 < ... < e_n = eps_max (steps from grid_step). LimitError past kMaxGridPoints.
std::vector<mpq_class> gdpt_grid(const GdptOptions& options) {
  const mpq_class h0 = options.tolerance * mpq_class(3, 5);
  std::vector<mpq_class> grid;
  grid.emplace_back(0);
  while (grid.back() < options.eps_max) {
    if (grid.size() >= options.max_grid_points || grid.size() >= kMaxGridPoints) {
      throw LimitError("tolerance", "the GDPT grid for this eps-max and tolerance exceeds " +
                                        std::to_string(options.max_grid_points < kMaxGridPoints
                                                           ? options.max_grid_points
                                                           : kMaxGridPoints) +
                                        " points: raise tolerance or lower eps-max");
    }
    mpq_class next = grid.back() + grid_step(grid.back(), h0);
    if (next > options.eps_max) next = options.eps_max;
    grid.push_back(std::move(next));
  }
  return grid;
}

// The order the n intervals are visited in: shuffled (Fisher-Yates on the seed, Algorithm 1) or,
// for the naive algorithm, left to right.
std::vector<std::size_t> visiting_order(std::size_t n, const GdptOptions& options) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  if (!options.naive) {
    std::uint64_t state = options.seed;
    for (std::size_t i = n; i > 1; --i) {
      const std::size_t j = static_cast<std::size_t>(splitmix64(state) % i);
      std::swap(order[i - 1], order[j]);
    }
  }
  return order;
}

// The running bracket [lo, hi] of the supremum of T over the points visited so far.
struct RunningBracket {
  Real lo, hi;
  mpq_class eps_argmax = 0;
};

// delta(e) at precision pi, re-evaluated at doubled precision (up to kMaxRetryPrecision) while
// it is within 2^-(pi-16) of 1 (e.g. 1 - e^-50), so that mu_e(delta) can be resolved.
Interval resolved_profile(Measurer& m, const mpq_class& e, mpfr_prec_t& pi) {
  m.set_precision(pi);
  Interval d = m.profile_at(e);
  while (pi < kMaxRetryPrecision && too_close_to_one(d, pi)) {
    pi *= 2;
    m.set_precision(pi);
    d = m.profile_at(e);
  }
  return d;
}

// Visits [e, e_next]: raises hi to a certified bound of U_i when it is a record (every time for
// the naive algorithm, which searches from 0), and lo to a certified lower bound of T(e).
// Returns false when hi became infinite (the GDPT exceeds mu_max).
bool visit_interval(Measurer& m, const GdptOptions& options, const mpq_class& e,
                    const mpq_class& e_next, RunningBracket& b) {
  const mpfr_prec_t p = options.precision;
  mpfr_prec_t pi = p;
  Interval d = resolved_profile(m, e, pi);
  if (!options.naive && m.upper_ok(d, e_next, b.hi.get())) return true;  // U_i <= hi
  Real from(pi);
  if (options.naive) mpfr_set_zero(from.get(), 1); else mpfr_set(from.get(), b.hi.get(), MPFR_RNDD);
  Real u = m.search_upper(d, e_next, from.get());
  while (mpfr_inf_p(u.get()) && pi < kMaxRetryPrecision) {  // maybe just imprecise
    pi *= 2;
    m.set_precision(pi);
    d = m.profile_at(e);
    Real from2(pi);
    mpfr_set(from2.get(), from.get(), MPFR_RNDD);
    u = m.search_upper(d, e_next, from2.get());
  }
  if (mpfr_cmp(u.get(), b.hi.get()) > 0) {
    mpfr_prec_round(u.get(), p, MPFR_RNDU);  // hi only moves up: still an upper bound
    b.hi = u;
  }
  if (mpfr_inf_p(b.hi.get())) return false;
  if (mpfr_sgn(d.lower()) > 0) {
    Real start(pi), to(pi);
    if (options.naive) mpfr_set_zero(start.get(), 1); else mpfr_set(start.get(), b.lo.get(), MPFR_RNDD);
    mpfr_set(to.get(), u.get(), MPFR_RNDU);
    Real t = m.search_lower(d, e, start.get(), to.get());
    if (mpfr_cmp(t.get(), b.lo.get()) > 0) {
      mpfr_prec_round(t.get(), p, MPFR_RNDD);  // lo only moves down: still a lower bound
      b.lo = t;
      b.eps_argmax = e;
    }
  }
  return true;
}

}  // namespace

GdptResult gdpt_measure(const ProfileFunction& profile, const GdptOptions& options) {
  options.validate();
  const mpfr_prec_t p = options.precision;
  const std::vector<mpq_class> grid = gdpt_grid(options);
  if (options.naive && grid.size() > kMaxNaiveGridPoints) {
    throw LimitError("tolerance", "tolerance: the naive algorithm (a binary search at every grid "
                                  "point) is limited to " + std::to_string(kMaxNaiveGridPoints) +
                                  " grid points, and this eps-max and tolerance give " +
                                  std::to_string(grid.size()) +
                                  ": raise the tolerance or lower eps-max (or drop --naive)");
  }
  Measurer m(profile, options);
  RunningBracket b{Real(p), Real(p)};
  mpfr_set_zero(b.lo.get(), 1);
  mpfr_set_zero(b.hi.get(), 1);
  GdptResult result;
  for (const std::size_t i : visiting_order(grid.size() - 1, options)) {
    if (!visit_interval(m, options, grid[i], grid[i + 1], b)) {
      result.bounded = false;
      break;
    }
  }
  m.set_precision(p);
  result.eps_argmax = b.eps_argmax;
  result.mu = Interval::from_ends(b.lo.get(), b.hi.get(), p);
  result.grid_points = grid.size();
  result.binary_searches = m.binary_searches;
  result.profile_evaluations = m.profile_evaluations;
  result.gdp_evaluations = m.gdp_evaluations;
  return result;
}

Interval gdpt_point(const ProfileFunction& profile, const mpq_class& eps, const mpq_class& width,
                    const mpq_class& mu_max, mpfr_prec_t precision) {
  GdptOptions o;
  o.tolerance = width * 5;  // the binary searches resolve to tolerance / 5 = width
  o.mu_max = mu_max;
  o.precision = precision;
  Measurer m(profile, o);
  const Interval d = m.profile_at(eps);
  Real zero(precision);
  mpfr_set_zero(zero.get(), 1);
  if (mpfr_sgn(d.upper()) == 0) return Interval(0L, precision);
  const Real hi = m.search_upper(d, eps, zero.get());  // mu_eps(d) <= hi
  Real lo(precision);
  if (mpfr_sgn(d.lower()) > 0) {
    lo = m.search_lower(d, eps, zero.get(), hi.get());
  } else {
    mpfr_set_zero(lo.get(), 1);
  }
  return Interval::from_ends(lo.get(), hi.get(), precision);
}

Interval tail_ratio(const ProfileFunction& profile, const mpq_class& eps, mpfr_prec_t precision) {
  const Interval d = profile(eps, precision);
  if (mpfr_cmp_ui(d.upper(), 1) >= 0) {
    throw std::domain_error("tail_ratio: delta(eps) may be >= 1");
  }
  if (mpfr_sgn(d.upper()) == 0) return Interval(0L, precision);
  // ratio = eps / sqrt(-2 log delta): increasing in delta.
  const Interval e(eps, precision);
  Interval r(precision);
  {
    const Interval at_upper = e / sqrt(-mul_2si(log(Interval::point(d.upper(), precision)), 1));
    mpfr_set(r.upper(), at_upper.upper(), MPFR_RNDU);
  }
  if (mpfr_sgn(d.lower()) <= 0) {
    mpfr_set_zero(r.lower(), 1);
  } else {
    const Interval at_lower = e / sqrt(-mul_2si(log(Interval::point(d.lower(), precision)), 1));
    mpfr_set(r.lower(), at_lower.lower(), MPFR_RNDD);
  }
  return r;
}

ProfileFunction gdp_profile(const mpq_class& mu) {
  if (mu <= 0) throw ParameterError::out_of_range("mu", abbreviate(to_string(mu)), "mu > 0");
  return [mu](const mpq_class& eps, mpfr_prec_t p) { return gdp_delta_at(eps, mu, p); };
}

ProfileFunction pure_dp_profile(const mpq_class& epsilon) {
  if (epsilon < 0) {
    throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)),
                                       "epsilon >= 0");
  }
  return [epsilon](const mpq_class& eps, mpfr_prec_t p) {
    if (eps >= epsilon) return Interval(0L, p);
    // (e^eps0 - e^eps) / (1 + e^eps0) = -expm1(eps - eps0) / (1 + e^-eps0)
    const Interval num = -expm1(Interval(mpq_class(eps - epsilon), p));
    const Interval den = exp(-Interval(epsilon, p)) + mpq_class(1);
    return clamp(num / den, mpq_class(0), mpq_class(1));
  };
}

ProfileFunction kov_profile(const mpq_class& epsilon, unsigned long k) {
  validate_pure_dp_composition(epsilon, k);
  return [epsilon, k](const mpq_class& eps, mpfr_prec_t p) {
    return internal::kov_delta_at_precision(epsilon, k, eps, p);
  };
}

}  // namespace exactdp::accounting
