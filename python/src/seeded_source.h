// seeded_source.h — PySeededBits, the object behind exactdp.SeededBits (registered in
// sampling.cc): a reproducible bit source shared with Python, guarded by its own mutex (taken
// after the GIL is released, so threads sharing one source serialize instead of racing). FOR
// TESTS AND DEMOS ONLY (SECURITY.md). In a header so that every binding that takes rng= (the
// samplers, add_noise) casts to the same type.
#pragma once

#include <cstdint>
#include <mutex>

#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::python {

class PySeededBits {
 public:
  explicit PySeededBits(const Seed& seed) : bits_(seed) {}
  SeededBits& bits() { return bits_; }
  std::mutex& mutex() { return mutex_; }
  std::uint64_t bits_consumed() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return bits_.bits_consumed();
  }

 private:
  SeededBits bits_;
  std::mutex mutex_;
};

}  // namespace exactdp::python
