#include <exactdp/verification/p_values.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

#include <exactdp/accounting/normal.h>
#include <exactdp/core/errors.h>

static_assert(sizeof(unsigned long) == 8, "p_values.cc assumes 64-bit unsigned long (LP64)");

namespace exactdp::verification {
namespace {

// Eight MPFR temporaries at one precision, freed on every exit (also by an exception).
struct Scratch {
  mpfr_t v[8];
  explicit Scratch(mpfr_prec_t precision) {
    for (auto& x : v) mpfr_init2(x, precision);
  }
  ~Scratch() {
    for (auto& x : v) mpfr_clear(x);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

// Q(a, y) = Gamma(a, y) / Gamma(a), rounded in direction rnd (MPFR_RNDU: an upper bound).
void upper_regularised_gamma(mpfr_ptr out, mpfr_srcptr a, mpfr_srcptr y, mpfr_rnd_t rnd) {
  const mpfr_rnd_t other = rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU;
  if (mpfr_sgn(y) <= 0) {
    mpfr_set_ui(out, 1, rnd);
    return;
  }
  Scratch s(mpfr_get_prec(out));
  // Fast region for mpfr_gamma_inc: y <= a + 12 sqrt(a) + 40 (threshold itself need not be exact).
  mpfr_sqrt(s.v[0], a, MPFR_RNDD);
  mpfr_mul_ui(s.v[0], s.v[0], 12, MPFR_RNDD);
  mpfr_add(s.v[0], s.v[0], a, MPFR_RNDD);
  mpfr_add_ui(s.v[0], s.v[0], 40, MPFR_RNDD);
  if (mpfr_cmp(y, s.v[0]) > 0) {
    if (rnd == MPFR_RNDD) {
      mpfr_set_zero(out, 1);
      return;
    }
    // Chernoff: exp(a - y + a ln(y/a)), all rounded up.
    mpfr_div(s.v[1], y, a, MPFR_RNDU);
    mpfr_log(s.v[1], s.v[1], MPFR_RNDU);
    mpfr_mul(s.v[1], s.v[1], a, MPFR_RNDU);
    mpfr_add(s.v[1], s.v[1], a, MPFR_RNDU);
    mpfr_sub(s.v[1], s.v[1], y, MPFR_RNDU);
    mpfr_exp(out, s.v[1], MPFR_RNDU);
    if (mpfr_cmp_ui(out, 1) > 0) mpfr_set_ui(out, 1, MPFR_RNDU);
    return;
  }
  mpfr_gamma_inc(s.v[1], a, y, rnd);
  mpfr_gamma(s.v[2], a, other);
  mpfr_div(out, s.v[1], s.v[2], rnd);
  if (mpfr_cmp_ui(out, 1) > 0) mpfr_set_ui(out, 1, rnd);
}

// log of the binomial pmf term C(n, m) p^m (1 - p)^(n - m), rounded in direction rnd, for
// 0 < p < 1 (p exact).
void log_binomial_term(mpfr_ptr out, unsigned long long n, unsigned long long m, mpfr_srcptr p, mpfr_rnd_t rnd) {
  const mpfr_rnd_t other = rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU;
  Scratch s(std::max(mpfr_get_prec(out), kPrecision));  // n < 2^64 is exact at >= 64 bits
  mpz_class nz(std::to_string(n)), mz(std::to_string(m)), rz(std::to_string(n - m));
  // ln C(n, m) = lgamma(n + 1) - lgamma(m + 1) - lgamma(n - m + 1)
  mpfr_set_z(s.v[0], nz.get_mpz_t(), rnd);  // exact below 2^256
  mpfr_add_ui(s.v[0], s.v[0], 1, rnd);
  mpfr_lngamma(s.v[0], s.v[0], rnd);
  mpfr_set_z(s.v[1], mz.get_mpz_t(), other);
  mpfr_add_ui(s.v[1], s.v[1], 1, other);
  mpfr_lngamma(s.v[1], s.v[1], other);
  mpfr_sub(s.v[0], s.v[0], s.v[1], rnd);
  mpfr_set_z(s.v[1], rz.get_mpz_t(), other);
  mpfr_add_ui(s.v[1], s.v[1], 1, other);
  mpfr_lngamma(s.v[1], s.v[1], other);
  mpfr_sub(s.v[0], s.v[0], s.v[1], rnd);
  // + m ln p + (n - m) ln(1 - p)
  mpfr_log(s.v[2], p, rnd);
  mpfr_mul_z(s.v[2], s.v[2], mz.get_mpz_t(), rnd);
  mpfr_add(s.v[0], s.v[0], s.v[2], rnd);
  mpfr_ui_sub(s.v[3], 1, p, rnd);
  mpfr_log(s.v[3], s.v[3], rnd);
  mpfr_mul_z(s.v[3], s.v[3], rz.get_mpz_t(), rnd);
  mpfr_add(out, s.v[0], s.v[3], rnd);
}

// P[Bin(n, p) >= m] (upper = true) or P[Bin(n, p) <= m] for an exact p, rounded in direction rnd.
void binomial_tail(mpfr_ptr out, unsigned long long n, unsigned long long m, mpfr_srcptr p, bool upper,
                   mpfr_rnd_t rnd) {
  if (upper && m == 0) return (void)mpfr_set_ui(out, 1, rnd);
  if (!upper && m >= n) return (void)mpfr_set_ui(out, 1, rnd);
  if (upper && m > n) return (void)mpfr_set_zero(out, 1);
  if (mpfr_sgn(p) <= 0) return (void)mpfr_set_ui(out, upper ? 0 : 1, rnd);      // Bin = 0
  if (mpfr_cmp_ui(p, 1) >= 0) return (void)mpfr_set_ui(out, upper ? 1 : 0, rnd);  // Bin = n
  const mpfr_rnd_t other = rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU;
  Scratch s(mpfr_get_prec(out));
  mpfr_ptr term = s.v[0], sum = s.v[1], odds = s.v[2], ratio = s.v[3], rest = s.v[4], t = s.v[5];
  log_binomial_term(term, n, m, p, rnd);
  mpfr_exp(term, term, rnd);
  // odds = p / (1 - p) for the upper tail, (1 - p) / p for the lower tail, rounded in direction rnd.
  mpfr_ui_sub(t, 1, p, upper ? other : rnd);
  if (upper) {
    mpfr_div(odds, p, t, rnd);
  } else {
    mpfr_div(odds, t, p, rnd);
  }
  mpfr_set_zero(sum, 1);
  unsigned long long j = m;
  for (unsigned long long step = 0;; ++step) {
    mpfr_add(sum, sum, term, rnd);
    // next term: upper: j -> j + 1, ratio (n - j)/(j + 1) odds; lower: j -> j - 1, ratio j/(n - j + 1) odds
    if (upper ? j == n : j == 0) break;
    if (upper) {
      mpfr_set_ui(ratio, static_cast<unsigned long>(n - j), rnd);  // unsigned long is 64-bit here (LP64)
      mpfr_div_ui(ratio, ratio, static_cast<unsigned long>(j + 1), rnd);
      ++j;
    } else {
      mpfr_set_ui(ratio, static_cast<unsigned long>(j), rnd);
      mpfr_div_ui(ratio, ratio, static_cast<unsigned long>(n - j + 1), rnd);
      --j;
    }
    mpfr_mul(ratio, ratio, odds, rnd);
    mpfr_mul(term, term, ratio, rnd);
    if ((step & 63) == 63 || mpfr_zero_p(term)) {
      // Later ratios are smaller: rest <= term / (1 - ratio) when ratio < 1.
      if (rnd == MPFR_RNDD) {
        if (mpfr_zero_p(term) || mpfr_get_exp(term) + 200 < mpfr_get_exp(sum)) break;
      } else if (mpfr_cmp_ui(ratio, 1) < 0) {
        mpfr_ui_sub(t, 1, ratio, MPFR_RNDD);
        mpfr_div(rest, term, t, MPFR_RNDU);
        if (mpfr_zero_p(rest) || mpfr_get_exp(rest) + 100 < mpfr_get_exp(sum)) {
          mpfr_add(sum, sum, rest, MPFR_RNDU);
          break;
        }
      }
      if (step > 200'000'000ULL) {
        if (rnd == MPFR_RNDU) mpfr_set_ui(sum, 1, MPFR_RNDU);  // give up: the trivial bound
        break;
      }
    }
  }
  if (mpfr_cmp_ui(sum, 1) > 0) mpfr_set_ui(sum, 1, rnd);
  mpfr_set(out, sum, rnd);
}

}  // namespace

Interval chi_square_sf(unsigned long df, const Interval& x) {
  if (df == 0) throw ParameterError::out_of_range("df", "0", "df >= 1 (chi_square_sf)");
  Interval out(x.precision());
  Scratch s(x.precision());
  mpfr_set_ui(s.v[0], df, MPFR_RNDD);
  mpfr_div_2ui(s.v[0], s.v[0], 1, MPFR_RNDD);  // a = df/2, exact
  mpfr_div_2ui(s.v[1], x.lower(), 1, MPFR_RNDD);  // exact halving
  mpfr_div_2ui(s.v[2], x.upper(), 1, MPFR_RNDU);
  upper_regularised_gamma(out.upper(), s.v[0], s.v[1], MPFR_RNDU);  // Q decreasing in x
  upper_regularised_gamma(out.lower(), s.v[0], s.v[2], MPFR_RNDD);
  return out;
}

Interval normal_two_sided(const Interval& z) {
  // erfc(|z| / sqrt 2), decreasing in |z|.
  const Interval scaled = abs(z) * accounting::inv_sqrt2_interval(z.precision());
  return exactdp::clamp(accounting::erfc(scaled), mpq_class(0), mpq_class(1));
}

Interval binomial_upper_tail(unsigned long long n, unsigned long long m, const Interval& p) {
  Interval out(p.precision());
  binomial_tail(out.lower(), n, m, p.lower(), true, MPFR_RNDD);
  binomial_tail(out.upper(), n, m, p.upper(), true, MPFR_RNDU);
  return out;
}

Interval binomial_lower_tail(unsigned long long n, unsigned long long m, const Interval& p) {
  Interval out(p.precision());
  binomial_tail(out.lower(), n, m, p.upper(), false, MPFR_RNDD);
  binomial_tail(out.upper(), n, m, p.lower(), false, MPFR_RNDU);
  return out;
}

Interval binomial_two_sided(unsigned long long n, unsigned long long m, const Interval& p) {
  Scratch s(p.precision());
  mpz_class nz(std::to_string(n));
  mpfr_mul_z(s.v[0], p.lower(), nz.get_mpz_t(), MPFR_RNDD);
  const bool upper_side = mpfr_cmp_ui(s.v[0], 0) >= 0 && mpfr_cmp_z(s.v[0], mpz_class(std::to_string(m)).get_mpz_t()) < 0;
  const Interval tail = upper_side ? binomial_upper_tail(n, m, p) : binomial_lower_tail(n, m, p);
  return exactdp::min(tail * mpq_class(2), Interval(1L, p.precision()));  // min(1, 2 P_side)
}

namespace {
void clopper_pearson(mpfr_ptr out, unsigned long long n, unsigned long long k, const mpq_class& beta, bool upper) {
  if (n == 0 || (upper && k >= n)) return (void)mpfr_set_ui(out, upper ? 1 : 0, upper ? MPFR_RNDU : MPFR_RNDD);
  if (!upper && k == 0) return (void)mpfr_set_zero(out, 1);
  Scratch s(std::max(mpfr_get_prec(out), kPrecision));
  mpfr_ptr lo = s.v[0], hi = s.v[1], mid = s.v[2], tail = s.v[3], b = s.v[4];
  mpfr_set_q(b, beta.get_mpq_t(), MPFR_RNDD);  // compare tails against a lower bound of beta
  // The exact bound lies on the far side of k/n (upper >= k/n >= lower): start the search there, so
  // every tail below is summed from k away from the mode (few terms even for huge n).
  mpq_class fraction(mpz_class(std::to_string(k)), mpz_class(std::to_string(n)));
  fraction.canonicalize();
  if (upper) {
    mpfr_set_q(lo, fraction.get_mpq_t(), MPFR_RNDD);
    mpfr_set_ui(hi, 1, MPFR_RNDU);
  } else {
    mpfr_set_zero(lo, 1);
    mpfr_set_q(hi, fraction.get_mpq_t(), MPFR_RNDU);
  }
  // upper: smallest p with P[Bin(n,p) <= k] <= beta (the tail decreases in p): keep hi certified.
  // lower: largest p with P[Bin(n,p) >= k] <= beta (the tail increases in p): keep lo certified.
  for (int i = 0; i < 64; ++i) {  // 2^-64: far below any sampling error
    mpfr_add(mid, lo, hi, MPFR_RNDD);  // any point between lo and hi will do
    mpfr_div_2ui(mid, mid, 1, MPFR_RNDD);
    binomial_tail(tail, n, k, mid, !upper, MPFR_RNDU);
    const bool certified = mpfr_cmp(tail, b) <= 0;
    if (upper) {
      if (certified) mpfr_set(hi, mid, MPFR_RNDU); else mpfr_set(lo, mid, MPFR_RNDD);
    } else {
      if (certified) mpfr_set(lo, mid, MPFR_RNDD); else mpfr_set(hi, mid, MPFR_RNDU);
    }
  }
  mpfr_set(out, upper ? hi : lo, upper ? MPFR_RNDU : MPFR_RNDD);
}
}  // namespace

void clopper_pearson_upper(mpfr_ptr out, unsigned long long n, unsigned long long k, const mpq_class& beta) {
  clopper_pearson(out, n, k, beta, true);
}

void clopper_pearson_lower(mpfr_ptr out, unsigned long long n, unsigned long long k, const mpq_class& beta) {
  clopper_pearson(out, n, k, beta, false);
}

}  // namespace exactdp::verification
