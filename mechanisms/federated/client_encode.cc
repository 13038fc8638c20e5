// client_encode.cc — encode_client (client_encode.h): the lattice map and exact clipping, the
// rotation, the conditional randomized rounding and the noise share with the modular reduction.
// double and float appear here only as storage types whose bit patterns are decoded exactly
// (std::bit_cast and integer operations); no floating-point arithmetic is done on any value.
#include <exactdp/mechanisms/federated/client_encode.h>

#include <gmpxx.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/federated/hadamard.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/wide_value.h>

namespace exactdp::mechanisms {
namespace {

constexpr std::size_t kNoiseBatch = 256;

void add_u128(mpz_class& z, uint128 v) {
  mpz_class high(static_cast<unsigned long>(v >> 64));
  high <<= 64;
  z += high + mpz_class(static_cast<unsigned long>(static_cast<std::uint64_t>(v)));
}

template <class Float>
void check_input(const FederatedPlan& plan, std::span<const Float> x, std::span<std::uint64_t> out) {
  if (x.size() != plan.dimension()) {
    throw ParameterError("x", "x has " + std::to_string(x.size()) + " entries; allowed: the dimension " +
                                  std::to_string(plan.dimension()));
  }
  if (out.size() != plan.padded_dimension()) {
    throw ParameterError("out", "out has " + std::to_string(out.size()) + " entries; allowed: the padded dimension " +
                                    std::to_string(plan.padded_dimension()));
  }
  if (all_finite_bits(x.data(), x.size())) return;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!is_finite_bits(x[i])) {
      throw ParameterError("x", "x[" + std::to_string(i) + "] is " + (is_nan_bits(x[i]) ? "NaN" : "inf") +
                                    "; allowed: finite values");
    }
  }
}

// ||n||^2 of the lattice image, exactly.
template <class Float>
mpz_class lattice_norm2(std::span<const Float> x, long k) {
  mpz_class total = 0;
  uint128 acc = 0;
  mpz_class wide;
  for (const Float v : x) {
    std::int64_t n = 0;
    if (grid_index_fast(v, k, n)) {
      const auto m = static_cast<uint128>(n < 0 ? -static_cast<uint128>(n) : static_cast<uint128>(n));
      const uint128 sq = m * m;  // < 2^124
      if (acc > std::numeric_limits<uint128>::max() - sq) {
        add_u128(total, acc);
        acc = 0;
      }
      acc += sq;
    } else {
      grid_index_wide(v, k, wide);
      total += wide * wide;
    }
  }
  add_u128(total, acc);
  return total;
}

// The clipping factor R / 2^shift <= C / N, N = ceil(sqrt(norm2)), with R = floor(C 2^shift / N)
// in [2^62, 2^64) (shift = 63 + bitlen(N) - bitlen(ceil C) >= 63, as N > C); nullopt when the
// update is inside the ball (norm2 <= C^2).
struct ClipFactor {
  std::uint64_t r = 0;
  unsigned long shift = 0;
};

std::optional<ClipFactor> clip_factor(const mpq_class& clip, const mpz_class& norm2) {
  if (norm2 * clip.get_den() * clip.get_den() <= clip.get_num() * clip.get_num()) return std::nullopt;
  mpz_class root;
  mpz_class rest;
  mpz_sqrtrem(root.get_mpz_t(), rest.get_mpz_t(), norm2.get_mpz_t());
  if (rest != 0) root += 1;
  mpz_class ceil_clip;
  mpz_cdiv_q(ceil_clip.get_mpz_t(), clip.get_num_mpz_t(), clip.get_den_mpz_t());
  ClipFactor f;
  f.shift = 63 + mpz_sizeinbase(root.get_mpz_t(), 2) - mpz_sizeinbase(ceil_clip.get_mpz_t(), 2);
  mpz_class r = clip.get_num();
  r <<= f.shift;
  r /= clip.get_den() * root;
  f.r = static_cast<std::uint64_t>(mpz_get_ui(r.get_mpz_t()));
  return f;
}

// The clipped lattice coordinate sign(n) floor(|n| R / 2^shift) (or n itself without clipping).
template <class Float>
std::int64_t clipped_coordinate(Float v, long k, const std::optional<ClipFactor>& factor, mpz_class& wide) {
  std::int64_t n = 0;
  if (grid_index_fast(v, k, n)) {
    if (!factor) return n;
    const uint128 m = n < 0 ? -static_cast<uint128>(n) : static_cast<uint128>(n);
    const uint128 product = m * factor->r;  // < 2^126
    const auto c = factor->shift >= 128 ? std::int64_t{0} : static_cast<std::int64_t>(product >> factor->shift);
    return n < 0 ? -c : c;
  }
  grid_index_wide(v, k, wide);  // past 2^62 > C: always clipped
  const bool negative = sgn(wide) < 0;
  mpz_class m = abs(wide) * mpz_class(static_cast<unsigned long>(factor->r));
  m >>= factor->shift;
  const auto c = static_cast<std::int64_t>(mpz_get_ui(m.get_mpz_t()));
  return negative ? -c : c;
}

// One rounding attempt over out (entries 2 a_j + the previous up bit): writes the new up bits
// and returns whether ||x~||^2 <= bound (stops at the first excess).
bool rounding_attempt(std::span<std::uint64_t> out, unsigned h, uint128 bound, BitSource& bits) {
  const std::uint64_t fraction_mask = (std::uint64_t{1} << h) - 1;
  uint128 norm = 0;
  BitSource::Reader reader(bits);
  for (std::uint64_t& w : out) {
    const std::int64_t a = static_cast<std::int64_t>(w) >> 1;
    const std::uint64_t fraction = static_cast<std::uint64_t>(a) & fraction_mask;
    const std::uint64_t up = h == 0 ? 0 : static_cast<std::uint64_t>(reader.bits(h) < fraction);
    const std::int64_t rounded = (a >> h) + static_cast<std::int64_t>(up);
    const uint128 m = rounded < 0 ? -static_cast<uint128>(rounded) : static_cast<uint128>(rounded);
    norm += m * m;  // |rounded| <= 2^40 + 1, D <= 2^24: no overflow
    if (norm > bound) return false;
    w = (static_cast<std::uint64_t>(a) << 1) | up;
  }
  return true;
}

// out_j <- (x~_j + Z_j) mod 2^bits, x~_j from 2 a_j + up (or 0 when zeroed).
void add_noise_mod(const FederatedPlan& plan, std::span<std::uint64_t> out, bool zeroed, BitSource& bits, bool noise) {
  const unsigned h = plan.half_log2();
  const std::uint64_t mask = plan.modulus_mask();
  std::array<std::int64_t, kNoiseBatch> draws{};
  std::vector<WideValue> wide;
  mpz_class low;
  for (std::size_t start = 0; start < out.size(); start += kNoiseBatch) {
    const std::size_t count = std::min(kNoiseBatch, out.size() - start);
    wide.clear();
    if (noise) plan.sampler().sample_wide(bits, draws.data(), count, wide);
    for (const WideValue& v : wide) {  // Z mod 2^64, as the words add
      mpz_fdiv_r_2exp(low.get_mpz_t(), v.value.get_mpz_t(), 64);
      draws[v.index] = static_cast<std::int64_t>(static_cast<std::uint64_t>(mpz_get_ui(low.get_mpz_t())));
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t w = out[start + i];
      const std::int64_t a = static_cast<std::int64_t>(w) >> 1;
      const std::int64_t rounded = zeroed ? 0 : (a >> h) + static_cast<std::int64_t>(w & 1U);
      out[start + i] = (static_cast<std::uint64_t>(rounded) + static_cast<std::uint64_t>(draws[i])) & mask;
    }
  }
}

}  // namespace

template <class Float>
EncodeReport encode_client(const FederatedPlan& plan, std::span<const Float> x, std::span<std::uint64_t> out,
                           BitSource& bits, bool noise) {
  check_input(plan, x, out);
  const long k = plan.granularity_exponent();
  const std::optional<ClipFactor> factor = clip_factor(plan.lattice_clip(), lattice_norm2(x, k));
  EncodeReport report;
  report.clipped = factor.has_value();
  mpz_class wide;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t v = i < x.size() ? clipped_coordinate(x[i], k, factor, wide) : 0;
    out[i] = static_cast<std::uint64_t>(rotation_negates(plan.signs(), i) ? -v : v);
  }
  walsh_hadamard(out);
  for (std::uint64_t& w : out) w <<= 1;  // 2 a_j: room for the up bit
  const mpz_class& bound = plan.norm_bound();  // < 2^106 (plan limits)
  mpz_class low;
  mpz_fdiv_r_2exp(low.get_mpz_t(), bound.get_mpz_t(), 64);
  const uint128 bound128 = (static_cast<uint128>(mpz_class(bound >> 64).get_ui()) << 64) | low.get_ui();
  bool passed = false;
  while (!passed && report.attempts < kMaxRoundingAttempts) {
    ++report.attempts;
    passed = rounding_attempt(out, plan.half_log2(), bound128, bits);
  }
  report.zeroed = !passed;
  add_noise_mod(plan, out, report.zeroed, bits, noise);
  return report;
}

template EncodeReport encode_client<double>(const FederatedPlan&, std::span<const double>, std::span<std::uint64_t>,
                                            BitSource&, bool);
template EncodeReport encode_client<float>(const FederatedPlan&, std::span<const float>, std::span<std::uint64_t>,
                                           BitSource&, bool);

}  // namespace exactdp::mechanisms
