#include <exactdp/mechanisms/aggregate/contribution_bounder.h>

#include <limits>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/uniform.h>

namespace exactdp::mechanisms {
namespace {

constexpr std::uint64_t kEntryBytes = 64;  // hash node, bookkeeping (estimate)

template <typename Map>
std::uint32_t intern(Map& ids, std::string_view text, const char* what, std::uint64_t& bytes,
                     bool& fresh) {
  if (const auto found = ids.find(text); found != ids.end()) {
    fresh = false;
    return found->second;
  }
  const auto it = ids.emplace(std::string(text), static_cast<std::uint32_t>(ids.size())).first;
  fresh = true;
  if (ids.size() > std::numeric_limits<std::uint32_t>::max() / 2) {
    throw LimitError(what, std::string("more than 2^31 distinct ") + what + " values");
  }
  bytes += kEntryBytes + 2 * text.size();
  return it->second;
}

}  // namespace

ContributionBounder::ContributionBounder(ContributionBounds bounds, std::size_t value_columns,
                                         BitSource& bits)
    : bounds_(bounds), value_columns_(value_columns), bits_(bits) {}

std::uint32_t ContributionBounder::unit_id(std::string_view unit) {
  bool fresh = false;
  const std::uint32_t id = intern(unit_ids_, unit, "privacy-unit", bytes_, fresh);
  if (fresh) unit_state_.emplace_back();
  return id;
}

std::uint32_t ContributionBounder::group_id(std::string_view key) {
  bool fresh = false;
  const std::uint32_t id = intern(group_ids_, key, "group-by", bytes_, fresh);
  if (fresh) group_keys_.emplace_back(key);
  return id;
}

std::int64_t ContributionBounder::new_slot() {
  if (value_columns_ == 0) return 0;  // no values to keep: every kept pair shares slot 0
  if (!free_slots_.empty()) {
    const std::int64_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  slots_.emplace_back();
  return static_cast<std::int64_t>(slots_.size() - 1);
}

std::int64_t ContributionBounder::admit_group(std::uint32_t unit, std::uint32_t group) {
  Unit& u = unit_state_[unit];
  ++u.distinct_groups;
  if (u.kept.size() < bounds_.max_groups) {
    u.kept.push_back(group);
    return new_slot();
  }
  const std::uint64_t r = sample_uniform_below(bits_, u.distinct_groups);
  if (r >= bounds_.max_groups) return -1;
  Pair& evicted = pairs_.find(key(unit, u.kept[r]))->second;
  if (value_columns_ > 0) {
    slots_[static_cast<std::size_t>(evicted.slot)].clear();
    free_slots_.push_back(evicted.slot);
  }
  evicted.slot = -1;
  u.kept[r] = group;
  return new_slot();
}

void ContributionBounder::store_row(std::vector<mpz_class>& slot, std::uint64_t rows,
                                    std::span<const mpz_class> values) {
  std::size_t at = 0;
  if (rows <= bounds_.max_rows) {
    at = slot.size();
    slot.resize(at + value_columns_);
  } else {
    const std::uint64_t r = sample_uniform_below(bits_, rows);
    if (r >= bounds_.max_rows) return;
    at = static_cast<std::size_t>(r) * value_columns_;
  }
  for (std::size_t c = 0; c < value_columns_; ++c) {
    slot[at + c] = values[c];
    count_bytes(values[c]);
  }
}

void ContributionBounder::add(std::uint32_t unit, std::uint32_t group,
                              std::span<const mpz_class> values) {
  auto [it, fresh] = pairs_.try_emplace(key(unit, group));
  if (fresh) {
    bytes_ += kEntryBytes;
    // admit_group only looks pairs up (no insertion, no rehash): `it` stays valid.
    it->second.slot = admit_group(unit, group);
  }
  Pair& p = it->second;
  if (p.slot < 0) return;
  ++p.rows;
  if (value_columns_ > 0) store_row(slots_[static_cast<std::size_t>(p.slot)], p.rows, values);
}

std::vector<GroupTotals> ContributionBounder::totals() const {
  std::vector<GroupTotals> out(group_keys_.size());
  for (auto& t : out) t.sums.assign(value_columns_, mpz_class(0));
  const mpz_class cap(bounds_.max_rows);
  for (const auto& [k, p] : pairs_) {
    if (p.slot < 0) continue;
    GroupTotals& t = out[static_cast<std::uint32_t>(k & 0xFFFFFFFFu)];
    t.units += 1;
    t.rows += p.rows < bounds_.max_rows ? mpz_class(std::to_string(p.rows)) : cap;
    if (value_columns_ == 0) continue;
    const auto& slot = slots_[static_cast<std::size_t>(p.slot)];
    for (std::size_t i = 0; i < slot.size(); ++i) t.sums[i % value_columns_] += slot[i];
  }
  return out;
}

std::vector<std::vector<mpz_class>> ContributionBounder::kept_values(std::size_t column) const {
  std::vector<std::vector<mpz_class>> out(group_keys_.size());
  if (column >= value_columns_) return out;
  for (const auto& [k, p] : pairs_) {
    if (p.slot < 0) continue;
    auto& values = out[static_cast<std::uint32_t>(k & 0xFFFFFFFFu)];
    const auto& slot = slots_[static_cast<std::size_t>(p.slot)];
    for (std::size_t i = column; i < slot.size(); i += value_columns_) values.push_back(slot[i]);
  }
  return out;
}

}  // namespace exactdp::mechanisms
