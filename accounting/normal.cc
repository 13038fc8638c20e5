#include "accounting/normal.h"

namespace exactdp::accounting {
namespace {

// log Q(t) for a point t >= 2^20, where Q(t) = 1 - Phi(t), as an interval.
//
// Integration by parts n times gives, with phi the normal density (e.g. Abramowitz & Stegun
// 26.2.12 and its remainder):
//   Q(t) = phi(t) [ sum_{k=0}^{n-1} (-1)^k (2k-1)!! / t^(2k+1) ]
//          + (-1)^n (2n-1)!! int_t^inf phi(u) u^(-2n) du,
// and 0 <= int_t^inf phi(u) u^(-2n) du <= t^(-2n-1) int_t^inf u phi(u) du = phi(t) t^(-2n-1).
// So M(t) = t Q(t) / phi(t) lies between the partial sums S_n and S_{n+1} of
// sum_k (-1)^k (2k-1)!! t^(-2k), for every n. Hence
//   log Q(t) = -t^2/2 - log t - log(2 pi)/2 + log M(t),  M(t) in hull(S_n, S_{n+1}).
// We stop once the next term is below 2^-(precision + 8), so the hull is as narrow as the
// working precision.
Interval log_normal_sf_asymptotic(mpfr_srcptr t_value, mpfr_prec_t precision) {
  const Interval t = Interval::point(t_value, precision);
  const Interval inv_t2 = Interval(1L, precision) / square(t);
  Interval term(1L, precision);  // (2k-1)!! / t^(2k), k = 0
  Interval partial = term;       // S_1
  Interval previous = Interval(0L, precision);
  Real threshold(precision);
  mpfr_set_si_2exp(threshold.get(), 1, -(precision + 8), MPFR_RNDD);
  bool negative = false;
  for (long k = 1;; ++k) {
    term = term * inv_t2 * mpq_class(2 * k - 1);  // (2k-1)!! / t^(2k)
    previous = partial;
    negative = !negative;
    partial = negative ? partial - term : partial + term;
    if (mpfr_less_p(term.upper(), threshold.get())) break;
    if (k > 1'000'000) break;  // unreachable for t >= 2^20 and precision <= 2^16; still sound
  }
  const Interval m = hull(previous, partial);
  Interval two_pi = mul_2si(pi_interval(precision), 1);
  return -mul_2si(square(t), -1) - log(t) - mul_2si(log(two_pi), -1) + log(m);
}

constexpr long kAsymptoticLog2Threshold = 20;  // use the series for t >= 2^20

bool use_asymptotic(mpfr_srcptr t) {
  return mpfr_cmp_si_2exp(t, 1, kAsymptoticLog2Threshold) >= 0;
}

// log Q at one end, rounded in direction rnd (RNDD: a lower bound; RNDU: an upper bound).
void log_sf_end(mpfr_ptr out, mpfr_srcptr t, mpfr_prec_t precision, mpfr_rnd_t rnd) {
  Interval r(precision);
  if (use_asymptotic(t)) {
    r = log_normal_sf_asymptotic(t, precision);
  } else {
    r = log(normal_sf(Interval::point(t, precision)));
  }
  mpfr_set(out, rnd == MPFR_RNDD ? r.lower() : r.upper(), rnd);
}

}  // namespace

Interval inv_sqrt2_interval(mpfr_prec_t precision) {
  Interval r(precision);
  // 1/sqrt(2) = sqrt(1/2); mpfr_rec_sqrt is correctly rounded.
  Real two(precision);
  mpfr_set_ui(two.get(), 2, MPFR_RNDD);  // exact
  mpfr_rec_sqrt(r.lower(), two.get(), MPFR_RNDD);
  mpfr_rec_sqrt(r.upper(), two.get(), MPFR_RNDU);
  return r;
}

Interval sqrt_2pi_interval(mpfr_prec_t precision) {
  return sqrt(mul_2si(pi_interval(precision), 1));
}

Interval erfc(const Interval& x) {  // decreasing
  Interval r(x.precision());
  mpfr_erfc(r.lower(), x.upper(), MPFR_RNDD);
  mpfr_erfc(r.upper(), x.lower(), MPFR_RNDU);
  return r;
}

Interval erf(const Interval& x) {  // increasing
  Interval r(x.precision());
  mpfr_erf(r.lower(), x.lower(), MPFR_RNDD);
  mpfr_erf(r.upper(), x.upper(), MPFR_RNDU);
  return r;
}

Interval normal_sf(const Interval& x) {
  // Q(x) = erfc(x / sqrt 2) / 2; the scaling is outward-rounded, erfc is evaluated at the ends
  // of the scaled interval (decreasing), and halving is exact.
  //
  // Conditioning: d log erfc(t) / dt ~ -2t, so a relative error r in t = x / sqrt 2 becomes a
  // relative error ~ 2 t^2 r in the result. We therefore scale at 2 log2|x| + 16 extra bits,
  // so that far tails (x = -40000, -10^6) keep the working precision.
  const mpfr_prec_t p = x.precision();
  mpfr_exp_t e = 0;
  for (mpfr_srcptr end : {x.lower(), x.upper()}) {
    if (mpfr_regular_p(end) && mpfr_get_exp(end) > e) e = mpfr_get_exp(end);
  }
  mpfr_prec_t extra = 16 + 2 * static_cast<mpfr_prec_t>(e > 4096 ? 4096 : e);
  const mpfr_prec_t scaled_precision = p + extra;
  Interval wide = x;
  wide.set_precision(scaled_precision);  // exact: more bits
  const Interval t = wide * inv_sqrt2_interval(scaled_precision);
  Interval r(p);
  mpfr_erfc(r.lower(), t.upper(), MPFR_RNDD);  // erfc is decreasing
  mpfr_erfc(r.upper(), t.lower(), MPFR_RNDU);
  return mul_2si(r, -1);
}

Interval normal_sf(const mpq_class& x, mpfr_prec_t precision) {
  return normal_sf(Interval(x, precision));
}

Interval normal_cdf(const Interval& x) { return normal_sf(-x); }

Interval normal_cdf(const mpq_class& x, mpfr_prec_t precision) {
  return normal_cdf(Interval(x, precision));
}

Interval log_normal_sf(const Interval& x) {  // decreasing in x
  const mpfr_prec_t p = x.precision();
  Interval r(p);
  // Lower end of log Q from the upper end of x, and vice versa.
  log_sf_end(r.lower(), x.upper(), p, MPFR_RNDD);
  log_sf_end(r.upper(), x.lower(), p, MPFR_RNDU);
  return r;
}

Interval log_normal_cdf(const Interval& x) { return log_normal_sf(-x); }

Interval log_normal_cdf(const mpq_class& x, mpfr_prec_t precision) {
  return log_normal_cdf(Interval(x, precision));
}

Interval normal_pdf(const Interval& x) {
  return exp(-mul_2si(square(x), -1)) / sqrt_2pi_interval(x.precision());
}

}  // namespace exactdp::accounting
