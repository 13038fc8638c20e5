#include <exactdp/mechanisms/aggregate/aggregate_release.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational_rounding.h>
#include <exactdp/mechanisms/aggregate/aggregate_cost.h>
#include <exactdp/mechanisms/aggregate/aggregate_from_totals.h>
#include <exactdp/mechanisms/aggregate/aggregate_quantile.h>
#include <exactdp/mechanisms/aggregate/partition_selection.h>
#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/mechanisms/internal/noise_drawer.h>

namespace exactdp::mechanisms {
namespace {

constexpr unsigned kMeanExtraDecimals = 6;

std::size_t value_slot(const AggregateRequest& r, const std::string& column) {
  for (std::size_t i = 0; i < r.value_columns.size(); ++i) {
    if (r.value_columns[i].name == column) return i;
  }
  throw std::logic_error("aggregate: unknown value column");
}

ReleaseCalibration noise_of(const AggregateGuarantee& g, const QuantityNoise& q) {
  ReleaseCalibration c;
  c.budget.mechanism = g.mechanism;
  c.parameter = release_noise_parameter(release_law(g.mechanism));
  c.scale = q.scale;
  c.sigma2 = q.sigma2;
  return c;
}

mpz_class exact_total(const AggregateRequest& r, const NoisyQuantity& q, const GroupTotals& t) {
  switch (q.kind) {
    case AggregateKind::kCount: return t.rows;
    case AggregateKind::kCountUnits: return t.units;
    case AggregateKind::kCentredSum:  // every kept value minus the centre: the sum minus rows C
      return t.sums[value_slot(r, q.column)] - bounds_of(r, q.column).centre_index * t.rows;
    default: return t.sums[value_slot(r, q.column)];
  }
}

// clamp(C G + centred sum G / max(count, 1), L, U), rounded to 10^-(d+6) (ties up).
std::string format_mean(const ValueBounds& b, const mpz_class& centred_sum, const mpz_class& count) {
  const mpq_class offset = mpq_class(centred_sum) / (sgn(count) > 0 ? mpq_class(count) : mpq_class(1));
  mpq_class mean = (mpq_class(b.centre_index) + offset) * b.grid;
  mean = std::clamp(mean, b.lower, b.upper);
  const unsigned places = b.decimals + kMeanExtraDecimals;
  mpz_class ten;
  mpz_ui_pow_ui(ten.get_mpz_t(), 10, places);
  const mpq_class scaled = mean * ten + mpq_class(1, 2);
  const mpz_class index = floor_of(scaled);
  std::string text;
  CellCodec::decimals(mpq_class(mpz_class(1), ten), Rounding::kNearest).format(index, text);
  return text;
}

// One output row from the noisy quantities and the released quantiles (grid indices) of a group.
std::string format_row(const AggregateRequest& r, const std::vector<NoisyQuantity>& quantities,
                       const std::string& key, const std::vector<mpz_class>& noisy,
                       const std::vector<AggregateOutput>& quantiles, const std::vector<mpz_class>& released) {
  auto value_of = [&](const NoisyQuantity& q) -> const mpz_class& {
    return noisy[static_cast<std::size_t>(std::find(quantities.begin(), quantities.end(), q) -
                                          quantities.begin())];
  };
  std::string row = key, text;
  for (const auto& o : r.outputs) {
    row += ',';
    if (o.kind == AggregateKind::kCount || o.kind == AggregateKind::kCountUnits) {
      row += value_of({o.kind, ""}).get_str();
      continue;
    }
    const ValueBounds& b = bounds_of(r, o.column);
    if (o.kind == AggregateKind::kQuantile) {
      const auto at = std::find(quantiles.begin(), quantiles.end(), o) - quantiles.begin();
      CellCodec::decimals(b.grid, Rounding::kNearest).format(released[static_cast<std::size_t>(at)], text);
      row += text;
      continue;
    }
    if (o.kind == AggregateKind::kSum) {
      CellCodec::decimals(b.grid, Rounding::kNearest).format(value_of({AggregateKind::kSum, o.column}), text);
      row += text;
    } else {
      row += format_mean(b, value_of({AggregateKind::kCentredSum, o.column}), value_of({AggregateKind::kCount, ""}));
    }
  }
  return row;
}

std::string header_of(const AggregateRequest& r) {
  std::string h;
  for (const auto& g : r.group_by) h += (h.empty() ? "" : ",") + csv_quote_if_needed(g);
  for (const auto& o : r.outputs) h += "," + csv_quote_if_needed(o.name());
  return h;
}

struct ReleasedGroup {
  std::string key;
  GroupTotals totals;
  std::int64_t id = -1;  // the bounder's group id; -1 for a public key without records
};

// The released group keys (step 3) with their exact totals.
std::vector<ReleasedGroup> released_groups(BoundedTotals& bounded, const AggregateGuarantee& g,
                                           const std::vector<std::string>* public_keys, std::size_t value_columns,
                                           BitSource& bits, std::uint64_t& candidates) {
  std::vector<GroupTotals>& totals = bounded.totals;
  const std::vector<std::string>& group_key = bounded.keys;
  std::vector<ReleasedGroup> out;
  if (public_keys != nullptr) {
    std::unordered_map<std::string, std::size_t> index;
    for (std::uint32_t i = 0; i < totals.size(); ++i) index.emplace(group_key[i], i);
    GroupTotals empty{0, 0, std::vector<mpz_class>(value_columns, mpz_class(0))};
    for (const auto& k : *public_keys) {
      const auto it = index.find(k);
      if (it == index.end()) {
        out.push_back({k, empty, -1});
      } else {
        out.push_back({k, std::move(totals[it->second]), static_cast<std::int64_t>(it->second)});
      }
    }
    candidates = public_keys->size();
    return out;
  }
  std::vector<std::uint32_t> order(totals.size());
  std::iota(order.begin(), order.end(), 0U);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return group_key[a] < group_key[b];
  });
  PartitionSelector selector(*g.selection);
  for (const std::uint32_t i : order) {
    if (sgn(totals[i].units) > 0) ++candidates;
    if (selector.keep(bits, totals[i].units)) out.push_back({group_key[i], std::move(totals[i]), i});
  }
  return out;
}

// The work limit of the quantiles (released groups x grid points), checked before any quantile
// is drawn; and that their kept values were given.
void check_quantiles(const AggregateGuarantee& g, const BoundedTotals& bounded, std::size_t released) {
  if (g.quantiles.empty()) return;
  if (bounded.quantile_values.size() != g.quantiles.size()) {
    throw ParameterError("quantile", "quantile: quantiles need every group's kept values (BoundedTotals::"
                                     "quantile_values), one list per quantile");
  }
  mpz_class work = 0;
  for (const auto& q : g.quantiles) work += q.candidates * mpz_class(static_cast<unsigned long>(released));
  if (work > mpz_class(std::to_string(kMaxQuantileWork))) {
    throw LimitError("bounds", "quantiles: " + work.get_str() + " grid points over the released groups, allowed at most " +
                                   std::to_string(kMaxQuantileWork) + " (coarser --bounds grids, or fewer --q)");
  }
}

}  // namespace

AggregateRelease aggregate_records(ByteReader& records, const AggregateRequest& r,
                                   const std::vector<std::string>* public_keys, BitSource& bits,
                                   const AggregateLimits& limits) {
  const RecordReader read = [&](ContributionBounder& bounder, const std::unordered_set<std::string>* keys,
                                const AggregateLimits& held) { return read_records(records, r, bounder, keys, held); };
  return aggregate_read(read, r, public_keys, bits, limits);
}

AggregateRelease aggregate_records(const RecordColumns& records, const AggregateRequest& r,
                                   const std::vector<std::string>* public_keys, BitSource& bits,
                                   const AggregateLimits& limits) {
  const RecordReader read = [&](ContributionBounder& bounder, const std::unordered_set<std::string>* keys,
                                const AggregateLimits& held) { return read_columns(records, r, bounder, keys, held); };
  return aggregate_read(read, r, public_keys, bits, limits);
}

AggregateRelease aggregate_read(const RecordReader& read, const AggregateRequest& r,
                                const std::vector<std::string>* public_keys, BitSource& bits,
                                const AggregateLimits& limits) {
  AggregateRelease out;
  out.guarantee = calibrate_aggregate(r);
  ContributionBounder bounder(r.bounding, r.value_columns.size(), bits);
  const GroupReleaseBytes per_group = group_release_bytes(r, out.guarantee);
  std::unique_ptr<std::unordered_set<std::string>> key_set;
  AggregateLimits held = limits;
  if (public_keys != nullptr) {
    // Every key is released, with records or not: its rows are reserved up front.
    check_public_keys_cost(*public_keys, r, out.guarantee, limits);
    for (const auto& k : *public_keys) held.reserved_bytes += per_group.fixed + per_group.per_key_byte * k.size();
    key_set = std::make_unique<std::unordered_set<std::string>>(public_keys->begin(), public_keys->end());
  } else {
    bounder.set_group_bytes(per_group.fixed, per_group.per_key_byte);
  }
  out.input = read(bounder, key_set.get(), held);
  out.estimated_peak_bytes = bounder.peak_bytes() + held.reserved_bytes;
  out.units = bounder.units();
  out.groups_seen = bounder.groups();
  out.pairs = bounder.pairs();
  BoundedTotals bounded;
  bounded.totals = bounder.totals();
  for (std::uint32_t i = 0; i < bounded.totals.size(); ++i) bounded.keys.push_back(bounder.group_key(i));
  for (const auto& q : out.guarantee.quantiles) {
    bounded.quantile_values.push_back(bounder.kept_values(value_slot(r, q.output.column)));
  }
  select_and_noise(r, std::move(bounded), public_keys, bits, out);
  return out;
}

void select_and_noise(const AggregateRequest& r, BoundedTotals bounded,
                      const std::vector<std::string>* public_keys, BitSource& bits, AggregateRelease& out) {
  const auto groups = released_groups(bounded, out.guarantee, public_keys, r.value_columns.size(), bits,
                                      out.candidate_groups);
  check_quantiles(out.guarantee, bounded, groups.size());
  const auto& values = bounded.quantile_values;
  const std::vector<NoisyQuantity> quantities = noisy_quantities(r);
  std::vector<AggregateOutput> quantiles;
  for (const auto& q : out.guarantee.quantiles) quantiles.push_back(q.output);
  std::vector<internal::NoiseDrawer> drawers;
  for (const auto& q : out.guarantee.noise) drawers.emplace_back(noise_of(out.guarantee, q));
  out.header = header_of(r);
  std::vector<mpz_class> noisy(quantities.size()), released(quantiles.size());
  const std::vector<mpz_class> none;
  for (const auto& group : groups) {
    for (std::size_t i = 0; i < quantities.size(); ++i) {
      noisy[i] = exact_total(r, quantities[i], group.totals);
      drawers[i].add_noise(bits, noisy[i]);
    }
    for (std::size_t j = 0; j < quantiles.size(); ++j) {
      const auto& q = out.guarantee.quantiles[j];
      const auto& kept = group.id < 0 ? none : values[j][static_cast<std::size_t>(group.id)];
      released[j] = draw_quantile(bits, kept, bounds_of(r, q.output.column), q.output.q, q.epsilon,
                                  r.bounding.max_rows);
    }
    out.rows.push_back(format_row(r, quantities, group.key, noisy, quantiles, released));
  }
}

BoundedTotals bounded_totals(ByteReader& records, const AggregateRequest& r, BitSource& bits,
                             const AggregateLimits& limits) {
  ContributionBounder bounder(r.bounding, r.value_columns.size(), bits);
  (void)read_records(records, r, bounder, nullptr, limits);
  BoundedTotals out;
  out.totals = bounder.totals();
  for (std::uint32_t i = 0; i < out.totals.size(); ++i) out.keys.push_back(bounder.group_key(i));
  return out;
}

}  // namespace exactdp::mechanisms
