// grid_noise_simd_test.cc — the vector lanes of the grid mapping (float_grid_simd.h): the batch
// loop add_on_grid_fast_run on whole double and float arrays (groups of eight in vector lanes
// where the CPU has AVX-512, the scalar code for the rest) equals the per-coordinate
// add_on_grid_fast, on arrays
// that mix usual coordinates with subnormals, -0.0, ties, huge values and draws that overflow or
// need rounding; in place too. And the kernel alone takes every group of usual coordinates and
// stops, writing nothing, at the first group with one that is not.
#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <exactdp/mechanisms/grid_noise/float_grid.h>
#include <exactdp/mechanisms/grid_noise/float_grid_simd.h>

namespace exactdp::mechanisms {
namespace {

template <class Float>
std::uint64_t bits_of(Float x) {
  return std::bit_cast<typename FloatLayout<Float>::Bits>(x);
}

template <class Float>
Float from_fields(std::uint64_t sign, long field, std::uint64_t fraction) {
  using L = FloatLayout<Float>;
  return std::bit_cast<Float>(static_cast<typename L::Bits>(
      sign << (L::kFractionBits + L::kExponentBits) | static_cast<std::uint64_t>(field) << L::kFractionBits | fraction));
}

// e = field - kBase for a normal pattern (kBase = 1075 for double, 150 for float).
template <class Float>
constexpr long kBase = 1 - FloatLayout<Float>::kLeastExponent;
template <class Float>
constexpr long kPrecision = FloatLayout<Float>::kFractionBits + 1;

// A value whose |x| 2^k is about 2^scale (the usual grid noise input), random sign and fraction.
template <class Float>
Float usual_value(std::mt19937_64& rng, long k, long scale) {
  const long field = kBase<Float> - kPrecision<Float> + scale - k;  // |x| ~ 2^(e + P - 1)
  return from_fields<Float>(rng() & 1, field, rng() & ((std::uint64_t{1} << FloatLayout<Float>::kFractionBits) - 1));
}

// A normal value whose grid index is its significand shifted right by r = -(e + k) (left for
// r < 0), r from P - 65 to P + 11 (around both ends of the usual case, r = P - 62 and r > P), its
// dropped bits exactly one half (a tie, either parity) half the time; or, one time in eight, any
// finite pattern (subnormal, -0.0, huge).
template <class Float>
Float corner_value(std::mt19937_64& rng, long k) {
  using L = FloatLayout<Float>;
  constexpr unsigned kF = L::kFractionBits;
  if (rng() % 8 == 0) {
    const auto raw = static_cast<typename L::Bits>(rng() % 2 == 0 ? rng() & ((std::uint64_t{1} << kF) - 1) : rng());
    const Float x = std::bit_cast<Float>(raw);
    return is_finite_bits(x) ? x : std::bit_cast<Float>(static_cast<typename L::Bits>(raw & ((std::uint64_t{1} << kF) - 1)));
  }
  const long r = static_cast<long>(rng() % 77) + kPrecision<Float> - 65;
  const long field = kBase<Float> - k - r;
  if (field < 1 || field > (1L << L::kExponentBits) - 2) return Float{};
  std::uint64_t fraction = rng() & ((std::uint64_t{1} << kF) - 1);
  if (r >= 1 && r <= static_cast<long>(kF) && rng() % 2 == 0) {
    fraction = (fraction >> r << r) | std::uint64_t{1} << (r - 1);  // dropped part: exactly 1/2
  }
  return from_fields<Float>(rng() & 1, field, fraction);
}

// A draw for x: the usual noise, any int64, one that puts |n + draw| just below, at or just
// above 2^P (the end of exact outputs), or one that cancels an n past 2^62.
template <class Float>
std::int64_t draw_for(std::mt19937_64& rng, Float x, long k) {
  std::int64_t n = 0;
  const bool fast = grid_index_fast(x, k, n);
  const auto near = static_cast<std::int64_t>(rng() % 5) - 2;
  const std::int64_t end = std::int64_t{1} << kPrecision<Float>;
  const DyadicFloat d = decode_float(x);
  switch (rng() % 7) {
    case 0: return static_cast<std::int64_t>(rng());
    case 1: return fast && n < (std::int64_t{1} << 61) ? end - n + near : 0;
    case 2: return fast && n > -(std::int64_t{1} << 61) ? -end - n + near : 0;
    case 3: {  // |n| near 2^62 (the end of the fast path) cancelled by the draw: n + draw small
      const long left = d.exponent + k;
      const long top = d.significand == 0 ? 0 : left + static_cast<long>(std::bit_width(d.significand));
      if (top != 62 && top != 63) return 0;  // |n| in [2^61, 2^63): both sides of 2^62
      const auto big = static_cast<std::int64_t>(d.significand << left);
      return (d.negative ? big : -big) + near;
    }
    default: return static_cast<std::int64_t>(rng() % (1U << 26)) - (1 << 25);  // the usual noise
  }
}

template <class Float>
void check_mixed_arrays(const long (&fixed_k)[6], long k_low, long k_high, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 20000; ++trial) {
    const long k = trial % 8 < 6 ? fixed_k[trial % 6] : k_low + static_cast<long>(rng() % (k_high - k_low + 1));
    const std::size_t n = rng() % 70;
    const unsigned corner_rate = trial % 3 == 0 ? 0 : 1 + static_cast<unsigned>(rng() % 16);  // 1 in ...
    std::vector<Float> x(n), y(n, Float{7}), y_in_place;
    std::vector<std::int64_t> draws(n);
    for (std::size_t i = 0; i < n; ++i) {
      const bool corner = corner_rate != 0 && rng() % corner_rate == 0;
      x[i] = corner ? corner_value<Float>(rng, k) : usual_value<Float>(rng, k, static_cast<long>(rng() % 60) - 10);
      draws[i] = corner ? draw_for(rng, x[i], k) : static_cast<std::int64_t>(rng() % 2001) - 1000;
    }
    std::size_t expected_done = n;
    std::vector<Float> expected(n, Float{7});
    for (std::size_t i = 0; i < n; ++i) {
      if (!add_on_grid_fast(x[i], k, draws[i], expected[i])) {
        expected_done = i;
        break;
      }
    }
    const std::size_t done = add_on_grid_fast_run(x.data(), k, draws.data(), y.data(), n);
    ASSERT_EQ(done, expected_done) << "k " << k << " trial " << trial;
    for (std::size_t i = 0; i < done; ++i) {
      ASSERT_EQ(bits_of(y[i]), bits_of(expected[i])) << "x " << x[i] << " k " << k << " draw " << draws[i];
    }
    y_in_place = x;
    ASSERT_EQ(add_on_grid_fast_run(y_in_place.data(), k, draws.data(), y_in_place.data(), n), done);
    for (std::size_t i = 0; i < done; ++i) ASSERT_EQ(bits_of(y_in_place[i]), bits_of(y[i]));
  }
}

TEST(GridSimd, BatchLoopEqualsPerCoordinatePathOnMixedArrays) {
  // k across simple_exponent's range (the vector lanes' domain) and its ends.
  const long double_k[] = {20, 0, -900, 1000, 52 - 1023, 1022};
  check_mixed_arrays<double>(double_k, -971, 1022, 0x5eed41);
  const long float_k[] = {20, 0, -100, 120, 23 - 127, 126};
  check_mixed_arrays<float>(float_k, -104, 126, 0x5eed42);
}

TEST(GridSimd, KernelTakesEveryUsualGroupAndStopsUnwrittenAtTheFirstUnusual) {
  if (!grid_simd_available()) GTEST_SKIP() << "no AVX-512F/CD on this CPU";
  std::mt19937_64 rng(77);
  const long k = 20;
  std::vector<double> x(69), y(69, 3.0);
  std::vector<std::int64_t> draws(69);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = usual_value<double>(rng, k, static_cast<long>(rng() % 40));
    draws[i] = static_cast<std::int64_t>(rng() % (1U << 24)) - (1 << 23);
  }
  EXPECT_EQ(add_on_grid_simple_simd(x.data(), k, draws.data(), y.data(), x.size()), 64U);
  for (std::size_t i = 0; i < 64; ++i) {
    double expected = 0;
    ASSERT_TRUE(add_on_grid_fast(x[i], k, draws[i], expected));
    ASSERT_EQ(bits_of(y[i]), bits_of(expected)) << i;
  }
  EXPECT_EQ(y[64], 3.0);  // the last five: not a whole group
  draws[19] = std::int64_t{1} << 60;  // |n + draw| >= 2^53: not the usual case
  std::vector<double> z(69, 3.0);
  EXPECT_EQ(add_on_grid_simple_simd(x.data(), k, draws.data(), z.data(), x.size()), 16U);
  for (std::size_t i = 16; i < z.size(); ++i) ASSERT_EQ(z[i], 3.0) << i;
}

}  // namespace
}  // namespace exactdp::mechanisms
