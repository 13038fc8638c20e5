#include <exactdp/samplers/internal/hardened_tables.h>

#include <exactdp/core/interval.h>

#include <mpfr.h>

#include <algorithm>
#include <stdexcept>

namespace exactdp::internal {
namespace {

// Working precision: W bits of the thresholds plus a margin, so that the enclosures are far
// narrower than the 2^-W steps they are compared with (precision affects only tightness).
mpfr_prec_t working_precision(const FixedWidth& width) { return width.width_bits + 64; }

// out = exp(-a) rounded in direction `dir` (a >= 0 exact): a is rounded the opposite way first,
// so exp(-a_rounded) rounded `dir` is a bound in direction `dir` of exp(-a).
void exp_neg(mpfr_ptr out, const mpq_class& a, mpfr_rnd_t dir) {
  Real arg(mpfr_get_prec(out));
  mpfr_set_q(arg, a.get_mpq_t(), dir == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
  mpfr_neg(arg, arg, MPFR_RNDN);  // exact
  mpfr_exp(out, arg, dir);
}

// out = exp(a) rounded in direction `dir` (a exact).
void exp_pos(mpfr_ptr out, const mpq_class& a, mpfr_rnd_t dir) {
  Real arg(mpfr_get_prec(out));
  mpfr_set_q(arg, a.get_mpq_t(), dir);
  mpfr_exp(out, arg, dir);
}

// T = round(2^W * (lo + hi) / 2), kept within [floor, 2^W - 1].
mpz_class threshold_between(mpfr_srcptr lo, mpfr_srcptr hi, const FixedWidth& width,
                            const mpz_class& floor) {
  Real mid(mpfr_get_prec(lo) + 2);
  mpfr_add(mid, lo, hi, MPFR_RNDN);
  mpfr_mul_2si(mid, mid, static_cast<long>(width.width_bits) - 1, MPFR_RNDN);
  mpz_class t;
  mpfr_get_z(t.get_mpz_t(), mid, MPFR_RNDN);
  const mpz_class top = (mpz_class(1) << width.width_bits) - 1;
  if (t > top) t = top;
  if (t < floor) t = floor;
  return t;
}

void append_threshold(ThresholdTable& table, const mpz_class& t, const FixedWidth& width) {
  const std::size_t at = table.words.size();
  table.words.resize(at + width.limbs, 0);
  std::size_t count = 0;
  mpz_export(table.words.data() + at, &count, -1, sizeof(std::uint64_t), 0, 0, t.get_mpz_t());
  ++table.entries;
}

// acc += max(p_hat - p_lo, p_hi - p_hat), rounded up: an upper bound of |p_hat - p| for every
// p in [p_lo, p_hi].
void add_deviation(mpfr_ptr acc, mpfr_srcptr p_hat, mpfr_srcptr p_lo, mpfr_srcptr p_hi) {
  Real a(mpfr_get_prec(acc)), b(mpfr_get_prec(acc));
  mpfr_sub(a, p_hat, p_lo, MPFR_RNDU);
  mpfr_sub(b, p_hi, p_hat, MPFR_RNDU);
  mpfr_max(a, a, b, MPFR_RNDU);
  mpfr_add(acc, acc, a, MPFR_RNDU);
}

// p_hat = (t - t_prev) / 2^W exactly (the precision holds W + 1 bits).
void table_probability(mpfr_ptr p_hat, const mpz_class& t, const mpz_class& t_prev,
                       const FixedWidth& width) {
  const mpz_class diff = t - t_prev;
  mpfr_set_z(p_hat, diff.get_mpz_t(), MPFR_RNDN);
  mpfr_div_2ui(p_hat, p_hat, width.width_bits, MPFR_RNDN);
}

// Enclosure of the Gaussian weights of |Z|: w_0 = 1, w_k = 2 exp(-k^2 / (2 sigma2)); of the
// half law (half = true): w_k = exp(-k^2 / (2 sigma2)) for every k >= 0.
void gaussian_weight(mpfr_ptr lo, mpfr_ptr hi, const mpq_class& sigma2, long k, bool half) {
  if (k == 0) {
    mpfr_set_ui(lo, 1, MPFR_RNDN);
    mpfr_set_ui(hi, 1, MPFR_RNDN);
    return;
  }
  const mpq_class a = mpq_class(k * k) / (2 * sigma2);
  exp_neg(lo, a, MPFR_RNDD);
  exp_neg(hi, a, MPFR_RNDU);
  if (half) return;
  mpfr_mul_2ui(lo, lo, 1, MPFR_RNDN);  // exact
  mpfr_mul_2ui(hi, hi, 1, MPFR_RNDN);
}

// Upper bound of sum_{j > k} w_j = 2 sum_{j >= k+1} exp(-j^2 / (2 sigma2)) (without the 2 for
// the half law). The ratio of consecutive terms, exp(-(2j + 1) / (2 sigma2)), falls with j, so
// the sum is at most 2 exp(-(k+1)^2 / (2 sigma2)) / (1 - r) with r = exp(-(2k + 3) / (2 sigma2)).
void gaussian_tail_upper(mpfr_ptr out, const mpq_class& sigma2, long k, bool half) {
  Real first(mpfr_get_prec(out)), r(mpfr_get_prec(out));
  exp_neg(first, mpq_class((k + 1) * (k + 1)) / (2 * sigma2), MPFR_RNDU);
  exp_neg(r, mpq_class(2 * k + 3) / (2 * sigma2), MPFR_RNDU);
  mpfr_ui_sub(r, 1, r, MPFR_RNDD);  // 1 - r, rounded down (r rounded up)
  mpfr_div(out, first, r, MPFR_RNDU);
  if (!half) mpfr_mul_2ui(out, out, 1, MPFR_RNDN);
}

constexpr long kMaxTableEntries = 1L << 16;  // far above any supported parameter (< 400)

}  // namespace

FixedWidth fixed_width(unsigned width_bits) {
  if (width_bits < 1 || width_bits > 191) throw std::logic_error("fixed_width: width out of range");
  FixedWidth w;
  w.width_bits = width_bits;
  w.limbs = width_bits / 64 + 1;  // at least one clear bit on top (internal/constant_time.h)
  w.top_bits = width_bits - 64 * (w.limbs - 1);
  return w;
}

mpz_class ThresholdTable::threshold(std::size_t i, unsigned limbs) const {
  mpz_class t;
  mpz_import(t.get_mpz_t(), limbs, -1, sizeof(std::uint64_t), 0, 0, words.data() + i * limbs);
  return t;
}

namespace {

// The magnitude table (half = false) or the half-law table (half = true); see the header.
CertifiedTable build_gaussian_table(const mpq_class& sigma2, const FixedWidth& width, long tail_log2,
                                    bool half) {
  const mpfr_prec_t prec = working_precision(width);
  Real w_lo(prec), w_hi(prec), sum_lo(prec), sum_hi(prec), tail(prec), ratio(prec);
  // Pass 1: the cut K (least K >= 1 with P[|Z| > K] <= 2^tail_log2) and the normaliser S.
  mpfr_set_zero(sum_lo, 1);
  mpfr_set_zero(sum_hi, 1);
  long cut = 0;
  for (long k = 0;; ++k) {
    if (k > kMaxTableEntries) throw std::logic_error("hardened Gaussian table: no cut found");
    gaussian_weight(w_lo, w_hi, sigma2, k, half);
    mpfr_add(sum_lo, sum_lo, w_lo, MPFR_RNDD);
    mpfr_add(sum_hi, sum_hi, w_hi, MPFR_RNDU);
    if (k == 0) continue;
    gaussian_tail_upper(tail, sigma2, k, half);
    mpfr_div(ratio, tail, sum_lo, MPFR_RNDU);  // >= P[|Z| > k]
    if (mpfr_cmp_si_2exp(ratio, 1, tail_log2) <= 0) {
      cut = k;
      break;
    }
  }
  Real s_lo(prec), s_hi(prec);  // S in [s_lo, s_hi]
  mpfr_set(s_lo, sum_lo, MPFR_RNDD);
  mpfr_add(s_hi, sum_hi, tail, MPFR_RNDU);

  // Pass 2: thresholds T_k ~ 2^W P[|Z| <= k] for k < K, and the distance, entry by entry.
  CertifiedTable out;
  Real cum_lo(prec), cum_hi(prec), c_lo(prec), c_hi(prec), p_lo(prec), p_hi(prec), p_hat(prec),
      tv(prec);
  mpfr_set_zero(cum_lo, 1);
  mpfr_set_zero(cum_hi, 1);
  mpfr_set_zero(tv, 1);
  mpz_class t_prev = 0;
  for (long k = 0; k <= cut; ++k) {
    gaussian_weight(w_lo, w_hi, sigma2, k, half);
    mpfr_div(p_lo, w_lo, s_hi, MPFR_RNDD);
    mpfr_div(p_hi, w_hi, s_lo, MPFR_RNDU);
    mpz_class t = mpz_class(1) << width.width_bits;  // the last entry takes the rest
    if (k < cut) {
      mpfr_add(cum_lo, cum_lo, w_lo, MPFR_RNDD);
      mpfr_add(cum_hi, cum_hi, w_hi, MPFR_RNDU);
      mpfr_div(c_lo, cum_lo, s_hi, MPFR_RNDD);
      mpfr_div(c_hi, cum_hi, s_lo, MPFR_RNDU);
      t = threshold_between(c_lo, c_hi, width, t_prev);
      append_threshold(out.table, t, width);
    }
    table_probability(p_hat, t, t_prev, width);
    add_deviation(tv, p_hat, p_lo, p_hi);
    t_prev = t;
  }
  // Mass beyond K, which the table never produces: P[|Z| > K] <= tail / s_lo.
  mpfr_div(ratio, tail, s_lo, MPFR_RNDU);
  mpfr_add(tv, tv, ratio, MPFR_RNDU);
  mpfr_div_2ui(tv, tv, 1, MPFR_RNDU);  // TV = half the L1 distance
  out.tv_upper = to_mpq(tv);
  return out;
}

}  // namespace

CertifiedTable build_gaussian_magnitude_table(const mpq_class& sigma2, const FixedWidth& width,
                                              long tail_log2) {
  return build_gaussian_table(sigma2, width, tail_log2, false);
}

CertifiedTable build_half_gaussian_table(const mpq_class& sigma2, const FixedWidth& width, long tail_log2) {
  return build_gaussian_table(sigma2, width, tail_log2, true);
}

CertifiedTable build_laplace_magnitude_table(const mpq_class& scale, const FixedWidth& width,
                                             long tail_log2) {
  const mpfr_prec_t prec = working_precision(width);
  CertifiedTable out;
  Real e_lo(prec), e_hi(prec), q_lo(prec), q_hi(prec), p_hat(prec), tv(prec), tail(prec);
  mpfr_set_zero(tv, 1);
  // Entry 0 (B) and the digits of G share the coupling bound TV <= sum |T / 2^W - p| + tail:
  // a draw differs from the exact one only if one of its Bernoulli draws does, or G >= 2^K.
  mpq_class a = 1 / scale;  // 2^i / scale
  for (long i = -1;; ++i) {
    if (i >= 62) throw std::logic_error("hardened Laplace table: no cut found");
    if (i >= 1) {
      // The tail after digits 0..i-1: P[G >= 2^i] = rho^(2^i) = exp(-2^i / scale).
      exp_neg(tail, a, MPFR_RNDU);
      if (mpfr_cmp_si_2exp(tail, 1, tail_log2) <= 0) break;
    }
    // q_i = 1 / (1 + exp(a)) in [1 / (1 + e_hi), 1 / (1 + e_lo)]; entry 0 (i = -1) is 2 q_0.
    exp_pos(e_lo, a, MPFR_RNDD);
    exp_pos(e_hi, a, MPFR_RNDU);
    mpfr_add_ui(e_hi, e_hi, 1, MPFR_RNDU);
    mpfr_add_ui(e_lo, e_lo, 1, MPFR_RNDD);
    mpfr_ui_div(q_lo, i < 0 ? 2 : 1, e_hi, MPFR_RNDD);
    mpfr_ui_div(q_hi, i < 0 ? 2 : 1, e_lo, MPFR_RNDU);
    const mpz_class t = threshold_between(q_lo, q_hi, width, 0);
    append_threshold(out.table, t, width);
    table_probability(p_hat, t, 0, width);
    add_deviation(tv, p_hat, q_lo, q_hi);
    if (i >= 0) a *= 2;
  }
  mpfr_add(tv, tv, tail, MPFR_RNDU);
  out.tv_upper = to_mpq(tv);
  return out;
}

mpq_class convolution_tv_upper(const mpq_class& sigma2, const mpq_class& fine_sigma2, long m) {
  if (!(0 < fine_sigma2 && fine_sigma2 < sigma2) || m < 2) {
    throw std::logic_error("convolution_tv_upper: needs 0 < fine_sigma2 < sigma2 and m >= 2");
  }
  constexpr mpfr_prec_t prec = 128;
  const mpq_class a = fine_sigma2 * (sigma2 - fine_sigma2) / (sigma2 * m * m);
  Real c(prec), pi(prec), e(prec), eps(prec), den(prec);
  // c = 2 pi^2 a rounded down, so e = exp(-c) rounded up bounds exp(-2 pi^2 a) from above.
  mpfr_set_q(c, a.get_mpq_t(), MPFR_RNDD);
  mpfr_const_pi(pi, MPFR_RNDD);
  mpfr_sqr(pi, pi, MPFR_RNDD);
  mpfr_mul(c, c, pi, MPFR_RNDD);
  mpfr_mul_2ui(c, c, 1, MPFR_RNDD);
  mpfr_neg(c, c, MPFR_RNDN);
  mpfr_exp(e, c, MPFR_RNDU);
  // sum_{k>=1} e^(k^2) <= sum_{k>=1} e^k = e / (1 - e); eps <= 2 e / (1 - e).
  mpfr_ui_sub(den, 1, e, MPFR_RNDD);
  mpfr_div(eps, e, den, MPFR_RNDU);
  mpfr_mul_2ui(eps, eps, 1, MPFR_RNDN);
  if (mpfr_cmp_ui(eps, 1) >= 0) throw std::logic_error("convolution_tv_upper: eps >= 1");
  // TV <= eps / (1 - eps).
  mpfr_ui_sub(den, 1, eps, MPFR_RNDD);
  mpfr_div(eps, eps, den, MPFR_RNDU);
  return to_mpq(eps);
}

mpz_class convolution_fine_sigma2(unsigned tau_bits, long m) {
  // 1.5 (tau_bits + 9) ln 2 m^2 / (2 pi^2), rounded up at every step, then its ceiling.
  Real x(128), pi(128);
  mpfr_const_log2(x, MPFR_RNDU);
  mpfr_mul_ui(x, x, 3 * (tau_bits + 9) * static_cast<unsigned long>(m * m), MPFR_RNDU);
  mpfr_const_pi(pi, MPFR_RNDD);
  mpfr_sqr(pi, pi, MPFR_RNDD);
  mpfr_div(x, x, pi, MPFR_RNDU);
  mpfr_div_2ui(x, x, 2, MPFR_RNDU);  // 3/2 * 1/(2 pi^2) = 3 / (4 pi^2)
  mpz_class s;
  mpfr_get_z(s.get_mpz_t(), x, MPFR_RNDU);
  return s;
}

}  // namespace exactdp::internal
