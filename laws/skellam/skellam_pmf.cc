#include <exactdp/laws/skellam/skellam_pmf.h>

#include <stdexcept>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

const mpq_class kMaxMu(1'000'000);
constexpr mpfr_prec_t kMaxWorkingPrecision = 320;
constexpr long kMaxTable = 1L << 22;

// Interval of log Gamma(n) for an integer n >= 1 (MPFR rounds correctly in both directions).
Interval lgamma_of(long n, mpfr_prec_t p) {
  Real x(p + 64), lo(p), hi(p);
  mpfr_set_si(x, n, MPFR_RNDN);  // exact
  mpfr_lngamma(lo, x, MPFR_RNDD);
  mpfr_lngamma(hi, x, MPFR_RNDU);
  return Interval::from_ends(lo, hi, p);
}

// s_k by its series (skellam_pmf.h), k >= 0; mu as an interval (a rational with a huge
// denominator costs its size once, not once a term).
Interval series_mass(const Interval& mu, long k, mpfr_prec_t p) {
  // first term exp(-2 mu) mu^k / k!
  Interval term = exp(log(mu) * mpq_class(k) - mul_2si(mu, 1) - lgamma_of(k + 1, p));
  Interval sum = term;
  const Interval mu2 = square(mu);
  for (long j = 0;; ++j) {
    const Interval ratio = mu2 / mpq_class(mpz_class(j + 1) * mpz_class(j + 1 + k));
    term = term * ratio;
    sum = sum + term;
    if (mpfr_cmp_ui_2exp(ratio.upper(), 1, -1) <= 0 && mpfr_cmp(mul_2si(term, p + 16).upper(), sum.lower()) <= 0) {
      return sum + Interval::from_ends(Interval(0L, p).lower(), term.upper(), p);
    }
  }
}

}  // namespace

const mpq_class& skellam_pmf_max_mu() { return kMaxMu; }

mpfr_prec_t skellam_pmf_precision(mpfr_prec_t asked) {
  return asked < kMaxWorkingPrecision ? asked : kMaxWorkingPrecision;
}

SkellamPmf::SkellamPmf(const mpq_class& mu, mpfr_prec_t asked)
    : mu_(mu), precision_(skellam_pmf_precision(asked)), beyond_(precision_) {
  const mpfr_prec_t precision = precision_;
  if (sgn(mu) <= 0) throw ParameterError::out_of_range("mu", abbreviate(to_string(mu)), "mu > 0");
  if (mu > kMaxMu) {
    throw LimitError("mu", "mu = " + abbreviate(to_string(mu)) +
                               " is beyond the exact Skellam masses' limit: allowed mu <= 10^6");
  }
  long k_end = 16;
  for (;; k_end *= 2) {
    if (k_end > kMaxTable) throw std::logic_error("SkellamPmf: no table end");
    beyond_ = tail_from(mpz_class(k_end + 1));
    if (mpfr_cmp(mul_2si(beyond_, precision + 32).upper(), Interval(1L, precision).lower()) <= 0) break;
  }
  masses_.assign(static_cast<std::size_t>(k_end + 1), Interval(precision));
  const Interval mu_i(mu, precision);
  masses_[static_cast<std::size_t>(k_end)] = series_mass(mu_i, k_end, precision);
  Interval above = series_mass(mu_i, k_end + 1, precision);
  for (long k = k_end; k >= 1; --k) {
    const auto i = static_cast<std::size_t>(k);
    masses_[i - 1] = above + masses_[i] * Interval(k, precision) / mu_i;
    above = masses_[i];
  }
}

Interval SkellamPmf::tail_from(const mpz_class& a) const {
  const mpfr_prec_t p = precision_;
  const Interval one(1L, p);
  if (sgn(a) <= 0) return Interval::from_ends(Interval(0L, p).lower(), one.upper(), p);
  Real x(64);
  const mpq_class ratio = mpq_class(a) / (2 * mu_);
  mpfr_set_q(x, ratio.get_mpq_t(), MPFR_RNDN);
  mpfr_asinh(x, x, MPFR_RNDN);
  const mpq_class t = to_mpq(x);  // any t > 0 gives a valid bound
  const Interval et = exp(Interval(t, p));
  const Interval cosh_minus_one = (et + one / et) / mpq_class(2) - mpq_class(1);
  const Interval bound = exp(cosh_minus_one * mpq_class(2 * mu_) - mpq_class(t * a));
  return Interval::from_ends(Interval(0L, p).lower(), min(bound, one).upper(), p);
}

Interval SkellamPmf::mass(long k) const {
  const long a = k < 0 ? -k : k;
  if (a <= table_end()) return masses_[static_cast<std::size_t>(a)];
  return tail_from(mpz_class(a));
}

Interval SkellamPmf::mass_between(long a, long b) const {
  Interval sum(precision_);
  const long end = table_end();
  const long stop = (b < 0 || b > end) ? end : b;
  for (long k = a; k <= stop; ++k) sum = sum + masses_[static_cast<std::size_t>(k)];
  if (b >= 0 && b <= end) return sum;
  const Interval rest = a > end ? tail_from(mpz_class(a)) : beyond_;
  return sum + rest;
}

}  // namespace exactdp::laws
