// internal/chacha20_rounds.h — ChaCha20's 20 rounds (RFC 8439 section 2.3) on the 16 state words,
// written once for the block functions of chacha20.h (not installed): the scalar one (a word a
// uint32), the 128-bit one (a vector of four blocks' words, chacha20_vec128.cc), the AVX2 one
// (eight, chacha20_avx2.cc) and the AVX-512F one (sixteen, chacha20_avx512.cc). `ops` gives the
// word type's add, bit_xor and rotl<n> (each path its own rotations: byte shuffles, a rotate
// instruction, or two shifts and an or).
//
// The including file defines EXACTDP_CHACHA20_INLINE first: the attributes every function here
// carries (always_inline and the file's target, if any; GCC and clang inline a function only into
// one whose target includes its own).
#pragma once

#if !defined(EXACTDP_CHACHA20_INLINE)
#error "define EXACTDP_CHACHA20_INLINE (the functions' attributes) before including chacha20_rounds.h"
#endif

namespace exactdp::internal::chacha20_rounds {

template <class Ops, class W>
EXACTDP_CHACHA20_INLINE void quarter_round(const Ops& ops, W& a, W& b, W& c, W& d) noexcept {
  a = ops.add(a, b);
  d = ops.template rotl<16>(ops.bit_xor(d, a));
  c = ops.add(c, d);
  b = ops.template rotl<12>(ops.bit_xor(b, c));
  a = ops.add(a, b);
  d = ops.template rotl<8>(ops.bit_xor(d, a));
  c = ops.add(c, d);
  b = ops.template rotl<7>(ops.bit_xor(b, c));
}

// The 20 rounds on x[0..15]: column then diagonal, ten times.
template <class Ops, class W>
EXACTDP_CHACHA20_INLINE void twenty_rounds(const Ops& ops, W* x) noexcept {
  for (int round = 0; round < 10; ++round) {
    quarter_round(ops, x[0], x[4], x[8], x[12]);
    quarter_round(ops, x[1], x[5], x[9], x[13]);
    quarter_round(ops, x[2], x[6], x[10], x[14]);
    quarter_round(ops, x[3], x[7], x[11], x[15]);
    quarter_round(ops, x[0], x[5], x[10], x[15]);
    quarter_round(ops, x[1], x[6], x[11], x[12]);
    quarter_round(ops, x[2], x[7], x[8], x[13]);
    quarter_round(ops, x[3], x[4], x[9], x[14]);
  }
}

}  // namespace exactdp::internal::chacha20_rounds
