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

// One compiled copy per digit count; on x86-64 an AVX2 copy beside the baseline one, chosen once
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
