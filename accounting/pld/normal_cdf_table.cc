#include <exactdp/accounting/pld/normal_cdf_table.h>

#include <exactdp/core/interval.h>
#include <exactdp/core/rational_rounding.h>
#include <exactdp/accounting/normal.h>

namespace exactdp::accounting::pld {
namespace {

constexpr int kTerms = 24;  // N

// An upper bound of the radius of `x` around `mid` (the larger distance to an end, rounded up).
void radius_up(mpfr_ptr out, const Interval& x, mpfr_srcptr mid) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(out));
  mpfr_sub(out, x.upper(), mid, MPFR_RNDU);
  mpfr_sub(t, mid, x.lower(), MPFR_RNDU);
  mpfr_max(out, out, t, MPFR_RNDU);
  mpfr_clear(t);
}

}  // namespace

NormalCdfTable::NormalCdfTable(const mpq_class& from, const mpq_class& to) {
  use_widest_exponent_range();
  constexpr mpfr_prec_t p = kPrecision;
  for (mpfr_ptr v : {d_, acc_, width_, lipschitz_, a_}) mpfr_init2(v, p);
  mpfr_set_ui(lipschitz_, 399, MPFR_RNDU);
  mpfr_div_ui(lipschitz_, lipschitz_, 1000, MPFR_RNDU);  // >= 1/sqrt(2 pi) = 0.39894...
  const mpz_class lo = floor_of(from * 4) - 1;
  const mpz_class hi = floor_of(to * 4) + 2;
  first_ = mpz_get_si(lo.get_mpz_t());
  const long count = mpz_get_si(hi.get_mpz_t()) - first_ + 1;
  constexpr mpfr_prec_t wide = 192;  // coefficient intervals before rounding to 128 bits
  // D^n bounds, D = 1/8 + 2^-60 (upper ends).
  std::vector<Interval> d_power{Interval(1L, wide)};
  const Interval dd(mpq_class(1, 8) + mpq_class(1, 1UL << 60), wide);
  for (int n = 1; n <= kTerms; ++n) d_power.push_back(d_power.back() * dd);
  // gamma_{2N} = 2N u / (1 - 2N u), u = 2^-128: bounded by (2N + 1) 2^-128.
  Interval gamma(mpq_class(2 * kTerms + 1, 1), wide);
  mpfr_div_2ui(gamma.lower(), gamma.lower(), 128, MPFR_RNDD);
  mpfr_div_2ui(gamma.upper(), gamma.upper(), 128, MPFR_RNDU);
  const Interval remainder(mpq_class(mpz_class(1), mpz_class(1) << 112) + mpq_class(mpz_class(1), mpz_class(1) << 129),
                           wide);
  anchors_.resize(static_cast<std::size_t>(count));
  for (long k = 0; k < count; ++k) {
    Anchor& anchor = anchors_[static_cast<std::size_t>(k)];
    anchor.index = first_ + k;
    const mpq_class a(anchor.index, 4);
    std::vector<Interval> c{normal_cdf(a, wide)};
    const Interval density = exp(-Interval(a * a / 2, wide)) / sqrt_2pi_interval(wide);
    // He_0 = 1, He_1 = a, He_{m+1} = a He_m - m He_{m-1} (exact); c_n = (-1)^(n-1) He_{n-1}(a) / n!.
    std::vector<mpq_class> he{mpq_class(1), a};
    while (he.size() < static_cast<std::size_t>(kTerms)) {
      const std::size_t m = he.size() - 1;
      he.push_back(a * he[m] - mpq_class(static_cast<long>(m)) * he[m - 1]);
    }
    mpz_class factorial(1);
    for (int n = 1; n <= kTerms; ++n) {
      factorial *= n;
      mpq_class t = he[static_cast<std::size_t>(n - 1)] / mpq_class(factorial);
      if ((n - 1) % 2 == 1) t = -t;
      c.push_back(density * t);
    }
    // Midpoints at 128 bits, and E.
    Interval error = remainder;
    anchor.coefficient.resize(c.size());
    mpfr_t mid, rho, term;
    mpfr_inits2(wide, mid, rho, term, static_cast<mpfr_ptr>(nullptr));
    for (std::size_t n = 0; n < c.size(); ++n) {
      mpfr_init2(&anchor.coefficient[n], p);
      mpfr_add(mid, c[n].lower(), c[n].upper(), MPFR_RNDN);
      mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
      mpfr_set(&anchor.coefficient[n], mid, MPFR_RNDN);
      mpfr_set(mid, &anchor.coefficient[n], MPFR_RNDN);  // exact: the stored value
      radius_up(rho, c[n], mid);                          // |c_n(true) - stored| <= rho
      // error += (rho + gamma |stored|) D^n
      mpfr_abs(term, mid, MPFR_RNDU);
      mpfr_mul(term, term, gamma.upper(), MPFR_RNDU);
      mpfr_add(term, term, rho, MPFR_RNDU);
      mpfr_mul(term, term, d_power[n].upper(), MPFR_RNDU);
      mpfr_add(error.upper(), error.upper(), term, MPFR_RNDU);
    }
    mpfr_init2(&anchor.error, p);
    mpfr_set(&anchor.error, error.upper(), MPFR_RNDU);
    mpfr_clears(mid, rho, term, static_cast<mpfr_ptr>(nullptr));
  }
}

NormalCdfTable::~NormalCdfTable() {
  for (Anchor& anchor : anchors_) {
    for (auto& c : anchor.coefficient) mpfr_clear(&c);
    mpfr_clear(&anchor.error);
  }
  for (mpfr_ptr v : {d_, acc_, width_, lipschitz_, a_}) mpfr_clear(v);
}

void NormalCdfTable::erfc_ends(mpfr_srcptr x_lo, mpfr_srcptr x_hi, mpfr_ptr lo, mpfr_ptr hi) {
  // Phi is increasing: Phi(x_lo) from below, Phi(x_hi) from above.
  const Interval below = normal_cdf(Interval::point(x_lo, kPrecision));
  const Interval above = normal_cdf(Interval::point(x_hi, kPrecision));
  mpfr_set(lo, below.lower(), MPFR_RNDD);
  mpfr_set(hi, above.upper(), MPFR_RNDU);
}

void NormalCdfTable::enclose(mpfr_srcptr x_lo, mpfr_srcptr x_hi, mpfr_ptr lo, mpfr_ptr hi) {
  if (mpfr_inf_p(x_lo) || mpfr_inf_p(x_hi)) {
    if (mpfr_inf_p(x_lo) && mpfr_sgn(x_lo) < 0) {
      mpfr_set_zero(lo, 1);
    } else {
      erfc_ends(x_lo, x_lo, lo, d_);
    }
    if (mpfr_inf_p(x_hi) && mpfr_sgn(x_hi) > 0) {
      mpfr_set_ui(hi, 1, MPFR_RNDU);
    } else if (mpfr_inf_p(x_hi)) {
      mpfr_set_zero(hi, 1);
    } else {
      erfc_ends(x_hi, x_hi, d_, hi);
    }
    return;
  }
  // The anchor nearest to x_lo: round(4 x_lo).
  mpfr_mul_2ui(a_, x_lo, 2, MPFR_RNDN);
  mpfr_round(a_, a_);
  if (!mpfr_fits_slong_p(a_, MPFR_RNDN)) return erfc_ends(x_lo, x_hi, lo, hi);
  const long k = mpfr_get_si(a_, MPFR_RNDN) - first_;
  if (k < 0 || k >= static_cast<long>(anchors_.size())) return erfc_ends(x_lo, x_hi, lo, hi);
  const Anchor& anchor = anchors_[static_cast<std::size_t>(k)];
  mpfr_div_2ui(a_, a_, 2, MPFR_RNDN);  // a = index / 4, exact
  mpfr_sub(d_, x_lo, a_, MPFR_RNDN);   // |d| <= 1/8 + one rounding
  mpfr_set(acc_, &anchor.coefficient.back(), MPFR_RNDN);
  for (std::size_t n = anchor.coefficient.size() - 1; n-- > 0;) {
    mpfr_mul(acc_, acc_, d_, MPFR_RNDN);
    mpfr_add(acc_, acc_, &anchor.coefficient[n], MPFR_RNDN);
  }
  mpfr_sub(lo, acc_, &anchor.error, MPFR_RNDD);
  mpfr_sub(width_, x_hi, x_lo, MPFR_RNDU);
  mpfr_mul(width_, width_, lipschitz_, MPFR_RNDU);
  mpfr_add(width_, width_, &anchor.error, MPFR_RNDU);
  mpfr_add(hi, acc_, width_, MPFR_RNDU);
  if (mpfr_sgn(lo) < 0) mpfr_set_zero(lo, 1);
  if (mpfr_cmp_ui(hi, 1) > 0) mpfr_set_ui(hi, 1, MPFR_RNDU);
}

}  // namespace exactdp::accounting::pld
