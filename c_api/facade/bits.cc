// bits.cc — Bits of the C++ facade (<exactdp/bits.h>) over the samplers layer's bit sources.
#include <exactdp/bits.h>

#include <sodium.h>

#include <string>
#include <utility>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

namespace exactdp {
namespace {

// Wipes a local copy of a seed on every exit (the source keeps its own copy, wiped when freed).
struct SeedWiper {
  Seed& seed;
  ~SeedWiper() { sodium_memzero(seed.data(), seed.size()); }
};

}  // namespace

Bits::Bits(std::unique_ptr<BitSource> source) : source_(std::move(source)) {}
Bits::Bits(Bits&& other) noexcept = default;
Bits& Bits::operator=(Bits&& other) noexcept = default;
Bits::~Bits() = default;

Bits Bits::system() { return Bits(std::make_unique<SystemBits>()); }

Bits Bits::seeded(std::string_view seed_hex, bool allow_weak_seed) {
  Seed key = parse_seed_hex("seed", seed_hex);
  const SeedWiper wipe{key};
  // The all-zero seed is a key everyone knows, and what a seed buffer never filled holds;
  // sodium_is_zero reads all 32 bytes whatever they are.
  if (!allow_weak_seed && sodium_is_zero(key.data(), key.size()) == 1) {
    throw ParameterError("seed", "seed: the all-zero seed is refused (a key everyone knows, or a buffer never "
                                 "filled); Bits::seeded(seed, true) accepts it for tests that need it");
  }
  return Bits(std::make_unique<SeededBits>(key));
}

std::uint64_t Bits::consumed() const noexcept { return source_->bits_consumed(); }

BitSource& Bits::source() noexcept { return *source_; }

}  // namespace exactdp
