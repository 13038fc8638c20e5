// internal/fixed_exp52_ifma.h — the AVX-512 IFMA pieces of fixed_exp52.h's evaluation (not
// installed; x86-64 only): eight values a vector of 64-bit lanes, each number as two 52-bit limbs,
// mul104 from seven vpmadd52 products, S_i by a two-register permute (vpermt2q, whose lane choice
// is an operand, not an address). Shared by the exponential's group (fixed_exp52.cc) and the
// rejection method's whole-group kernel (hardened_rejection_ifma.cc). Every function here carries
// the avx512f/avx512ifma target: call them only from code chosen after a CPU check.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/fixed_exp52.h>

#define EXACTDP_IFMA __attribute__((target("avx512f,avx512ifma,avx512dq,avx512bw,avx512vl")))

namespace exactdp::internal::ifma {

// Whether this CPU runs the code below (every CPU with IFMA has the other four).
inline bool cpu_has_ifma() noexcept {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}

// Lanes as a GCC vector (shifts, masks and subtractions written as operators: the AVX-512 shift
// intrinsics trip GCC 12's -Wuninitialized); the products and the permutes are intrinsics.
using V8 = unsigned long long __attribute__((vector_size(64)));
inline constexpr V8 kMask52 = {kLimb52, kLimb52, kLimb52, kLimb52, kLimb52, kLimb52, kLimb52, kLimb52};

struct Limbs {
  V8 low, high;  // 52-bit limbs, one value a lane
};

// The group's four vectors of eight go through every step together: four independent chains of
// products (each vpmadd52 has a latency of several cycles), so the processor overlaps them.
inline constexpr unsigned kVectors = kFixedExp52Group / 8;

EXACTDP_IFMA inline V8 madd_low(V8 acc, V8 a, V8 b) noexcept {
  return (V8)_mm512_madd52lo_epu64((__m512i)acc, (__m512i)a, (__m512i)b);  // NOLINT: same-size vector casts
}
EXACTDP_IFMA inline V8 madd_high(V8 acc, V8 a, V8 b) noexcept {
  return (V8)_mm512_madd52hi_epu64((__m512i)acc, (__m512i)a, (__m512i)b);  // NOLINT: same-size vector casts
}

// mul104 on eight lanes: floor(a b / 2^104) = a1 b1 + floor((a1 b0 + a0 b1 + floor(a0 b0 / 2^52)) / 2^52),
// each 104-bit product split into its low and high 52 bits by vpmadd52luq / vpmadd52huq.
EXACTDP_IFMA inline Limbs mul(Limbs a, Limbs b) noexcept {
  const V8 zero = {};
  V8 carry = madd_high(zero, a.low, b.low);
  carry = madd_low(carry, a.high, b.low);
  carry = madd_low(carry, a.low, b.high);  // < 3 2^52
  V8 low = madd_low(carry >> 52, a.high, b.high);
  low = madd_high(low, a.high, b.low);
  low = madd_high(low, a.low, b.high);  // < 4 2^52
  return {low & kMask52, madd_high(low >> 52, a.high, b.high)};
}

// mul(a, {0, q}) = floor(a q / 2^52) for q < 2^52 (a number whose low limb is zero): three products
// instead of seven, a1 q + floor(a0 q / 2^52) = lo(a1 q) + hi(a0 q) + hi(a1 q) 2^52.
EXACTDP_IFMA inline Limbs mul_limb(Limbs a, V8 q) noexcept {
  const V8 zero = {};
  const V8 low = madd_low(madd_high(zero, a.low, q), a.high, q);  // < 2^53
  return {low & kMask52, madd_high(low >> 52, a.high, q)};
}

// a - b for a >= b (the low limbs' borrow is bit 63 of their difference).
EXACTDP_IFMA inline Limbs sub(Limbs a, Limbs b) noexcept {
  const V8 low = a.low - b.low;
  return {low & kMask52, a.high - b.high - (low >> 63)};
}

EXACTDP_IFMA inline V8 splat(std::uint64_t v) noexcept {
  const V8 zero = {};
  return zero + static_cast<unsigned long long>(v);
}

EXACTDP_IFMA inline Limbs broadcast(const std::uint64_t* limbs) noexcept { return {splat(limbs[0]), splat(limbs[1])}; }

EXACTDP_IFMA inline V8 load8(const std::uint64_t* p) noexcept {
  V8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The low and high 64-bit words of eight uint128 at p (little-endian: low word first).
EXACTDP_IFMA inline void load_words(const uint128* p, V8& low, V8& high) noexcept {
  const __m512i first = (__m512i)load8(reinterpret_cast<const std::uint64_t*>(p));
  const __m512i second = (__m512i)load8(reinterpret_cast<const std::uint64_t*>(p) + 8);
  low = (V8)_mm512_permutex2var_epi64(first, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), second);
  high = (V8)_mm512_permutex2var_epi64(first, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), second);
}

// Eight uint128 at p from their low and high words.
EXACTDP_IFMA inline void store_words(uint128* p, V8 low, V8 high) noexcept {
  const __m512i first = _mm512_permutex2var_epi64((__m512i)low, _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), (__m512i)high);
  const __m512i second = _mm512_permutex2var_epi64((__m512i)low, _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15), (__m512i)high);
  std::memcpy(reinterpret_cast<std::uint64_t*>(p), &first, sizeof first);
  std::memcpy(reinterpret_cast<std::uint64_t*>(p) + 8, &second, sizeof second);
}

// Lane-wise shifts whose counts may reach 64 or more (then 0), as vpsrlvq / vpsllvq define them
// (the zero-masked forms with every lane kept: the plain intrinsics trip GCC 12's -Wuninitialized).
EXACTDP_IFMA inline V8 shift_right(V8 v, V8 count) noexcept {
  return (V8)_mm512_maskz_srlv_epi64(0xFF, (__m512i)v, (__m512i)count);
}
EXACTDP_IFMA inline V8 shift_left(V8 v, V8 count) noexcept {
  return (V8)_mm512_maskz_sllv_epi64(0xFF, (__m512i)v, (__m512i)count);
}

// The parts of kVectors vectors of H (fixed_exp52.h) given as their 64-bit words: R = bits 13 .. 112
// as limbs, i = bits 113 .. 116, n = bits 117 .. 121.
struct ExpInputs {
  Limbs r[kVectors];
  V8 index[kVectors], n[kVectors];
};
EXACTDP_IFMA inline void split_input(V8 low, V8 high, ExpInputs& in, unsigned b) noexcept {
  constexpr unsigned long long kLow48 = (1ULL << 48) - 1;
  in.r[b] = {((low >> 13) | (high << 51)) & kMask52, (high >> 1) & kLow48};
  in.index[b] = (high >> 49) & 15;
  in.n[b] = (high >> 53) & 31;
}

// v = S_i exp(-rho) (fixed_exp52.h, before alpha's shift) for kVectors vectors at once.
EXACTDP_IFMA inline void exp_v(const FixedExp52& t, const ExpInputs& in, Limbs* v) noexcept {
  Limbs rho[kVectors], p[kVectors];
  V8 q[kVectors];
  const Limbs ln2 = broadcast(t.ln2_limbs);
  const V8 zero = {};
  for (unsigned b = 0; b < kVectors; ++b) {
    rho[b] = mul(in.r[b], ln2);
    q[b] = splat(t.narrow[kFixedExp52Degree]);
  }
  for (unsigned k = kFixedExp52Degree; k-- > kFixedExp52WideSteps;) {  // one limb: rho1 = rho's high limb
    const V8 d_k = splat(t.narrow[k]);
    for (unsigned b = 0; b < kVectors; ++b) q[b] = d_k - madd_high(zero, rho[b].high, q[b]);
  }
  const Limbs c5 = broadcast(t.coeff_limbs[kFixedExp52WideSteps - 1]);
  for (unsigned b = 0; b < kVectors; ++b) p[b] = sub(c5, mul_limb(rho[b], q[b]));  // p = q 2^52 into C_5
  for (unsigned k = kFixedExp52WideSteps - 1; k-- > 0;) {
    const Limbs c = broadcast(t.coeff_limbs[k]);
    for (unsigned b = 0; b < kVectors; ++b) p[b] = sub(c, mul(rho[b], p[b]));
  }
  const __m512i s_low[2] = {(__m512i)load8(&t.sixteenth_limbs[0][0]), (__m512i)load8(&t.sixteenth_limbs[0][8])};
  const __m512i s_high[2] = {(__m512i)load8(&t.sixteenth_limbs[1][0]), (__m512i)load8(&t.sixteenth_limbs[1][8])};
  for (unsigned b = 0; b < kVectors; ++b) {
    const Limbs d = sub(rho[b], mul(rho[b], mul(rho[b], p[b])));
    const Limbs s = {(V8)_mm512_permutex2var_epi64(s_low[0], (__m512i)in.index[b], s_low[1]),
                     (V8)_mm512_permutex2var_epi64(s_high[0], (__m512i)in.index[b], s_high[1])};
    v[b] = sub(s, mul(s, d));
  }
}

// alpha = v >> e, e = 24 + n in [24, 55], as its 64-bit words: v = v1 2^52 + v0, its low word is
// v0 >> e, v1 << (52 - e) for e <= 52 and v1 >> (e - 52) for e > 52 (the other count then wraps
// past 63: 0); its high word v1 >> (e + 12).
EXACTDP_IFMA inline void alpha_words(Limbs v, V8 n, V8& low, V8& high) noexcept {
  const V8 e = n + 24;
  low = shift_right(v.low, e) | shift_left(v.high, 52 - e) | shift_right(v.high, e - 52);
  high = shift_right(v.high, e + 12);
}

}  // namespace exactdp::internal::ifma
#endif
