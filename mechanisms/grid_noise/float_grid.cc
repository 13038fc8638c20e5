// float_grid.cc — the exact float <-> grid conversions of float_grid.h: integer shifts with
// round-half-to-even, on 128-bit integers in the fast path and on GMP integers past it.
// double and float appear here only as storage types whose bit patterns are
// decoded and encoded exactly (std::bit_cast and integer operations); no floating-point
// arithmetic is done on any value.
#include <exactdp/mechanisms/grid_noise/float_grid.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <exactdp/mechanisms/grid_noise/float_grid_simd.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::mechanisms {
namespace {

constexpr unsigned kFastBits = 62;  // |n| < 2^62

// round_half_even(m / 2^r) for r >= 1 and m < 2^64 (every caller's m: a significand or |n + Z|).
uint128 shift_right_half_even(uint128 m, unsigned long r) noexcept {
  if (r > 64) return 0;  // m < 2^64 <= 2^(r - 1): below one half
  const uint128 q = m >> r;
  const uint128 rest = m & ((uint128{1} << r) - 1);
  const uint128 half = uint128{1} << (r - 1);
  return (rest > half || (rest == half && (q & 1) != 0)) ? q + 1 : q;
}

// round_half_even(m * 2^shift), the result known to fit in 128 bits.
uint128 scale_half_even(uint128 m, long shift) noexcept {
  if (shift >= 0) return m << shift;
  return shift_right_half_even(m, static_cast<unsigned long>(-shift));
}

// scale_half_even for m < 2^63 whose result fits in 64 bits, on 64-bit integers: for r = -shift
// >= 64, m < 2^63 <= 2^(r - 1) is below one half, so 0, as shift_right_half_even gives.
std::uint64_t scale_half_even_64(std::uint64_t m, long shift) noexcept {
  if (shift >= 0) return m << shift;
  const auto r = static_cast<unsigned long>(-shift);
  if (r >= 64) return 0;
  const std::uint64_t q = m >> r;
  const std::uint64_t rest = m & ((std::uint64_t{1} << r) - 1);
  const std::uint64_t half = std::uint64_t{1} << (r - 1);
  return (rest > half || (rest == half && (q & 1) != 0)) ? q + 1 : q;
}

// round_half_even(a * 2^shift) for a GMP integer a >= 0, the result known to be below 2^64.
std::uint64_t scale_half_even(const mpz_class& a, long shift) {
  mpz_class q;
  if (shift >= 0) {
    mpz_mul_2exp(q.get_mpz_t(), a.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
    return mpz_get_ui(q.get_mpz_t());
  }
  const auto r = static_cast<mp_bitcnt_t>(-shift);
  mpz_fdiv_q_2exp(q.get_mpz_t(), a.get_mpz_t(), r);
  const bool half_bit = mpz_tstbit(a.get_mpz_t(), r - 1) != 0;
  const bool below_half_nonzero = r >= 2 && mpz_scan1(a.get_mpz_t(), 0) < r - 1;
  if (half_bit && (below_half_nonzero || mpz_odd_p(q.get_mpz_t()) != 0)) q += 1;
  return mpz_get_ui(q.get_mpz_t());
}

// The bit pattern of the float nearest magnitude * 2^-k whose top bit is bit `width - 1`
// (magnitude > 0); `scaled(shift)` computes round_half_even(magnitude * 2^shift). See the header.
template <class Float, class Scaled>
Float encode_positive(unsigned long width, long k, bool negative, Scaled&& scaled) {
  using L = FloatLayout<Float>;
  using Bits = typename L::Bits;
  constexpr long kPrecision = L::kFractionBits + 1;
  constexpr Bits kInfinity = ((Bits{1} << L::kExponentBits) - 1) << L::kFractionBits;
  const Bits sign = negative ? Bits{1} << (L::kFractionBits + L::kExponentBits) : 0;
  // The value lies in [2^top, 2^(top + 1)). width <= 2^40 and |k| <= 4096: no overflow.
  const long top = static_cast<long>(width) - 1 - k;
  if (top > L::kMaxExponent) return std::bit_cast<Float>(static_cast<Bits>(sign | (kInfinity - 1)));
  // The exponent of the unit in the last place of the result (normal or subnormal).
  const long ulp = std::max(top - (kPrecision - 1), L::kLeastExponent);
  const auto q = static_cast<std::uint64_t>(scaled(-k - ulp));  // <= 2^P
  // (biased exponent - 1) << fraction bits, plus q with its hidden bit: a carry of q into 2^P
  // moves to the next binade by itself; ulp == least exponent gives the subnormal pattern q.
  const auto pattern = static_cast<std::uint64_t>(ulp - L::kLeastExponent) * (std::uint64_t{1} << L::kFractionBits) + q;
  const Bits bits = pattern >= kInfinity ? kInfinity - 1 : static_cast<Bits>(pattern);
  return std::bit_cast<Float>(static_cast<Bits>(sign | bits));
}

}  // namespace

template <class Float>
bool grid_index_fast(Float x, long k, std::int64_t& n) noexcept {
  const DyadicFloat d = decode_float(x);
  if (d.significand == 0) {
    n = 0;
    return true;
  }
  const long shift = d.exponent + k;
  if (shift >= 0 && static_cast<long>(std::bit_width(d.significand)) + shift > static_cast<long>(kFastBits)) {
    return false;
  }
  // On 64-bit integers (significand < 2^53): the value of scale_half_even(significand, shift).
  const auto magnitude = static_cast<std::int64_t>(scale_half_even_64(d.significand, shift));
  n = d.negative ? -magnitude : magnitude;
  return true;
}

template <class Float>
void grid_index_wide(Float x, long k, mpz_class& n) {
  const DyadicFloat d = decode_float(x);
  const long shift = d.exponent + k;
  if (shift >= 0) {
    mpz_set_ui(n.get_mpz_t(), d.significand);
    mpz_mul_2exp(n.get_mpz_t(), n.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
  } else {
    mpz_set_ui(n.get_mpz_t(), static_cast<unsigned long>(scale_half_even(d.significand, shift)));
  }
  if (d.negative) mpz_neg(n.get_mpz_t(), n.get_mpz_t());
}

template <class Float>
Float encode_grid_value(bool negative, std::uint64_t magnitude, long k) noexcept {
  if (magnitude == 0) return std::bit_cast<Float>(typename FloatLayout<Float>::Bits{0});
  return encode_positive<Float>(static_cast<unsigned long>(std::bit_width(magnitude)), k, negative,
                                [magnitude](long shift) { return scale_half_even(magnitude, shift); });
}

template <class Float>
Float encode_grid_value(const mpz_class& v, long k) {
  if (sgn(v) == 0) return std::bit_cast<Float>(typename FloatLayout<Float>::Bits{0});
  const mpz_class magnitude = abs(v);
  const auto width = static_cast<unsigned long>(mpz_sizeinbase(magnitude.get_mpz_t(), 2));
  return encode_positive<Float>(width, k, sgn(v) < 0,
                                [&magnitude](long shift) { return scale_half_even(magnitude, shift); });
}

// round_half_even(m / 2^r) for 1 <= r <= 63 and m < 2^64 - 2^(r-1): adding 2^(r-1) - 1 + (the
// kept part's lowest bit) carries into bit r exactly when the dropped part exceeds one half, or
// equals it with an odd kept part.
inline std::uint64_t shift_right_half_even_64(std::uint64_t m, unsigned r) noexcept {
  const std::uint64_t odd = (m >> r) & 1;
  return (m + ((std::uint64_t{1} << (r - 1)) - 1) + odd) >> r;
}

// add_on_grid_fast on the bit patterns in one pass (the same function as grid_index_fast then
// encode_grid_value, which stay the reference; tests compare them on random patterns):
//   n = round_half_even(m 2^(e + k)) with |n| < 2^62, v = n + draw, then the float nearest
//   v 2^-k: width w = bitlen(|v|), ulp = max(w - 1 - k - (P - 1), least exponent), the
//   significand q = round_half_even(|v| 2^(-k - ulp)) (a left shift when -k - ulp >= 0, the
//   usual case: then no rounding), pattern (ulp - least) 2^(P-1) + q, saturated.
template <class Float>
[[gnu::always_inline]] inline bool add_one_on_grid(Float x, long k, std::int64_t draw, Float& y) noexcept {
  using L = FloatLayout<Float>;
  using Bits = typename L::Bits;
  constexpr long kPrecision = L::kFractionBits + 1;
  constexpr Bits kInfinity = ((Bits{1} << L::kExponentBits) - 1) << L::kFractionBits;
  const auto bits = std::bit_cast<Bits>(x);
  const auto field = static_cast<long>((bits >> L::kFractionBits) & ((Bits{1} << L::kExponentBits) - 1));
  const auto fraction = static_cast<std::uint64_t>(bits & ((Bits{1} << L::kFractionBits) - 1));
  const std::uint64_t m = field == 0 ? fraction : (fraction | (std::uint64_t{1} << L::kFractionBits));
  const long shift = (field == 0 ? 1 : field) + L::kLeastExponent - 1 + k;
  std::uint64_t magnitude = 0;
  if (shift >= 0) {
    if (m != 0 && static_cast<long>(std::bit_width(m)) + shift > static_cast<long>(kFastBits)) return false;
    magnitude = m == 0 ? 0 : m << shift;
  } else if (shift >= -kPrecision) {  // r = -shift <= P and m < 2^P
    magnitude = shift_right_half_even_64(m, static_cast<unsigned>(-shift));
  }  // else r > P: m < 2^P <= 2^(r - 1), below one half: 0
  const bool x_negative = (bits >> (L::kFractionBits + L::kExponentBits)) != 0;
  const std::int64_t n = x_negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  std::int64_t v = 0;
  if (__builtin_add_overflow(n, draw, &v)) {  // |n + draw| >= 2^63: the general encoder
    const int128 wide = static_cast<int128>(n) + draw;
    y = encode_grid_value<Float>(wide < 0, static_cast<std::uint64_t>(wide < 0 ? -wide : wide), k);
    return true;
  }
  if (v == 0) {
    y = std::bit_cast<Float>(Bits{0});
    return true;
  }
  const bool negative = v < 0;
  const std::uint64_t a = negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);  // < 2^63
  const long top = static_cast<long>(std::bit_width(a)) - 1 - k;
  const long ulp = std::max(top - (kPrecision - 1), L::kLeastExponent);
  const long up = -k - ulp;
  std::uint64_t q = 0;
  if (up >= 0) {
    q = a << up;  // exact: q < 2^P
  } else if (up > -64) {
    q = shift_right_half_even_64(a, static_cast<unsigned>(-up));  // a < 2^63: no overflow
  } else {
    q = static_cast<std::uint64_t>(scale_half_even(a, up));
  }
  const Bits sign = negative ? Bits{1} << (L::kFractionBits + L::kExponentBits) : 0;
  if (top > L::kMaxExponent) {
    y = std::bit_cast<Float>(static_cast<Bits>(sign | (kInfinity - 1)));
    return true;
  }
  const auto pattern = static_cast<std::uint64_t>(ulp - L::kLeastExponent) * (std::uint64_t{1} << L::kFractionBits) + q;
  const Bits out = pattern >= kInfinity ? kInfinity - 1 : static_cast<Bits>(pattern);
  y = std::bit_cast<Float>(static_cast<Bits>(sign | out));
  return true;
}

// The granularity exponents for which add_one_simple applies: every |v| in [1, 2^P) gives a
// normal float v 2^-k (k <= bias - 1) and none overflows (k >= P - 1 - bias).
template <class Float>
constexpr bool simple_exponent(long k) noexcept {
  using L = FloatLayout<Float>;
  constexpr long kBias = (1L << (L::kExponentBits - 1)) - 1;
  return k >= static_cast<long>(L::kFractionBits) - kBias && k <= kBias - 1;
}

// add_one_on_grid's usual case on a few branch-free integer operations; false (y unset) when
// it does not apply: x whose grid index needs a left shift by more than 62 - P bits (it may leave the fast range),
// |n + draw| >= 2^P (the output needs rounding) or n + draw overflowing. Requires
// simple_exponent(k). The same results as add_one_on_grid (tests compare them):
//   n: r = -(e + k) (e: x's exponent, the least exponent for subnormals); for r >= 0, n =
//     round_half_even(m / 2^r) = (2m + 2^r - 1 + (m >> r & 1)) >> (r + 1), with r + 1 clamped to
//     63 (2m < 2^(P+1) <= 2^62: every r >= P + 1 gives 0, as it must); for P - 62 <= r < 0,
//     n = m 2^-r < 2^62;
//   y: a = |n + draw| < 2^P, w = bitlen(a) = 64 - clz(a): the significand a 2^(P - w) is exact,
//     the biased exponent w - 1 - k + bias (normal: simple_exponent), so the pattern is
//     (w - 2 - k + bias) 2^(P-1) + a 2^(P - w) (the hidden bit adds the 1 back); a = 0: +0.0.
template <class Float>
[[gnu::always_inline]] inline bool add_one_simple(Float x, long k, std::int64_t draw, Float& y) noexcept {
  using L = FloatLayout<Float>;
  using Bits = typename L::Bits;
  constexpr long kPrecision = L::kFractionBits + 1;
  constexpr long kBias = (1L << (L::kExponentBits - 1)) - 1;
  const auto bits = std::bit_cast<Bits>(x);
  const auto field = static_cast<long>((bits >> L::kFractionBits) & ((Bits{1} << L::kExponentBits) - 1));
  const auto fraction = static_cast<std::uint64_t>(bits & ((Bits{1} << L::kFractionBits) - 1));
  const std::uint64_t m = fraction | (static_cast<std::uint64_t>(field != 0) << L::kFractionBits);
  const long r = -((field == 0 ? 1 : field) + L::kLeastExponent - 1 + k);
  std::uint64_t magnitude = 0;
  if (r >= 0) [[likely]] {
    const unsigned r1 = static_cast<unsigned>(std::min<long>(r + 1, 63));
    magnitude = ((m << 1) + ((std::uint64_t{1} << r1) >> 1) - 1 + ((m >> (r1 - 1)) & 1)) >> r1;
  } else if (r >= kPrecision - 62) {
    magnitude = m << -r;  // < 2^62
  } else {
    return false;  // |x| 2^k may reach 2^62: the general path
  }
  const auto x_sign = static_cast<std::int64_t>(bits >> (L::kFractionBits + L::kExponentBits));  // 0 or 1
  const std::int64_t n = (static_cast<std::int64_t>(magnitude) ^ -x_sign) + x_sign;  // +-magnitude
  std::int64_t v = 0;
  if (__builtin_add_overflow(n, draw, &v)) return false;
  const std::int64_t v_sign = v >> 63;  // 0 or -1
  const auto a = static_cast<std::uint64_t>((v ^ v_sign) - v_sign);
  if (a >> kPrecision != 0) return false;
  const auto lz = static_cast<long>(std::countl_zero(a | 1));  // a = 0: any exponent, masked below
  const std::uint64_t q = a << (lz - (64 - kPrecision));
  const std::uint64_t exponent = static_cast<std::uint64_t>(62 - lz - k + kBias) << L::kFractionBits;
  const std::uint64_t pattern = (exponent + q) & (std::uint64_t{0} - static_cast<std::uint64_t>(a != 0));
  const std::uint64_t sign = static_cast<std::uint64_t>(v_sign) & (std::uint64_t{1} << (L::kFractionBits + L::kExponentBits));
  y = std::bit_cast<Float>(static_cast<Bits>(pattern | sign));
  return true;
}

template <class Float>
bool add_on_grid_fast(Float x, long k, std::int64_t draw, Float& y) noexcept {
  return add_one_on_grid(x, k, draw, y);
}

template <class Float>
std::size_t add_on_grid_fast_run(const Float* x, long k, const std::int64_t* draws, Float* y, std::size_t count) noexcept {
  if (simple_exponent<Float>(k)) {
    // Whole groups of eight in vector lanes where the CPU can (float_grid_simd.h), the group it
    // stops at (a coordinate outside the usual case, or the last few) here, then on.
    const bool vector = grid_simd_available();
    std::size_t i = 0;
    while (i < count) {
      if (vector) i += add_on_grid_simple_simd(x + i, k, draws + i, y + i, count - i);
      const std::size_t stop = vector ? std::min(count, i + kGridSimdGroup) : count;
      for (; i < stop; ++i) {
        if (!add_one_simple(x[i], k, draws[i], y[i]) && !add_one_on_grid(x[i], k, draws[i], y[i])) return i;
      }
    }
    return count;
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (!add_one_on_grid(x[i], k, draws[i], y[i])) return i;
  }
  return count;
}

template std::size_t add_on_grid_fast_run<double>(const double*, long, const std::int64_t*, double*, std::size_t) noexcept;
template std::size_t add_on_grid_fast_run<float>(const float*, long, const std::int64_t*, float*, std::size_t) noexcept;
template bool add_on_grid_fast<double>(double, long, std::int64_t, double&) noexcept;
template bool add_on_grid_fast<float>(float, long, std::int64_t, float&) noexcept;
template bool grid_index_fast<double>(double, long, std::int64_t&) noexcept;
template bool grid_index_fast<float>(float, long, std::int64_t&) noexcept;
template void grid_index_wide<double>(double, long, mpz_class&);
template void grid_index_wide<float>(float, long, mpz_class&);
template double encode_grid_value<double>(bool, std::uint64_t, long) noexcept;
template float encode_grid_value<float>(bool, std::uint64_t, long) noexcept;
template double encode_grid_value<double>(const mpz_class&, long);
template float encode_grid_value<float>(const mpz_class&, long);

}  // namespace exactdp::mechanisms
