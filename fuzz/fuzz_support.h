// fuzz_support.h — what every exactdp fuzz target shares:
//   FUZZ_CHECK    an invariant; on failure prints what broke and aborts (libFuzzer and the ctest
//                 corpus replay both report an abort as a failure).
//   ByteReader    reads parameters from the front of the fuzz input (never fails: past the end
//                 it yields zeros), with generators biased towards the boundaries that matter
//                 here (2^64, 2^96, 2^128, powers of ten).
//   FuzzBits      a BitSource whose stream is the fuzz bytes themselves, then, once they run
//                 out, a ChaCha20 keystream keyed by a BLAKE2b hash of the whole input. So the
//                 fuzzer steers the random bits, every run is deterministic, and every sampler
//                 loop still ends (after the fuzz bytes, the bits are as good as random).
// Fuzz targets assert invariants only; nothing here measures time.
#pragma once

#include <gmpxx.h>
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include <exactdp/samplers/bit_source.h>

#define FUZZ_CHECK(cond, ...)                                                             \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                                  \
      std::fprintf(stderr, "\n");                                                         \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

namespace exactdp::fuzz {

inline void init_sodium_once() {
  static const bool ok = sodium_init() >= 0;
  if (!ok) {
    std::fputs("fuzz: sodium_init failed\n", stderr);
    std::abort();
  }
}

class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t u8() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | u8();
    return v;
  }
  bool flag() { return (u8() & 1) != 0; }

  // A non-negative integer of at most max_bytes * 8 bits, biased towards interesting values.
  mpz_class natural(std::size_t max_bytes) {
    const std::uint8_t mode = u8() % 8;
    mpz_class v;
    switch (mode) {
      case 0:
      case 1: {  // small: 0 .. 2^16 - 1
        const unsigned bits = u8() % 17;
        v = static_cast<unsigned long>(u64() & ((std::uint64_t{1} << bits) - 1));
        break;
      }
      case 2: {  // 2^e + delta around the fast-path boundaries
        static constexpr unsigned kExponents[] = {1, 8, 31, 32, 33, 47, 48, 63, 64, 65,
                                                  95, 96, 97, 127, 128, 129, 191, 192, 256};
        const unsigned e = kExponents[u8() % (sizeof kExponents / sizeof kExponents[0])];
        const int delta = static_cast<int>(u8() % 33) - 16;
        mpz_ui_pow_ui(v.get_mpz_t(), 2, e);
        v += delta;
        break;
      }
      case 3:  // a full 64-bit word
        v = static_cast<unsigned long>(u64());
        break;
      case 4: {  // 10^e + delta (decimal parameters such as 1e-5 give these denominators)
        const unsigned e = u8() % 64;
        const int delta = static_cast<int>(u8() % 5) - 2;
        mpz_ui_pow_ui(v.get_mpz_t(), 10, e);
        v += delta;
        break;
      }
      case 5: {  // 128-bit
        v = static_cast<unsigned long>(u64());
        v <<= 64;
        v += static_cast<unsigned long>(u64());
        break;
      }
      default: {  // big-endian bytes, up to max_bytes
        const std::size_t n = max_bytes == 0 ? 0 : u8() % (max_bytes + 1);
        for (std::size_t i = 0; i < n; ++i) {
          v <<= 8;
          v += u8();
        }
        break;
      }
    }
    if (v < 0) v = 0;
    return v;
  }

  // natural(), but at least 1.
  mpz_class positive(std::size_t max_bytes) {
    mpz_class v = natural(max_bytes);
    if (v < 1) v = 1;
    return v;
  }

  // A signed integer (a mean): mostly 0 or small, sometimes near the int64 edges or big.
  mpz_class integer(std::size_t max_bytes) {
    const std::uint8_t mode = u8() % 6;
    mpz_class v;
    switch (mode) {
      case 0:
        v = 0;
        break;
      case 1:
        v = static_cast<long>(static_cast<std::int8_t>(u8()));
        break;
      case 2: {  // near +-2^63
        mpz_ui_pow_ui(v.get_mpz_t(), 2, 63);
        v += static_cast<long>(static_cast<std::int8_t>(u8()));
        if (flag()) v = -v;
        break;
      }
      default:
        v = natural(max_bytes);
        if (flag()) v = -v;
        break;
    }
    return v;
  }

  [[nodiscard]] std::size_t position() const { return pos_; }
  [[nodiscard]] const std::uint8_t* rest() const { return data_ + (pos_ < size_ ? pos_ : size_); }
  [[nodiscard]] std::size_t rest_size() const { return pos_ < size_ ? size_ - pos_ : 0; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// The fuzz bytes as a bit stream, then ChaCha20 keyed by BLAKE2b(whole input || domain).
class FuzzBits final : public BitSource {
 public:
  // stream: the bytes the bit stream starts with; whole: the whole fuzz input (for the key).
  FuzzBits(const std::uint8_t* stream, std::size_t stream_size, const std::uint8_t* whole,
           std::size_t whole_size)
      : BitSource(nullptr), stream_(stream), stream_size_(stream_size) {
    init_sodium_once();
    state_ = &storage_;
    crypto_generichash(key_, sizeof key_, whole, whole_size, nullptr, 0);
  }
  ~FuzzBits() override { sodium_memzero(&storage_, sizeof storage_); }

  // Bytes of the fuzz input read so far (the rest of the stream came from ChaCha20).
  [[nodiscard]] std::size_t fuzz_bytes_used() const { return pos_; }

 protected:
  void refill(unsigned char* out, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i) out[i] = next_byte();
  }

 private:
  unsigned char next_byte() {
    if (pos_ < stream_size_) return stream_[pos_++];
    if (block_pos_ == sizeof block_) {
      static const unsigned char kZero[64] = {0};
      unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0};
      // 2^32 blocks = 256 GiB: far beyond any fuzz run; the counter simply wraps.
      crypto_stream_chacha20_ietf_xor_ic(block_, kZero, sizeof block_, nonce, counter_++, key_);
      block_pos_ = 0;
    }
    return block_[block_pos_++];
  }

  const std::uint8_t* stream_;
  std::size_t stream_size_;
  std::size_t pos_ = 0;
  unsigned char key_[crypto_stream_chacha20_ietf_KEYBYTES];
  unsigned char block_[64] = {0};
  std::size_t block_pos_ = sizeof block_;
  std::uint32_t counter_ = 0;
  BitBufferState storage_{};
};

inline std::string str(const mpz_class& v) {
  std::string s = v.get_str(10);
  if (s.size() > 80) s = s.substr(0, 40) + "...(" + std::to_string(s.size()) + " digits)";
  return s;
}
inline std::string str(const mpq_class& v) { return str(v.get_num()) + "/" + str(v.get_den()); }

// 10^-digits, exactly (the tiny epsilons, sensitivities and q of the cost-limit paths).
inline mpq_class tenth_power(unsigned digits) {
  mpz_class p;
  mpz_ui_pow_ui(p.get_mpz_t(), 10, digits);
  return mpq_class(mpz_class(1), p);
}

// A float or double whose bit pattern is the next sizeof(Float) bytes, most significant first
// (any pattern: NaN, infinities and subnormals included).
template <class Float>
Float read_float_bits(ByteReader& in) {
  static_assert(sizeof(Float) == 4 || sizeof(Float) == 8);
  using Bits = std::conditional_t<sizeof(Float) == 4, std::uint32_t, std::uint64_t>;
  Bits bits = 0;
  for (std::size_t i = 0; i < sizeof(Float); ++i) bits = static_cast<Bits>((bits << 8) | in.u8());
  Float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace exactdp::fuzz
