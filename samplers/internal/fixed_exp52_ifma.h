// internal/fixed_exp52_ifma.h — the AVX-512 IFMA pieces of fixed_exp52.h's evaluation (not
// installed; x86-64 only): eight values a vector of 64-bit lanes, each number as two 52-bit limbs,
// a one-limb step one vpmadd52huq, a two-limb step three, mul3 six, S_i by a two-register permute
// (vpermt2q, whose lane choice is an operand, not an address). Shared by the exponential's group (fixed_exp52.cc) and the
// rejection method's whole-group kernel (hardened_rejection_ifma.cc). Every function here carries
// the avx512f/avx512ifma target: call them only from code chosen after a CPU check.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include <exactdp/core/cpu_level.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/fixed_exp52.h>

#define EXACTDP_IFMA __attribute__((target("avx512f,avx512ifma,avx512dq,avx512bw,avx512vl")))

namespace exactdp::internal::ifma {

// Whether this CPU runs the code below (every CPU with IFMA has the other four).
inline bool cpu_has_ifma() noexcept {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && cpu_level_allows(CpuLevel::kAvx512Ifma);
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

// mul3 (fixed_exp52.h) on eight lanes: a1 b1 + floor((a1 b0 + a0 b1) / 2^52), the middle sum's
// floor from the high halves of its products and the carry out of their low halves.
EXACTDP_IFMA inline Limbs mul3(Limbs a, Limbs b) noexcept {
  const V8 zero = {};
  const V8 carry = madd_low(madd_low(zero, a.high, b.low), a.low, b.high);  // < 2^53
  V8 low = madd_high(madd_high(carry >> 52, a.high, b.low), a.low, b.high);
  low = madd_low(low, a.high, b.high);  // < 2^54
  return {low & kMask52, madd_high(low >> 52, a.high, b.high)};
}

// floor(a q / 2^52) for a < 2^104 and q < 2^52 (a two-limb step): three products,
// a1 q + floor(a0 q / 2^52) = lo(a1 q) + hi(a0 q) + hi(a1 q) 2^52.
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

// The parts of kVectors vectors of H (fixed_exp52.h) given as their 64-bit words: r0 = bits 9 .. 60,
// r1 = bits 61 .. 112, i = bits 113 .. 116, n = bits 117 .. 121.
struct ExpInputs {
  V8 r0[kVectors], r1[kVectors];
  V8 index[kVectors], n[kVectors];
};
EXACTDP_IFMA inline void split_input(V8 low, V8 high, ExpInputs& in, unsigned b) noexcept {
  in.r0[b] = (low >> 9) & kMask52;
  in.r1[b] = ((low >> 61) | (high << 3)) & kMask52;
  in.index[b] = (high >> 49) & 15;
  in.n[b] = (high >> 53) & 31;
}

// v = S_i 2^-r (fixed_exp52.h, before alpha's shift) for kVectors vectors at once.
EXACTDP_IFMA inline void exp_v(const FixedExp52& t, const ExpInputs& in, Limbs* v) noexcept {
  V8 q[kVectors];
  Limbs w[kVectors];
  const V8 zero = {};
  for (unsigned b = 0; b < kVectors; ++b) q[b] = splat(t.narrow[kFixedExp52Degree]);
  for (unsigned k = kFixedExp52Degree; k-- > kFixedExp52NarrowLast;) {  // one limb
    const V8 a_k = splat(t.narrow[k]);
    for (unsigned b = 0; b < kVectors; ++b) q[b] = a_k - madd_high(zero, in.r1[b], q[b]);
  }
  constexpr unsigned kShift = kFixedExp52TransitionShift;
  const Limbs b4 = broadcast(t.wide_limbs[kFixedExp52NarrowLast - 1]);
  for (unsigned b = 0; b < kVectors; ++b) {  // floor(r1 q / 2^29) of the product hi 2^52 + lo
    const V8 lo = madd_low(zero, in.r1[b], q[b]), hi = madd_high(zero, in.r1[b], q[b]);
    w[b] = sub(b4, {((lo >> kShift) | (hi << (52 - kShift))) & kMask52, hi >> kShift});
  }
  for (unsigned k = kFixedExp52NarrowLast - 1; k-- > 1;) {  // two limbs
    const Limbs b_k = broadcast(t.wide_limbs[k]);
    for (unsigned b = 0; b < kVectors; ++b) w[b] = sub(b_k, mul_limb(w[b], in.r1[b]));
  }
  const V8 ln2 = splat(t.ln2);
  const __m512i s_low[2] = {(__m512i)load8(&t.sixteenth_limbs[0][0]), (__m512i)load8(&t.sixteenth_limbs[0][8])};
  const __m512i s_high[2] = {(__m512i)load8(&t.sixteenth_limbs[1][0]), (__m512i)load8(&t.sixteenth_limbs[1][8])};
  for (unsigned b = 0; b < kVectors; ++b) {
    const Limbs d = mul_limb(w[b], in.r1[b]);
    const V8 c = madd_high(zero, ln2, in.r0[b]) >> 4;
    const V8 low = d.low + (c - madd_high(zero, c, d.high));  // < 2^53
    const Limbs d_all = {low & kMask52, d.high + (low >> 52)};
    const Limbs s = {(V8)_mm512_permutex2var_epi64(s_low[0], (__m512i)in.index[b], s_low[1]),
                     (V8)_mm512_permutex2var_epi64(s_high[0], (__m512i)in.index[b], s_high[1])};
    v[b] = sub(s, mul3(s, d_all));
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
