// internal/bucket_gaussian.h — the exact discrete Gaussian sampler for large sigma2 (above the
// table sampler's range, symmetric_table.h): a certified bucketed envelope with exact rejection.
//
// Distribution: D(z) = exp(-z^2 / (2 sigma2)) / N on Z, sigma2 = p/q > 0 rational (any size
// within the limits below), exactly.
//
// Construction (all integers; s = floor(sqrt(floor(sigma2))), W = 2^k with k = max(0,
// bitlen(s) - 7), so s/128 < W <= s/64 for s >= 64; B buckets, B W >= 10 (s + 1)):
//   1. slot j in {0 .. B} by exact inversion (cumulative_table.h) of the ENVELOPE masses
//        e_b = W w(bW)                       for bucket b < B, w(x) = exp(-x^2 q / (2 p)),
//        e_B = w(BW) / (1 - exp(-BW q / p))  for the tail slot;
//   2. bucket b: x = bW + U, U uniform on [0, W) (k bits), accepted with probability
//        w(x) / w(bW) = exp(-U (2bW + U) q / (2p))   (exact Bernoulli(exp(-gamma)) by the lazy
//      comparison of a uniform R with exp(-gamma) between its Taylor partial sums,
//      bucket_acceptance.h: R's first 16-bit block is read with U, decided by one comparison of
//      small integers in all but about gamma^2/2 + 2^-14 of the draws);
//      tail: x = BW + G, G ~ Geometric with P[G = g] ~ exp(-g BW q / p) (CKS20 Alg. 2's
//      construction, integers only), accepted with probability exp(-G^2 q / (2p)); together
//      the proposal has weight w(BW) exp(-g BW q/p) and the acceptance makes it w(BW + g);
//   3. a fair sign; (x = 0, negative) is rejected;
//   any rejection restarts from step 1.
//   4. Bit order: a round first reads the table's guide prefix (guide_bits), U (k), R's first
//      block (16) and the sign (1), one read where guide_bits + k + 17 <= 64, then the table's
//      further bits if the prefix leaves the slot open, then the acceptance's or the tail's. U,
//      R's block and the sign are fair bits independent of the slot, of the table's further bits
//      and of each other, used only as steps 2-3 say (unused in a tail round), so the round's law
//      is the one above.
// Exactness: a single round outputs x >= 0 with probability (1/M) w(x) (1/2 per sign) where M
// = sum of the envelope masses: every x < BW is proposed by exactly one bucket, with
// probability (e_b / M) / W, and accepted with w(x)/w(bW); every x >= BW by the tail with
// probability (e_B / M) (1 - r) r^(x - BW) = w(BW) r^(x-BW) / M, accepted with
// exp(-(x-BW)^2 q/(2p)), r = exp(-BW q/p); and w(BW) r^g exp(-g^2 q/(2p)) = w(BW + g). So each
// z in Z has round probability w(|z|) / (2M) (z = 0: one sign kept), proportional to D(z);
// rounds are independent, hence the output law is D exactly. The envelope masses enter only
// through the exact inversion of step 1, whose stored bounds may be coarse or T/B arbitrary
// without changing the law (tests use coarse bounds and few buckets).
// Randomness: table ~ guide_bits (14) + rarely a few; U: k bits; R: 16 bits (rarely more); sign 1;
// rounds: 1 / acceptance <= about 1.01 (the exponent U(2bW+U)/(2 sigma2) stays below ~0.16).
// About 45 bits at sigma2 = 10^12 and 2^40, 190 at 10^100.
// Time: expected O(1) rounds; a round is a table lookup plus 128-bit arithmetic when the
// parameters fit (fast()), else GMP on O(log sigma2)-bit integers. Where (BW)^2 q, 2p < 2^64
// (narrow(): integer sigma2 up to ~1.8e17, e.g. grid noise's 2^40) a bucket round runs on 64-bit
// integers: gamma's 16-bit bracket is U (2bW + U) q times a reciprocal of 2p fixed at build (two
// multiplications, no division). Every path reads the same bits and returns the same values
// (the acceptance's canonical block rule, bucket_acceptance.h; known answers at 2^40, 10^6,
// 123456789/7; chi-square and its broken variants on this path:
// tests/samplers/bucket_gaussian_test.cc).
// Worst case unbounded (geometric rounds, as every exact sampler). Not constant time: the
// hardened mode (samplers/hardened_discrete_gaussian.h) is the timing-safe sampler.
// Build: B + 1 certified exponentials by recurrence (two MPFR products per bucket), at most
// ~1300 buckets, ~75 KB; a few ms.
// Limits: sigma2 >= kMinSigma2 and numerator, denominator of at most kMaxParamBits bits (the
// caller uses CKS20 outside).
// Thread-safety: immutable after build(); share freely.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/cumulative_table.h>

namespace exactdp::internal {

struct BucketGaussianOptions {
  long buckets = -1;          // -1: the default B (B W >= 10 (s + 1)); >= 1 for tests
  int width_bits = -1;        // -1: the default k; >= 0 sets W = 2^k (tests: wide buckets make
                              // the acceptance step matter)
  unsigned bound_bits = 64;   // < 64 coarsens the inversion bounds (tests)
  bool refine = true;         // false: DELIBERATELY BROKEN inversion (tests)
  bool accept = true;         // false: DELIBERATELY BROKEN, no acceptance step (tests)
  bool exp_square = true;     // false: DELIBERATELY BROKEN, the acceptance's quick reject test
                              // drops gamma^2 / 2 (bucket_acceptance.h, quick_decision; tests)
};

class BucketGaussian {
 public:
  static constexpr unsigned long kMinSigma2 = 10000;   // s >= 100
  static constexpr unsigned kMaxParamBits = 4096;

  // nullptr when sigma2 is outside the limits above.
  [[nodiscard]] static std::shared_ptr<const BucketGaussian> build(const mpq_class& sigma2,
                                                                   const BucketGaussianOptions& options = {});

  // Whether draw_fast may be used (every intermediate fits in 128 bits).
  [[nodiscard]] bool fast() const noexcept { return fast_; }
  // Whether draw_fast's bucket rounds run on 64-bit integers (see Time above).
  [[nodiscard]] bool narrow() const noexcept { return narrow_; }
  // One draw: returns |Z| and sets `negative`. Requires fast().
  [[nodiscard]] uint128 draw_fast(BitSource& bits, bool& negative) const;
  // n draws, the same bits and values as n calls of draw_fast, without their per-call work:
  // out[i] = the signed draw while |Z| < 2^63. Returns n, or the index i of the first draw with
  // |Z| >= 2^63 (out[i] unset; its magnitude and sign in `magnitude`, `negative`; the draws
  // after it not made). Requires fast().
  [[nodiscard]] std::size_t draw_batch(BitSource& bits, std::int64_t* out, std::size_t n, uint128& magnitude,
                                       bool& negative) const;
  // The same law, on GMP integers; the same bits and the same values as draw_fast when fast().
  void draw_gmp(BitSource& bits, mpz_class& magnitude, bool& negative) const;

 private:
  BucketGaussian() = default;
  // The tail slot's proposal and acceptance (one round): false if rejected.
  bool tail(BitSource& bits, mpz_class& x) const;
  // tail() plus the sign (false: rejected, or -0); x = |Z| < 2^128 on the fast path.
  bool tail_round(BitSource& bits, uint128& x, bool& negative) const;
  // draw_fast's rounds on Word integers: std::uint64_t when narrow_, uint128 otherwise.
  template <typename Word>
  [[nodiscard]] uint128 draw_rounds(BitSource& bits, bool& negative, Word q, Word p2) const;
  // draw_batch's loop when narrow_ and a round's first bits are one read (the usual case).
  std::size_t draw_batch_narrow(BitSource& source, std::int64_t* out, std::size_t n, uint128& magnitude,
                                bool& negative) const;
  // The acceptance Bernoulli(exp(-num / p2)) with R's first block v (bucket_acceptance.h).
  template <typename Word>
  [[nodiscard]] bool accepts(BitSource& bits, Word num, Word p2, std::uint64_t v) const;

  mpz_class p_, q_, two_p_, tail_start_;  // sigma2 = p/q; tail_start = B W
  long buckets_ = 0;
  unsigned k_ = 0;                         // W = 2^k
  bool fast_ = false, accept_ = true, exp_square_ = true;
  uint128 p2_fast_ = 0, q_fast_ = 0;       // 2p, q (fast path)
  // Narrow: the bucket round's acceptance on 64-bit integers ((BW)^2 q and 2p below 2^64).
  bool narrow_ = false;
  std::uint64_t p2_narrow_ = 0, q_narrow_ = 0;
  // floor(2^(64+16) / 2p): 2^16 gamma in [G, G + 2) with G = floor(num reciprocal / 2^64) for
  // num < 2^64; for wider num, floor(2p / 2^16) and its ceiling bound 2^16 gamma by division.
  uint128 reciprocal_ = 0, p2_block_low_ = 0, p2_block_high_ = 0;
  std::unique_ptr<const CumulativeTable> table_;
};

}  // namespace exactdp::internal
