#include <exactdp/mechanisms/aggregate/aggregate_from_totals.h>

#include <memory>
#include <unordered_map>
#include <unordered_set>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

// The slot of value column `column` in the request (the bounder's column index).
std::size_t column_slot(const AggregateRequest& r, const std::string& column) {
  for (std::size_t i = 0; i < r.value_columns.size(); ++i) {
    if (r.value_columns[i].name == column) return i;
  }
  throw std::logic_error("aggregate: unknown value column");
}

// quantile_values: one list per quantile of the guarantee (quantile_outputs order), each with
// one list of kept values per group (one per kept row), each in its bounds' grid index range.
void check_quantile_values(const AggregateRequest& r, const BoundedTotals& t) {
  const std::vector<AggregateOutput> quantiles = quantile_outputs(r);
  if (t.quantile_values.size() != quantiles.size()) {
    throw ParameterError("totals", "totals: " + std::to_string(t.quantile_values.size()) +
                                       " lists of kept values for " + std::to_string(quantiles.size()) +
                                       " quantiles");
  }
  for (std::size_t j = 0; j < quantiles.size(); ++j) {
    const auto& per_group = t.quantile_values[j];
    if (per_group.size() != t.keys.size()) {
      throw ParameterError("totals", "totals: kept values of " + quantiles[j].name() + " for " +
                                         std::to_string(per_group.size()) + " groups, not " +
                                         std::to_string(t.keys.size()));
    }
    const ValueBounds& b = bounds_of(r, quantiles[j].column);
    for (std::size_t i = 0; i < per_group.size(); ++i) {
      const std::string where = "totals of group " + abbreviate(t.keys[i]) + ": " + quantiles[j].name() + ": ";
      if (per_group[i].size() != t.totals[i].rows) {
        throw ParameterError("totals", where + std::to_string(per_group[i].size()) + " kept values but rows = " +
                                           t.totals[i].rows.get_str() + ": one kept value per kept row");
      }
      for (const auto& v : per_group[i]) {
        if (v < b.lower_index || v > b.upper_index) {
          throw ParameterError("totals", where + "kept value " + abbreviate(v.get_str()) +
                                             " is outside the bounds' grid indices " + b.lower_index.get_str() +
                                             ".." + b.upper_index.get_str());
        }
      }
    }
  }
}

void check_totals(const AggregateRequest& r, const BoundedTotals& t) {
  if (t.keys.size() != t.totals.size()) {
    throw ParameterError("totals", "totals: " + std::to_string(t.keys.size()) + " keys but " +
                                       std::to_string(t.totals.size()) + " totals");
  }
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < t.keys.size(); ++i) {
    const GroupTotals& g = t.totals[i];
    const std::string where = "totals of group " + abbreviate(t.keys[i]) + ": ";
    if (!seen.insert(t.keys[i]).second) throw ParameterError("totals", where + "the key is given twice");
    if (g.sums.size() != r.value_columns.size()) {
      throw ParameterError("totals", where + std::to_string(g.sums.size()) + " sums for " +
                                         std::to_string(r.value_columns.size()) + " value columns");
    }
    if (sgn(g.units) < 0 || g.units > g.rows || (sgn(g.rows) > 0 && sgn(g.units) == 0)) {
      throw ParameterError("totals", where + "rows = " + g.rows.get_str() + ", units = " + g.units.get_str() +
                                         ": allowed 0 <= units <= rows, units >= 1 when rows >= 1");
    }
  }
  check_quantile_values(r, t);
}

}  // namespace

namespace {

BoundedTotals bound_read(const RecordReader& reader, const AggregateRequest& r,
                         const std::vector<std::string>* public_keys, BitSource& bits,
                         const AggregateLimits& limits, AggregateInputStats* stats) {
  ContributionBounder bounder(r.bounding, r.value_columns.size(), bits);
  std::unique_ptr<std::unordered_set<std::string>> key_set;
  if (public_keys != nullptr) {
    key_set = std::make_unique<std::unordered_set<std::string>>(public_keys->begin(), public_keys->end());
  }
  const AggregateInputStats read = reader(bounder, key_set.get(), limits);
  if (stats != nullptr) *stats = read;
  BoundedTotals out;
  out.totals = bounder.totals();
  for (std::uint32_t i = 0; i < out.totals.size(); ++i) out.keys.push_back(bounder.group_key(i));
  for (const auto& q : quantile_outputs(r)) out.quantile_values.push_back(bounder.kept_values(column_slot(r, q.column)));
  return out;
}

}  // namespace

BoundedTotals bound_partition(ByteReader& records, const AggregateRequest& r,
                              const std::vector<std::string>* public_keys, BitSource& bits,
                              const AggregateLimits& limits, AggregateInputStats* stats) {
  const RecordReader read = [&](ContributionBounder& bounder, const std::unordered_set<std::string>* keys,
                                const AggregateLimits& held) { return read_records(records, r, bounder, keys, held); };
  return bound_read(read, r, public_keys, bits, limits, stats);
}

BoundedTotals bound_partition(const RecordColumns& records, const AggregateRequest& r,
                              const std::vector<std::string>* public_keys, BitSource& bits,
                              const AggregateLimits& limits, AggregateInputStats* stats) {
  const RecordReader read = [&](ContributionBounder& bounder, const std::unordered_set<std::string>* keys,
                                const AggregateLimits& held) { return read_columns(records, r, bounder, keys, held); };
  return bound_read(read, r, public_keys, bits, limits, stats);
}

void merge_bounded_totals(BoundedTotals& into, const BoundedTotals& part) {
  if (into.keys.empty() && into.quantile_values.empty()) {
    into.quantile_values.resize(part.quantile_values.size());
  }
  if (into.quantile_values.size() != part.quantile_values.size()) {
    throw ParameterError("totals", "totals: partitions disagree on the number of quantiles");
  }
  for (std::size_t j = 0; j < part.quantile_values.size(); ++j) {
    if (part.quantile_values[j].size() != part.keys.size() || into.quantile_values[j].size() != into.keys.size()) {
      throw ParameterError("totals", "totals: kept values of a quantile not given for every group");
    }
  }
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < into.keys.size(); ++i) index.emplace(into.keys[i], i);
  for (std::size_t i = 0; i < part.keys.size(); ++i) {
    const auto [it, fresh] = index.emplace(part.keys[i], into.keys.size());
    if (fresh) {
      into.keys.push_back(part.keys[i]);
      into.totals.push_back(part.totals[i]);
      for (std::size_t j = 0; j < part.quantile_values.size(); ++j) {
        into.quantile_values[j].push_back(part.quantile_values[j][i]);
      }
      continue;
    }
    GroupTotals& t = into.totals[it->second];
    const GroupTotals& p = part.totals[i];
    if (t.sums.size() != p.sums.size()) {
      throw ParameterError("totals", "totals of group " + abbreviate(part.keys[i]) +
                                         ": partitions disagree on the number of value columns");
    }
    t.rows += p.rows;
    t.units += p.units;
    for (std::size_t c = 0; c < t.sums.size(); ++c) t.sums[c] += p.sums[c];
    for (std::size_t j = 0; j < part.quantile_values.size(); ++j) {  // a unit is in one partition: exact
      auto& kept = into.quantile_values[j][it->second];
      kept.insert(kept.end(), part.quantile_values[j][i].begin(), part.quantile_values[j][i].end());
    }
  }
}

AggregateRelease aggregate_from_totals(const AggregateRequest& r, BoundedTotals totals,
                                       const std::vector<std::string>* public_keys, BitSource& bits) {
  if (r.public_keys != (public_keys != nullptr)) {
    throw ParameterError("keys", r.public_keys ? "the request has public keys but none were given"
                                               : "public keys were given but the request selects groups");
  }
  AggregateRelease out;
  out.guarantee = calibrate_aggregate(r);
  check_totals(r, totals);
  select_and_noise(r, std::move(totals), public_keys, bits, out);
  return out;
}

}  // namespace exactdp::mechanisms
