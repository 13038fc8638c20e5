#include <exactdp/samplers/internal/hardened_scan.h>

#include <cstring>
#include <stdexcept>

namespace exactdp::internal {
namespace {

using Lanes = std::uint32_t __attribute__((vector_size(kScanLanes * sizeof(std::uint32_t))));

// #{i < padded : u < T_i}: the borrow chain of u - T_i over the C digits, eight i at a time.
template <unsigned C>
[[gnu::always_inline]] inline std::uint64_t count_below(const std::uint32_t* digits, std::size_t padded,
                                                        const std::uint32_t* u) noexcept {
  // u's digits are broadcast where they are used (a load-and-broadcast each): a broadcast array
  // kept on the stack costs a store-forwarding stall and an AVX/SSE transition on every call
  // (about 50 ns measured against 10 ns at 16 thresholds).
  Lanes below = {};
  for (std::size_t i = 0; i < padded; i += kScanLanes) {
    Lanes borrow = {};
#pragma GCC unroll 8
    for (unsigned c = 0; c < C; ++c) {
      Lanes t;
      std::memcpy(&t, digits + c * padded + i, sizeof t);
      borrow = ((Lanes{} + u[c]) - t - borrow) >> kScanDigitBits;
    }
    below += borrow;
  }
  std::uint64_t sum = 0;
  for (unsigned lane = 0; lane < kScanLanes; ++lane) sum += below[lane];
  return sum;
}

// below[s] = #{i < entries : u_s < T_i} for the kScanGroup uniforms u_s, the threshold's digits
// broadcast, eight uniforms per vector and kScanGroup / 8 vectors per threshold (the uniforms'
// digits stay in registers). The borrow chain is written with lane-wise masks: for 31-bit digits
// (non-negative as int32) and a borrow mask b in {0, -1}, u_c + b >= -1 never wraps, and the
// borrow out of digit c is the mask [u_c + b < t_c] (a vector comparison of int32 lanes: it
// yields a mask in every lane, no flag and no branch). [u < T] is the borrow out of the top
// digit; below -= mask counts it. Per threshold and 8 uniforms: 2C - 1 operations and one
// subtraction, against 3C + 1 for the shifted borrows of count_below.
template <unsigned C>
[[gnu::always_inline]] inline void count_below_group(const std::uint32_t* digits, std::size_t padded,
                                                     std::size_t entries, const std::uint32_t* u,
                                                     std::uint32_t* below_out) noexcept {
  using Signed = std::int32_t __attribute__((vector_size(kScanLanes * sizeof(std::int32_t))));
  constexpr unsigned kBlocks = kScanGroup / kScanLanes;
  // Every loop over c and b unrolled, so that uv and below are registers: a stack copy of u's
  // digits read back a whole vector at a time waits for its half-vector stores to land.
  Signed uv[C][kBlocks];
#pragma GCC unroll 8
  for (unsigned c = 0; c < C; ++c) {
#pragma GCC unroll 8
    for (unsigned b = 0; b < kBlocks; ++b) std::memcpy(&uv[c][b], u + c * kScanGroup + b * kScanLanes, sizeof(Signed));
  }
  Signed below[kBlocks];
#pragma GCC unroll 8
  for (unsigned b = 0; b < kBlocks; ++b) below[b] = Signed{};
  for (std::size_t i = 0; i < entries; ++i) {
    Signed borrow[kBlocks];  // 0 or -1 per lane
    const auto t0 = static_cast<std::int32_t>(digits[i]);
#pragma GCC unroll 8
    for (unsigned b = 0; b < kBlocks; ++b) borrow[b] = uv[0][b] < t0;
#pragma GCC unroll 8
    for (unsigned c = 1; c < C; ++c) {
      const auto t = static_cast<std::int32_t>(digits[c * padded + i]);
#pragma GCC unroll 8
      for (unsigned b = 0; b < kBlocks; ++b) borrow[b] = (uv[c][b] + borrow[b]) < t;
    }
#pragma GCC unroll 8
    for (unsigned b = 0; b < kBlocks; ++b) below[b] -= borrow[b];
  }
#pragma GCC unroll 8
  for (unsigned b = 0; b < kBlocks; ++b) std::memcpy(below_out + b * kScanLanes, &below[b], sizeof(Signed));
}

// One compiled copy per digit count (EXACTDP_SCAN_CLONES, hardened_scan.h).

EXACTDP_SCAN_CLONES std::uint64_t count_below_2(const std::uint32_t* d, std::size_t n, const std::uint32_t* u) noexcept {
  return count_below<2>(d, n, u);
}
EXACTDP_SCAN_CLONES std::uint64_t count_below_3(const std::uint32_t* d, std::size_t n, const std::uint32_t* u) noexcept {
  return count_below<3>(d, n, u);
}
EXACTDP_SCAN_CLONES std::uint64_t count_below_4(const std::uint32_t* d, std::size_t n, const std::uint32_t* u) noexcept {
  return count_below<4>(d, n, u);
}
EXACTDP_SCAN_CLONES std::uint64_t count_below_5(const std::uint32_t* d, std::size_t n, const std::uint32_t* u) noexcept {
  return count_below<5>(d, n, u);
}

#define EXACTDP_GROUP_COPY(C)                                                                       \
  EXACTDP_SCAN_CLONES void count_below_group_##C(const std::uint32_t* d, std::size_t n, std::size_t e,  \
                                                 const std::uint32_t* u, std::uint32_t* below) noexcept { \
    count_below_group<C>(d, n, e, u, below);                                                          \
  }
EXACTDP_GROUP_COPY(2)
EXACTDP_GROUP_COPY(3)
EXACTDP_GROUP_COPY(4)
EXACTDP_GROUP_COPY(5)
#undef EXACTDP_GROUP_COPY

ScanCountGroup count_group_for(unsigned digits_per_number) {
  switch (digits_per_number) {
    case 2:
      return count_below_group_2;
    case 3:
      return count_below_group_3;
    case 4:
      return count_below_group_4;
    default:
      return count_below_group_5;  // count_for has rejected anything else
  }
}

ScanCount count_for(unsigned digits_per_number) {
  switch (digits_per_number) {
    case 2:
      return count_below_2;
    case 3:
      return count_below_3;
    case 4:
      return count_below_4;
    case 5:
      return count_below_5;
    default:
      throw std::logic_error("hardened scan: 2 to 5 digits per number (56 <= W <= 155)");
  }
}

}  // namespace

ScanTable make_scan_table(const ThresholdTable& table, const FixedWidth& width) {
  ScanTable out;
  out.digits_per_number = (width.width_bits + kScanDigitBits - 1) / kScanDigitBits;
  out.count = count_for(out.digits_per_number);
  out.count_group = count_group_for(out.digits_per_number);
  out.entries = table.entries;
  out.padded = (table.entries + kScanLanes - 1) / kScanLanes * kScanLanes;
  out.digits.assign(out.digits_per_number * out.padded, 0);
  std::uint32_t split[kMaxScanDigits];
  for (std::size_t i = 0; i < table.entries; ++i) {
    const std::uint64_t* t = table.words.data() + i * width.limbs;
    with_limbs(width.limbs, [&](auto limbs) { split_digits<limbs()>(t, out.digits_per_number, split); });
    for (unsigned c = 0; c < out.digits_per_number; ++c) out.digits[c * out.padded + i] = split[c];
  }
  return out;
}

}  // namespace exactdp::internal
