// chacha20.h — the ChaCha20 keystream (RFC 8439 block function, 96-bit nonce), byte for byte the
// keystream of libsodium's crypto_stream_chacha20_ietf_xor_ic applied to zeros, with vector paths
// chosen at run time: 16 blocks at a time with AVX-512F, 8 with AVX2, 4 on 128-bit vectors
// otherwise (SSE2 on x86-64, NEON on aarch64: every CPU), the last few blocks one at a time.
//
// The paths give the same bytes (tests/samplers/chacha20_test.cc runs each against libsodium);
// which one runs changes speed only, never a seeded value. No global -m flag: the AVX2 and
// AVX-512 paths are compiled with function target attributes (chacha20_avx2.cc,
// chacha20_avx512.cc) and called only when __builtin_cpu_supports says the CPU (and the operating
// system) has the instructions and EXACTDP_CPU_LEVEL (core/cpu_level.h) allows them; the 128-bit
// path (chacha20_vec128.cc) uses only the architecture's base vector instructions.
//
// The block counter is 32 bits: a range must end at or before block 2^32 (libsodium aborts on a
// call that crosses it; SeededBits switches nonce there itself). Past it, these functions carry
// into the first nonce word (a 64-bit counter over state words 12 and 13) as libsodium's own block
// functions do; nothing here relies on that.
//
// Secrets: the keystream is written to `out` (the caller's protected memory). The state copies
// and the partial last block that this code keeps in named buffers are wiped before it returns;
// what the compiler spills from vector registers is not (as in libsodium).
#pragma once

#include <cstddef>
#include <cstdint>

namespace exactdp::internal {

enum class ChaCha20Path : std::uint8_t { kScalar, kVec128, kAvx2, kAvx512 };

// True when this CPU can run `path` (kScalar and kVec128 always).
[[nodiscard]] bool chacha20_path_available(ChaCha20Path path) noexcept;
// The fastest available path (what chacha20_keystream without a path uses).
[[nodiscard]] ChaCha20Path chacha20_fastest_path() noexcept;
// "scalar", "vec128", "avx2" or "avx512".
[[nodiscard]] const char* chacha20_path_name(ChaCha20Path path) noexcept;

// The first `len` bytes of the keystream under the 32-byte `key` and 12-byte `nonce`, from 64-byte
// block `counter` on. `path` must be available (the call falls back to kScalar otherwise).
void chacha20_keystream(unsigned char* out, std::size_t len, const unsigned char* nonce,
                        std::uint32_t counter, const unsigned char* key, ChaCha20Path path) noexcept;
inline void chacha20_keystream(unsigned char* out, std::size_t len, const unsigned char* nonce,
                               std::uint32_t counter, const unsigned char* key) noexcept {
  chacha20_keystream(out, len, nonce, counter, key, chacha20_fastest_path());
}

// The block functions of the paths, for chacha20.cc. `state` is the 16-word input state (words
// 12 and 13 a 64-bit block counter, low word first); each writes `blocks` whole blocks (a
// multiple of 1, 4, 8 and 16 respectively) to `out` and advances the counter by `blocks`.
void chacha20_blocks_scalar(std::uint32_t* state, unsigned char* out, std::size_t blocks) noexcept;
void chacha20_blocks_vec128(std::uint32_t* state, unsigned char* out, std::size_t blocks) noexcept;
void chacha20_blocks_avx2(std::uint32_t* state, unsigned char* out, std::size_t blocks) noexcept;
void chacha20_blocks_avx512(std::uint32_t* state, unsigned char* out, std::size_t blocks) noexcept;

// Adds `blocks` to the 64-bit block counter of `state` (words 12 and 13).
inline void chacha20_advance(std::uint32_t* state, std::uint64_t blocks) noexcept {
  const std::uint64_t c = (std::uint64_t{state[13]} << 32 | state[12]) + blocks;
  state[12] = static_cast<std::uint32_t>(c);
  state[13] = static_cast<std::uint32_t>(c >> 32);
}

}  // namespace exactdp::internal
