// float_grid_simd.h — the usual case of add_on_grid_fast_run (float_grid.h) on eight doubles or
// floats at a time with AVX-512F/CD (64-bit lanes), chosen at run time (compiled with function target attributes only; no
// global -m flag). The same integer operations as the scalar usual case in float_grid.cc
// (add_one_simple), lane by lane, so the same bit patterns on every CPU: a group of eight is
// written only when every lane is in the usual case; the first group that is not is left to the
// scalar code (tests/mechanisms/grid_noise_test.cc compares the two on random patterns).
#pragma once

#include <cstddef>
#include <cstdint>

namespace exactdp::mechanisms {

inline constexpr std::size_t kGridSimdGroup = 8;

// True when this CPU runs add_on_grid_simple_simd (AVX-512F and AVX-512CD).
[[nodiscard]] bool grid_simd_available() noexcept;

// For k with simple_exponent<Float>(k) (float_grid.cc): y[i] = the float nearest
// (round_half_even(x[i] 2^k) + draws[i]) 2^-k for whole groups of eight from i = 0 on, stopping at
// the first group with a coordinate outside the usual case (|x[i]| 2^k may reach 2^62,
// |n + draw| >= 2^P or n + draw overflowing) or with fewer than eight left. Returns the number
// of coordinates written (a multiple of 8; 0 when !grid_simd_available()). y may be x.
[[nodiscard]] std::size_t add_on_grid_simple_simd(const double* x, long k, const std::int64_t* draws, double* y,
                                                  std::size_t count) noexcept;
[[nodiscard]] std::size_t add_on_grid_simple_simd(const float* x, long k, const std::int64_t* draws, float* y,
                                                  std::size_t count) noexcept;

}  // namespace exactdp::mechanisms
