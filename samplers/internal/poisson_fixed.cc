// The fixed-point enclosure of the Poisson envelope's acceptance (internal/poisson_fixed.h has the
// argument): integer arithmetic per draw, MPFR only for the constants of one mu.
#include <exactdp/samplers/internal/poisson_fixed.h>

#include <mpfr.h>

#include <limits>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/fixed_exp52.h>

namespace exactdp::internal {
namespace {

constexpr mpfr_prec_t kConstantPrecision = 192;
constexpr uint128 kSeriesStop = 256;                      // 2^-56: a series' next power at most this ends it
constexpr unsigned kSeriesMaxTerms = 64;                  // |x| <= 1/4: reached long before
constexpr std::int64_t kMaxOffset = std::int64_t{1} << 31;  // |j| < 2^31
constexpr std::int64_t kSmallCube = std::int64_t{1} << 21;  // n < 2^21: n^3 < 2^63

// floor(2^e x) and its ceiling for 0 <= x, as an integer below 2^128.
uint128 scaled_end(mpfr_srcptr x, long e, mpfr_rnd_t direction) {
  Real scaled(mpfr_get_prec(x));
  mpfr_mul_2si(scaled, x, e, MPFR_RNDN);  // exact
  mpz_class v;
  mpfr_get_z(v.get_mpz_t(), scaled, direction);
  const mpz_class high = v >> 64;
  const mpz_class low = v - (high << 64);
  return (uint128{high.get_ui()} << 64) | low.get_ui();
}

std::uint64_t fits64(const mpz_class& v) { return static_cast<std::uint64_t>(v.get_ui()); }

// ceiling of 2^64 / (360 n^3), at least 1 (one unit bounds it for n >= 2^21).
std::uint64_t stirling_remainder(std::int64_t n) {
  if (n >= kSmallCube) return 1;
  const uint128 cube = uint128(static_cast<std::uint64_t>(n)) * static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
  const uint128 d = cube * 360;
  return static_cast<std::uint64_t>(((uint128{1} << 64) + d - 1) / d);
}

// floor(a x / 2^64) for a < 2^96 and x < 2^64.
uint128 mul_q64(uint128 a, std::uint64_t x) noexcept {
  const auto a0 = static_cast<std::uint64_t>(a), a1 = static_cast<std::uint64_t>(a >> 64);
  return uint128{a1} * x + ((uint128{a0} * x) >> 64);
}

// Bounds on 2^64 / w for a series' weights w(n) = n (n - 1) and 2 n (n < kSeriesMaxTerms + 2):
// floor((2^64 - 1) / w) and that plus one, so that the term's floor and ceiling need no division.
struct Reciprocals {
  std::uint64_t lo[kSeriesMaxTerms + 2] = {}, hi[kSeriesMaxTerms + 2] = {};
};

template <class Weight>
constexpr Reciprocals reciprocals(Weight weight) {
  Reciprocals r;
  for (unsigned n = 1; n < kSeriesMaxTerms + 2; ++n) {
    const std::uint64_t w = weight(n);
    if (w == 0) continue;
    r.lo[n] = std::numeric_limits<std::uint64_t>::max() / w;
    r.hi[n] = r.lo[n] + 1;
  }
  return r;
}

constexpr std::uint64_t pair_weight(unsigned n) { return std::uint64_t{n} * (n - 1); }
constexpr std::uint64_t double_weight(unsigned n) { return std::uint64_t{2} * n; }
constexpr Reciprocals kPairReciprocals = reciprocals(pair_weight);
constexpr Reciprocals kDoubleReciprocals = reciprocals(double_weight);

struct Range {
  int128 lo = 0, hi = 0;
  // adds sign * [lo, hi] of a nonnegative quantity
  void add(bool negative, uint128 lo_part, uint128 hi_part) noexcept {
    if (negative) {
      lo -= static_cast<int128>(hi_part);
      hi -= static_cast<int128>(lo_part);
    } else {
      lo += static_cast<int128>(lo_part);
      hi += static_cast<int128>(hi_part);
    }
  }
};

// The signed sum of a power series sum_{n>=first} sign_n P_n / w(n) (1 / w(n) bounded by r) with
// P_(n+1) = P_n x, sign_n = (-sigma)^n (sigma: j's sign), and the rest after the last term enclosed
// by its first power; false when it has not ended after kSeriesMaxTerms.
bool add_series(Range& sum, bool j_negative, unsigned first, uint128 p_lo, uint128 p_hi, std::uint64_t x_lo,
                std::uint64_t x_hi, const Reciprocals& r) noexcept {
  for (unsigned n = first;; ++n) {
    if (p_hi <= kSeriesStop) {
      sum.add(false, 0, p_hi);
      sum.add(true, 0, p_hi);
      return true;
    }
    if (n >= first + kSeriesMaxTerms) return false;
    const bool negative = !j_negative && n % 2 == 1;  // (-sigma)^n
    sum.add(negative, mul_q64(p_lo, r.lo[n]), mul_q64(p_hi, r.hi[n]) + 1);
    p_lo = mul_q64(p_lo, x_lo);
    p_hi = mul_q64(p_hi, x_hi) + 1;
  }
}

struct Log2E {
  uint128 lo = 0, hi = 0;  // at most and at least 2^53 log2(e)
};

const Log2E& log2e() {
  static const Log2E value = [] {
    Real ln2_down(kConstantPrecision), ln2_up(kConstantPrecision), x(kConstantPrecision);
    mpfr_const_log2(ln2_down, MPFR_RNDD);
    mpfr_const_log2(ln2_up, MPFR_RNDU);
    Log2E v;
    mpfr_ui_div(x, 1, ln2_up, MPFR_RNDD);  // log2(e) = 1 / ln 2, rounded down
    v.lo = scaled_end(x, 53, MPFR_RNDD);
    mpfr_ui_div(x, 1, ln2_down, MPFR_RNDU);
    v.hi = scaled_end(x, 53, MPFR_RNDU);
    return v;
  }();
  return value;
}

const FixedExp52& exp_table() {
  static const FixedExp52 table = make_fixed_exp52();
  return table;
}

// a = exp(-e) for e in [e_lo, e_hi] (units 2^-64, e_lo >= 0), as bounds in units of 2^-80.
AcceptanceBounds exp_minus(uint128 e_lo, uint128 e_hi) noexcept {
  constexpr uint128 kFar = uint128{22} << 64;  // e >= 22: a < 2^-31
  const Log2E& l = log2e();
  const FixedExp52& table = exp_table();
  AcceptanceBounds a;
  if (e_lo >= kFar) {
    a.hi = uint128{1} << 49;
    return a;
  }
  const uint128 h_lo = e_lo * l.lo;
  const uint128 alpha = fixed_exp52_alpha(h_lo, table);
  a.hi = alpha + kFixedExp52AlphaErrorUnits;
  if (e_hi < kFar) {
    // 2^-h_hi >= 2^-h_lo (1 - (h_hi - h_lo) ln 2) >= 2^-h_lo - (h_hi - h_lo) 2^-h_lo: one evaluation
    // (h_hi - h_lo below 2^5 and alpha below 2^81: the product fits in 126 bits)
    const uint128 gap = ((((e_hi * l.hi - h_lo) >> 37) + 1) * ((a.hi >> 40) + 1) >> 40) + 1;
    a.lo = alpha > gap + kFixedExp52AlphaErrorUnits ? alpha - gap - kFixedExp52AlphaErrorUnits : 0;
  }
  return a;
}

}  // namespace

PoissonFixedTerms make_poisson_fixed_terms(const mpq_class& mu, const mpz_class& m, const mpz_class& t,
                                           const mpq_class& lambda) {
  PoissonFixedTerms terms;
  terms.m = m.get_si();
  terms.t = t.get_si();
  terms.inverse_shift = static_cast<unsigned>(mpz_sizeinbase(m.get_mpz_t(), 2) - 1);
  terms.inverse = fits64(((mpz_class(1) << (64 + terms.inverse_shift)) - 1) / m);  // below 2^64 when m = 2^s
  const Interval log_ratio = log(Interval(mu / mpq_class(m), kConstantPrecision));
  terms.log_mu_over_m[0] = scaled_end(log_ratio.lower(), 96, MPFR_RNDD);
  terms.log_mu_over_m[1] = scaled_end(log_ratio.upper(), 96, MPFR_RNDU);
  const mpq_class rate = lambda * mpq_class(mpz_class(1) << 96);
  const mpz_class rate_floor = rate.get_num() / rate.get_den();
  terms.rate[0] = (uint128{fits64(rate_floor >> 64)} << 64) | fits64(rate_floor - ((rate_floor >> 64) << 64));
  terms.rate[1] = terms.rate[0] + (rate.get_den() == 1 ? 0 : 1);
  const mpz_class twelve_m = 12 * m;
  terms.twelfth_m[0] = fits64(mpz_class(std::numeric_limits<std::uint64_t>::max()) / twelve_m);
  terms.twelfth_m[1] = terms.twelfth_m[0] + 1;
  terms.remainder_m = stirling_remainder(terms.m);
  terms.remainder_k = stirling_remainder(terms.m - terms.m / 4);
  return terms;
}

std::optional<AcceptanceBounds> poisson_fixed_acceptance(const PoissonFixedTerms& terms, std::int64_t j) noexcept {
  const bool negative = j < 0;
  const std::int64_t size = negative ? -j : j;
  if (size >= kMaxOffset || 4 * size > terms.m) return std::nullopt;
  const auto abs_j = static_cast<std::uint64_t>(size);
  const std::int64_t k = terms.m + j;
  // x = |j| / m, units 2^-64
  const std::uint64_t x_lo = static_cast<std::uint64_t>((uint128{abs_j} * terms.inverse) >> terms.inverse_shift);
  const std::uint64_t x_hi = static_cast<std::uint64_t>(((uint128{abs_j} * (uint128{terms.inverse} + 1)) >> terms.inverse_shift) + 1);
  Range d;
  // j log(mu / m)
  const uint128 shift_lo = (uint128{abs_j} * terms.log_mu_over_m[0]) >> 32;
  const uint128 shift_hi = ((uint128{abs_j} * terms.log_mu_over_m[1]) >> 32) + 1;
  d.add(negative, shift_lo, shift_hi);
  // - m g(x): its terms are added with the opposite sign, so the series is taken with j's sign flipped
  Range g;
  if (!add_series(g, negative, 2, uint128{abs_j} * x_lo, uint128{abs_j} * x_hi, x_lo, x_hi, kPairReciprocals)) {
    return std::nullopt;
  }
  d.lo -= g.hi;
  d.hi -= g.lo;
  // - log1p(x) / 2 = sum_n (-sigma)^n X_n / (2 n)
  if (!add_series(d, negative, 1, x_lo, x_hi, x_lo, x_hi, kDoubleReciprocals)) {
    return std::nullopt;
  }
  // - 1/(12 k) + 1/(12 m) + r(k) - r(m)
  const std::uint64_t twelfth_k = std::numeric_limits<std::uint64_t>::max() / (12 * static_cast<std::uint64_t>(k));
  d.add(true, twelfth_k, twelfth_k + 1);
  d.add(false, terms.twelfth_m[0], terms.twelfth_m[1]);
  d.hi += terms.remainder_k;  // r(k) < r(3 m / 4) as k >= 3 m / 4
  d.lo -= terms.remainder_m;
  // lambda (|j| - t)
  const std::int64_t c = size - terms.t;
  const uint128 c_size = static_cast<std::uint64_t>(c < 0 ? -c : c);
  d.add(c < 0, (c_size * terms.rate[0]) >> 32, ((c_size * terms.rate[1]) >> 32) + 1);
  if (d.lo > 0) return std::nullopt;  // a > 1: the envelope is wrong; the MPFR path reports it
  return exp_minus(d.hi > 0 ? 0 : static_cast<uint128>(-d.hi), static_cast<uint128>(-d.lo));
}

}  // namespace exactdp::internal
