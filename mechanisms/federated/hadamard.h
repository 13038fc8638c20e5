// hadamard.h — the in-place Walsh-Hadamard transform (Sylvester order, no normalisation) on
// 64-bit words, for the federated rotation (federated_plan.h). The arithmetic is modulo 2^64
// (unsigned words, so no overflow is undefined): the result is the exact integer transform of the
// words read as two's-complement integers whenever that result lies in int64, which the plan's
// limits guarantee (the encoder: |entries| <= 2^12 * 2^40; the decoder: bits + log2 D <= 63).
// Also the rotation's signs applied to a vector (bit j of signs[j / 64] set: negate entry j).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace exactdp::mechanisms {

// a <- H a, a.size() a power of two (O(D log D) additions).
inline void walsh_hadamard(std::span<std::uint64_t> a) noexcept {
  const std::size_t n = a.size();
  for (std::size_t len = 1; len < n; len <<= 1) {
    for (std::size_t start = 0; start < n; start += 2 * len) {
      std::uint64_t* lo = a.data() + start;
      std::uint64_t* hi = lo + len;
      for (std::size_t j = 0; j < len; ++j) {
        const std::uint64_t u = lo[j];
        const std::uint64_t v = hi[j];
        lo[j] = u + v;
        hi[j] = u - v;
      }
    }
  }
}

// True when the rotation negates coordinate j.
[[nodiscard]] inline bool rotation_negates(const std::vector<std::uint64_t>& signs, std::size_t j) noexcept {
  return ((signs[j / 64] >> (j % 64)) & 1U) != 0;
}

}  // namespace exactdp::mechanisms
