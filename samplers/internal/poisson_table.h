// internal/poisson_table.h — the table sampler of Poisson(mu), p(k) = exp(-mu) mu^k / k!, for an
// exact rational 0 < mu <= 10^7 (samplers/poisson.h's route there; not installed). The common
// draw is integer-only: one B-bit read (B = 32) and one 4-byte table load; MPFR runs at build and
// in the rare escapes. Nothing here uses floating point.
//
// The law, exactly. With m = floor(mu), the table covers k in [L, R] (L <= m < R; n = R - L + 1
// values) and c < 2^B is an integer. At build p(m) is enclosed from MPFR's log-gamma (correctly
// rounded both ways) and the other p(k) by p(k + 1) = p(k) mu / (k + 1), p(k - 1) = p(k) k / mu,
// every product and quotient rounded outward (64 bits, mu's bounds taken on the same side);
// w(k) = floor(lower end of c p(k)) is k's SURE weight, and 0 <= c p(k) - w(k) < 2 (checked at
// build). A proposal reads B bits, which
// an integer alias table (Walker/Vose: 2^b buckets of 2^(B - b) units each, built in integers, so
// every outcome has exactly its integer number of the 2^B units) maps to
//   k in [L, R], w(k) units                    -> output k;
//   the POOL, 2^(q + 1) units, 2^q >= n        -> i = q more bits; if i < n, output k = L + i with
//                                                 probability (c p(k) - w(k)) / 2, else restart;
//   the upper TAIL, T+ >= c p(R) r / (1 - r)   -> k = R + J, P[J = j] = (1 - r) r^(j - 1) (exact
//       units, r = mu / (R + 1) < 1               Bernoulli(r) coins), output k with probability
//                                                 c p(k) / (T+ (1 - r) r^(j - 1)), else restart;
//   the lower TAIL, T- >= c p(L) s / (1 - s)   -> k = L - J, P[J = j] = (1 - s) s^(j - 1), restart
//       units, s = L / mu < 1 (none if L = 0)     if k < 0, else output k with probability
//                                                 c p(k) / (T- (1 - s) s^(j - 1));
//   the rest of the 2^B units                  -> restart.
// So a proposal outputs k with probability exactly c p(k) 2^-B, for every k >= 0:
//   k in [L, R]: w(k) 2^-B + 2^(q + 1) 2^-B 2^-q (c p(k) - w(k)) / 2 = c p(k) 2^-B;
//   k = R + j:   T+ 2^-B (1 - r) r^(j - 1) c p(k) / (T+ (1 - r) r^(j - 1)) = c p(k) 2^-B (and so
//                for k = L - j).
// Each acceptance is a probability: (c p(k) - w(k)) / 2 < 1 by the check, and p is log-concave
// (p(k + 1) / p(k) = mu / (k + 1) decreases), so p(R + j) <= p(R) r^j, p(L - j) <= p(L) s^j and a
// tail's acceptance is at most c p(R) r / ((1 - r) T+) <= 1. Every proposal is thus output with
// the same probability c 2^-B, and the output is Poisson(mu) EXACTLY, whatever L, R, c, B and
// the enclosures' widths (they only set how often the escapes run). The acceptances compare a
// uniform U, drawn 64 bits at a time, with MPFR enclosures of the probability at doubling
// precision until U's interval lies on one side (uniform_below); an enclosure above 1 would
// disprove the bound and throws std::logic_error.
// Sizes: q = min(16, B - 4) (so n <= 2^q), c = 2^B - 2^(q + 1) - 16, and [L, R] the range where
// 2^(B + 6) p(k) r / (1 - r) > 1 on the right (and its mirror on the left), so T+, T- <= 1: about
// 13 standard deviations, n about 13000 at mu = 10^6, 41000 at 10^7 (2^b buckets, b <= 16: 256 KB,
// and n 4-byte weights). With B = 32 a proposal takes an escape or restarts with probability below
// 2^-14 (the pool's 2^17 units and at most n + 18 others of 2^32).
// Thread-safety: immutable after build; share freely.
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/bernoulli.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::internal {

// Test knobs; the defaults are the sampler's.
struct PoissonTableOptions {
  unsigned total_bits = 32;        // B, 8..32: smaller B sends more draws through the pool
  std::int64_t half_width = -1;    // >= 1: [L, R] = [max(0, m - h), m + h] and c halved (the tails run often)
};

class PoissonTable {
 public:
  // The largest mu the table serves: 10^7 (n <= 2^16 - 4 values).
  static constexpr long kMaxMu = 10'000'000;

  // The table of mu (0 < mu <= kMaxMu; std::invalid_argument otherwise).
  [[nodiscard]] static std::shared_ptr<const PoissonTable> build(const mpq_class& mu,
                                                                 const PoissonTableOptions& options = {});

  // One Poisson(mu) draw.
  [[nodiscard]] std::int64_t draw(BitSource& bits) const {
    for (;;) {
      const std::uint64_t x = bits.bits(total_bits_);
      const auto bucket = static_cast<std::uint32_t>(x >> capacity_bits_);
      const std::uint32_t packed = buckets_[bucket];
      const std::uint32_t entry = (static_cast<std::uint32_t>(x) & mask_) < (packed & mask_) ? bucket : packed >> capacity_bits_;
      if (entry < size_) return low_ + entry;
      if (const auto k = escape(bits, entry)) return *k;
    }
  }

  [[nodiscard]] std::int64_t low() const noexcept { return low_; }
  [[nodiscard]] std::int64_t high() const noexcept { return low_ + size_ - 1; }
  // c, w(k) for k in [L, R], and the tails' units T- and T+ (the tests recompute them).
  [[nodiscard]] std::uint64_t scale() const noexcept { return scale_; }
  [[nodiscard]] const std::vector<std::uint32_t>& weights() const noexcept { return weights_; }
  [[nodiscard]] std::uint64_t lower_tail_units() const noexcept { return tail_units_[0]; }
  [[nodiscard]] std::uint64_t upper_tail_units() const noexcept { return tail_units_[1]; }
  [[nodiscard]] unsigned total_bits() const noexcept { return total_bits_; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return (buckets_.size() + weights_.size()) * sizeof(std::uint32_t);
  }

 private:
  PoissonTable() = default;
  // The pool, a tail or a restart: the value, or std::nullopt to restart.
  [[nodiscard]] std::optional<std::int64_t> escape(BitSource& bits, std::uint32_t entry) const;
  [[nodiscard]] std::optional<std::int64_t> pool(BitSource& bits) const;
  [[nodiscard]] std::optional<std::int64_t> tail(BitSource& bits, bool upper) const;
  void build_alias(std::vector<std::uint64_t> units);

  mpq_class mu_;
  std::int64_t low_ = 0;
  std::uint32_t size_ = 0;             // n
  unsigned total_bits_ = 0;            // B
  unsigned capacity_bits_ = 0;         // B - b
  std::uint32_t mask_ = 0;             // 2^(B - b) - 1
  unsigned pool_bits_ = 0;             // q
  std::uint64_t scale_ = 0;            // c
  std::uint64_t tail_units_[2] = {0, 0};
  std::optional<BernoulliParams> ratio_[2];  // s, r: the tails' geometric ratios
  std::vector<std::uint32_t> buckets_;  // alias entry << (B - b) | threshold
  std::vector<std::uint32_t> weights_;  // w(k), k = L .. R
};

// log p(k) = k log mu - mu - log k!, enclosed at precision p (log-gamma correctly rounded both ways).
[[nodiscard]] Interval log_poisson_mass(const mpq_class& mu, const mpz_class& k, mpfr_prec_t p);

// log Gamma(n) for an integer n >= 1, enclosed at precision p.
[[nodiscard]] Interval log_gamma_of(const mpz_class& n, mpfr_prec_t p);

// Whether a uniform real U in [0, 1), its first 64 bits first_word and the rest drawn from bits 64
// at a time, is below a, where enclose(p) encloses a at precision p (a <= 1: an enclosure above 1
// throws std::logic_error): decided exactly, doubling p from `start` while U's bits cannot decide.
[[nodiscard]] bool uniform_below(BitSource& bits, std::uint64_t first_word, mpfr_prec_t start,
                                 const std::function<Interval(mpfr_prec_t)>& enclose);

}  // namespace exactdp::internal
