#include <exactdp/accounting/internal/three_region_series.h>

#include <algorithm>
#include <cstddef>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace exactdp::accounting::internal {
namespace {

constexpr mpfr_prec_t kBoundPrecision = 64;  // the tail bound's size only

Interval moment_at(const ThreeRegionProblem& problem, Region region, const mpq_class& j, mpfr_prec_t p) {
  return problem.moment(region, Interval(j, p), j, p);
}

// K_min(g): the first k with k > g and k >= -g (header).
unsigned long k_min_for(const mpq_class& g) {
  mpz_class floor_g;
  mpz_fdiv_q(floor_g.get_mpz_t(), g.get_num_mpz_t(), g.get_den_mpz_t());
  const mpz_class k = std::max(mpz_class(floor_g + 1), mpz_class(-floor_g));
  return k < 1 ? 1UL : k.get_ui();
}

// T_k = |C(g,k)| 2^-k (m(left,0) + m(right,g) + 2^g m(middle,0)) / (1 - rho/2), given C(g,k).
class TailBound {
 public:
  TailBound(const ThreeRegionProblem& problem, const mpq_class& g)
      : g_(g),
        factor_(moment_at(problem, Region::kLeft, 0, kBoundPrecision) +
                moment_at(problem, Region::kRight, g, kBoundPrecision) +
                exp(log2_interval(kBoundPrecision) * g) * moment_at(problem, Region::kMiddle, 0, kBoundPrecision)) {}

  [[nodiscard]] Interval at(unsigned long k, const Interval& c_k) const {
    const mpq_class rho = std::max(mpq_class(1), mpq_class((mpq_class(k) - g_) / (k + 1)));
    return mul_2si(factor_ * abs(c_k), -static_cast<long>(k)) / mpq_class(1 - rho / 2);
  }

 private:
  mpq_class g_;
  Interval factor_;
};

// How many terms, and how many guard bits: the alternating terms |C(g,k)| 2^-k reach about
// 2^guard times the sum's scale for negative g (e.g. g = 1 - alpha, alpha = 256: 2^250), so the
// sums are carried at precision + 96 + guard bits to keep the cancellation harmless.
struct Plan {
  unsigned long terms = 0;
  mpfr_prec_t guard = 0;
};

// A lower bound on S(g), the scale the tail is measured against: the total weight W for every g
// (the tail target of the header), and for g >= 0 also m(right, g) (there (1 + r)^g >= r^g and
// >= 1). At a large order the sum is dominated by m(right, g) (e^((g^2 - g) mu^2 / 2) for the
// Gaussian pair, 2^28000 at g = 200, mu = 1): a tail measured against W alone needed that many
// more terms (in practice the 8 precision + 256 + K_min cap, each a moment at thousands of bits).
// The choice of K only sets the width: the tail [-T_K, T_K] is added whatever K is.
Real sum_scale(const ThreeRegionProblem& problem, const mpq_class& g) {
  const Interval weight = moment_at(problem, Region::kLeft, 0, kBoundPrecision) +
                          moment_at(problem, Region::kMiddle, 0, kBoundPrecision) +
                          moment_at(problem, Region::kRight, 0, kBoundPrecision);
  Real scale(kBoundPrecision);
  mpfr_set(scale.get(), weight.lower(), MPFR_RNDD);
  if (sgn(g) >= 0) {
    const Interval right = moment_at(problem, Region::kRight, g, kBoundPrecision);
    if (mpfr_number_p(right.lower()) && mpfr_greater_p(right.lower(), scale.get())) {
      mpfr_set(scale.get(), right.lower(), MPFR_RNDD);
    }
  }
  return scale;
}

Plan plan_for(const ThreeRegionProblem& problem, const mpq_class& g, mpfr_prec_t precision) {
  const TailBound tail(problem, g);
  Real target = sum_scale(problem, g);
  mpfr_mul_2si(target.get(), target.get(), -static_cast<long>(precision) - 32, MPFR_RNDD);
  const unsigned long k_min = k_min_for(g);
  const unsigned long k_cap = 8 * static_cast<unsigned long>(precision) + 256 + k_min;
  Interval c(1L, kBoundPrecision);  // C(g, k)
  Plan plan;
  for (unsigned long k = 0;; ++k) {
    if (!mpfr_zero_p(c.upper()) || !mpfr_zero_p(c.lower())) {
      const Interval magnitude = mul_2si(abs(c), -static_cast<long>(k));
      const long e = mpfr_get_exp(magnitude.upper());
      if (mpfr_number_p(magnitude.upper()) && !mpfr_zero_p(magnitude.upper()) && e > plan.guard) plan.guard = e;
    }
    if (k >= k_min && (mpfr_lessequal_p(tail.at(k, c).upper(), target.get()) || k >= k_cap)) {
      plan.terms = k;
      return plan;
    }
    c = c * mpq_class((g - k) / (k + 1));
  }
}

struct Parts {
  std::string key;
  mpfr_prec_t precision = 0;
  mpfr_prec_t stored = 0;  // the precision of the stored parts and of the sums
  unsigned long terms = 0;
  std::vector<Interval> left, diffs;  // m(left, k); k-th forward difference of m(middle, i)
};

Parts make_parts(const ThreeRegionProblem& problem, std::string key, mpfr_prec_t precision, const Plan& plan) {
  const mpfr_prec_t stored = precision + 96 + plan.guard;
  Parts parts;
  parts.key = std::move(key);
  parts.precision = precision;
  parts.stored = (stored + 63) / 64 * 64;  // rounded up, like the terms: later orders reuse them
  parts.terms = (plan.terms + 63) / 64 * 64;
  const mpfr_prec_t w = parts.stored + static_cast<mpfr_prec_t>(parts.terms) + 64;
  std::vector<Interval> m;
  m.reserve(parts.terms);
  parts.left.reserve(parts.terms);
  for (unsigned long i = 0; i < parts.terms; ++i) {
    const mpq_class j{mpz_class(i)};
    m.push_back(moment_at(problem, Region::kMiddle, j, w));
    Interval l = moment_at(problem, Region::kLeft, j, parts.stored);
    parts.left.push_back(std::move(l));
  }
  parts.diffs.reserve(parts.terms);
  for (unsigned long k = 0; k < parts.terms; ++k) {
    Interval d = m[0];
    d.set_precision(parts.stored);
    parts.diffs.push_back(std::move(d));
    for (std::size_t i = 0; i + 1 < m.size(); ++i) m[i] = m[i + 1] - m[i];
    m.pop_back();
  }
  return parts;
}

// About the bytes of one entry's intervals (two ends of `stored` bits each, and their headers).
std::size_t parts_bytes(const Parts& p) {
  return (p.left.size() + p.diffs.size()) * 2 * (static_cast<std::size_t>(p.stored) / 8 + 32);
}

// The parts of each problem of this thread, oldest first, within kPartsCacheBytes: a composition
// of several distinct subsampled events evaluates each at every order it tries, and one entry (as
// before) was recomputed at every switch between events (10 distinct events: 11 s instead of 3).
constexpr std::size_t kPartsCacheBytes = std::size_t{64} << 20;

const Parts& parts_for(const ThreeRegionProblem& problem, mpfr_prec_t precision, const Plan& plan) {
  thread_local std::deque<Parts> cache;
  thread_local std::size_t cache_bytes = 0;
  std::string key = problem.cache_key();
  const mpfr_prec_t stored = precision + 96 + plan.guard;
  for (auto it = cache.begin(); it != cache.end(); ++it) {
    if (it->precision != precision || it->key != key) continue;
    if (it->terms >= plan.terms && it->stored >= stored) return *it;
    cache_bytes -= parts_bytes(*it);  // too short for this plan: replaced below
    cache.erase(it);
    break;
  }
  Parts parts = make_parts(problem, std::move(key), precision, plan);
  cache_bytes += parts_bytes(parts);
  cache.push_back(std::move(parts));
  while (cache.size() > 1 && cache_bytes > kPartsCacheBytes) {
    cache_bytes -= parts_bytes(cache.front());
    cache.pop_front();
  }
  return cache.back();
}

Interval sum_with(const ThreeRegionProblem& problem, const Parts& parts, const mpq_class& g) {
  const mpfr_prec_t ps = parts.stored;
  Interval left(ps), right(ps), middle(ps);
  Interval c(1L, ps);               // C(g, k)
  Interval c_k(1L, kBoundPrecision);  // the same for the tail bound
  const unsigned long big_k = parts.terms;
  for (unsigned long k = 0; k < big_k; ++k) {
    left = left + c * parts.left[k];
    const mpq_class j = g - k;
    right = right + c * moment_at(problem, Region::kRight, j, ps);
    middle = middle + mul_2si(c * parts.diffs[k], -static_cast<long>(k));
    const mpq_class step = (g - k) / (k + 1);
    c = c * step;
    c_k = c_k * step;
  }
  middle = middle * exp(log2_interval(ps) * g);
  const Interval t = TailBound(problem, g).at(big_k, c_k);
  const Interval tail = Interval::from_ends(Interval(-t).lower(), t.upper(), ps);
  return left + right + middle + tail;
}

}  // namespace

Interval three_region_sum(const ThreeRegionProblem& problem, const mpq_class& g, mpfr_prec_t precision) {
  const Parts& parts = parts_for(problem, precision, plan_for(problem, g, precision));
  Interval value = sum_with(problem, parts, g);
  value.set_precision(precision);
  return value;
}

SumPair three_region_sums(const ThreeRegionProblem& problem, const mpq_class& g1, const mpq_class& g2,
                          mpfr_prec_t precision) {
  const Plan a = plan_for(problem, g1, precision), b = plan_for(problem, g2, precision);
  const Parts& parts = parts_for(problem, precision, Plan{std::max(a.terms, b.terms), std::max(a.guard, b.guard)});
  SumPair out{sum_with(problem, parts, g1), sum_with(problem, parts, g2)};
  out.first.set_precision(precision);
  out.second.set_precision(precision);
  return out;
}

}  // namespace exactdp::accounting::internal
