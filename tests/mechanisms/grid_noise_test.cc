// grid_noise_test.cc — exact grid noise for float arrays (mechanisms/grid_noise/grid_noise.h):
//   * the grid mapping n = round_half_even(x / 2^-k) on hand-picked values (-0.0, subnormals,
//     2^1000, ties, negative k), each also against the mpq reference (grid_reference.h);
//   * the output conversion: exact when representable, nearest-even otherwise, saturation;
//   * the fused per-coordinate path add_on_grid_fast and the batch loop add_on_grid_fast_run
//     (its branch-free simple case) equal grid_index_fast then encode_grid_value (RapidCheck: random bit patterns with subnormals, -0.0, ties, any k, draws,
//     and every right shift 0 .. 63 of each pattern; it catches a fast path off by one at r = P);
//   * refusals: NaN / inf naming the index (nothing written), bad law / parameter / granularity /
//     threads / out, the hardened range naming granularity;
//   * determinism: seeded output identical for threads 1, 2, 3; in place equals out of place;
//   * the law: (y - x) / g against the exact discrete Gaussian / Laplace law (Pearson chi-square,
//     REJECT when the certified p-value upper end < alpha = 1e-6: a correct implementation fails
//     each fixed-seed case with probability about 1e-6), and the same check catches a broken
//     variant (noise drawn with 10 % less variance than the stated law).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>
#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/verification/goodness_of_fit.h>
#include <exactdp/verification/reference_law.h>
#include <exactdp/verification/sample_counter.h>
#include "tests/mechanisms/grid_reference.h"
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using namespace mechanisms;
using test_support::reference_grid_index;

constexpr std::uint32_t kSuite = 0x641d;
const mpq_class kAlpha(1, 1'000'000);

template <class Float>
mpz_class grid_index(Float x, long k) {
  std::int64_t n = 0;
  if (grid_index_fast(x, k, n)) return mpz_class(static_cast<long>(n));
  mpz_class wide;
  grid_index_wide(x, k, wide);
  return wide;
}

GridNoise gaussian(const char* sigma, std::optional<long> k, bool hardened = false) {
  GridNoiseSpec spec;
  spec.value = mpq_class(sigma);
  spec.granularity_exponent = k;
  if (hardened) spec.hardening = Hardening{};
  return GridNoise::make(spec);
}

TEST(GridMapping, HandPickedDoubles) {
  const double tiny = std::numeric_limits<double>::denorm_min();  // 2^-1074
  struct Case {
    double x;
    long k;
    const char* n;
  };
  const Case cases[] = {
      {0.0, 0, "0"},       {-0.0, 0, "0"},        {-0.0, 1074, "0"},   {1.5, 0, "2"},   {2.5, 0, "2"},
      {-2.5, 0, "-2"},     {3.5, 0, "4"},         {0.5, 0, "0"},       {-0.5, 0, "0"},  {0.3, 1, "1"},
      {6.0, -2, "2"},      {10.0, -2, "2"},       {14.0, -2, "4"},     {tiny, 1074, "1"}, {tiny, 1073, "0"},
      {3 * tiny, 1073, "2"}, {-3 * tiny, 1073, "-2"}, {tiny, 1100, "67108864"},
      {std::ldexp(1.0, 1000), -1000, "1"}, {std::ldexp(1.0, 1000), -1001, "0"},
      {std::ldexp(1.0, 61), 0, "2305843009213693952"}, {std::ldexp(1.0, 62), 0, "4611686018427387904"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(grid_index(c.x, c.k), mpz_class(c.n)) << c.x << " k=" << c.k;
    EXPECT_EQ(grid_index(c.x, c.k), reference_grid_index(c.x, c.k)) << c.x << " k=" << c.k;
  }
  // Past the fast path: 2^62 and beyond, 2^1000 at k = 0, the largest double at k = 10.
  std::int64_t n = 0;
  EXPECT_TRUE(grid_index_fast(std::ldexp(1.0, 61), 0, n));
  EXPECT_FALSE(grid_index_fast(std::ldexp(1.0, 62), 0, n));
  EXPECT_EQ(grid_index(std::ldexp(1.0, 1000), 0), test_support::power_of_two(1000).get_num());
  const double max = std::numeric_limits<double>::max();
  EXPECT_EQ(grid_index(max, 10), reference_grid_index(max, 10));
  EXPECT_EQ(grid_index(-max, -1100), 0);
}

TEST(GridMapping, FloatsAndRandomBitPatternsAgreeWithReference) {
  const float tiny = std::numeric_limits<float>::denorm_min();  // 2^-149
  EXPECT_EQ(grid_index(tiny, 149), 1);
  EXPECT_EQ(grid_index(tiny, 148), 0);
  EXPECT_EQ(grid_index(-0.0F, 0), 0);
  EXPECT_EQ(grid_index(std::numeric_limits<float>::max(), 30), reference_grid_index(std::numeric_limits<float>::max(), 30));
  // Bit patterns spread over the whole range (every exponent), several k.
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto d = std::bit_cast<double>(state);
    const auto f = std::bit_cast<float>(static_cast<std::uint32_t>(state >> 17));
    const long k = static_cast<long>(state % 2400) - 1200;
    if (std::isfinite(d)) {
      ASSERT_EQ(grid_index(d, k), reference_grid_index(d, k)) << d << " k=" << k;
    }
    if (std::isfinite(f)) {
      ASSERT_EQ(grid_index(f, k / 8), reference_grid_index(f, k / 8)) << f << " k=" << k / 8;
    }
  }
}

TEST(GridEncoding, ExactWhenRepresentableNearestEvenOtherwise) {
  const double two53 = std::ldexp(1.0, 53);
  EXPECT_EQ(encode_grid_value<double>(false, 3, 1), 1.5);
  EXPECT_EQ(encode_grid_value<double>(true, 3, -2), -12.0);
  EXPECT_EQ(encode_grid_value<double>(false, (1ULL << 53) + 1, 0), two53);      // tie: even
  EXPECT_EQ(encode_grid_value<double>(false, (1ULL << 53) + 3, 0), two53 + 4);  // tie: even
  EXPECT_EQ(encode_grid_value<double>(false, 1, 1074), std::numeric_limits<double>::denorm_min());
  const double zero = encode_grid_value<double>(false, 1, 1075);  // half the least subnormal: 0
  EXPECT_EQ(zero, 0.0);
  EXPECT_FALSE(std::signbit(zero));
  EXPECT_FALSE(std::signbit(encode_grid_value<double>(true, 0, 0)));  // 0 is +0.0
  EXPECT_EQ(encode_grid_value<double>(false, 3, 1075), 2 * std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(encode_grid_value<float>(false, (1U << 24) + 1, 0), 16777216.0F);
  EXPECT_EQ(encode_grid_value<float>(false, 1, 149), std::numeric_limits<float>::denorm_min());
  // Saturation: 2^1024 and beyond give +-the largest double, never inf.
  const double max = std::numeric_limits<double>::max();
  EXPECT_EQ(encode_grid_value<double>(mpz_class(test_support::power_of_two(1024).get_num()), 0), max);
  EXPECT_EQ(encode_grid_value<double>(mpz_class(-test_support::power_of_two(1100).get_num()), 0), -max);
  EXPECT_EQ(encode_grid_value<double>(true, 1, -1024), -max);
  EXPECT_EQ(encode_grid_value<float>(false, 1, -128), std::numeric_limits<float>::max());
  // Random magnitudes and k, checked against the exact "nearest, ties to even" definition.
  std::uint64_t state = 12345;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint64_t m = state >> (state % 64);
    const long k = static_cast<long>((state >> 7) % 2300) - 1150;
    const mpq_class target = mpq_class(mpz_class(std::to_string(m))) * test_support::power_of_two(-k);
    ASSERT_TRUE(test_support::is_nearest_float(encode_grid_value<double>(false, m, k), target)) << m << " k=" << k;
    ASSERT_TRUE(test_support::is_nearest_float(encode_grid_value<float>(true, m, k / 8), -target * test_support::power_of_two(k - k / 8)))
        << m << " k=" << k / 8;
    ASSERT_EQ(encode_grid_value<double>(mpz_class(std::to_string(m)), k), encode_grid_value<double>(false, m, k));
  }
}

// The reference composition of add_on_grid_fast: grid_index_fast, the sum, encode_grid_value.
template <class Float>
bool composed(Float x, long k, std::int64_t draw, Float& y) {
  std::int64_t n = 0;
  if (!grid_index_fast(x, k, n)) return false;
  const mpz_class v = mpz_class(static_cast<long>(n)) + mpz_class(static_cast<long>(draw));
  y = encode_grid_value<Float>(v, k);
  return true;
}

// A bit pattern of Float: uniform, or one of the classes that exercise the corner cases.
template <class Float>
Float pattern(std::uint64_t raw, unsigned kind) {
  using Bits = typename FloatLayout<Float>::Bits;
  constexpr unsigned kFraction = FloatLayout<Float>::kFractionBits;
  auto bits = static_cast<Bits>(raw);
  switch (kind % 5) {
    case 0: bits &= (Bits{1} << kFraction) - 1; break;            // subnormal or +0.0
    case 1: bits = Bits{1} << (sizeof(Bits) * 8 - 1); break;      // -0.0
    case 2: bits &= ~((Bits{1} << (kFraction / 2)) - 1); break;   // short significand: ties
    default: break;
  }
  return std::bit_cast<Float>(bits);
}

template <class Float>
void check_fused(std::uint64_t raw, unsigned kind, long k, std::int64_t draw) {
  const Float x = pattern<Float>(raw, kind);
  RC_PRE(is_finite_bits(x));
  Float fused{}, reference{};
  const bool ok = add_on_grid_fast(x, k, draw, fused);
  RC_ASSERT(ok == composed(x, k, draw, reference));
  if (ok) RC_ASSERT(std::bit_cast<typename FloatLayout<Float>::Bits>(fused) == std::bit_cast<typename FloatLayout<Float>::Bits>(reference));
  // The batch loop (add_on_grid_fast_run: its branch-free simple case when k allows, else the
  // per-coordinate path): the same answer.
  Float run{};
  RC_ASSERT(add_on_grid_fast_run(&x, k, &draw, &run, 1) == (ok ? 1U : 0U));
  if (ok) RC_ASSERT(std::bit_cast<typename FloatLayout<Float>::Bits>(run) == std::bit_cast<typename FloatLayout<Float>::Bits>(reference));
}

RC_GTEST_PROP(GridMappingFused, EqualsIndexThenEncode, (std::uint64_t raw, unsigned kind, int k_raw, std::int64_t draw_raw,
                                                        unsigned draw_bits)) {
  const long k = k_raw % 1200;
  // Draws of every size: small (the usual noise), up to the full int64 range.
  const std::int64_t draw = draw_bits % 4 == 0 ? draw_raw : draw_raw >> (draw_bits % 64);
  check_fused<double>(raw, kind, k, draw);
  check_fused<float>(raw, kind, k / 8, draw);
  check_fused<double>(raw, kind, 20, draw >> 40);  // grid noise: k = 20, small draws
  // k against the pattern's own exponent: every right shift 0 .. 63 (the rounding boundaries,
  // r = P and r = P + 1 included).
  const long exponent = decode_float(pattern<double>(raw, kind)).exponent;
  for (long r = 0; r < 64; ++r) check_fused<double>(raw, kind, -exponent - r, draw >> 40);
  const long float_exponent = decode_float(pattern<float>(raw, kind)).exponent;
  for (long r = 0; r < 32; ++r) check_fused<float>(raw, kind, -float_exponent - r, draw >> 40);
  // Left shifts by 1 .. 64 - P + 2 (the batch loop's simple case ends at 62 - P).
  for (long s = 1; s <= 13; ++s) check_fused<double>(raw, kind, -exponent + s, draw >> 40);
  for (long s = 1; s <= 42; ++s) check_fused<float>(raw, kind, -float_exponent + s, draw >> 40);
}

TEST(GridNoiseRefusals, NonFiniteInputsNameTheIndexAndWriteNothing) {
  const GridNoise noise = gaussian("1", std::nullopt);
  std::vector<double> x(40, 1.0);
  std::vector<double> y(40, 7.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::pair<double, std::string> bad[] = {{nan, "x[17] is NaN; allowed: finite values"},
                                                 {inf, "x[17] is inf; allowed: finite values"},
                                                 {-inf, "x[17] is -inf; allowed: finite values"}};
  for (const auto& [value, message] : bad) {
    x[17] = value;
    x[30] = nan;  // only the first is named
    try {
      add_noise(noise, x, y, test_support::fixed_seed(kSuite, 1), 2);
      ADD_FAILURE() << "accepted " << value;
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), "x");
      EXPECT_EQ(std::string(e.what()), message);
    }
    EXPECT_EQ(y, std::vector<double>(40, 7.0));  // checked before anything is drawn or written
  }
  std::vector<float> xf(3, std::numeric_limits<float>::quiet_NaN());
  EXPECT_THROW(add_noise(noise, std::span<const float>(xf), std::span<float>(xf), std::nullopt, 1), ParameterError);
}

// Many chunks on several threads: the threads check the chunks' finiteness together, and a
// refused value in any chunk (the last, or one that another thread checks) still stops the call
// before anything is drawn or written, naming the first.
TEST(GridNoiseRefusals, NonFiniteInALaterChunkStopsEveryThreadBeforeWriting) {
  const GridNoise noise = gaussian("1", std::nullopt);
  const std::size_t n = 3 * kGridNoiseChunk + 5;
  std::vector<double> x(n, 1.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const std::size_t first : {n - 1, 2 * kGridNoiseChunk + 1, std::size_t{3}}) {
    x.assign(n, 1.0);
    x[first] = -std::numeric_limits<double>::infinity();
    x[n - 1] = first == n - 1 ? x[n - 1] : nan;  // a later one, not named
    for (const unsigned threads : {2U, 3U, 4U}) {
      std::vector<double> y(n, 7.0);
      for (const bool seeded : {true, false}) {
        try {
          add_noise(noise, x, y, seeded ? std::optional<Seed>(test_support::fixed_seed(kSuite, 2)) : std::nullopt,
                    threads);
          ADD_FAILURE() << "accepted -inf at " << first;
        } catch (const ParameterError& e) {
          EXPECT_EQ(std::string(e.what()), "x[" + std::to_string(first) + "] is -inf; allowed: finite values");
        }
        EXPECT_TRUE(std::all_of(y.begin(), y.end(), [](double v) { return v == 7.0; })) << first << " " << threads;
      }
    }
  }
}

TEST(GridNoiseRefusals, BadSpecsNameTheParameter) {
  auto refused = [](const GridNoiseSpec& spec, const char* parameter) {
    try {
      (void)GridNoise::make(spec);
      ADD_FAILURE() << "accepted, expected a refusal naming " << parameter;
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), parameter) << e.what();
    }
  };
  GridNoiseSpec s;
  s.law = "staircase";
  refused(s, "law");
  s.law = "no-such-law";
  refused(s, "law");
  s = {};
  s.parameter = "scale";
  refused(s, "scale");
  s = {};
  s.value = 0;
  refused(s, "sigma");
  s = {};
  s.granularity_exponent = 5000;
  refused(s, "granularity");
  // Hardened: sigma = 1 at g = 2^-51 gives sigma2 / g^2 = 2^102 > 2^100 (g = 2^-50 is inside).
  s = {};
  s.granularity_exponent = 50;
  s.hardening = Hardening{};
  EXPECT_NO_THROW((void)GridNoise::make(s));
  s.granularity_exponent = 51;
  s.hardening = Hardening{};
  refused(s, "granularity");
  try {
    (void)GridNoise::make(s);
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("2^-50 <= granularity <= 2^3"), std::string::npos) << e.what();
  }
  const GridNoise noise = gaussian("1", std::nullopt);
  std::vector<double> x(10, 0.0), y(9, 0.0), big(20, 0.0);
  EXPECT_THROW(add_noise(noise, x, y, std::nullopt, 1), ParameterError);
  EXPECT_THROW(add_noise(noise, x, x, std::nullopt, 0), ParameterError);
  EXPECT_THROW(add_noise(noise, std::span<const double>(big.data(), 10), std::span<double>(big.data() + 5, 10),
                         std::nullopt, 1),
               ParameterError);
}

TEST(GridNoiseGranularity, AutomaticRuleAndExposedValue) {
  EXPECT_EQ(automatic_granularity_exponent(1, false), 18);
  EXPECT_EQ(automatic_granularity_exponent(mpq_class(3, 2), false), 18);
  EXPECT_EQ(automatic_granularity_exponent(2, false), 17);
  EXPECT_EQ(automatic_granularity_exponent(mpq_class(1, 3), false), 20);
  EXPECT_EQ(automatic_granularity_exponent(2, true), 18);               // sigma = 1.41...
  EXPECT_EQ(automatic_granularity_exponent(mpq_class(1, 2), true), 19);  // sigma = 0.707...
  EXPECT_EQ(automatic_granularity_exponent(4, true), 17);
  const GridNoise g = gaussian("3/2", std::nullopt);
  EXPECT_EQ(g.granularity_exponent(), 18);
  EXPECT_EQ(g.granularity(), test_support::power_of_two(-18));
  EXPECT_EQ(g.grid_parameter(), mpq_class(9, 4) * test_support::power_of_two(36));
  // The rule: g <= sigma 2^-18 < 2 g.
  const mpq_class sigma(3, 2);
  EXPECT_LE(g.granularity(), sigma * test_support::power_of_two(-18));
  EXPECT_GT(2 * g.granularity(), sigma * test_support::power_of_two(-18));
  // Automatic granularity is inside the hardened range.
  EXPECT_NO_THROW((void)gaussian("1000000", std::nullopt, true));
}

// The hardened range message names granularities that work, and says so when none does: a
// power-of-two granularity moves only the powers of two, so scale = 10^100 = 2^100 5^100 (5^100
// has 233 bits, over the 128 the hardened samplers take) fits none, although 10^100 / 2^314 is
// inside 1/100..2^50.
TEST(GridNoiseHardenedRange, MessageNamesWorkingGranularitiesOrNone) {
  GridNoiseSpec spec;
  spec.law = "discrete-laplace";
  spec.parameter = "scale";
  spec.hardening = Hardening{};
  mpz_class big;
  mpz_ui_pow_ui(big.get_mpz_t(), 10, 100);
  spec.value = mpq_class(big);
  try {
    (void)GridNoise::make(spec);
    ADD_FAILURE() << "scale = 10^100 accepted in hardened mode";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "granularity");
    EXPECT_NE(std::string(e.what()).find("allowed with hardened: no granularity"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("always inside"), std::string::npos) << e.what();
  }
  spec.value = 3;
  spec.granularity_exponent = -400;  // g = 2^400: scale / g = 3 / 2^400, denominator too large
  try {
    (void)GridNoise::make(spec);
    ADD_FAILURE() << "granularity 2^400 accepted in hardened mode";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "granularity");
    EXPECT_NE(std::string(e.what()).find("2^-48 <= granularity <= 2^8 (the automatic granularity is inside)"),
              std::string::npos)
        << e.what();
  }
}

std::vector<double> mixed_inputs(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = std::ldexp(static_cast<double>(i % 1000) - 500.3, static_cast<int>(i % 7) - 3);
  x[3] = -0.0;
  x[5] = std::numeric_limits<double>::denorm_min();
  x[7] = std::ldexp(1.0, 1000);
  x[11] = -std::numeric_limits<double>::max();
  return x;
}

TEST(GridNoiseDeterminism, SeededOutputIsTheSameForAnyThreadCount) {
  const GridNoise noise = gaussian("1/4", 10);
  const std::size_t n = 3 * kGridNoiseChunk + 1234;  // four chunks, the last one partial
  const std::vector<double> x = mixed_inputs(n);
  const Seed seed = test_support::fixed_seed(kSuite, 2);
  std::vector<double> y1(n), y2(n), y3(n);
  add_noise(noise, x, y1, seed, 1);
  add_noise(noise, x, y2, seed, 2);
  add_noise(noise, x, y3, seed, 3);
  EXPECT_EQ(y1, y2);
  EXPECT_EQ(y1, y3);
  std::vector<double> in_place = x;
  add_noise(noise, in_place, in_place, seed, 3);
  EXPECT_EQ(in_place, y1);
  // Chunk 0 reads the seed's stream from its start: the BitSource overload gives the same prefix.
  SeededBits bits(seed);
  std::vector<double> head(kGridNoiseChunk);
  add_noise(noise, std::span<const double>(x.data(), kGridNoiseChunk), head, bits);
  EXPECT_TRUE(std::equal(head.begin(), head.end(), y1.begin()));
  // Another seed gives other noise; every output is finite; huge inputs keep their value.
  std::vector<double> other(n);
  add_noise(noise, x, other, test_support::fixed_seed(kSuite, 3), 2);
  EXPECT_NE(other, y1);
  for (double v : y1) ASSERT_TRUE(std::isfinite(v));
  EXPECT_EQ(y1[7], std::ldexp(1.0, 1000));
  EXPECT_EQ(y1[11], -std::numeric_limits<double>::max());
}

TEST(GridNoiseDeterminism, FloatsAndHardenedAreDeterministicToo) {
  const GridNoise plain = gaussian("1", 8);
  const GridNoise hardened = gaussian("1", 8, true);
  EXPECT_TRUE(hardened.sampler().hardened());
  std::vector<float> x(2 * kGridNoiseChunk + 5);
  std::iota(x.begin(), x.end(), -1000.0F);
  const Seed seed = test_support::fixed_seed(kSuite, 4);
  for (const GridNoise* g : {&plain, &hardened}) {
    std::vector<float> a(x.size()), b(x.size());
    add_noise(*g, x, a, seed, 1);
    add_noise(*g, x, b, seed, 3);
    EXPECT_EQ(a, b);
    std::vector<float> system(x.size());
    add_noise(*g, x, system, std::nullopt, 2);
    for (float v : system) ASSERT_TRUE(std::isfinite(v));
  }
}

// Draws the noise (y - x) / g of `noise` on n grid inputs and tests it against `stated`.
verification::TestResult noise_law_test(const GridNoise& noise, const verification::ReferenceLaw& stated,
                                        std::uint32_t seed_index) {
  constexpr std::size_t kN = 200'000;
  const long k = noise.granularity_exponent();
  std::vector<double> x(kN);
  for (std::size_t i = 0; i < kN; ++i) x[i] = std::ldexp(static_cast<double>(i % 4001) - 2000.0, static_cast<int>(-k));
  std::vector<double> y(kN);
  add_noise(noise, x, y, test_support::fixed_seed(kSuite, seed_index), 3);
  verification::SampleCounter counter(stated, {});
  for (std::size_t i = 0; i < kN; ++i) counter.add(reference_grid_index(y[i], k) - reference_grid_index(x[i], k));
  const auto cells = verification::make_cells(stated, counter);
  const auto bins = verification::merge_cells(cells, kN, verification::default_min_expected(kN));
  return verification::pearson_chi_square(bins, kN);
}

TEST(GridNoiseLaw, DiscreteGaussianOnTheGrid) {
  const GridNoise noise = gaussian("3/2", 4);  // sigma2 / g^2 = 9/4 * 256 = 576
  const verification::DiscreteGaussianLaw law(576, 0);
  const auto t = noise_law_test(noise, law, 10);
  EXPECT_FALSE(test_support::rejects(t, kAlpha)) << to_decimal_string(t.p_value, 3);
}

TEST(GridNoiseLaw, DiscreteLaplaceOnTheGrid) {
  GridNoiseSpec spec;
  spec.law = "discrete-laplace";
  spec.parameter = "scale";
  spec.value = mpq_class(5, 2);
  spec.granularity_exponent = 2;  // scale / g = 10
  const verification::DiscreteLaplaceLaw law(10, 0);
  const auto t = noise_law_test(GridNoise::make(spec), law, 11);
  EXPECT_FALSE(test_support::rejects(t, kAlpha)) << to_decimal_string(t.p_value, 3);
}

TEST(GridNoiseLaw, WrongScaleIsCaught) {
  GridNoiseSpec broken;  // 10 % less variance than the stated law
  broken.parameter = "sigma2";
  broken.value = mpq_class(9, 4) * mpq_class(9, 10);
  broken.granularity_exponent = 4;
  const verification::DiscreteGaussianLaw stated(576, 0);
  const auto t = noise_law_test(GridNoise::make(broken), stated, 12);
  EXPECT_TRUE(test_support::rejects(t, kAlpha)) << to_decimal_string(t.p_value, 3);
}

}  // namespace
}  // namespace exactdp
