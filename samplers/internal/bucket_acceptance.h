// internal/bucket_acceptance.h — the bucket round's acceptance Bernoulli(exp(-gamma)),
// gamma = num / den >= 0 (bucket_gaussian.h), by a lazy comparison of a uniform real with
// exp(-gamma) bracketed by its Taylor partial sums.
//
// The law, exactly. R = 0.V1 V2 V3 ... in binary, V_i blocks of kBlockBits stream bits, is a
// uniform real in [0, 1). After i blocks R lies in the block interval I_i = [u, u + 1) 2^-len
// (u = V1 .. Vi, len = i kBlockBits). The answer is [R < exp(-gamma)] (probability exp(-gamma)),
// and the blocks are read by one canonical rule: read V1; while I_i contains exp(-gamma), read
// the next block; then I_i lies wholly below exp(-gamma) (answer 1) or above it (answer 0). For
// gamma > 0 rational exp(-gamma) is irrational (Lindemann), so it is never an end of I_i, and I_i
// contains it with probability 2^-kBlockBits given that I_(i-1) did: the number of blocks is
// 1 + Geometric (expected 1 + 2^-16), and every decision below is a proven inequality, so any
// correct implementation of the rule reads the same bits and returns the same answer (the 64-bit,
// 128-bit and GMP rounds do; tests compare them).
//   gamma = 0 (U = 0): answer 1, no block needed (V1 is read by the caller anyway).
//   gamma >= 1 (only with the test knobs' wide buckets): exp(-gamma) = exp(-1)^i exp(-f),
//     i = floor(gamma), f = gamma - i: i CKS20 Bernoulli(exp(-1)) trials (stopping at the first
//     0), then the comparison with exp(-f) (f = 0: answer 1).
// Brackets. For 0 < x < 1 the Taylor terms x^n/n! of exp(-x) strictly decrease and alternate, so
// the partial sums S_n(x) = sum_{j <= n} (-x)^j / j! satisfy S_1 < S_3 < ... < exp(-x) < ... <
// S_4 < S_2; S_1(x) = 1 - x and S_2(x) = 1 - x + x^2/2 both decrease in x on [0, 1].
//   Stage 1 (quick_decision, every draw): with gamma in [g_low, g_high) 2^-B, B = kBlockBits:
//     accept when (V1 + 1) 2^-B <= 1 - g_high 2^-B    (< 1 - gamma = S_1(gamma) < exp(-gamma));
//     reject when V1 2^-B >= S_2(g_low 2^-B)           (>= S_2(gamma) > exp(-gamma)).
//   Undecided with probability about gamma^2 / 2 + 3 2^-B (~1e-4 at grid noise's 2^40).
//   Stage 2 (exp_minus_below, machine integers): gamma in [gl, gl + 1) 2^-64; a lower bound of
//     exp(-gamma) from S_odd((gl + 1) 2^-64) and an upper bound from S_even(gl 2^-64), each term
//     rounded outward, to about 2^-58; decides blocks up to 48 bits.
//   Stage 3 (exact): the same brackets on exact rationals, one more term at a time until I_i
//     is decided or lies around the bracket (then one more block): it ends because the brackets
//     shrink to exp(-gamma), which is not an end of I_i.
// Allocation: none in stages 1-2; stage 3 uses GMP rationals: with probability about 2^-48 a
// draw, for gamma >= 1/2 (only the test knobs' wide buckets), and for every draw stage 1 leaves
// open when den >= 2^64 (the 128-bit and GMP rounds: about 1e-4 of their draws).
#pragma once

#include <gmpxx.h>

#include <cstdint>

#include <exactdp/samplers/bit_source.h>

namespace exactdp::internal {

inline constexpr unsigned kBlockBits = 16;  // bits of each block V_i of R

enum class BlockDecision { kAccept, kReject, kUndecided };

// Stage 1: the decision for V1 = v given gamma in [g_low, g_high) 2^-kBlockBits, g_low 2^-B <=
// gamma < 1. drop_square = true is DELIBERATELY BROKEN (tests): it rejects when V1 2^-B >= 1 -
// g_low 2^-B, dropping S_2's gamma^2 / 2, so draws with R in [1 - gamma, exp(-gamma)) are lost.
[[nodiscard]] constexpr BlockDecision quick_decision(std::uint64_t v, std::uint64_t g_low, std::uint64_t g_high,
                                                     bool drop_square) noexcept {
  constexpr std::uint64_t one = std::uint64_t{1} << kBlockBits;
  if (g_high <= one && v + 1 + g_high <= one) return BlockDecision::kAccept;
  if (v + g_low < one) return BlockDecision::kUndecided;
  // V1 >= 2^B - g_low + g_low^2 / 2^(B+1)  <=>  (V1 + g_low - 2^B) 2^(B+1) >= g_low^2.
  if (drop_square || ((v + g_low - one) << (kBlockBits + 1)) >= g_low * g_low) return BlockDecision::kReject;
  return BlockDecision::kUndecided;
}

// Stages 2-3 after stage 1 left V1 = v undecided: [R < exp(-num/den)] for 0 < num < den < 2^64,
// reading further blocks by the rule above.
[[nodiscard]] bool exp_minus_below(BitSource& bits, std::uint64_t num, std::uint64_t den, std::uint64_t v);

// Stage 3 alone (the reference, tests compare the others with it): [R < exp(-num/den)] for
// 0 < num < den, R's first len bits u already read.
[[nodiscard]] bool exp_minus_below_exact(BitSource& bits, const mpz_class& num, const mpz_class& den, mpz_class u,
                                         unsigned long len);

// The whole acceptance on GMP integers, any num >= 0, den >= 1 (gamma >= 1 included: the trials
// first), stage 1 included: the same bits and answer as the machine rounds.
[[nodiscard]] bool bernoulli_exp_blocks(BitSource& bits, const mpz_class& num, const mpz_class& den, std::uint64_t v,
                                        bool drop_square = false);

}  // namespace exactdp::internal
