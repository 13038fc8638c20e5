// The 128-bit vector path of chacha20.h: four blocks at a time, one block per 32-bit lane (state
// word j of the four blocks in vector j), transposed to block order on the way out. Written with
// GCC/Clang vector extensions only, no intrinsics and no target attributes: the compiler emits the
// instructions every CPU of the architecture has (SSE2 on x86-64, NEON on aarch64; elsewhere it
// lowers the vectors to scalar code). chacha20.cc uses it on every CPU, for CPUs without AVX2 and
// for the remainders of the wider paths.
#include <exactdp/samplers/internal/chacha20.h>

#define EXACTDP_VEC128 __attribute__((always_inline)) inline
#define EXACTDP_CHACHA20_INLINE EXACTDP_VEC128
#include <exactdp/samplers/internal/chacha20_rounds.h>

namespace exactdp::internal {
namespace {

using u32x4 = std::uint32_t __attribute__((vector_size(16)));

using u16x8 = std::uint16_t __attribute__((vector_size(16)));

template <int kLeft>
EXACTDP_VEC128 u32x4 rotl(u32x4 v) {
  return (v << kLeft) | (v >> (32 - kLeft));
}

// By 16: the two halves of each word swapped, two shuffles on SSE2 (pshuflw, pshufhw) and one on
// NEON (rev32) against a copy, two shifts and an or.
template <>
EXACTDP_VEC128 u32x4 rotl<16>(u32x4 v) {
  const auto halves = reinterpret_cast<u16x8>(v);
  return reinterpret_cast<u32x4>(__builtin_shufflevector(halves, halves, 1, 0, 3, 2, 5, 4, 7, 6));
}

// The word operations of chacha20_rounds.h on four lanes.
struct Vec128Ops {
  EXACTDP_VEC128 static u32x4 add(u32x4 a, u32x4 b) { return a + b; }
  EXACTDP_VEC128 static u32x4 bit_xor(u32x4 a, u32x4 b) { return a ^ b; }
  template <int kLeft>
  EXACTDP_VEC128 static u32x4 rotl(u32x4 v) { return internal::rotl<kLeft>(v); }
};

// Lanes {a0, b0, a1, b1} and {a2, b2, a3, b3} of a and b (SSE2 punpckldq / punpckhdq, NEON zip).
EXACTDP_VEC128 u32x4 interleave_low(u32x4 a, u32x4 b) { return __builtin_shufflevector(a, b, 0, 4, 1, 5); }
EXACTDP_VEC128 u32x4 interleave_high(u32x4 a, u32x4 b) { return __builtin_shufflevector(a, b, 2, 6, 3, 7); }
// Lanes {a0, a1, b0, b1} and {a2, a3, b2, b3} (punpcklqdq / punpckhqdq).
EXACTDP_VEC128 u32x4 pair_low(u32x4 a, u32x4 b) { return __builtin_shufflevector(a, b, 0, 1, 4, 5); }
EXACTDP_VEC128 u32x4 pair_high(u32x4 a, u32x4 b) { return __builtin_shufflevector(a, b, 2, 3, 6, 7); }

// Stores v's four words little-endian at p (unaligned).
EXACTDP_VEC128 void store_le(unsigned char* p, u32x4 v) {
  if constexpr (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__) {
    for (int i = 0; i < 4; ++i) v[i] = __builtin_bswap32(v[i]);
  }
  __builtin_memcpy(p, &v, sizeof v);
}

// x[0..3] hold words w..w+3 of blocks 0..3 (block i in lane i); stores block i's four words at
// out + 64 i.
EXACTDP_VEC128 void transpose_store(const u32x4* x, unsigned char* out) {
  const u32x4 t0 = interleave_low(x[0], x[1]), t1 = interleave_high(x[0], x[1]);
  const u32x4 t2 = interleave_low(x[2], x[3]), t3 = interleave_high(x[2], x[3]);
  store_le(out, pair_low(t0, t2));
  store_le(out + 64, pair_high(t0, t2));
  store_le(out + 128, pair_low(t1, t3));
  store_le(out + 192, pair_high(t1, t3));
}

}  // namespace

void chacha20_blocks_vec128(std::uint32_t* state, unsigned char* out, std::size_t blocks) noexcept {
  for (; blocks >= 4; blocks -= 4, out += 256) {
    // Words 12 and 13 of the four blocks: the 64-bit counter plus 0..3 (public).
    const std::uint64_t first = std::uint64_t{state[13]} << 32 | state[12];
    u32x4 counter[2];
    for (int i = 0; i < 4; ++i) {
      const std::uint64_t c = first + static_cast<std::uint64_t>(i);
      counter[0][i] = static_cast<std::uint32_t>(c);
      counter[1][i] = static_cast<std::uint32_t>(c >> 32);
    }
    u32x4 x[16];
    for (int j = 0; j < 16; ++j) x[j] = u32x4{} + state[j];
    x[12] = counter[0];
    x[13] = counter[1];
    chacha20_rounds::twenty_rounds(Vec128Ops{}, x);
    for (int j = 0; j < 16; ++j) x[j] += j == 12 ? counter[0] : j == 13 ? counter[1] : u32x4{} + state[j];
    for (int w = 0; w < 16; w += 4) transpose_store(x + w, out + 4 * w);
    chacha20_advance(state, 4);
  }
}

}  // namespace exactdp::internal
