// c_handles.h — owning C++ handles for the C interface's objects in the gtest suites
// (std::unique_ptr with the C free functions as deleters), and a seeded C bit source.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include <exactdp/exactdp.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::test_support {

struct BitsDeleter {
  void operator()(exactdp_bits* b) const { exactdp_bits_free(b); }
};
struct SamplerDeleter {
  void operator()(exactdp_sampler* s) const { exactdp_sampler_free(s); }
};
using CBits = std::unique_ptr<exactdp_bits, BitsDeleter>;
using CSampler = std::unique_ptr<exactdp_sampler, SamplerDeleter>;

// The 32-byte seed {first, 0, ..., 0}.
inline Seed seed_of(unsigned char first) {
  Seed s{};
  s[0] = first;
  return s;
}

// The C interface's keyed ChaCha20 source for `seed` (_weak: seed_of(0) is the all-zero seed,
// which exactdp_bits_seeded refuses).
inline CBits c_bits(const Seed& seed) {
  exactdp_bits* b = nullptr;
  EXPECT_EQ(exactdp_bits_seeded_weak(seed.data(), &b), EXACTDP_OK) << exactdp_last_error();
  return CBits(b);
}

}  // namespace exactdp::test_support
