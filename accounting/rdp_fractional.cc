#include <exactdp/accounting/rdp_fractional.h>

#include <algorithm>
#include <string>
#include <vector>

#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/samplers/errors.h>
#include <exactdp/samplers/rational.h>

namespace exactdp::accounting {
namespace {

// The exponent j lambda + (j^2 - j) mu^2 / 2 of int Q0 r^j (see the header), for real j.
Interval moment_exponent(const Interval& j, const Interval& lambda, const Interval& half_mu2) {
  return j * lambda + (square(j) - j) * half_mu2;
}

}  // namespace

const mpq_class& fractional_order_max_mu() {
  static const mpq_class max_mu(16);
  return max_mu;
}

namespace {

void check_pair(const mpq_class& mu, const mpq_class& q) {
  require_positive("sigma", mu);
  if (mu > fractional_order_max_mu()) {
    throw ParameterError("order", "order: fractional orders need sensitivity/sigma <= 16 (allowed: integer orders)");
  }
  if (sgn(q) <= 0 || q >= 1) throw ParameterError::out_of_range("q", abbreviate(to_string(q)), "0 < q < 1");
}

// The pair's constants at precision p: lambda = ln(q/(1-q)), mu^2/2, z1 and z2.
struct PairConstants {
  Interval lambda, half_mu2, z1, z2, log_one_minus_q;
  PairConstants(const mpq_class& mu, const mpq_class& q, mpfr_prec_t p)
      : lambda(log(Interval(q, p) / Interval(mpq_class(1 - q), p))),
        half_mu2(mpq_class(mu * mu / 2), p),
        z1(p),
        z2(p),
        log_one_minus_q(log(Interval(mpq_class(1 - q), p))) {
    const mpq_class s2 = 1 / (mu * mu);
    const Interval z0 = Interval(mpq_class(1, 2), p) - lambda * s2;
    const Interval s2_ln2 = log2_interval(p) * s2;
    z1 = z0 - s2_ln2;
    z2 = z0 + s2_ln2;
  }
};

// int_{z2}^inf Q0 r^j for real j (an interval).
Interval right_moment(const Interval& j, const PairConstants& c, const mpq_class& mu) {
  return exp(moment_exponent(j, c.lambda, c.half_mu2) + log_normal_sf((c.z2 - j) * mu));
}

// The first K >= k_min(g) whose tail bound T_K (header) is below 2^-(precision + 32), capped at
// 8 precision + 256 + k_min; and T at a given K.
unsigned long k_min_for(const mpq_class& g) {
  mpz_class floor_g;
  mpz_fdiv_q(floor_g.get_mpz_t(), g.get_num_mpz_t(), g.get_den_mpz_t());
  mpz_class k = std::max(mpz_class(floor_g + 1), mpz_class(-floor_g));
  return k < 1 ? 1UL : k.get_ui();
}

struct TailBound {
  const mpq_class& g;
  Interval factor;  // (1 + R_g + 2^g)(1-q)^g at 64 bits
  TailBound(const mpq_class& g_in, const mpq_class& mu, const PairConstants& c64)
      : g(g_in),
        factor((Interval(1L, 64) + right_moment(Interval(g_in, 64), c64, mu) + exp(log2_interval(64) * g_in)) *
               exp(c64.log_one_minus_q * g_in)) {}
  // T_k, for k >= k_min_for(g); the running |C(g,k)| is passed in.
  [[nodiscard]] Interval at(unsigned long k, const Interval& c_k) const {
    const mpq_class rho = std::max(mpq_class(1), mpq_class((mpq_class(k) - g) / (k + 1)));
    return mul_2si(factor * abs(c_k), -static_cast<long>(k)) / mpq_class(1 - rho / 2);
  }
};

unsigned long terms_needed(const mpq_class& g, const mpq_class& mu, const PairConstants& c64, mpfr_prec_t precision) {
  const TailBound tail(g, mu, c64);
  const unsigned long k_min = k_min_for(g);
  const unsigned long k_cap = 8 * static_cast<unsigned long>(precision) + 256 + k_min;
  Interval c(1L, 64);
  for (unsigned long k = 0;; ++k) {
    if (k >= k_min) {
      const Interval t = tail.at(k, c);
      if (mpfr_cmp_si_2exp(t.upper(), 1, -static_cast<long>(precision) - 32) <= 0 || k >= k_cap) return k;
    }
    c = c * mpq_class((g - k) / (k + 1));
  }
}

// The g-independent parts, for K terms: L_k = int_{-inf}^{z1} Q0 r^k and D_k = the k-th forward
// difference at 0 of M_i = int_{z1}^{z2} Q0 r^i (computed at precision + K + 64 bits, where
// the differences lose about a bit each), stored at `precision + 96`. Cached per thread for the
// last (mu, q, precision): the accountant evaluates several orders of one event in a row.
struct SeriesParts {
  mpq_class mu, q;
  mpfr_prec_t precision = 0;
  unsigned long terms = 0;
  std::vector<Interval> left, diffs;
};

const SeriesParts& series_parts(const mpq_class& mu, const mpq_class& q, mpfr_prec_t precision, unsigned long terms) {
  thread_local SeriesParts cache;
  if (cache.precision == precision && cache.terms >= terms && cache.mu == mu && cache.q == q) return cache;
  SeriesParts parts;
  parts.mu = mu;
  parts.q = q;
  parts.precision = precision;
  parts.terms = (terms + 63) / 64 * 64;  // round up: later orders of the same event reuse them
  const mpfr_prec_t ps = precision + 96;
  const mpfr_prec_t w = precision + static_cast<mpfr_prec_t>(parts.terms) + 64;
  const PairConstants c(mu, q, w);
  std::vector<Interval> m;
  m.reserve(parts.terms);
  parts.left.reserve(parts.terms);
  for (unsigned long i = 0; i < parts.terms; ++i) {
    const Interval j(static_cast<long>(i), w);
    const Interval e = moment_exponent(j, c.lambda, c.half_mu2);
    const Interval below_z1 = exp(e + log_normal_cdf((c.z1 - j) * mu));
    const Interval below_z2 = exp(e + log_normal_cdf((c.z2 - j) * mu));
    m.push_back(max(below_z2 - below_z1, Interval(w)));  // >= 0
    Interval l = below_z1;
    l.set_precision(ps);
    parts.left.push_back(std::move(l));
  }
  parts.diffs.reserve(parts.terms);
  for (unsigned long k = 0; k < parts.terms; ++k) {
    Interval d = m[0];
    d.set_precision(ps);
    parts.diffs.push_back(std::move(d));
    for (std::size_t i = 0; i + 1 < m.size(); ++i) m[i] = m[i + 1] - m[i];
    m.pop_back();
  }
  cache = std::move(parts);
  return cache;
}

Interval moment_with(const SeriesParts& parts, const mpq_class& g, const PairConstants& c64) {
  const mpfr_prec_t ps = parts.precision + 96;
  const PairConstants c(parts.mu, parts.q, ps);
  const Interval gw(g, ps);
  Interval left(ps), right(ps), middle(ps);
  Interval coefficient(1L, ps);  // C(g, k)
  const unsigned long big_k = parts.terms;
  for (unsigned long k = 0; k < big_k; ++k) {
    left = left + coefficient * parts.left[k];
    right = right + coefficient * right_moment(gw - static_cast<long>(k), c, parts.mu);
    middle = middle + mul_2si(coefficient * parts.diffs[k], -static_cast<long>(k));
    coefficient = coefficient * mpq_class((g - k) / (k + 1));
  }
  middle = middle * exp(log2_interval(ps) * g);
  // The tail from K on, at 64 bits: C(g, K) by the same recurrence, rounded outward.
  Interval c_k(1L, 64);
  for (unsigned long k = 0; k < big_k; ++k) c_k = c_k * mpq_class((g - k) / (k + 1));
  const Interval t = TailBound(g, parts.mu, c64).at(big_k, c_k);
  const Interval tail = Interval::from_ends(Interval(-t).lower(), t.upper(), ps);
  Interval total = (left + right + middle) * exp(c.log_one_minus_q * g) + tail;
  // G >= 1 (Jensen: t -> t^g is convex for g >= 1 or g <= 0, and E_Q0[M/Q0] = 1).
  return max(total, Interval(1L, ps));
}

}  // namespace

Interval sampled_gaussian_moment(const mpq_class& mu, const mpq_class& q, const mpq_class& g,
                                 mpfr_prec_t precision) {
  check_pair(mu, q);
  const PairConstants c64(mu, q, 64);
  const SeriesParts& parts = series_parts(mu, q, precision, terms_needed(g, mu, c64, precision));
  Interval value = moment_with(parts, g, c64);
  value.set_precision(precision);
  return value;
}

Interval sampled_gaussian_rdp_fractional(const mpq_class& mu, const mpq_class& q, const mpq_class& alpha,
                                         mpfr_prec_t precision) {
  if (alpha <= 1 || alpha > kMaxFractionalOrder) {
    throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)), "1 < order <= 256");
  }
  check_pair(mu, q);
  const mpfr_prec_t p = precision + 16;
  const PairConstants c64(mu, q, 64);
  const mpq_class beta = 1 - alpha;
  const unsigned long terms = std::max(terms_needed(alpha, mu, c64, p), terms_needed(beta, mu, c64, p));
  const SeriesParts& parts = series_parts(mu, q, p, terms);
  const Interval a = moment_with(parts, alpha, c64);
  const Interval b = moment_with(parts, beta, c64);
  Interval value = log(max(a, b)) / mpq_class(alpha - 1);
  value = clamp(value, mpq_class(0), mpq_class(alpha * mu * mu / 2));
  value.set_precision(precision);
  return value;
}

}  // namespace exactdp::accounting
