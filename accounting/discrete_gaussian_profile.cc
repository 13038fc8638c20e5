#include <exactdp/accounting/discrete_gaussian_profile.h>

#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/normal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

using internal::gaussian_normaliser;
using internal::gaussian_range_sum;
using internal::gaussian_tail_sum;

constexpr long kMaxDirectTerms = 1L << 24;       // a forced direct sum gives up (certified) here
constexpr long kMaxDirectRange = 4096;           // D summed term by term up to this many terms
constexpr int kMaxEulerMaclaurinOrder = 64;      // m <= 64: Bernoulli numbers up to B_128
const mpq_class kDirectSigma2Limit(4096);        // sigma < 64: direct summation is cheap

// ---- Bernoulli numbers -------------------------------------------------------------------------

// c_m = B_{2m} / (2m)! for m = 1..kMaxEulerMaclaurinOrder (exact), from the recurrence
// sum_{j=0}^{n} C(n+1, j) B_j = 0 (n >= 1), B_0 = 1.
const std::vector<mpq_class>& bernoulli_over_factorial() {
  static const std::vector<mpq_class> table = [] {
    const int n_max = 2 * kMaxEulerMaclaurinOrder;
    std::vector<mpq_class> b(static_cast<std::size_t>(n_max) + 1);
    b[0] = 1;
    for (int n = 1; n <= n_max; ++n) {
      mpq_class s = 0;
      mpz_class binom = 1;  // C(n+1, 0)
      for (int j = 0; j < n; ++j) {
        s += mpq_class(binom) * b[static_cast<std::size_t>(j)];
        binom = binom * (n + 1 - j) / (j + 1);  // C(n+1, j+1), exact
      }
      b[static_cast<std::size_t>(n)] = -s / (n + 1);
      b[static_cast<std::size_t>(n)].canonicalize();
    }
    std::vector<mpq_class> c(static_cast<std::size_t>(kMaxEulerMaclaurinOrder) + 1);
    mpz_class factorial = 1;
    for (int m = 1; m <= kMaxEulerMaclaurinOrder; ++m) {
      factorial *= (2 * m - 1) * (2 * m);
      c[static_cast<std::size_t>(m)] = b[static_cast<std::size_t>(2 * m)] / mpq_class(factorial);
      c[static_cast<std::size_t>(m)].canonicalize();
    }
    return c;
  }();  // C++11 guarantees thread-safe initialisation of this static
  return table;
}

// floor(log2 |q|) roughly (exact enough for precision budgets), q != 0.
long log2_size(const mpq_class& q) {
  return static_cast<long>(mpz_sizeinbase(q.get_num_mpz_t(), 2)) -
         static_cast<long>(mpz_sizeinbase(q.get_den_mpz_t(), 2));
}

// ---- direct summation --------------------------------------------------------------------------
//
// f(x) = exp(-x^2 / (2 sigma2)); f(x+1) = f(x) r_x with r_x = exp(-(2x+1)/(2 sigma2)), and
// r_{x+1} = r_x q with q = exp(-1/sigma2). All of f, r, q are positive, so the lower and upper
// ends are two separate recurrences rounded down and up. For an infinite tail starting at
// k >= 0, after summing f(k..x) the rest is sum_{y > x} f(y) <= f(x+1) / (1 - r_{x+1}) because
// the ratios r_y decrease for y >= 0 (geometric majorant).
//
// With a log scale c, every term is multiplied by e^c (the same recurrences from the scaled
// first term). count > 0: sum exactly `count` terms from k (a negative k is folded onto x >= 0
// by symmetry, so every ratio used is <= 1). count == 0: the infinite tail
// from k >= 0, stopped when the tail bound is below 2^-(p+8) of the sum (or the sum underflowed,
// or kMaxDirectTerms were used: the result is then still certified, only wider).
Interval direct_sum(const mpz_class& k, long count, const mpq_class& sigma2, mpfr_prec_t p,
                    const mpq_class& c = mpq_class(0)) {
  if (count == 0 && sgn(k) < 0) throw std::logic_error("direct_sum: infinite tail from k < 0");
  if (count > 0 && sgn(k) < 0) {
    // By symmetry f(-x) = f(x), sum nonnegative ranges only: from a negative k the first ratio
    // r_k = exp((2|k| - 1)/(2 sigma2)) exceeds 1 and overflows MPFR's range for tiny sigma2
    // (sigma2 = 2e-26 with k = -1: the sum came out [0, inf], and calibrate discrete-gaussian
    // with eps = 1e30, Delta = 217 never found a lower bracket; accounting_fuzzer finding).
    const mpz_class last = k + (count - 1);
    if (sgn(last) < 0) return direct_sum(mpz_class(-last), count, sigma2, p, c);
    const long negatives = mpz_class(-k).get_si();  // x in [k, -1]: 1 <= negatives < count
    Interval sum = direct_sum(mpz_class(0), count - negatives, sigma2, p, c) +
                   direct_sum(mpz_class(1), negatives, sigma2, p, c);
    sum.set_precision(p);
    return sum;
  }
  const mpfr_prec_t w = p + 48;
  // First term e^c f(k) = exp(c - k^2/(2 sigma2)): the exponent is an exact rational, so a huge
  // c (e^eps with eps = 10^400) cancels exactly against k^2/(2 sigma2) instead of overflowing.
  const Interval t0 = exp(Interval(mpq_class(c - mpq_class(k * k) / (2 * sigma2)), w));
  const Interval r0 = exp(Interval(mpq_class(-mpq_class(2 * k + 1) / (2 * sigma2)), w));
  const Interval q0 = exp(Interval(mpq_class(-1 / sigma2), w));
  Real tl(w), th(w), rl(w), rh(w), sl(w), sh(w), tail(w), one_minus(w);
  mpfr_set(tl.get(), t0.lower(), MPFR_RNDD);
  mpfr_set(th.get(), t0.upper(), MPFR_RNDU);
  mpfr_set(rl.get(), r0.lower(), MPFR_RNDD);
  mpfr_set(rh.get(), r0.upper(), MPFR_RNDU);
  const long limit = count > 0 ? count : kMaxDirectTerms;
  for (long n = 1;; ++n) {
    mpfr_add(sl.get(), sl.get(), tl.get(), MPFR_RNDD);
    mpfr_add(sh.get(), sh.get(), th.get(), MPFR_RNDU);
    if (count > 0 && n == count) return Interval::from_ends(sl.get(), sh.get(), p);
    // Advance to f(k+n) and r_{k+n}.
    mpfr_mul(tl.get(), tl.get(), rl.get(), MPFR_RNDD);
    mpfr_mul(th.get(), th.get(), rh.get(), MPFR_RNDU);
    mpfr_mul(rl.get(), rl.get(), q0.lower(), MPFR_RNDD);
    mpfr_mul(rh.get(), rh.get(), q0.upper(), MPFR_RNDU);
    if (count > 0) continue;
    const bool check = n < 16 || n % 16 == 0 || n >= limit;
    if (!check) continue;
    // tail = f(k+n) / (1 - r_{k+n}) bounds sum_{y >= k+n} f(y).
    mpfr_ui_sub(one_minus.get(), 1, rh.get(), MPFR_RNDD);
    if (mpfr_sgn(one_minus.get()) <= 0) {
      if (n >= limit) return Interval::from_ends(sl.get(), Interval::entire(w).upper(), p);
      continue;
    }
    mpfr_div(tail.get(), th.get(), one_minus.get(), MPFR_RNDU);
    bool done = n >= limit || (mpfr_zero_p(sl.get()) && n >= 64);
    if (!done && !mpfr_zero_p(sl.get())) {
      Real scaled(w);
      mpfr_mul_2si(scaled.get(), sl.get(), -(p + 8), MPFR_RNDD);
      done = mpfr_lessequal_p(tail.get(), scaled.get()) != 0;
    }
    if (done) {
      mpfr_add(sh.get(), sh.get(), tail.get(), MPFR_RNDU);
      return Interval::from_ends(sl.get(), sh.get(), p);
    }
  }
}

// ---- Euler–Maclaurin ---------------------------------------------------------------------------
//
// For k >= 0, with f decreasing on [k, inf) and every derivative vanishing at infinity,
//   S(k) = int_k^inf f + f(k)/2 - sum_{j=1}^{m} B_2j/(2j)! f^(2j-1)(k) + R_m,
//   |R_m| <= |B_2m|/(2m)! int_k^inf |f^(2m)|
// (the periodic Bernoulli function satisfies |P_2m(x)| <= |B_2m|). With u = k/sigma,
//   f^(n)(x) = (-1)^n sigma^-n He_n(x/sigma) f(x)   (He: probabilists' Hermite polynomials),
// so the sum becomes S(k) = I + f(k) [1/2 + sum_j c_j sigma^-(2j-1) He_{2j-1}(u)] + R_m with
// I = sigma sqrt(2 pi) Q(u) and c_j = B_2j/(2j)!, and
//   int_k^inf |f^(n)| = sigma^(1-n) int_u^inf |He_n(v)| e^(-v^2/2) dv.
// Two bounds on that integral:
//  - if u >= sqrt(4n + 2), He_n has no zero on [u, inf) (all zeros of He_n lie in
//    (-sqrt(4n+2), sqrt(4n+2)): He_n(v) = 2^(-n/2) H_n(v/sqrt 2) and the zeros of H_n lie in
//    (-sqrt(2n+1), sqrt(2n+1)), Szego, Orthogonal Polynomials, 6.32), and by Rodrigues'
//    formula d/dv [He_{n-1}(v) e^(-v^2/2)] = -He_n(v) e^(-v^2/2), so the integral EQUALS
//    He_{n-1}(u) e^(-u^2/2) = He_{n-1}(u) f(k);
//  - always, by Cauchy–Schwarz on [u, inf) with int_R He_n^2 e^(-v^2/2) = sqrt(2 pi) n! and
//    int_u^inf e^(-v^2/2) = sqrt(2 pi) Q(u), it is at most sqrt(2 pi n! Q(u)).
// With a log scale c (the sum of e^c f), every term and bound is multiplied by e^c.
// Finally S(k) is intersected with the sandwich I <= S(k) <= I + f(k) (f decreasing).
struct EulerMaclaurin {
  Interval value;
  bool accurate;  // remainder <= 2^-(p+8) of the sum
};

// The quantities of the tail from k at working precision w (see above), scaled by e^c.
struct TailTerms {
  mpfr_prec_t w;
  Interval inv_sigma, inv_sigma2, u;
  Interval fk;        // e^c f(k)
  Interval integral;  // int_k^inf e^c f = sigma fk R(u)
  Interval q_upper;   // a point: an upper bound of e^c sqrt(Q(u)) (Cauchy-Schwarz remainder)
};

TailTerms tail_terms(const mpz_class& k, const mpq_class& sigma2, mpfr_prec_t p, const mpq_class& c) {
  // Extra bits: Q(u) at u = k/sigma loses ~2 log2 u bits to conditioning.
  long extra = 64;
  if (sgn(k) > 0) {
    const long log_u = static_cast<long>(mpz_sizeinbase(k.get_mpz_t(), 2)) - log2_size(sigma2) / 2;
    if (log_u > 0) extra += 2 * (log_u > 4096 ? 4096 : log_u);
  }
  const mpfr_prec_t w = p + static_cast<mpfr_prec_t>(extra);
  const Interval sigma = sqrt(Interval(sigma2, w));
  const Interval inv_sigma = Interval(1L, w) / sigma;
  const Interval u = Interval(k, w) * inv_sigma;
  // fk = e^c f(k), and int_k^inf e^c f = sigma sqrt(2 pi) e^c Q(u) = sigma fk R(u) with the
  // Mills ratio R (phi(u) sqrt(2 pi) = f(k)).
  const Interval fk = exp(Interval(mpq_class(c - mpq_class(k * k) / (2 * sigma2)), w));
  const Interval integral = sigma * fk * mills_ratio(u);
  // e^c sqrt(Q(u)) from log Q (no underflow or overflow); its upper end is all that is needed.
  const Interval scaled_sqrt_q = exp(Interval(c, w) + mul_2si(log_normal_sf(u), -1));
  Interval q_upper(w);
  mpfr_set(q_upper.lower(), scaled_sqrt_q.upper(), MPFR_RNDD);
  mpfr_set(q_upper.upper(), scaled_sqrt_q.upper(), MPFR_RNDU);
  return {w, inv_sigma, Interval(mpq_class(1 / sigma2), w), u, fk, integral, q_upper};
}

EulerMaclaurin euler_maclaurin_tail(const mpz_class& k, const mpq_class& sigma2, mpfr_prec_t p,
                                    const mpq_class& c = mpq_class(0)) {
  if (sgn(k) < 0) throw std::logic_error("euler_maclaurin_tail: k < 0");
  const TailTerms t = tail_terms(k, sigma2, p, c);
  const mpfr_prec_t w = t.w;
  const Interval& inv_sigma = t.inv_sigma;
  const Interval& inv_sigma2 = t.inv_sigma2;
  const Interval& u = t.u;
  const Interval& fk = t.fk;
  const Interval& integral = t.integral;
  const Interval& q_upper = t.q_upper;

  Real threshold(w);
  mpfr_mul_2si(threshold.get(), integral.lower(), -(p + 8), MPFR_RNDD);

  const std::vector<mpq_class>& coef = bernoulli_over_factorial();
  std::vector<Interval> he;  // He_0(u), He_1(u), ...
  he.emplace_back(1L, w);
  he.push_back(u);
  Interval bracket(mpq_class(1, 2), w);  // 1/2 + sum_j c_j sigma^-(2j-1) He_{2j-1}(u)
  Interval sigma_pow = inv_sigma;        // sigma^-(2j-1)
  mpz_class factorial = 1;               // (2m)!
  Real best_r(w), r(w);
  mpfr_set_inf(best_r.get(), 1);
  Interval best_bracket = bracket;
  const Interval two_pi = mul_2si(pi_interval(w), 1);
  for (int m = 1; m <= kMaxEulerMaclaurinOrder; ++m) {
    while (static_cast<int>(he.size()) <= 2 * m) {  // He_{n+1} = u He_n - n He_{n-1}
      const long n = static_cast<long>(he.size()) - 1;
      he.push_back(u * he[static_cast<std::size_t>(n)] -
                   he[static_cast<std::size_t>(n - 1)] * mpq_class(n));
    }
    const mpq_class& cm = coef[static_cast<std::size_t>(m)];
    bracket = bracket + sigma_pow * he[static_cast<std::size_t>(2 * m - 1)] * cm;
    factorial *= (2 * m - 1) * (2 * m);
    // Remainder bound R_m = |c_m| sigma^(1-2m) * (integral bound), all rounded up.
    const mpq_class abs_cm = abs(cm);
    const long n = 2 * m;
    Interval bound(w);
    const bool beyond_zeros = mpfr_sgn(u.lower()) > 0 && [&] {
      Real u2(w);
      mpfr_sqr(u2.get(), u.lower(), MPFR_RNDD);
      return mpfr_cmp_si(u2.get(), 4 * n + 2) >= 0;
    }();
    if (beyond_zeros) {
      bound = sigma_pow * he[static_cast<std::size_t>(n - 1)] * fk * abs_cm;
    } else {
      bound = sigma_pow * sqrt(two_pi * Interval(factorial, w)) * q_upper * abs_cm;
    }
    mpfr_set(r.get(), bound.upper(), MPFR_RNDU);
    if (mpfr_less_p(r.get(), best_r.get())) {
      mpfr_set(best_r.get(), r.get(), MPFR_RNDU);
      best_bracket = bracket;
    } else if (m > 8) {
      // The bounds may rise once when the exact tail bound stops applying; a rise by 2^20 in
      // the Cauchy–Schwarz regime means the asymptotic series has turned for good.
      Real far(w);
      mpfr_mul_2si(far.get(), best_r.get(), 20, MPFR_RNDU);
      if (mpfr_greater_p(r.get(), far.get())) break;
    }
    if (mpfr_lessequal_p(best_r.get(), threshold.get())) break;
    sigma_pow = sigma_pow * inv_sigma2;
  }
  Interval remainder(w);
  mpfr_neg(remainder.lower(), best_r.get(), MPFR_RNDD);
  mpfr_set(remainder.upper(), best_r.get(), MPFR_RNDU);
  Interval value = integral + fk * best_bracket + remainder;
  // The sandwich int_k^inf f <= S(k) <= f(k) + int_k^inf f.
  value = intersect(value, hull(integral, integral + fk));
  value.set_precision(p);
  return {value, mpfr_lessequal_p(best_r.get(), threshold.get()) != 0};
}

// Expected number of direct terms for a tail from k >= 0: up to where the terms fall below
// 2^-(p+8) of the first one, about sigma * sqrt(2 (p+8) ln 2) from the mode, fewer deep in the
// tail. We only need a rough figure to choose a method.
bool direct_is_cheap(const mpq_class& sigma2, mpfr_prec_t p) {
  // sigma^2 * 2 (p+8) ln 2 <= (4 * 10^6)^2  <=>  sigma2 * (p+8) <= 1.15e13
  return sigma2 * (p + 8) <= mpq_class(mpz_class("11500000000000"));
}

// e^c sum_{x >= k} f(x), k >= 0.
Interval tail_sum_nonnegative(const mpz_class& k, const mpq_class& sigma2, mpfr_prec_t p,
                              GaussianSumMethod method, const mpq_class& c = mpq_class(0)) {
  switch (method) {
    case GaussianSumMethod::kDirect:
      return direct_sum(k, 0, sigma2, p, c);
    case GaussianSumMethod::kEulerMaclaurin:
      return euler_maclaurin_tail(k, sigma2, p, c).value;
    case GaussianSumMethod::kAuto:
      break;
  }
  // Small sigma2, or deep in the tail (k >= sigma2/2, ratios <= e^(-1/2)): few direct terms.
  if (sigma2 < kDirectSigma2Limit || mpq_class(k) * 2 >= sigma2) {
    return direct_sum(k, 0, sigma2, p, c);
  }
  EulerMaclaurin em = euler_maclaurin_tail(k, sigma2, p, c);
  if (!em.accurate && direct_is_cheap(sigma2, p)) {
    return intersect(em.value, direct_sum(k, 0, sigma2, p, c));  // both certified
  }
  return em.value;
}

}  // namespace

namespace internal {

Interval gaussian_normaliser_poisson(const mpq_class& sigma2, mpfr_prec_t p) {
  // Poisson summation (Jacobi's theta transformation):
  //   sum_x exp(-x^2/(2 s)) = sqrt(2 pi s) sum_k exp(-2 pi^2 s k^2) = sqrt(2 pi s) (1 + 2 T),
  //   T = sum_{k>=1} theta^(k^2), theta = exp(-2 pi^2 s) < 1,
  // and sum_{k>K} theta^(k^2) <= sum_{j >= (K+1)^2} theta^j = theta^((K+1)^2) / (1 - theta).
  const mpfr_prec_t w = p + 32;
  const Interval pi = pi_interval(w);
  const Interval c = square(pi) * mpq_class(2 * sigma2);  // 2 pi^2 s
  const Interval theta = exp(-c);
  const Interval one(1L, w);
  Interval t(w);
  Real limit(w);
  mpfr_set_si_2exp(limit.get(), 1, -(p + 8), MPFR_RNDD);
  for (long k = 1;; ++k) {
    const Interval next = exp(-(c * mpq_class(k * k)));
    const Interval omitted = exp(-(c * mpq_class((k + 1) * (k + 1)))) / (one - theta);
    t = t + next;
    if (mpfr_lessequal_p(omitted.upper(), limit.get()) || k > 1'000'000) {
      Interval tail(w);
      mpfr_set(tail.upper(), omitted.upper(), MPFR_RNDU);
      t = t + tail;
      break;
    }
  }
  Interval n = sqrt(mul_2si(pi, 1) * Interval(sigma2, w)) * (one + mul_2si(t, 1));
  n.set_precision(p);
  return n;
}

Interval gaussian_normaliser(const mpq_class& sigma2, mpfr_prec_t p, GaussianSumMethod method) {
  if (method == GaussianSumMethod::kAuto && sigma2 >= mpq_class(1, 2)) {
    return gaussian_normaliser_poisson(sigma2, p);
  }
  // N = f(0) + 2 S(1).
  const mpfr_prec_t w = p + 8;
  Interval n = Interval(1L, w) + mul_2si(tail_sum_nonnegative(mpz_class(1), sigma2, w, method), 1);
  n.set_precision(p);
  return n;
}

Interval gaussian_tail_sum_scaled(const mpz_class& k, const mpq_class& sigma2,
                                  const mpq_class& log_scale, mpfr_prec_t p,
                                  GaussianSumMethod method) {
  if (sgn(k) < 0) throw ParameterError::out_of_range("k", to_string(k), "k >= 0 (gaussian_tail_sum_scaled)");
  return tail_sum_nonnegative(k, sigma2, p, method, log_scale);
}

Interval gaussian_tail_sum(const mpz_class& k, const mpq_class& sigma2, mpfr_prec_t p,
                           GaussianSumMethod method) {
  if (sgn(k) >= 0) return tail_sum_nonnegative(k, sigma2, p, method);
  // k < 0: S(k) = N - S(1 - k) by symmetry; S(k) >= N/2, so no cancellation to speak of.
  const mpfr_prec_t w = p + 8;
  Interval s = gaussian_normaliser(sigma2, w, method) -
               tail_sum_nonnegative(mpz_class(1 - k), sigma2, w, method);
  s.set_precision(p);
  return s;
}

Interval gaussian_range_sum(const mpz_class& a, const mpz_class& b, const mpq_class& sigma2,
                            mpfr_prec_t p, GaussianSumMethod method) {
  if (b < a) return Interval(p);
  const mpz_class count = b - a + 1;
  if (count <= kMaxDirectRange) return direct_sum(a, count.get_si(), sigma2, p);
  // S(a) - S(b + 1); may cancel when the range is short next to sigma (the Ziv loop then raises
  // the precision).
  const mpfr_prec_t w = p + 8;
  Interval s = gaussian_tail_sum(a, sigma2, w, method) -
               gaussian_tail_sum(mpz_class(b + 1), sigma2, w, method);
  s = clamp(s, mpq_class(0), mpq_class(count));  // 0 <= sum of `count` values in (0, 1]
  s.set_precision(p);
  return s;
}

}  // namespace internal

// k1 = floor(t1) + 1, t1 = eps sigma2/Delta - Delta/2, in integer arithmetic: t1 =
// (2 e s - Delta^2 e' s') / (2 Delta e' s') with eps = e/e', sigma2 = s/s'. The rational form
// canonicalised 660,000-bit products (a gcd each) at eps = 10^99999, sigma2 = 10^100000.
static mpz_class crossing_index(const mpq_class& epsilon, const mpq_class& sigma2, const mpz_class& sensitivity) {
  const mpz_class dens = epsilon.get_den() * sigma2.get_den();
  const mpz_class num = 2 * epsilon.get_num() * sigma2.get_num() - sensitivity * sensitivity * dens;
  const mpz_class den = 2 * sensitivity * dens;
  mpz_class k;
  mpz_fdiv_q(k.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
  return k + 1;
}

long range_sum_cancellation_bits(const mpq_class& sigma2, const mpz_class& sensitivity) {
  return log2_size(sigma2) / 2 - static_cast<long>(mpz_sizeinbase(sensitivity.get_mpz_t(), 2)) + 1;
}

void check_range_sum_cost(const mpq_class& sigma2, const mpz_class& sensitivity,
                          const char* parameter) {
  if (sensitivity <= kMaxDirectRange) return;
  const long bits = range_sum_cancellation_bits(sigma2, sensitivity);
  if (bits > kMaxRangeCancellationBits) {
    throw LimitError(parameter, std::string(parameter) +
                                    ", sensitivity: with sensitivity > 4096 the discrete Gaussian "
                                    "profile needs sqrt(sigma2) / sensitivity <= 2^" +
                                    std::to_string(kMaxRangeCancellationBits) + " (here about 2^" +
                                    std::to_string(bits) +
                                    "): its range sum would cancel that many bits");
  }
}

void validate_discrete_gaussian(const mpq_class& epsilon, const mpq_class& sigma2,
                                const mpz_class& sensitivity) {
  require_nonnegative("epsilon", epsilon);
  require_positive("sigma2", sigma2);
  require_integer_sensitivity(sensitivity);
}

Interval discrete_gaussian_tail_limit(const mpq_class& sigma2, const mpz_class& sensitivity,
                                      mpfr_prec_t precision) {
  require_positive("sigma2", sigma2);
  require_integer_sensitivity(sensitivity);
  return Interval(mpq_class(sensitivity), precision) / sqrt(Interval(sigma2, precision));
}

Interval discrete_gaussian_delta_at(const mpq_class& epsilon, const mpq_class& sigma2,
                                    const mpz_class& sensitivity, mpfr_prec_t precision,
                                    GaussianSumMethod method) {
  validate_discrete_gaussian(epsilon, sigma2, sensitivity);
  const mpfr_prec_t w = precision + 16;
  // CKS20 Theorem 7: P[Z > t1] - e^eps P[Z > t1 + Delta], t1 = eps sigma2/Delta - Delta/2.
  const mpz_class k1 = crossing_index(epsilon, sigma2, sensitivity);  // Z > t1  <=>  Z >= k1
  const mpz_class k2 = k1 + sensitivity;
  // Far beyond MPFR's range, from sizes alone: when k1 >= 2^(b-1) and k1^2 / (2 sigma2) >= 2^64,
  // delta <= S(k1)/N <= f(k1) (1 + sigma2/k1) <= e^(-2^64) 2^b (N >= f(0) = 1; the geometric tail
  // bound above), far below 2^emin; [0, 2^emin] is returned without the sums, whose exact
  // exponents cost ~10 ms at eps = 10^99999 (profile --curve to 10^100000 took minutes).
  if (sgn(k1) > 0 && method == GaussianSumMethod::kAuto) {
    const mpq_class two_sigma2 = 2 * sigma2;
    const long log2_two_sigma2_upper = log2_size(two_sigma2) + 1;  // 2 sigma2 < 2^this
    const long log2_k1_lower = static_cast<long>(mpz_sizeinbase(k1.get_mpz_t(), 2)) - 1;
    if (2 * log2_k1_lower - log2_two_sigma2_upper >= 64) {
      Interval tiny(precision);
      mpfr_set_zero(tiny.lower(), 1);
      mpfr_set_ui_2exp(tiny.upper(), 1, mpfr_get_emin(), MPFR_RNDU);
      return tiny;
    }
  }
  const Interval d = gaussian_range_sum(k1, mpz_class(k2 - 1), sigma2, w, method);
  Interval numerator = d;
  if (sgn(epsilon) != 0 && epsilon <= 1) {
    // Small eps: S(k1) - e^eps S(k2) = D - expm1(eps) S(k2), no cancellation of S(k1) against
    // e^eps S(k2).
    numerator = d - expm1(Interval(epsilon, w)) * gaussian_tail_sum(k2, sigma2, w, method);
  } else if (epsilon > 1) {
    // Large eps: e^eps S(k2) = sum_{y >= k2} exp(eps - y^2/(2 sigma2)) with exact rational
    // exponents (k2 >= 1 always), so e^eps never overflows (eps = 10^400 is a legal input).
    numerator = d + gaussian_tail_sum(k2, sigma2, w, method) -
                internal::gaussian_tail_sum_scaled(k2, sigma2, epsilon, w, method);
  }
  const Interval n = gaussian_normaliser(sigma2, w, method);
  Interval delta = clamp(numerator / n, mpq_class(0), mpq_class(1));
  delta.set_precision(precision);
  return delta;
}

Interval discrete_gaussian_delta_complement_at(const mpq_class& epsilon, const mpq_class& sigma2,
                                               const mpz_class& sensitivity,
                                               mpfr_prec_t precision, GaussianSumMethod method) {
  validate_discrete_gaussian(epsilon, sigma2, sensitivity);
  const mpfr_prec_t w = precision + 16;
  const mpz_class k1 = crossing_index(epsilon, sigma2, sensitivity);
  const mpz_class k2 = k1 + sensitivity;  // >= 1: k1 >= 1 - Delta/2
  // P[Z < k1] N = sum_{x <= k1 - 1} f(x) = S(1 - k1) (f is even).
  const Interval below = gaussian_tail_sum(mpz_class(1 - k1), sigma2, w, method);
  // e^eps S(k2): scaled with exact exponents for eps > 1 (no overflow), else e^eps times S(k2).
  const Interval above = epsilon > 1
                             ? internal::gaussian_tail_sum_scaled(k2, sigma2, epsilon, w, method)
                             : exp(Interval(epsilon, w)) * gaussian_tail_sum(k2, sigma2, w, method);
  const Interval n = gaussian_normaliser(sigma2, w, method);
  Interval complement = clamp((below + above) / n, mpq_class(0), mpq_class(1));
  complement.set_precision(precision);
  return complement;
}

Certified discrete_gaussian_delta(const mpq_class& epsilon, const mpq_class& sigma2,
                                  const mpz_class& sensitivity, const ZivOptions& options,
                                  GaussianSumMethod method) {
  validate_discrete_gaussian(epsilon, sigma2, sensitivity);
  check_range_sum_cost(sigma2, sensitivity, "sigma2");
  return evaluate_to_tolerance(
      [&](mpfr_prec_t p) {
        return discrete_gaussian_delta_at(epsilon, sigma2, sensitivity, p, method);
      },
      options);
}

}  // namespace exactdp::accounting
