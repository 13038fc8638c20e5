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

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace exactdp {

// The buffered state of a source. Kept apart from the object so that SystemBits can place it
// in memory that the kernel wipes in a forked child (MADV_WIPEONFORK): an all-zero state means
// "empty", so a child never reuses the parent's buffered bytes.
// The stream's unread bits are bits `position` .. `filled` - 1 of `buffer` (bit i: bit 7 - i % 8
// of byte i / 8). The buffer is always refilled whole, when every bit is read.
struct BitBufferState {
  static constexpr std::size_t kBufferBytes = 512;
  static constexpr std::size_t kPadBytes = 8;  // zeros after the data: an 8-byte load at any
                                               // unread byte stays inside the array
  std::uint64_t position;  // next unread bit of `buffer`
  std::uint64_t filled;    // bits of `buffer` holding stream data (0 or 8 kBufferBytes)
  unsigned char buffer[kBufferBytes + kPadBytes];
};

class BitSource {
 public:
  class Reader;

  // The largest k that bits() serves from one unaligned 8-byte load (the load's first byte
  // holds at most 7 bits already read).
  static constexpr unsigned kOneLoadBits = 57;

  virtual ~BitSource() = default;
  BitSource(const BitSource&) = delete;
  BitSource& operator=(const BitSource&) = delete;

  // The next k bits (0 <= k <= 64) of the stream, first bit most significant. k = 0 returns 0.
  // Inline fast path: k <= kOneLoadBits bits that the buffer holds (one big-endian 8-byte load
  // and two shifts); otherwise bits_slow (refills, k > 57).
  [[nodiscard]] std::uint64_t bits(unsigned k) {
    BitBufferState& s = *state_;
    if (k - 1U < kOneLoadBits && s.position + k <= s.filled) {
      bits_consumed_ += k;
      const std::uint64_t w = load_at(s.buffer, s.position);
      s.position += k;
      return w >> (64 - k);
    }
    return bits_slow(k);
  }

  // The k bits (1 <= k <= kOneLoadBits) that follow the next `skip` bits, when the buffer holds
  // them; else 0. Reads nothing (the stream does not move): a look ahead for prefetching the
  // table entry a later draw will probably index.
  [[nodiscard]] std::uint64_t peek(unsigned skip, unsigned k) const noexcept {
    const BitBufferState& s = *state_;
    const std::uint64_t at = s.position + skip;
    return at + k <= s.filled ? load_at(s.buffer, at) >> (64 - k) : 0;
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
  // The 64 stream bits from bit `position` of the buffer on (bits past `filled` are padding),
  // first bit most significant. position < filled.
  static std::uint64_t load_at(const unsigned char* buffer, std::uint64_t position) noexcept {
    std::uint64_t w = 0;  // 8 bytes from the byte holding `position`, the first most significant
    std::memcpy(&w, buffer + (position >> 3), sizeof w);
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
    return w << (position & 7);
  }

  // A whole new buffer of the stream (every bit of the old one read).
  void refill_buffer() {
    BitBufferState& s = *state_;
    refill(s.buffer, BitBufferState::kBufferBytes);
    s.position = 0;
    s.filled = 8 * BitBufferState::kBufferBytes;
  }

  // bits(k) for any 0 <= k <= 64: the buffered bits first, then a refill, in pieces of at most
  // kOneLoadBits bits (most significant first).
  [[gnu::noinline]] std::uint64_t bits_slow(unsigned k) {
    BitBufferState& s = *state_;
    bits_consumed_ += k;
    std::uint64_t out = 0;
    while (k > 0) {
      if (s.position == s.filled) refill_buffer();
      const auto take = static_cast<unsigned>(std::min<std::uint64_t>({k, s.filled - s.position, kOneLoadBits}));
      const std::uint64_t piece = load_at(s.buffer, s.position) >> (64 - take);
      s.position += take;
      out = (out << take) | piece;  // take <= 57
      k -= take;
    }
    return out;
  }

  std::uint64_t bits_consumed_ = 0;
};

// A batch loop's reader of a BitSource: the read position copied into locals that stay in
// registers (the source's state lives behind a pointer, reloaded after every store of the loop
// otherwise). bits(k) and peek() are BitSource's, on the same stream: a loop reads the same bits
// through a Reader as through the source. Everything else goes through with_source(), which
// hands the position back, runs the call on the source and takes the position again; the
// destructor hands it back. Never use the source directly while its Reader lives.
class BitSource::Reader {
 public:
  explicit Reader(BitSource& source) noexcept : source_(source) { take(); }
  ~Reader() { give_back(); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  [[nodiscard]] std::uint64_t bits(unsigned k) {
    if (k - 1U < kOneLoadBits && position_ + k <= filled_) {
      const std::uint64_t w = load_at(buffer_, position_);
      position_ += k;
      consumed_ += k;
      return w >> (64 - k);
    }
    return bits_from_source(k);
  }
  // The next 64 count bits as count words (out[0] first, each most significant bit first): the
  // same stream positions as count bits(64) calls. The words the buffer holds cost one unaligned
  // load and one byte each; the one word that straddles a refill goes through bits(32) twice.
  void words(std::uint64_t* out, std::size_t count) {
    while (count > 0) {
      const std::size_t held = std::min<std::uint64_t>(count, (filled_ - position_) / 64);
      if ((position_ & 7) == 0) {  // byte-aligned: whole bytes, one load a word
        const unsigned char* from = buffer_ + (position_ >> 3);
        for (std::size_t i = 0; i < held; ++i) out[i] = load_at(from, 64 * i);
      } else {
        for (std::size_t i = 0; i < held; ++i) {
          const std::uint64_t at = position_ + std::uint64_t{64} * i;
          const std::uint64_t next = buffer_[(at >> 3) + 8];  // inside the buffer or its padding
          out[i] = load_at(buffer_, at) | (next >> (8 - (at & 7)));
        }
      }
      position_ += std::uint64_t{64} * held;
      consumed_ += std::uint64_t{64} * held;
      out += held;
      count -= held;
      if (count == 0) return;
      const std::uint64_t high = bits(32);  // two statements: the reads are ordered
      *out++ = (high << 32) | bits(32);
      --count;
    }
  }
  // The next `count` bits as the whole bytes of the stream that hold them, copied as the source's
  // buffer holds them (stream order, no byte swap): out[0] is the byte that holds the next unread
  // bit, and the returned `first` (0 .. 7) is that bit's place in it, so that bit i of the read is
  // bit 7 - (first + i) % 8 of out[(first + i) / 8]. Writes ceil((first + count) / 8) bytes, the
  // bits outside the read zero. The same stream positions as count bits of bits() calls; a refill
  // in the middle continues the copy (refills are whole bytes).
  unsigned stream_bytes(unsigned char* out, std::size_t count) {
    const auto first = static_cast<unsigned>(position_ & 7);
    const std::size_t end = first + count;  // the read's end, in bits of out
    unsigned char* to = out;
    for (std::size_t left = count;;) {
      const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(left, filled_ - position_));
      const std::size_t bytes = static_cast<std::size_t>(((position_ + take + 7) >> 3) - (position_ >> 3));
      std::memcpy(to, buffer_ + (position_ >> 3), bytes);
      to += bytes;
      position_ += take;
      consumed_ += take;
      left -= take;
      if (left == 0) break;
      refill_from_source();  // the buffer is read to its end, a byte boundary
    }
    if (end == 0) return first;
    out[0] = static_cast<unsigned char>(out[0] & (0xFFU >> first));  // the bits read before
    if (end % 8 != 0) out[end / 8] = static_cast<unsigned char>(out[end / 8] & (0xFFU << (8 - end % 8)));
    return first;
  }
  [[nodiscard]] std::uint64_t peek(unsigned skip, unsigned k) const noexcept {
    const std::uint64_t at = position_ + skip;
    return at + k <= filled_ ? load_at(buffer_, at) >> (64 - k) : 0;
  }
  // f(source) with the position handed back for the call.
  template <class F>
  decltype(auto) with_source(F&& f) {
    give_back();
    const Retake retake{*this};
    return f(source_);
  }

 private:
  struct Retake {  // takes the position back when a call on the source ends (or throws)
    Reader& reader;
    ~Retake() { reader.take(); }
  };
  [[gnu::noinline]] void refill_from_source() {
    give_back();
    const Retake retake{*this};
    source_.refill_buffer();
  }
  [[gnu::noinline]] std::uint64_t bits_from_source(unsigned k) {
    give_back();
    const Retake retake{*this};
    return source_.bits(k);
  }
  void take() noexcept {
    const BitBufferState& s = *source_.state_;
    buffer_ = s.buffer;
    position_ = s.position;
    filled_ = s.filled;
  }
  void give_back() noexcept {
    source_.state_->position = position_;
    source_.bits_consumed_ += consumed_;
    consumed_ = 0;
  }

  BitSource& source_;
  const unsigned char* buffer_ = nullptr;
  std::uint64_t position_ = 0, filled_ = 0, consumed_ = 0;
};

}  // namespace exactdp
