// internal/cumulative_table.h — exact inversion of a certified cumulative distribution over
// slots 0 .. n: the slot-selection step of the bucketed Gaussian sampler (bucket_gaussian.h).
//
// The law, exactly. Boundaries 0 = C_0 < C_1 < ... < C_n < C_{n+1} = 1 are real numbers that a
// caller-supplied function can ENCLOSE at any requested MPFR precision (certified: lower end
// rounded down, upper end rounded up). A uniform real U in [0, 1) given by the bit stream (first
// bit = 1/2) falls in slot #{i >= 1 : C_i <= U}, which has probability C_{s+1} - C_s: inversion.
// U is never formed; its bits are drawn only until the slot is certain:
//   * each C_i is stored as lo_i <= 2^64 C_i <= hi_i (computed once, at build);
//   * a prefix u of `len` bits puts U in [u, u + 1) 2^-len; the slot is decided when
//     #{i : hi_i <= u 2^(64-len)} = #{i : lo_i < (u + 1) 2^(64-len)}; a guide table holds the
//     decision for every `guide_bits` prefix, an undecided prefix draws one more bit at a time;
//   * after 64 bits, an undecided boundary (probability about 2^-60 per boundary) is compared
//     exactly: the caller's function encloses C_i at 128, 256, ... bits while U is extended by
//     as many bits, until U's interval lies entirely on one side (Ziv's strategy).
// Every decision is a proven inequality, so the slot returned is always the true slot of U;
// U = C_i has probability 0, so the loop ends with probability 1 (expected O(1) rounds).
// (SymmetricTable, symmetric_table.h, is the same construction specialised to a two-sided pmf.)
// Bits: guide_bits per draw plus, with probability about n 2^-guide_bits, ~2 more.
// Allocation: none per draw except in the rare exact refinement.
// Thread-safety: immutable after construction; share freely.
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::internal {

// exp(-e) enclosed in `out` (initialised at `prec`): the exponent e >= 0 rounded up for the
// lower end and down for the upper end, each exp rounded in its end's direction.
void enclose_exp_minus(const mpq_class& e, Interval& out, mpfr_prec_t prec);

class CumulativeTable {
 public:
  // enclose(prec, out): out holds n enclosures (already initialised at `prec` bits) to be set
  // to certified enclosures of C_1 .. C_n. Must be callable again at any larger precision.
  using Boundaries = std::function<void(mpfr_prec_t prec, std::vector<std::unique_ptr<Interval>>& out)>;

  struct Options {
    unsigned bound_bits = 64;      // < 64 coarsens the stored bounds outward (tests)
    unsigned max_guide_bits = 14;  // guide table size cap (2^max_guide_bits uint16 entries)
    unsigned min_guide_bits = 4;
    unsigned guide_extra_bits = 4;  // guide_bits = bitlen(n + 1) + this, clamped: about
                                    // 2^this prefixes per slot
    bool refine = true;            // false: DELIBERATELY BROKEN (an undecided draw takes the
                                   // lower slot), for the tests' power checks
  };

  // n boundaries (1 <= n < 0xffff), bounds computed at `prec` bits.
  CumulativeTable(std::size_t n, Boundaries enclose, mpfr_prec_t prec, const Options& options);

  // The slot of U, in [0, n].
  [[nodiscard]] std::uint32_t draw(BitSource& bits) const { return slot_of(bits, bits.bits(guide_bits_)); }
  // The same with U's first guide_bits() bits `prefix` read by the caller (the bucket sampler
  // reads them with other bits in one read); U's further bits, if needed, come from `bits`.
  [[nodiscard]] std::uint32_t slot_of(BitSource& bits, std::uint64_t prefix) const {
    const std::uint32_t entry = guide_[prefix];
    return entry < decided_limit_ ? entry : locate(bits, prefix, entry);
  }
  // The guide's entry for `prefix` and whether it is the slot (decides); when it is not,
  // slot_of(bits, prefix) finds the slot reading U's further bits. For batch loops that read
  // the prefix through a BitSource::Reader.
  [[nodiscard]] std::uint32_t guide_entry(std::uint64_t prefix) const noexcept { return guide_[prefix]; }
  [[nodiscard]] bool decides(std::uint32_t entry) const noexcept { return entry < decided_limit_; }
  // Brings the guide entry of `prefix` (< 2^guide_bits()) into the cache (a hint; no effect on
  // any value). The bucket sampler's batch calls it for the next draw's likely prefix.
  void prefetch(std::uint64_t prefix) const noexcept { __builtin_prefetch(guide_.data() + prefix); }

  [[nodiscard]] std::size_t size() const noexcept { return lo_.size(); }
  // Stored bounds of 2^64 C_i, i = 1 .. n (index i - 1).
  [[nodiscard]] const std::vector<uint128>& lower() const noexcept { return lo_; }
  [[nodiscard]] const std::vector<uint128>& upper() const noexcept { return hi_; }
  [[nodiscard]] unsigned guide_bits() const noexcept { return guide_bits_; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return 2 * lo_.size() * sizeof(uint128) + guide_.size() * sizeof(std::uint16_t);
  }

 private:
  // Guide entries: the slot when the prefix decides it; otherwise kHinted | nlo (nlo = the
  // number of boundaries certainly <= every U with that prefix, where the search starts) when
  // n < kHinted, else kUndecided (the search starts at 0). decided_limit_: entries below it are
  // slots.
  static constexpr std::uint32_t kUndecided = 0xffffU;
  static constexpr std::uint32_t kHinted = 0x8000U;
  std::uint32_t locate(BitSource& bits, std::uint64_t prefix, std::uint32_t entry) const;
  std::uint32_t refine(BitSource& bits, std::uint64_t u64, std::uint32_t first, std::uint32_t last) const;
  bool below_boundary(BitSource& bits, mpz_class& u, unsigned long& len, std::size_t i) const;

  Boundaries enclose_;
  bool refine_ = true;
  unsigned guide_bits_ = 0;
  std::uint32_t decided_limit_ = kUndecided;
  std::vector<uint128> lo_, hi_;      // 2^64 C_i, nondecreasing, index i - 1
  std::vector<std::uint16_t> guide_;  // per guide_bits prefix: its slot, or where to search
};

}  // namespace exactdp::internal
