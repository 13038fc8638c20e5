// bit_source.h — the one interface through which every sampler draws randomness.
//
// A BitSource is a stream of fair, independent bits. Bit i of the stream is bit (7 - i % 8) of
// byte i / 8 of the underlying byte stream (most significant bit first). bits(k) returns the next
// k bits of the stream as an integer whose most significant bit is the first bit drawn, so
// drawing k1 then k2 bits reads exactly the same stream positions as drawing k1 + k2 bits at
// once. The fast (64/128-bit) and GMP paths rely on this to consume identical streams.
//
// Samplers take a BitSource by reference (non-owning, like absl::BitGenRef); a BitSource is not
// thread-safe: use one per thread. bits_consumed() counts the bits handed out, the figure we
// report per sample.
//
// Concrete sources: SystemBits (libsodium CSPRNG; the default) and SeededBits (keyed ChaCha20,
// for reproducible tests and audits only; see SECURITY.md).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace exactdp {

// The buffered state of a source. Kept apart from the object so that SystemBits can place it
// in memory that the kernel wipes in a forked child (MADV_WIPEONFORK): an all-zero state means
// "empty", so a child never reuses the parent's buffered bytes.
struct BitBufferState {
  static constexpr std::size_t kBufferBytes = 512;
  std::uint64_t word;        // the current 64-bit word; its low `word_bits` bits are unread
  std::uint32_t word_bits;   // unread bits left in `word` (0..64)
  std::uint32_t position;    // next unread byte of `buffer`
  std::uint32_t filled;      // bytes of `buffer` holding stream data
  std::uint32_t reserved;     // padding (unused)
  unsigned char buffer[kBufferBytes];
};

class BitSource {
 public:
  virtual ~BitSource() = default;
  BitSource(const BitSource&) = delete;
  BitSource& operator=(const BitSource&) = delete;

  // The next k bits (0 <= k <= 64) of the stream, first bit most significant. k = 0 returns 0.
  [[nodiscard]] std::uint64_t bits(unsigned k) {
    if (k == 0) return 0;
    bits_consumed_ += k;
    BitBufferState& s = *state_;
    if (k <= s.word_bits) {
      s.word_bits -= k;
      const std::uint64_t mask = (k == 64) ? ~std::uint64_t{0} : ((std::uint64_t{1} << k) - 1);
      return (s.word >> s.word_bits) & mask;
    }
    // Take what is left of this word, then the top bits of the next.
    const unsigned need = k - s.word_bits;  // 1..64
    const std::uint64_t high = s.word_bits == 0 ? 0 : (s.word & ((std::uint64_t{1} << s.word_bits) - 1));
    const std::uint64_t next = next_word();
    s.word = next;
    s.word_bits = 64 - need;
    const std::uint64_t low = (need == 64) ? next : (next >> (64 - need));
    return need == 64 ? low : ((high << need) | low);
  }

  // One fair bit.
  [[nodiscard]] bool bit() { return bits(1) != 0; }

  // Total bits handed out by bits()/bit() since construction.
  [[nodiscard]] std::uint64_t bits_consumed() const noexcept { return bits_consumed_; }

 protected:
  explicit BitSource(BitBufferState* state) : state_(state) {}

  // Fill `out` with the next `n` bytes of the underlying byte stream (n <= kBufferBytes).
  virtual void refill(unsigned char* out, std::size_t n) = 0;

  BitBufferState* state_;

 private:
  std::uint64_t next_word() {
    BitBufferState& s = *state_;
    if (s.filled - s.position < 8) {
      // The buffer is always refilled whole (kBufferBytes, a multiple of 8), so fewer than 8
      // unread bytes means none.
      refill(s.buffer, BitBufferState::kBufferBytes);
      s.position = 0;
      s.filled = BitBufferState::kBufferBytes;
    }
    std::uint64_t w = 0;  // the next 8 bytes, the first most significant (a big-endian load)
    std::memcpy(&w, s.buffer + s.position, sizeof w);
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
    s.position += 8;
    return w;
  }

  std::uint64_t bits_consumed_ = 0;
};

}  // namespace exactdp
