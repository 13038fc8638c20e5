// bits.h — Bits, the bit source of the C++ facade (<exactdp/sampler.h>): the system CSPRNG, or a
// seeded ChaCha20 stream for reproducible runs (tests and audits only: anyone who knows the seed
// knows the noise). Installed; part of the source-compatibility promise (docs/ABI.md).
//
// A Bits is not thread-safe: use one per thread. It owns the library's bit source (BitSource,
// whose definition is internal) and wipes its buffers when destroyed. A moved-from Bits may only
// be assigned to or destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

namespace exactdp {

class BitSource;  // the library's bit-source interface (not installed)

class Bits {
 public:
  // The operating system's CSPRNG (getrandom), buffered in locked, wiped memory.
  [[nodiscard]] static Bits system();
  // A ChaCha20 keystream keyed by 64 hex digits (32 bytes): the same seed gives the same bits,
  // and so the same draws. ParameterError naming "seed" for other text and for the all-zero seed
  // (a key everyone knows) unless allow_weak_seed.
  [[nodiscard]] static Bits seeded(std::string_view seed_hex, bool allow_weak_seed = false);

  Bits(Bits&& other) noexcept;
  Bits& operator=(Bits&& other) noexcept;
  Bits(const Bits&) = delete;
  Bits& operator=(const Bits&) = delete;
  ~Bits();

  // The bits read so far.
  [[nodiscard]] std::uint64_t consumed() const noexcept;
  // The library's interface, for code that also calls the layer libraries.
  [[nodiscard]] BitSource& source() noexcept;

 private:
  explicit Bits(std::unique_ptr<BitSource> source);
  std::unique_ptr<BitSource> source_;
};

}  // namespace exactdp
