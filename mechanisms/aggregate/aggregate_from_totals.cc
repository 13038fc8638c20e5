#include <exactdp/mechanisms/aggregate/aggregate_from_totals.h>

#include <memory>
#include <unordered_map>
#include <unordered_set>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

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
}

// Merged partition totals carry sums, not the kept values a quantile needs.
void refuse_quantiles(const AggregateRequest& r) {
  for (const auto& o : r.outputs) {
    if (o.kind == AggregateKind::kQuantile) {
      throw ParameterError("quantile", "quantile: not available from partitioned records (the merged totals carry "
                                       "sums, not the kept values); use aggregate_records on one machine");
    }
  }
}

}  // namespace

BoundedTotals bound_partition(ByteReader& records, const AggregateRequest& r,
                              const std::vector<std::string>* public_keys, BitSource& bits,
                              const AggregateLimits& limits, AggregateInputStats* stats) {
  refuse_quantiles(r);
  ContributionBounder bounder(r.bounding, r.value_columns.size(), bits);
  std::unique_ptr<std::unordered_set<std::string>> key_set;
  if (public_keys != nullptr) {
    key_set = std::make_unique<std::unordered_set<std::string>>(public_keys->begin(), public_keys->end());
  }
  const AggregateInputStats read = read_records(records, r, bounder, key_set.get(), limits);
  if (stats != nullptr) *stats = read;
  BoundedTotals out;
  out.totals = bounder.totals();
  for (std::uint32_t i = 0; i < out.totals.size(); ++i) out.keys.push_back(bounder.group_key(i));
  return out;
}

void merge_bounded_totals(BoundedTotals& into, const BoundedTotals& part) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < into.keys.size(); ++i) index.emplace(into.keys[i], i);
  for (std::size_t i = 0; i < part.keys.size(); ++i) {
    const auto [it, fresh] = index.emplace(part.keys[i], into.keys.size());
    if (fresh) {
      into.keys.push_back(part.keys[i]);
      into.totals.push_back(part.totals[i]);
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
  }
}

AggregateRelease aggregate_from_totals(const AggregateRequest& r, BoundedTotals totals,
                                       const std::vector<std::string>* public_keys, BitSource& bits) {
  if (r.public_keys != (public_keys != nullptr)) {
    throw ParameterError("keys", r.public_keys ? "the request has public keys but none were given"
                                               : "public keys were given but the request selects groups");
  }
  refuse_quantiles(r);
  AggregateRelease out;
  out.guarantee = calibrate_aggregate(r);
  check_totals(r, totals);
  select_and_noise(r, std::move(totals), public_keys, bits, out);
  return out;
}

}  // namespace exactdp::mechanisms
