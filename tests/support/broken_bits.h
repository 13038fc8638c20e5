// broken_bits.h — deliberately bad bit sources (tests only), to show the bit-source checks fail.
//   BiasedBits   every output byte is a ChaCha20 byte OR'ed with a ChaCha20 byte masked to one
//                random-position bit 1 time in 8: ones come out with probability ~0.516.
//   PatternBits  a keyed stream whose every 4th byte is replaced by 0x55 (structure, ~fair ones).
#pragma once

#include <cstring>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::test_support {

class BiasedBits final : public BitSource {
 public:
  explicit BiasedBits(const Seed& seed) : BitSource(&storage_), inner_(seed) {}

 protected:
  void refill(unsigned char* out, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i) {
      unsigned char b = static_cast<unsigned char>(inner_.bits(8));
      if (inner_.bits(3) == 0) b = static_cast<unsigned char>(b | (1u << inner_.bits(3)));
      out[i] = b;
    }
  }

 private:
  SeededBits inner_;
  BitBufferState storage_{};
};

class PatternBits final : public BitSource {
 public:
  explicit PatternBits(const Seed& seed) : BitSource(&storage_), inner_(seed) {}

 protected:
  void refill(unsigned char* out, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = (i % 4 == 3) ? static_cast<unsigned char>(0x55) : static_cast<unsigned char>(inner_.bits(8));
    }
  }

 private:
  SeededBits inner_;
  BitBufferState storage_{};
};

}  // namespace exactdp::test_support
