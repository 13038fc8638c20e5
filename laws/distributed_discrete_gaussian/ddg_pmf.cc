#include <exactdp/laws/distributed_discrete_gaussian/ddg_pmf.h>

#include <algorithm>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

const mpq_class kMaxExactVariance(250);      // m sigma2
const mpz_class kMaxExactSurvivors(10'000);  // m
constexpr mpfr_prec_t kMaxWorkingPrecision = 320;

// A_k for k = -K..K (lower and upper ends), the residual mass b, and the clients summed.
struct Parts {
  std::vector<Real> lower, upper;
  Real residual;
  long clients = 0;
};

Real zero_real(mpfr_prec_t p) {
  Real r(p);
  mpfr_set_zero(r, 1);
  return r;
}

// K_c = isqrt(2 c sigma2 (p + 40) 7/10) + 2 (ddg_pmf.h).
long window_for(const mpq_class& sigma2, long clients, mpfr_prec_t p) {
  const mpq_class x = 2 * mpq_class(clients) * sigma2 * mpq_class(p + 40) * mpq_class(7, 10);
  const mpz_class whole = x.get_num() / x.get_den();
  return mpz_class(sqrt(whole)).get_si() + 2;
}

Parts one_client(const mpq_class& sigma2, mpfr_prec_t p) {
  const long k1 = window_for(sigma2, 1, p);
  std::vector<Interval> f;
  f.reserve(static_cast<std::size_t>(k1) + 2);
  for (long x = 0; x <= k1 + 1; ++x) f.push_back(exp(Interval(mpq_class(-x * x) / (2 * sigma2), p)));
  Interval window_sum = f[0];
  for (long x = 1; x <= k1; ++x) window_sum = window_sum + f[static_cast<std::size_t>(x)] * mpq_class(2);
  const Interval ratio = exp(Interval(mpq_class(-(2 * k1 + 3)) / (2 * sigma2), p));
  const Interval tail = f[static_cast<std::size_t>(k1) + 1] / (mpq_class(1) - ratio);
  Real normaliser_upper(p);
  mpfr_mul_2ui(normaliser_upper, tail.upper(), 1, MPFR_RNDU);
  mpfr_add(normaliser_upper, normaliser_upper, window_sum.upper(), MPFR_RNDU);
  Parts out{{}, {}, Real(p), 1};
  for (long k = -k1; k <= k1; ++k) {
    const Interval& fk = f[static_cast<std::size_t>(k < 0 ? -k : k)];
    out.lower.emplace_back(p);
    mpfr_div(out.lower.back(), fk.lower(), normaliser_upper, MPFR_RNDD);
    out.upper.emplace_back(p);
    mpfr_div(out.upper.back(), fk.upper(), window_sum.lower(), MPFR_RNDU);
  }
  mpfr_mul_2ui(out.residual, tail.upper(), 1, MPFR_RNDU);
  mpfr_div(out.residual, out.residual, window_sum.lower(), MPFR_RNDU);
  return out;
}

// (A + R) * (B + R') = A * B + a residual of mass <= b_A + b_B, trimmed to |k| <= keep.
Parts convolve(const Parts& a, const Parts& b, long keep, mpfr_prec_t p) {
  const std::size_t na = a.lower.size(), nb = b.lower.size();
  const long full = static_cast<long>((na + nb - 2) / 2);
  std::vector<Real> lower(na + nb - 1, zero_real(p)), upper(na + nb - 1, zero_real(p));
  for (std::size_t i = 0; i < na; ++i) {
    for (std::size_t j = 0; j < nb; ++j) {
      mpfr_fma(lower[i + j], a.lower[i], b.lower[j], lower[i + j], MPFR_RNDD);
      mpfr_fma(upper[i + j], a.upper[i], b.upper[j], upper[i + j], MPFR_RNDU);
    }
  }
  const long kept = std::min(keep, full);
  Parts out{{}, {}, Real(p), a.clients + b.clients};
  mpfr_add(out.residual, a.residual, b.residual, MPFR_RNDU);
  for (long k = -full; k <= full; ++k) {
    const auto index = static_cast<std::size_t>(k + full);
    if (k < -kept || k > kept) {
      mpfr_add(out.residual, out.residual, upper[index], MPFR_RNDU);
      continue;
    }
    out.lower.push_back(std::move(lower[index]));
    out.upper.push_back(std::move(upper[index]));
  }
  return out;
}

Parts sum_of_clients(const mpq_class& sigma2, long m, mpfr_prec_t p) {
  Parts result{{Real(p)}, {Real(p)}, zero_real(p), 0};
  mpfr_set_ui(result.lower[0], 1, MPFR_RNDN);
  mpfr_set_ui(result.upper[0], 1, MPFR_RNDN);
  Parts square = one_client(sigma2, p);
  for (long e = m;;) {
    if ((e & 1) != 0) result = convolve(result, square, window_for(sigma2, result.clients + square.clients, p), p);
    e >>= 1;
    if (e == 0) break;
    square = convolve(square, square, window_for(sigma2, 2 * square.clients, p), p);
  }
  return result;
}

}  // namespace

bool ddg_exact_profile_feasible(const mpq_class& sigma2, const mpz_class& survivors) {
  return survivors >= 1 && survivors <= kMaxExactSurvivors && mpq_class(survivors) * sigma2 <= kMaxExactVariance;
}

DistributedDiscreteGaussianPmf::DistributedDiscreteGaussianPmf(const mpq_class& sigma2, long survivors,
                                                               mpfr_prec_t precision)
    : precision_(std::min(precision, kMaxWorkingPrecision)), residual_(precision_) {
  if (!ddg_exact_profile_feasible(sigma2, mpz_class(survivors))) {
    throw LimitError("clients", "clients: the exact law of the distributed discrete Gaussian sum (its profile and "
                                "its audit) needs "
                                "1 <= m <= 10^4 surviving clients and m * sigma2 <= 250, not m = " +
                                    std::to_string(survivors) + ", sigma2 = " + abbreviate(to_string(sigma2)));
  }
  Parts parts = sum_of_clients(sigma2, survivors, precision_);
  lower_ = std::move(parts.lower);
  upper_ = std::move(parts.upper);
  residual_ = std::move(parts.residual);
}

Interval DistributedDiscreteGaussianPmf::mass(long k) const {
  const long end = half_width();
  const Real zero = zero_real(precision_);
  if (k < -end || k > end) return Interval::from_ends(zero, residual_, precision_);
  const auto index = static_cast<std::size_t>(k + end);
  Real upper(precision_);
  mpfr_add(upper, upper_[index], residual_, MPFR_RNDU);
  return Interval::from_ends(lower_[index], upper, precision_);
}

Interval DistributedDiscreteGaussianPmf::window_sum(long a, long b) const {
  const long end = half_width();
  Real lower = zero_real(precision_);
  Real upper = zero_real(precision_);
  for (long k = std::max(a, -end); k <= std::min(b, end); ++k) {
    const auto index = static_cast<std::size_t>(k + end);
    mpfr_add(lower, lower, lower_[index], MPFR_RNDD);
    mpfr_add(upper, upper, upper_[index], MPFR_RNDU);
  }
  return Interval::from_ends(lower, upper, precision_);
}

Interval DistributedDiscreteGaussianPmf::delta_at(const mpq_class& epsilon, long shift) const {
  const mpfr_prec_t p = precision_;
  const long end = half_width();
  const Interval factor = exp(Interval(epsilon, p));
  const Real zero = zero_real(p);
  auto at = [&](const std::vector<Real>& ends, long k) -> const Real& {
    return k < -end || k > end ? zero : ends[static_cast<std::size_t>(k + end)];
  };
  Real sum_lower = zero_real(p), sum_upper = zero_real(p), term(p);
  for (long k = -end; k <= end; ++k) {  // beyond the window A_k = 0: no positive part
    mpfr_mul(term, factor.upper(), at(upper_, k - shift), MPFR_RNDU);
    mpfr_sub(term, at(lower_, k), term, MPFR_RNDD);
    if (mpfr_sgn(term.get()) > 0) mpfr_add(sum_lower, sum_lower, term, MPFR_RNDD);
    mpfr_mul(term, factor.lower(), at(lower_, k - shift), MPFR_RNDD);
    mpfr_sub(term, at(upper_, k), term, MPFR_RNDU);
    if (mpfr_sgn(term.get()) > 0) mpfr_add(sum_upper, sum_upper, term, MPFR_RNDU);
  }
  mpfr_mul(term, factor.upper(), residual_, MPFR_RNDU);
  mpfr_sub(sum_lower, sum_lower, term, MPFR_RNDD);
  if (mpfr_sgn(sum_lower.get()) < 0) mpfr_set_zero(sum_lower, 1);
  mpfr_add(sum_upper, sum_upper, residual_, MPFR_RNDU);
  if (mpfr_cmp_ui(sum_upper.get(), 1) > 0) mpfr_set_ui(sum_upper, 1, MPFR_RNDU);
  if (mpfr_cmp_ui(sum_lower.get(), 1) > 0) mpfr_set_ui(sum_lower, 1, MPFR_RNDD);
  return Interval::from_ends(sum_lower, sum_upper, p);
}

}  // namespace exactdp::laws
