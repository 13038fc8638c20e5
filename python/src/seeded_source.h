// seeded_source.h — PySeededBits, the object behind exactdp.SeededBits (registered in
// sampling.cc): a reproducible bit source shared with Python, guarded by its own mutex (taken
// after the GIL is released, so threads sharing one source serialize instead of racing). FOR
// TESTS AND DEMOS ONLY (SECURITY.md). In a header so that every binding that takes rng= (the
// samplers, add_noise) casts to the same type; with_bits runs a binding's work on it.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>

#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

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

// Runs `work(bits)` without the GIL, on `rng` (a PySeededBits, under its lock) or, when `rng` is
// None, on this thread's OS CSPRNG source.
template <class Work>
auto with_bits(const pybind11::object& rng, Work&& work) {
  PySeededBits* seeded = rng.is_none() ? nullptr : rng.cast<PySeededBits*>();
  const pybind11::gil_scoped_release release;
  if (seeded != nullptr) {
    const std::lock_guard<std::mutex> lock(seeded->mutex());
    return work(static_cast<BitSource&>(seeded->bits()));
  }
  thread_local std::unique_ptr<SystemBits> system;
  if (!system) system = std::make_unique<SystemBits>();
  return work(static_cast<BitSource&>(*system));
}

}  // namespace exactdp::python
