// internal/lane_words.h — 128-bit numbers put together from 32-bit vector lanes (not installed).
// The portable group selects (hardened_bracket.cc, fixed_exp52.cc) hold four numbers at a time,
// word w of number l in lane l of vector w (GCC/Clang vector extensions: SSE2 on x86-64, NEON on
// aarch64); this turns the four vectors into the four numbers with register shuffles.
#pragma once

#include <cstdint>
#include <cstring>

#include <exactdp/samplers/int128.h>

namespace exactdp::internal {

using WordLanes = std::uint32_t __attribute__((vector_size(16)));

// out[l] = w[3][l] 2^96 + w[2][l] 2^64 + w[1][l] 2^32 + w[0][l] for l < 4.
[[gnu::always_inline]] inline void store_lane_numbers(const WordLanes* w, uint128* out) noexcept {
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    // Interleaved so that each vector holds one number's words, least significant first: its bytes.
    const WordLanes low01 = __builtin_shufflevector(w[0], w[1], 0, 4, 1, 5);
    const WordLanes low23 = __builtin_shufflevector(w[0], w[1], 2, 6, 3, 7);
    const WordLanes high01 = __builtin_shufflevector(w[2], w[3], 0, 4, 1, 5);
    const WordLanes high23 = __builtin_shufflevector(w[2], w[3], 2, 6, 3, 7);
    const WordLanes number[4] = {
        __builtin_shufflevector(low01, high01, 0, 1, 4, 5), __builtin_shufflevector(low01, high01, 2, 3, 6, 7),
        __builtin_shufflevector(low23, high23, 0, 1, 4, 5), __builtin_shufflevector(low23, high23, 2, 3, 6, 7)};
    std::memcpy(out, number, sizeof number);
  } else {
    for (unsigned l = 0; l < 4; ++l) {
      out[l] = (uint128{(std::uint64_t{w[3][l]} << 32) | w[2][l]} << 64) | ((std::uint64_t{w[1][l]} << 32) | w[0][l]);
    }
  }
}

}  // namespace exactdp::internal
