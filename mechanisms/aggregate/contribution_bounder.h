// contribution_bounder.h — ContributionBounder: contribution bounding of a record stream by
// exact reservoir sampling (docs/AGGREGATE.md, "Contribution bounding").
//
// Each privacy unit keeps at most L0 = max_groups of its distinct groups and, in each kept group,
// at most Linf = max_rows of its rows:
//   groups: Algorithm R (Vitter, "Random sampling with a reservoir", 1985) over the unit's
//     distinct groups in order of first appearance: the first L0 are kept; the j-th (j > L0)
//     draws r uniform on {0, ..., j - 1} (sample_uniform_below: exact, rejection on fair bits)
//     and replaces kept slot r when r < L0, else is dropped for good (its later rows too).
//   rows: Algorithm R again, per kept (unit, group), over its rows: the first Linf are kept; the
//     j-th replaces slot r when r < Linf. Only the values of sum/mean columns are stored; without
//     value columns no draw is needed (the kept count is min(rows, Linf)).
// Why the kept set is uniform: by induction on j, after j items every L-subset of them is kept
// with probability 1 / C(j, L): true at j = L; item j + 1 enters with probability L / (j + 1)
// and then evicts each kept item with probability 1 / L, so a given subset S of the first j + 1
// items is kept with probability C(j, L)^-1 (1 - L/(j+1)) when S excludes item j + 1, and
// (j + 1 - L) C(j, L)^-1 (L/(j+1)) / L = C(j+1, L)^-1 when it includes it (the j + 1 - L subsets
// of the first j that lead to S are S minus item j + 1 plus one of the j + 1 - L others).
// Every unit's choices use fresh draws, independent of every other unit's: the bounding of the
// other units has the same law whether or not a unit is present (the privacy proof conditions on
// it). A group that is evicted from a unit is removed from the unit's kept state at once.
// Memory: one 12-byte entry per distinct (unit, group) pair seen (flat_hash_map.h), one record
// per kept pair (at most L0 per unit) and the kept values: bounded by groups x units, never by
// rows. The estimate counts what is resident, from the containers themselves: the hash tables'
// slots (their load factor included), every vector's elements, every heap block at glibc's chunk
// size (16-byte steps, 32 at least: a 4-byte kept list costs 32), the texts longer than the
// 15 bytes kept inside a std::string; plus, per group, what the release will hold for it
// (set_group_bytes: its totals and its output row). estimated_bytes() adds the largest jump the
// next growth can make (a table doubling holds its old and new slots at once; a vector moving
// holds both copies), so a caller that checks it record by record (aggregate_input.h) refuses
// before the resident size passes its limit; peak_bytes() is the largest estimate the run has
// reached, transients included (within 25 % of the measured peak resident size: test
// AggregateMemory in tests/cli/cli_aggregate_memory_test.cc).
// Values: add() takes the clamped grid indices as mpz_class, or as int64 when the caller knows
// from the bounds that every clamped index fits (aggregate_input.cc decides that before reading);
// one bounder takes one of the two for all its records (std::logic_error otherwise). Both give the
// same totals and the same draws.
// Thread-safety: one bounder per thread (it holds the BitSource).
#pragma once

#include <gmpxx.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_request.h>
#include <exactdp/mechanisms/aggregate/flat_hash_map.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms {

// What one group holds after bounding (exact, before any noise).
struct GroupTotals {
  mpz_class rows;               // kept rows
  mpz_class units;              // units with a kept row
  std::vector<mpz_class> sums;  // per value column: the kept (clamped) grid indices, summed
};

class ContributionBounder {
 public:
  ContributionBounder(ContributionBounds bounds, std::size_t value_columns, BitSource& bits);

  // The id of a unit / group key (interned on first sight).
  [[nodiscard]] std::uint32_t unit_id(std::string_view unit);
  [[nodiscard]] std::uint32_t group_id(std::string_view key);
  // One record: `values` holds its clamped grid index per value column.
  void add(std::uint32_t unit, std::uint32_t group, std::span<const mpz_class> values);
  void add(std::uint32_t unit, std::uint32_t group, std::span<const std::int64_t> values);

  [[nodiscard]] std::size_t groups() const noexcept { return group_ids_.size(); }
  [[nodiscard]] std::size_t units() const noexcept { return unit_state_.size(); }
  [[nodiscard]] std::size_t pairs() const noexcept { return pairs_.size(); }
  [[nodiscard]] const std::string& group_key(std::uint32_t group) const { return group_ids_.text(group); }
  // What the release will hold per group: `fixed` bytes plus `per_key_byte` bytes per byte of
  // the group's key (aggregate_cost.h). Call before the first record.
  void set_group_bytes(std::uint64_t fixed, std::uint64_t per_key_byte) noexcept {
    group_fixed_bytes_ = fixed;
    group_key_factor_ = per_key_byte;
  }
  // Resident bytes now, what the release will add for the groups seen, and the next growth's jump.
  [[nodiscard]] std::uint64_t current_bytes() const noexcept;
  [[nodiscard]] std::uint64_t group_bytes() const noexcept { return group_bytes_; }
  [[nodiscard]] std::uint64_t estimated_bytes() const noexcept {
    return current_bytes() + group_bytes_ + next_growth_bytes();
  }
  // The largest current_bytes() + group_bytes() reached, with the transients of every growth.
  [[nodiscard]] std::uint64_t peak_bytes() const noexcept { return std::max(peak_, current_bytes() + group_bytes_); }
  // The totals of every group id (index = id).
  [[nodiscard]] std::vector<GroupTotals> totals() const;
  // The kept (clamped) values of value column `column` of every group id (index = id), in no
  // particular order: what a quantile (aggregate_quantile.h) is computed from.
  [[nodiscard]] std::vector<std::vector<mpz_class>> kept_values(std::size_t column) const;

 private:
  static constexpr std::uint32_t kDropped = ~std::uint32_t{0};
  // A kept (unit, group) pair; its values are values_[index] / wide_values_[index].
  struct Kept {
    std::uint64_t rows = 0;  // rows seen since the pair was kept; 0: a free record
    std::uint32_t group = 0;
  };
  struct Unit {
    std::uint64_t distinct_groups = 0;
    std::vector<std::uint32_t> kept;  // at most L0 indices into kept_
  };
  enum class Width { kUnset, kInt64, kMpz };
  static std::uint64_t key(std::uint32_t unit, std::uint32_t group) {
    return (std::uint64_t{unit} << 32) | group;
  }
  // The pair's kept index (a new pair meets admit_group first), or kDropped.
  std::uint32_t kept_index(std::uint32_t unit, std::uint32_t group);
  // The unit meets a new group: keep it (returning its kept index) or drop it (kDropped).
  std::uint32_t admit_group(std::uint32_t unit, std::uint32_t group);
  std::uint32_t new_kept(std::uint32_t group);
  // Where the row's values go in the kept values (a multiple of V), or -1 to drop them.
  std::int64_t row_offset(std::uint64_t rows);
  // A record's row: counts it, and returns (kept index, value offset) when its values are stored
  // (the pair kept, value columns present, the row kept by the reservoir), else nullopt.
  std::optional<std::pair<std::uint32_t, std::size_t>> row_place(std::uint32_t unit, std::uint32_t group, Width w);
  void use_width(Width w);
  [[nodiscard]] std::uint64_t next_growth_bytes() const noexcept;
  // Records a growth of a container from `old_bytes` (held together with the new one).
  void note_growth(std::uint64_t old_bytes) noexcept;
  void note_heap(std::size_t old_bytes, std::size_t new_bytes) noexcept;

  ContributionBounds bounds_;
  std::size_t value_columns_;
  BitSource& bits_;
  internal::TextIds unit_ids_;
  internal::TextIds group_ids_;
  std::vector<Unit> unit_state_;
  internal::FlatU64Map<std::uint32_t> pairs_;  // (unit, group) -> kept index or kDropped
  std::vector<Kept> kept_;
  std::vector<std::uint32_t> free_kept_;
  Width width_ = Width::kUnset;
  std::vector<std::vector<std::int64_t>> values_;     // per kept index: Linf x V at most
  std::vector<std::vector<mpz_class>> wide_values_;  // the same, for mpz_class values
  std::uint64_t heap_bytes_ = 0;   // heap blocks of texts, kept lists and kept values
  std::uint64_t group_bytes_ = 0;  // the release's share of the groups seen
  std::uint64_t group_fixed_bytes_ = 0, group_key_factor_ = 0;
  std::uint64_t peak_ = 0;
};

}  // namespace exactdp::mechanisms
