// internal/hardened_scan.h — the full-table scan of the hardened discrete Gaussian, laid out for
// SIMD (not installed). A symmetric table draw counts #{i : u < T_i} over every threshold of a
// table (internal/constant_time.h, draw_symmetric_table); this is the same count, computed eight
// thresholds at a time.
//
// Layout: a W-bit number is cut into C = ceil(W / 31) digits of 31 bits (digit 0 least
// significant), each held in a 32-bit lane, so its top bit is clear. The table stores digit c of
// threshold i at digits[c * padded + i] (one array per digit), `padded` = entries rounded up to
// a multiple of 8, the extra thresholds 0 (u < 0 never holds: they add nothing).
//
// Comparison: for 31-bit digits a, b and a borrow c in {0, 1}, a - b - c lies in [-2^31, 2^31),
// so bit 31 of a - b - c (mod 2^32) is the borrow out; the borrow out of the top digit is
// [u < T]. Per eight thresholds: C loads, 2 C subtractions, C shifts and one addition of 32-bit
// lanes (GCC/Clang vector extensions), no comparison instruction, no branch, no secret address:
// the loop count and every address depend only on the public table size. On x86-64 the scan is
// compiled twice (AVX2 and baseline SSE2), the copy chosen once by the CPU (public), so a
// process always runs the same instructions. The valgrind test (tests/constant_time) checks the
// compiled code. The group scan of the batch (count_group, below) runs the same chain with
// lane-wise masks instead of shifted borrows (vector comparisons yield masks, never branches).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/hardened_tables.h>

// The scans are compiled once per digit count; on x86-64 an AVX2 copy beside the baseline one, chosen once
// at load time from the CPU (target_clones: an ifunc resolver reading cpuid). Not in sanitized
// builds: there the resolver runs during the shared library's relocation, before the sanitizer
// runtime is set up, and crashes (clang 14, ASan + UBSan, libexactdp.so).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define EXACTDP_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define EXACTDP_SANITIZED_BUILD 1
#endif
#endif
#if defined(__x86_64__) && defined(__has_attribute) && !defined(EXACTDP_SANITIZED_BUILD)
#if __has_attribute(target_clones)
#define EXACTDP_SCAN_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef EXACTDP_SCAN_CLONES
#define EXACTDP_SCAN_CLONES
#endif
// Code built on 64 x 64 -> 128-bit products (the rejection method's portable path): with GCC the
// AVX2 copy is x86-64-v3, which adds BMI2's mulx (a product into any two registers, no flags)
// to AVX2; the same instructions on every draw, chosen once from the CPU like the scans.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(EXACTDP_SANITIZED_BUILD)
#define EXACTDP_PRODUCT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define EXACTDP_PRODUCT_CLONES EXACTDP_SCAN_CLONES
#endif

namespace exactdp::internal {

inline constexpr unsigned kScanLanes = 8;
inline constexpr unsigned kScanDigitBits = 31;
inline constexpr unsigned kMaxScanDigits = 5;  // W <= 155 (tau_bits + 16 <= 144)

using ScanCount = std::uint64_t (*)(const std::uint32_t* digits, std::size_t padded,
                                    const std::uint32_t* u) noexcept;

// The batch scan (internal/hardened_batch.h): kScanGroup uniforms against one table in one pass,
// eight uniforms per vector and every threshold broadcast, so the table is read once per group
// instead of once per draw. u holds digit c of uniform s at u[c * kScanGroup + s];
// below[s] = #{i < entries : u_s < T_i}, the same count as ScanCount for each s.
inline constexpr unsigned kScanGroup = 32;
using ScanCountGroup = void (*)(const std::uint32_t* digits, std::size_t padded, std::size_t entries,
                                const std::uint32_t* u, std::uint32_t* below) noexcept;

struct ScanTable {
  unsigned digits_per_number = 0;   // C
  std::size_t entries = 0;          // thresholds (without the padding)
  std::size_t padded = 0;           // entries rounded up to a multiple of kScanLanes
  std::vector<std::uint32_t> digits;
  ScanCount count = nullptr;        // #{i < padded : u < T_i}, for this C
  ScanCountGroup count_group = nullptr;  // the same for kScanGroup uniforms at once
};

// The scan layout of `table` (W = width.width_bits bits per threshold).
[[nodiscard]] ScanTable make_scan_table(const ThresholdTable& table, const FixedWidth& width);

// The C 31-bit digits of the L-word number u (least significant first). Shifts by public amounts.
template <unsigned L>
inline void split_digits(const std::uint64_t* u, unsigned digits_per_number, std::uint32_t* out) noexcept {
  constexpr std::uint64_t kMask = (std::uint64_t{1} << kScanDigitBits) - 1;
  for (unsigned c = 0; c < digits_per_number; ++c) {
    const unsigned bit = c * kScanDigitBits;
    const unsigned word = bit / 64;
    const unsigned shift = bit % 64;
    std::uint64_t v = word < L ? u[word] >> shift : 0;
    if (shift > 64 - kScanDigitBits && word + 1 < L) v |= u[word + 1] << (64 - shift);
    out[c] = static_cast<std::uint32_t>(v & kMask);
  }
}

// The same draw as draw_symmetric_table<L> (same bits read, same output for the same bits), with
// the count made by the vectorised scan. Reads W + 1 bits; returns +-|Z|, |Z| <= entries.
template <unsigned L>
[[nodiscard]] inline std::int64_t draw_symmetric_scan(BitSource& bits, const ScanTable& table,
                                                      unsigned top_bits) noexcept {
  std::uint64_t u[L];
  draw_fixed_width<L>(bits, top_bits, u);
  const std::uint64_t negative = bits.bits(1);
  std::uint32_t digits[kMaxScanDigits];
  split_digits<L>(u, table.digits_per_number, digits);
  const std::uint64_t below = table.count(table.digits.data(), table.padded, digits);
  const auto magnitude = static_cast<std::int64_t>(table.entries - below);
  return ct_negate_if(magnitude, negative);
}

}  // namespace exactdp::internal
