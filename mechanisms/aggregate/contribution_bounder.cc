#include <exactdp/mechanisms/aggregate/contribution_bounder.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/uniform.h>

namespace exactdp::mechanisms {
namespace {

// What the process holds before the first record (code, libraries, the CSV reader's buffer):
// measured 5.5 MiB for `exactdp aggregate`, counted as 8.
constexpr std::uint64_t kBaseBytes = std::uint64_t{8} << 20;

// The resident size of a heap block of n bytes: glibc's chunk (n + 8 rounded up to 16, 32 at least).
std::uint64_t chunk(std::size_t n) {
  if (n == 0) return 0;
  return std::max<std::uint64_t>(32, (n + 8 + 15) & ~std::uint64_t{15});
}

// The heap block of a std::string of this size (none up to 15 bytes: the small-string buffer).
std::uint64_t text_heap(std::size_t size) { return size > 15 ? chunk(size + 1) : 0; }

std::uint32_t intern(internal::TextIds& ids, std::string_view text, const char* what, bool& fresh) {
  const std::uint32_t id = ids.intern(text, fresh);
  if (!fresh) return id;
  if (ids.size() > std::numeric_limits<std::uint32_t>::max() / 2) {
    throw LimitError(what, std::string("more than 2^31 distinct ") + what + " values");
  }
  return id;
}

// `value` as a signed 128-bit integer added to `sum`.
void add_wide(mpz_class& sum, int128 value) {
  const bool negative = value < 0;
  const uint128 magnitude =
      negative ? static_cast<uint128>(0) - static_cast<uint128>(value)
               : static_cast<uint128>(value);
  mpz_class m(static_cast<unsigned long>(magnitude >> 64));
  m <<= 64;
  m += static_cast<unsigned long>(magnitude & 0xFFFFFFFFFFFFFFFFULL);
  if (negative) {
    sum -= m;
  } else {
    sum += m;
  }
}

// The pair table's secret: 8 random bytes.
std::uint64_t random_secret() {
  const internal::HashKey key = internal::random_hash_key();
  std::uint64_t secret = 0;
  for (int i = 0; i < 8; ++i) secret = (secret << 8) | key.bytes[static_cast<std::size_t>(i)];
  return secret;
}

}  // namespace

// The hash keys come from the operating system, not from `bits`: they change the table layout
// only, never a draw or a result (flat_hash_map.h).
ContributionBounder::ContributionBounder(ContributionBounds bounds, std::size_t value_columns,
                                         BitSource& bits)
    : bounds_(bounds),
      value_columns_(value_columns),
      bits_(bits),
      unit_ids_(internal::random_hash_key()),
      group_ids_(internal::random_hash_key()),
      pairs_(random_secret()) {}

std::uint32_t ContributionBounder::unit_id(std::string_view unit) {
  bool fresh = false;
  const std::size_t slots = unit_ids_.capacity_bytes(), texts = unit_ids_.text_capacity();
  const std::uint32_t id = intern(unit_ids_, unit, "privacy-unit", fresh);
  if (!fresh) return id;
  heap_bytes_ += text_heap(unit.size());
  if (unit_ids_.capacity_bytes() != slots) note_growth(slots);
  if (unit_ids_.text_capacity() != texts) note_growth(texts * sizeof(std::string));
  const std::size_t units = unit_state_.capacity();
  unit_state_.emplace_back();
  if (unit_state_.capacity() != units) note_growth(units * sizeof(Unit));
  return id;
}

std::uint32_t ContributionBounder::group_id(std::string_view key) {
  bool fresh = false;
  const std::size_t slots = group_ids_.capacity_bytes(), texts = group_ids_.text_capacity();
  const std::uint32_t id = intern(group_ids_, key, "group-by", fresh);
  if (!fresh) return id;
  heap_bytes_ += text_heap(key.size());
  group_bytes_ += group_fixed_bytes_ + group_key_factor_ * key.size();
  if (group_ids_.capacity_bytes() != slots) note_growth(slots);
  if (group_ids_.text_capacity() != texts) note_growth(texts * sizeof(std::string));
  return id;
}

std::uint64_t ContributionBounder::current_bytes() const noexcept {
  return kBaseBytes + unit_ids_.capacity_bytes() + unit_ids_.text_bytes() + group_ids_.capacity_bytes() +
         group_ids_.text_bytes() + unit_state_.size() * sizeof(Unit) + pairs_.capacity_bytes() +
         kept_.size() * sizeof(Kept) + values_.size() * sizeof(values_[0]) +
         wide_values_.size() * sizeof(wide_values_[0]) + free_kept_.size() * sizeof(std::uint32_t) + heap_bytes_;
}

// The largest jump of the next growth: a table doubling allocates twice its slots while the old
// ones are held; a vector moving to a new block copies its elements.
std::uint64_t ContributionBounder::next_growth_bytes() const noexcept {
  return std::max<std::uint64_t>({2 * pairs_.capacity_bytes(), 2 * unit_ids_.capacity_bytes(),
                                  2 * group_ids_.capacity_bytes(), unit_ids_.text_bytes(),
                                  unit_state_.size() * sizeof(Unit), kept_.size() * sizeof(Kept),
                                  values_.size() * sizeof(values_[0]), wide_values_.size() * sizeof(wide_values_[0])});
}

void ContributionBounder::note_growth(std::uint64_t old_bytes) noexcept {
  peak_ = std::max(peak_, current_bytes() + group_bytes_ + old_bytes);
}

void ContributionBounder::note_heap(std::size_t old_bytes, std::size_t new_bytes) noexcept {
  heap_bytes_ += chunk(new_bytes);
  heap_bytes_ -= chunk(old_bytes);
}

std::uint32_t ContributionBounder::new_kept(std::uint32_t group) {
  std::uint32_t k = 0;
  if (!free_kept_.empty()) {
    k = free_kept_.back();
    free_kept_.pop_back();
  } else {
    if (kept_.size() >= kDropped) throw LimitError("input", "more than 2^32 - 1 kept (unit, group) pairs");
    k = static_cast<std::uint32_t>(kept_.size());
    const std::size_t capacity = kept_.capacity();
    kept_.emplace_back();
    values_.emplace_back();
    wide_values_.emplace_back();
    if (kept_.capacity() != capacity) {
      note_growth(capacity * (sizeof(Kept) + sizeof(values_[0]) + sizeof(wide_values_[0])));
    }
  }
  kept_[k] = {0, group};
  return k;
}

std::uint32_t ContributionBounder::admit_group(std::uint32_t unit, std::uint32_t group) {
  Unit& u = unit_state_[unit];
  ++u.distinct_groups;
  if (u.kept.size() < bounds_.max_groups) {
    const std::uint32_t k = new_kept(group);
    const std::size_t capacity = u.kept.capacity();
    u.kept.push_back(k);
    if (u.kept.capacity() != capacity) note_heap(capacity * sizeof(std::uint32_t), u.kept.capacity() * sizeof(std::uint32_t));
    return k;
  }
  const std::uint64_t r = sample_uniform_below(bits_, u.distinct_groups);
  if (r >= bounds_.max_groups) return kDropped;
  const std::uint32_t evicted = u.kept[r];
  *pairs_.find(key(unit, kept_[evicted].group)) = kDropped;
  kept_[evicted].rows = 0;
  values_[evicted].clear();
  wide_values_[evicted].clear();
  const std::size_t free_capacity = free_kept_.capacity();
  free_kept_.push_back(evicted);
  if (free_kept_.capacity() != free_capacity) note_growth(free_capacity * sizeof(std::uint32_t));
  const std::uint32_t k = new_kept(group);
  u.kept[r] = k;
  return k;
}

std::uint32_t ContributionBounder::kept_index(std::uint32_t unit, std::uint32_t group) {
  const std::size_t slots = pairs_.capacity_bytes();
  const auto [value, fresh] = pairs_.try_emplace(key(unit, group));
  if (!fresh) return *value;
  if (pairs_.capacity_bytes() != slots) note_growth(slots);
  // admit_group only looks pairs up (no insertion, no rehash): `value` stays valid.
  *value = admit_group(unit, group);
  return *value;
}

std::int64_t ContributionBounder::row_offset(std::uint64_t rows) {
  if (rows <= bounds_.max_rows) return static_cast<std::int64_t>((rows - 1) * value_columns_);
  const std::uint64_t r = sample_uniform_below(bits_, rows);
  if (r >= bounds_.max_rows) return -1;
  return static_cast<std::int64_t>(r * value_columns_);
}

void ContributionBounder::use_width(Width w) {
  if (width_ == w) return;
  if (width_ != Width::kUnset) {
    throw std::logic_error("ContributionBounder: int64 and mpz_class values mixed in one bounder");
  }
  width_ = w;
}

std::optional<std::pair<std::uint32_t, std::size_t>> ContributionBounder::row_place(std::uint32_t unit,
                                                                                   std::uint32_t group, Width w) {
  if (value_columns_ > 0) use_width(w);
  const std::uint32_t k = kept_index(unit, group);
  if (k == kDropped) return std::nullopt;
  const std::uint64_t rows = ++kept_[k].rows;
  if (value_columns_ == 0) return std::nullopt;
  const std::int64_t at = row_offset(rows);
  if (at < 0) return std::nullopt;
  return std::pair{k, static_cast<std::size_t>(at)};
}

void ContributionBounder::add(std::uint32_t unit, std::uint32_t group,
                              std::span<const mpz_class> values) {
  const auto place = row_place(unit, group, Width::kMpz);
  if (!place) return;
  std::vector<mpz_class>& slot = wide_values_[place->first];
  const std::size_t offset = place->second;
  const bool fresh = offset == slot.size();
  if (fresh) {
    const std::size_t capacity = slot.capacity();
    slot.resize(offset + value_columns_);
    note_heap(capacity * sizeof(mpz_class), slot.capacity() * sizeof(mpz_class));
  }
  for (std::size_t c = 0; c < value_columns_; ++c) {
    slot[offset + c] = values[c];
    if (fresh) heap_bytes_ += chunk(8 * std::max<std::size_t>(1, mpz_size(values[c].get_mpz_t())));
  }
}

void ContributionBounder::add(std::uint32_t unit, std::uint32_t group,
                              std::span<const std::int64_t> values) {
  const auto place = row_place(unit, group, Width::kInt64);
  if (!place) return;
  std::vector<std::int64_t>& slot = values_[place->first];
  const std::size_t offset = place->second;
  if (offset == slot.size()) {
    const std::size_t capacity = slot.capacity();
    slot.resize(offset + value_columns_);
    note_heap(capacity * sizeof(std::int64_t), slot.capacity() * sizeof(std::int64_t));
  }
  for (std::size_t c = 0; c < value_columns_; ++c) slot[offset + c] = values[c];
}

std::vector<GroupTotals> ContributionBounder::totals() const {
  std::vector<GroupTotals> out(group_ids_.size());
  for (auto& t : out) t.sums.assign(value_columns_, mpz_class(0));
  const mpz_class cap(bounds_.max_rows);
  std::vector<int128> pair_sums(value_columns_);
  for (std::size_t k = 0; k < kept_.size(); ++k) {
    const Kept& p = kept_[k];
    if (p.rows == 0) continue;  // a free record
    GroupTotals& t = out[p.group];
    t.units += 1;
    t.rows += p.rows < bounds_.max_rows ? mpz_class(std::to_string(p.rows)) : cap;
    for (std::size_t i = 0; i < wide_values_[k].size(); ++i) t.sums[i % value_columns_] += wide_values_[k][i];
    if (values_[k].empty()) continue;
    // At most Linf <= 10^6 values of |v| < 2^63 each: the pair's sum fits in 128 bits.
    std::fill(pair_sums.begin(), pair_sums.end(), 0);
    for (std::size_t i = 0; i < values_[k].size(); ++i) pair_sums[i % value_columns_] += values_[k][i];
    for (std::size_t c = 0; c < value_columns_; ++c) add_wide(t.sums[c], pair_sums[c]);
  }
  return out;
}

std::vector<std::vector<mpz_class>> ContributionBounder::kept_values(std::size_t column) const {
  std::vector<std::vector<mpz_class>> out(group_ids_.size());
  if (column >= value_columns_) return out;
  for (std::size_t k = 0; k < kept_.size(); ++k) {
    if (kept_[k].rows == 0) continue;  // a free record
    auto& values = out[kept_[k].group];
    for (std::size_t i = column; i < values_[k].size(); i += value_columns_) {
      values.emplace_back(static_cast<long>(values_[k][i]));
    }
    for (std::size_t i = column; i < wide_values_[k].size(); i += value_columns_) values.push_back(wide_values_[k][i]);
  }
  return out;
}

}  // namespace exactdp::mechanisms
