// seeds.h — fixed seeds for the statistical tests (tests only).
#pragma once

#include <cstdint>

#include <exactdp/samplers/seeded_bits.h>

namespace exactdp::test_support {

// A distinct fixed 32-byte seed per (suite, index): bytes are a simple function of both, so every
// run of a test sees the same stream on every machine.
inline Seed fixed_seed(std::uint32_t suite, std::uint32_t index) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) {
    s[i] = static_cast<unsigned char>((suite * 131u + index * 17u + i * 29u + (suite ^ index) * (i + 1)) & 0xffu);
  }
  s[0] = static_cast<unsigned char>(suite & 0xffu);
  s[1] = static_cast<unsigned char>(index & 0xffu);
  s[2] = static_cast<unsigned char>((index >> 8) & 0xffu);
  return s;
}

}  // namespace exactdp::test_support
