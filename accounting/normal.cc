#include <exactdp/accounting/normal.h>

#include <algorithm>
#include <utility>

namespace exactdp::accounting {
namespace {

// ---- the Mills ratio by Laplace's continued fraction -------------------------------------------
//
// For t > 0, R(t) = Q(t) / phi(t) (Q = 1 - Phi, phi the density) has Laplace's continued fraction
//   R(t) = 1/(t + 1/(t + 2/(t + 3/(t + ...)))),
// i.e. K(a_k / b_k) with a_1 = 1, a_k = k - 1 (k >= 2), b_k = t (Abramowitz & Stegun 26.2.14;
// Cuyt et al., Handbook of Continued Fractions for Special Functions, 13.2). All a_k, b_k > 0, so
// the convergents f_n = A_n / B_n alternate around the value: f_2 < f_4 < ... < R(t) < ... <
// f_3 < f_1 (the classical alternation of continued fractions with positive elements, e.g.
// Jones & Thron, Thm 4.35). Hence R(t) lies in hull(f_n, f_{n+1}) for every n. The Wallis
// recurrences A_k = t A_{k-1} + a_k A_{k-2}, B_k = t B_{k-1} + a_k B_{k-2} add positive terms
// only, so outward rounding widens them by a relative ~k 2^-p and never cancels.
// Convergence is roughly exp(-2 t sqrt(n)): n ~ (p ln 2 / (2 t))^2 terms for p bits, so we use it
// for t >= kContinuedFractionThreshold (MPFR's erfc is slow exactly there, e.g. ~1 ms for
// erfc(10.6) at 192 bits, ~10 ms for erfc(30) at 256 bits) and MPFR's erfc below.
//
// (For t beyond ~2.5e9, Q(t) itself underflows MPFR's exponent range; log Q does not.)
constexpr long kContinuedFractionThreshold = 6;

// R(t) for a point t >= 1 as an interval at precision p; false if it did not converge within
// the term budget (the caller falls back to MPFR's erfc). All quantities are positive, so each
// end is a separate recurrence with one rounding direction.
bool mills_ratio_cf(mpfr_srcptr t, mpfr_prec_t p, Interval& out) {
  constexpr long kMaxTerms = 1L << 20;
  // Guard bits for the ~log2(n) bits the recurrence loses.
  const mpfr_prec_t w = p + 32;
  // Index 0: A_{k-2} (B_{k-2}); 1: A_{k-1}; 2: scratch. A_{-1} = 1, A_0 = 0, B_{-1} = 0, B_0 = 1.
  Real al[3] = {Real(w), Real(w), Real(w)}, ah[3] = {Real(w), Real(w), Real(w)};
  Real bl[3] = {Real(w), Real(w), Real(w)}, bh[3] = {Real(w), Real(w), Real(w)};
  Real x(w), y(w), lo(w), hi(w);
  mpfr_set_ui(al[0].get(), 1, MPFR_RNDD);
  mpfr_set_ui(ah[0].get(), 1, MPFR_RNDU);
  mpfr_set_ui(bl[1].get(), 1, MPFR_RNDD);
  mpfr_set_ui(bh[1].get(), 1, MPFR_RNDU);
  auto step = [&](Real* v, unsigned long a, mpfr_rnd_t rnd) {
    mpfr_mul(x.get(), t, v[1].get(), rnd);
    mpfr_mul_ui(y.get(), v[0].get(), a, rnd);
    mpfr_add(v[2].get(), x.get(), y.get(), rnd);
    mpfr_swap(v[0].get(), v[1].get());
    mpfr_swap(v[1].get(), v[2].get());
  };
  for (long k = 1; k <= kMaxTerms; ++k) {
    const unsigned long a = k == 1 ? 1UL : static_cast<unsigned long>(k - 1);
    step(al, a, MPFR_RNDD);
    step(ah, a, MPFR_RNDU);
    step(bl, a, MPFR_RNDD);
    step(bh, a, MPFR_RNDU);
    if (k < 2 || (k % 8 != 0 && k > 8)) continue;
    // hull(f_k, f_{k-1}) with f = A / B: lower ends A_lo / B_hi, upper ends A_hi / B_lo.
    mpfr_div(x.get(), al[1].get(), bh[1].get(), MPFR_RNDD);
    mpfr_div(y.get(), al[0].get(), bh[0].get(), MPFR_RNDD);
    mpfr_min(lo.get(), x.get(), y.get(), MPFR_RNDD);
    mpfr_div(x.get(), ah[1].get(), bl[1].get(), MPFR_RNDU);
    mpfr_div(y.get(), ah[0].get(), bl[0].get(), MPFR_RNDU);
    mpfr_max(hi.get(), x.get(), y.get(), MPFR_RNDU);
    mpfr_sub(x.get(), hi.get(), lo.get(), MPFR_RNDU);
    if (mpfr_zero_p(x.get()) || mpfr_get_exp(x.get()) < mpfr_get_exp(lo.get()) - p - 2) {
      out = Interval::from_ends(lo.get(), hi.get(), p);
      return true;
    }
    // Rescale now and then (a common positive factor cancels in A / B).
    if (mpfr_get_exp(bl[1].get()) > 1 << 20) {
      const long shift = -static_cast<long>(mpfr_get_exp(bl[1].get()));
      for (Real* v : {al, ah, bl, bh}) {
        mpfr_mul_2si(v[0].get(), v[0].get(), shift, MPFR_RNDD);  // exact: a power of two
        mpfr_mul_2si(v[1].get(), v[1].get(), shift, MPFR_RNDD);
      }
    }
  }
  return false;
}

// The continued fraction needs about (p ln 2 / (2 t))^2 ~ (0.35 p / t)^2 terms; we use it for
// t >= 6 when that is at most ~20000 (p <= 400 t). Measured break-even with MPFR's erfc (at
// t / sqrt 2) is t ~ 5 at 128-256 bits.
bool continued_fraction_is_cheap(mpfr_srcptr t, mpfr_prec_t p) {
  if (mpfr_cmp_si(t, kContinuedFractionThreshold) < 0) return false;
  Real bound(64);
  mpfr_mul_ui(bound.get(), t, 400, MPFR_RNDD);
  return mpfr_cmp_si(bound.get(), p) >= 0;
}

// Extra bits so that an absolute error 2^-p in -t^2/2 survives exponentiation: 2 log2 t + 16
// (capped: beyond t = 2^4096 the result underflows anyway).
mpfr_prec_t tail_extra_bits(mpfr_srcptr t) {
  const mpfr_exp_t e = mpfr_regular_p(t) ? mpfr_get_exp(t) : 0;
  return 16 + 2 * static_cast<mpfr_prec_t>(e > 0 ? (e > 4096 ? 4096 : e) : 0);
}

// log phi(t) = -t^2/2 - log(2 pi)/2, with t a point (kept exact).
Interval log_normal_pdf_point(mpfr_srcptr t, mpfr_prec_t p) {
  const Interval tt = Interval::point(t, std::max(p, mpfr_get_prec(t)));
  Interval r = -mul_2si(square(tt), -1) - mul_2si(log(mul_2si(pi_interval(p), 1)), -1);
  r.set_precision(p);
  return r;
}

// erfc on the narrow interval u = [u_lo, u_hi] with ONE erfc call: erfc is decreasing with
// |erfc'(v)| = (2/sqrt(pi)) exp(-v^2) <= 1.129 exp(-m^2) on u, m = min |v| over u, so
//   erfc(u_lo) - (u_hi - u_lo) * 1.129 exp(-m^2) <= erfc(v) <= erfc(u_lo)   for v in u.
// erfc(u_lo) is computed rounded down; its upper bound is the next number up when inexact.
Interval erfc_narrow(const Interval& u, mpfr_prec_t p) {
  Interval r(p);
  const int inexact = mpfr_erfc(r.lower(), u.lower(), MPFR_RNDD);
  mpfr_set(r.upper(), r.lower(), MPFR_RNDU);
  if (inexact != 0) mpfr_nextabove(r.upper());
  if (!u.is_point()) {
    Real m(64), slope(64), width(64);
    if (u.contains_zero()) {
      mpfr_set_zero(m.get(), 1);
    } else if (u.is_positive()) {
      mpfr_set(m.get(), u.lower(), MPFR_RNDD);
    } else {
      mpfr_neg(m.get(), u.upper(), MPFR_RNDD);  // |u_hi| is the smaller magnitude
    }
    mpfr_sqr(m.get(), m.get(), MPFR_RNDD);
    mpfr_neg(m.get(), m.get(), MPFR_RNDU);     // -m^2 rounded up
    mpfr_exp(slope.get(), m.get(), MPFR_RNDU);  // exp(-m^2), upper bound
    mpfr_mul_ui(slope.get(), slope.get(), 1129, MPFR_RNDU);
    mpfr_div_ui(slope.get(), slope.get(), 1000, MPFR_RNDU);  // 1.129 > 2/sqrt(pi) = 1.12838
    mpfr_sub(width.get(), u.upper(), u.lower(), MPFR_RNDU);
    mpfr_mul(slope.get(), slope.get(), width.get(), MPFR_RNDU);
    mpfr_sub(r.lower(), r.lower(), slope.get(), MPFR_RNDD);
  }
  return r;
}

// Q(t) at a point t, as an interval at precision p.
Interval sf_point(mpfr_srcptr t, mpfr_prec_t p) {
  if (mpfr_sgn(t) > 0 && continued_fraction_is_cheap(t, p)) {
    // Q = exp(log phi(t)) * R(t), the exponent with extra bits (absolute error ~2^-p).
    Interval r(p);
    if (mills_ratio_cf(t, p, r)) {
      Interval e = exp(log_normal_pdf_point(t, p + tail_extra_bits(t)));
      e.set_precision(p);
      return e * r;
    }
  }
  if (mpfr_sgn(t) < 0) {
    Real neg(mpfr_get_prec(t));
    mpfr_neg(neg.get(), t, MPFR_RNDD);  // exact
    if (continued_fraction_is_cheap(neg.get(), p)) {
      return Interval(1L, p) - sf_point(neg.get(), p);  // 1 - Q(|t|): no cancellation
    }
  }
  // MPFR's correctly rounded erfc at t / sqrt 2. Conditioning: d log erfc(u)/du ~ -2u, so the
  // scaling is done with 2 log2|t| + 16 extra bits.
  const mpfr_prec_t scaled = p + tail_extra_bits(t);
  const Interval u = Interval::point(t, std::max(scaled, mpfr_get_prec(t))) *
                     inv_sqrt2_interval(scaled);
  return mul_2si(erfc_narrow(u, p), -1);
}

// log Q(t) at a point t. Never underflows: for t >= 6 it is log phi(t) + log R(t), whose
// relative precision is that of -t^2/2, the dominant term.
Interval log_sf_point(mpfr_srcptr t, mpfr_prec_t p) {
  if (continued_fraction_is_cheap(t, p + 8)) {
    Interval r(p + 8);
    if (mills_ratio_cf(t, p + 8, r)) {
      Interval out = log_normal_pdf_point(t, p + 8) + log(r);
      out.set_precision(p);
      return out;
    }
  }
  return log(sf_point(t, p));
}

// R(t) = Q(t) / phi(t) at a point t (any sign): the continued fraction where it is cheap,
// else Q / phi from MPFR's erfc and exp (no underflow for |t| < 2^31; beyond, the CF is cheap).
Interval r_point(mpfr_srcptr t, mpfr_prec_t p) {
  if (mpfr_sgn(t) > 0 && continued_fraction_is_cheap(t, p)) {
    Interval r(p);
    if (mills_ratio_cf(t, p, r)) return r;
  }
  const mpfr_prec_t w = p + 8;
  // phi(t) = exp(-t^2/2) / sqrt(2 pi), the exponent with extra bits (absolute error ~2^-w).
  const mpfr_prec_t we = w + tail_extra_bits(t);
  const Interval tt = Interval::point(t, std::max(we, mpfr_get_prec(t)));
  Interval phi = exp(-mul_2si(square(tt), -1)) / sqrt_2pi_interval(we);
  phi.set_precision(w);
  Interval r = sf_point(t, w) / phi;
  r.set_precision(p);
  return r;
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

namespace {

// True when [l, u] is narrow enough that one evaluation plus a slope bound loses at most about
// half the working precision relative to the function's own width: u - l <= 2^-(p/2) max(1, |l|).
bool is_narrow(mpfr_srcptr l, mpfr_srcptr u, mpfr_prec_t p) {
  if (!mpfr_number_p(l) || !mpfr_number_p(u)) return false;
  if (mpfr_equal_p(l, u)) return true;
  Real width(64), scale(64);
  mpfr_sub(width.get(), u, l, MPFR_RNDU);
  mpfr_abs(scale.get(), l, MPFR_RNDD);
  if (mpfr_cmp_ui(scale.get(), 1) < 0) mpfr_set_ui(scale.get(), 1, MPFR_RNDD);
  mpfr_mul_2si(scale.get(), scale.get(), -(p / 2), MPFR_RNDD);
  return mpfr_lessequal_p(width.get(), scale.get()) != 0;
}

// m = min |v| over [l, u], rounded down.
void min_abs(mpfr_ptr m, mpfr_srcptr l, mpfr_srcptr u) {
  if (mpfr_sgn(l) <= 0 && mpfr_sgn(u) >= 0) {
    mpfr_set_zero(m, 1);
  } else if (mpfr_sgn(l) > 0) {
    mpfr_set(m, l, MPFR_RNDD);
  } else {
    mpfr_neg(m, u, MPFR_RNDD);
  }
}

// f on [l, u] for a decreasing f: both ends are evaluated when the interval is wide; a narrow
// one costs one evaluation at l, whose lower end is lowered by drop (an upper bound of
// f(l) - f(u), from a bound on the slope; drop(l, u, out) writes it into a 64-bit out).
template <class Point, class Drop>
Interval decreasing_on(mpfr_srcptr l, mpfr_srcptr u, mpfr_prec_t p, Point point, Drop drop) {
  if (!is_narrow(l, u, p)) {
    const Interval hi = point(l, p);
    const Interval lo = point(u, p);
    return Interval::from_ends(lo.lower(), hi.upper(), p);
  }
  Interval r = point(l, p);
  if (mpfr_equal_p(l, u)) return r;
  Real d(64), width(64);
  drop(l, u, d.get());
  mpfr_sub(width.get(), u, l, MPFR_RNDU);
  mpfr_mul(d.get(), d.get(), width.get(), MPFR_RNDU);
  mpfr_sub(r.lower(), r.lower(), d.get(), MPFR_RNDD);
  return r;
}

// Q on [l, u] (decreasing). For a narrow interval, one evaluation at l and the slope bound
// |Q'| = phi <= 0.399 exp(-m^2/2) (1/sqrt(2 pi) = 0.39894...), m = min |v|:
//   Q(u) >= Q(l) - (u - l) * 0.399 exp(-m^2/2).
Interval sf_interval(mpfr_srcptr l, mpfr_srcptr u, mpfr_prec_t p) {
  Interval r = decreasing_on(l, u, p, sf_point, [](mpfr_srcptr lo, mpfr_srcptr hi, mpfr_ptr slope) {
    Real m(64);
    min_abs(m.get(), lo, hi);
    mpfr_sqr(m.get(), m.get(), MPFR_RNDD);
    mpfr_div_2ui(m.get(), m.get(), 1, MPFR_RNDD);
    mpfr_neg(m.get(), m.get(), MPFR_RNDU);  // -m^2/2 rounded up
    mpfr_exp(slope, m.get(), MPFR_RNDU);    // upper bound of exp(-m^2/2)
    mpfr_mul_ui(slope, slope, 399, MPFR_RNDU);
    mpfr_div_ui(slope, slope, 1000, MPFR_RNDU);
  });
  if (mpfr_sgn(r.lower()) < 0) mpfr_set_zero(r.lower(), 1);  // Q > 0
  return r;
}

// log Q on [l, u] (decreasing). For a narrow interval, one evaluation at l and the hazard
// bound: -(log Q)' = phi/Q = 1/R is increasing, with 1/R(u) <= u + 1/u for u > 0 (Gordon's
// inequality R(u) >= u / (u^2 + 1)), hence <= u + 2 for u > 0 (as 1/R(u) <= 1/R(1) <= 2 for
// u <= 1), and <= 1/R(0) = 2 phi(0) < 1 for u <= 0:
//   log Q(u) >= log Q(l) - (u - l) * H,  H = u + 2 (u > 0) or 1 (u <= 0).
Interval log_sf_interval(mpfr_srcptr l, mpfr_srcptr u, mpfr_prec_t p) {
  return decreasing_on(l, u, p, log_sf_point, [](mpfr_srcptr, mpfr_srcptr hi, mpfr_ptr h) {
    if (mpfr_sgn(hi) > 0) {
      mpfr_add_ui(h, hi, 2, MPFR_RNDU);
    } else {
      mpfr_set_ui(h, 1, MPFR_RNDU);
    }
  });
}

// A rational argument rounded to enough bits that the tails keep `precision` bits:
// d log Q(x) / dx ~ -x, so a relative error r in x costs ~x^2 r.
Interval argument_interval(const mpq_class& x, mpfr_prec_t precision) {
  const long bits = static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 2)) -
                    static_cast<long>(mpz_sizeinbase(x.get_den_mpz_t(), 2)) + 1;
  const long extra = 16 + 2 * std::clamp(bits, 0L, 4096L);
  return Interval(x, precision + static_cast<mpfr_prec_t>(extra));
}

}  // namespace

Interval normal_sf(const Interval& x) {  // decreasing
  return sf_interval(x.lower(), x.upper(), x.precision());
}

Interval normal_sf(const mpq_class& x, mpfr_prec_t precision) {
  const Interval wide = argument_interval(x, precision);
  return sf_interval(wide.lower(), wide.upper(), precision);
}

Interval normal_cdf(const Interval& x) { return normal_sf(-x); }

Interval normal_cdf(const mpq_class& x, mpfr_prec_t precision) {
  return normal_sf(mpq_class(-x), precision);
}

Interval log_normal_sf(const Interval& x) {  // decreasing
  return log_sf_interval(x.lower(), x.upper(), x.precision());
}

Interval log_normal_cdf(const Interval& x) { return log_normal_sf(-x); }

Interval log_normal_cdf(const mpq_class& x, mpfr_prec_t precision) {
  const Interval wide = argument_interval(mpq_class(-x), precision);
  return log_sf_interval(wide.lower(), wide.upper(), precision);
}

Interval normal_pdf(const Interval& x) {
  return exp(-mul_2si(square(x), -1)) / sqrt_2pi_interval(x.precision());
}

namespace {

// R on [l, u] (decreasing) at result precision p.
Interval mills_ratio_interval(mpfr_srcptr l, mpfr_srcptr u, mpfr_prec_t p) {
  if (mpfr_equal_p(l, u)) return r_point(l, p);
  if (mpfr_sgn(l) >= 0 && is_narrow(l, u, p)) {
    // For t >= 0, R'(t) = t R(t) - 1 lies in (-1, 0) (Gordon: t R(t) < 1), so
    // R(u) >= R(l) - (u - l): one evaluation.
    Interval r = r_point(l, p);
    Real width(64);
    mpfr_sub(width.get(), u, l, MPFR_RNDU);
    mpfr_sub(r.lower(), r.lower(), width.get(), MPFR_RNDD);
    return r;
  }
  const Interval hi = r_point(l, p);
  const Interval lo = r_point(u, p);
  return Interval::from_ends(lo.lower(), hi.upper(), p);
}

}  // namespace

Interval mills_ratio(const Interval& x) {
  return mills_ratio_interval(x.lower(), x.upper(), x.precision());
}

Interval mills_ratio(const mpq_class& x, mpfr_prec_t precision) {
  const Interval wide = argument_interval(x, precision);
  return mills_ratio_interval(wide.lower(), wide.upper(), precision);
}

}  // namespace exactdp::accounting
