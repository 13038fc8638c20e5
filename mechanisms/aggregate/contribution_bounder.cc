#include <exactdp/mechanisms/aggregate/contribution_bounder.h>

#include <limits>
#include <stdexcept>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/uniform.h>

namespace exactdp::mechanisms {
namespace {

// The estimate of estimated_bytes(): a pair entry of the flat table at a load between 3/8 and
// 3/4 (12-byte entries: 16 to 32 bytes a pair), a kept record with its values vector, an interned text.
constexpr std::uint64_t kPairBytes = 32;
constexpr std::uint64_t kKeptBytes = 48;
constexpr std::uint64_t kTextBytes = 64;

std::uint32_t intern(internal::TextIds& ids, std::string_view text, const char* what,
                     std::uint64_t& bytes, bool& fresh) {
  const std::uint32_t id = ids.intern(text, fresh);
  if (!fresh) return id;
  if (ids.size() > std::numeric_limits<std::uint32_t>::max() / 2) {
    throw LimitError(what, std::string("more than 2^31 distinct ") + what + " values");
  }
  bytes += kTextBytes + 2 * text.size();
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
  const std::uint32_t id = intern(unit_ids_, unit, "privacy-unit", bytes_, fresh);
  if (fresh) unit_state_.emplace_back();
  return id;
}

std::uint32_t ContributionBounder::group_id(std::string_view key) {
  bool fresh = false;
  return intern(group_ids_, key, "group-by", bytes_, fresh);
}

std::uint32_t ContributionBounder::new_kept(std::uint32_t group) {
  std::uint32_t k = 0;
  if (!free_kept_.empty()) {
    k = free_kept_.back();
    free_kept_.pop_back();
  } else {
    if (kept_.size() >= kDropped) throw LimitError("input", "more than 2^32 - 1 kept (unit, group) pairs");
    k = static_cast<std::uint32_t>(kept_.size());
    kept_.emplace_back();
    values_.emplace_back();
    wide_values_.emplace_back();
    bytes_ += kKeptBytes;
  }
  kept_[k] = {0, group};
  return k;
}

std::uint32_t ContributionBounder::admit_group(std::uint32_t unit, std::uint32_t group) {
  Unit& u = unit_state_[unit];
  ++u.distinct_groups;
  if (u.kept.size() < bounds_.max_groups) {
    const std::uint32_t k = new_kept(group);
    u.kept.push_back(k);
    return k;
  }
  const std::uint64_t r = sample_uniform_below(bits_, u.distinct_groups);
  if (r >= bounds_.max_groups) return kDropped;
  const std::uint32_t evicted = u.kept[r];
  *pairs_.find(key(unit, kept_[evicted].group)) = kDropped;
  kept_[evicted].rows = 0;
  values_[evicted].clear();
  wide_values_[evicted].clear();
  free_kept_.push_back(evicted);
  const std::uint32_t k = new_kept(group);
  u.kept[r] = k;
  return k;
}

std::uint32_t ContributionBounder::kept_index(std::uint32_t unit, std::uint32_t group) {
  const auto [value, fresh] = pairs_.try_emplace(key(unit, group));
  if (!fresh) return *value;
  bytes_ += kPairBytes;
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
  if (offset == slot.size()) slot.resize(offset + value_columns_);
  for (std::size_t c = 0; c < value_columns_; ++c) {
    slot[offset + c] = values[c];
    bytes_ += 32 + 8 * mpz_size(values[c].get_mpz_t());
  }
}

void ContributionBounder::add(std::uint32_t unit, std::uint32_t group,
                              std::span<const std::int64_t> values) {
  const auto place = row_place(unit, group, Width::kInt64);
  if (!place) return;
  std::vector<std::int64_t>& slot = values_[place->first];
  const std::size_t offset = place->second;
  if (offset == slot.size()) {
    slot.resize(offset + value_columns_);
    bytes_ += 8 * value_columns_;
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
