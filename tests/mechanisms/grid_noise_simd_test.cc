// grid_noise_simd_test.cc — the vector lanes of the grid mapping (float_grid_simd.h): the batch
// loop add_on_grid_fast_run on whole arrays (groups of eight in vector lanes where the CPU has
// AVX-512, the scalar code for the rest) equals the per-coordinate add_on_grid_fast, on arrays
// that mix usual coordinates with subnormals, -0.0, ties, huge values and draws that overflow or
// need rounding; in place too. And the kernel alone takes every group of usual coordinates and
// stops, writing nothing, at the first group with one that is not.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include <exactdp/mechanisms/grid_noise/float_grid.h>
#include <exactdp/mechanisms/grid_noise/float_grid_simd.h>

namespace exactdp::mechanisms {
namespace {

std::uint64_t bits_of(double x) { return std::bit_cast<std::uint64_t>(x); }

// A double whose |x| 2^k is about 2^scale (the usual grid noise input), random sign and fraction.
double usual_value(std::mt19937_64& rng, long k, long scale) {
  const long field = 1075 - 53 + scale - k;  // exponent e = field - 1075, |x| ~ 2^(e + 52)
  const std::uint64_t fraction = rng() & ((std::uint64_t{1} << 52) - 1);
  const std::uint64_t sign = rng() & 1;
  return std::bit_cast<double>(sign << 63 | static_cast<std::uint64_t>(field) << 52 | fraction);
}

// A normal double whose grid index is its significand shifted right by r = -(e + k) (left for
// r < 0), r in -12 .. 64 (around both ends of the usual case, r = P - 62 = -9 and r > P), its
// dropped bits exactly one half (a tie, either parity) half the time; or, one time in eight, any
// finite pattern (subnormal, -0.0, huge).
double corner_value(std::mt19937_64& rng, long k) {
  if (rng() % 8 == 0) {
    const double x = std::bit_cast<double>(rng() % 2 == 0 ? rng() & ((std::uint64_t{1} << 52) - 1) : rng());
    return is_finite_bits(x) ? x : -0.0;
  }
  const long r = static_cast<long>(rng() % 77) - 12;
  const long field = 1075 - k - r;
  if (field < 1 || field > 2046) return 0.0;
  std::uint64_t fraction = rng() & ((std::uint64_t{1} << 52) - 1);
  if (r >= 1 && r <= 52 && rng() % 2 == 0) {
    fraction = (fraction >> r << r) | std::uint64_t{1} << (r - 1);  // dropped part: exactly 1/2
  }
  return std::bit_cast<double>((rng() & 1) << 63 | static_cast<std::uint64_t>(field) << 52 | fraction);
}

// A draw for x: the usual noise, any int64, or one that puts |n + draw| just below, at or just
// above 2^53 (the end of exact outputs).
std::int64_t draw_for(std::mt19937_64& rng, double x, long k) {
  std::int64_t n = 0;
  const bool fast = grid_index_fast(x, k, n);
  const auto near = static_cast<std::int64_t>(rng() % 5) - 2;
  const DyadicFloat d = decode_float(x);
  switch (rng() % 7) {
    case 0: return static_cast<std::int64_t>(rng());
    case 3: {  // |n| >= 2^62 (past the fast path) cancelled by the draw: n + draw small
      const long left = d.exponent + k;
      if (left < 1 || left > 10 || d.significand == 0) return 0;
      const auto big = static_cast<std::int64_t>(d.significand << left);
      return (d.negative ? big : -big) + near;
    }
    case 1: return fast && n < (std::int64_t{1} << 61) ? (std::int64_t{1} << 53) - n + near : 0;
    case 2: return fast && n > -(std::int64_t{1} << 61) ? -(std::int64_t{1} << 53) - n + near : 0;
    default: return static_cast<std::int64_t>(rng() % (1U << 26)) - (1 << 25);
  }
}

TEST(GridSimd, BatchLoopEqualsPerCoordinatePathOnMixedArrays) {
  std::mt19937_64 rng(0x5eed41);
  const long fixed_k[] = {20, 0, -900, 1000, 52 - 1023, 1022};
  for (int trial = 0; trial < 20000; ++trial) {
    const long k = trial % 8 < 6 ? fixed_k[trial % 6] : static_cast<long>(rng() % 1994) - 971;
    const std::size_t n = rng() % 70;
    const unsigned corner_rate = trial % 3 == 0 ? 0 : 1 + static_cast<unsigned>(rng() % 16);  // 1 in ...
    std::vector<double> x(n), y(n, 7.0), y_in_place;
    std::vector<std::int64_t> draws(n);
    for (std::size_t i = 0; i < n; ++i) {
      const bool corner = corner_rate != 0 && rng() % corner_rate == 0;
      x[i] = corner ? corner_value(rng, k) : usual_value(rng, k, static_cast<long>(rng() % 60) - 10);
      draws[i] = corner ? draw_for(rng, x[i], k) : static_cast<std::int64_t>(rng() % 2001) - 1000;
    }
    std::size_t expected_done = n;
    std::vector<double> expected(n, 7.0);
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

TEST(GridSimd, KernelTakesEveryUsualGroupAndStopsUnwrittenAtTheFirstUnusual) {
  if (!grid_simd_available()) GTEST_SKIP() << "no AVX-512F/CD on this CPU";
  std::mt19937_64 rng(77);
  const long k = 20;
  std::vector<double> x(69), y(69, 3.0);
  std::vector<std::int64_t> draws(69);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = usual_value(rng, k, static_cast<long>(rng() % 40));
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
