#include <exactdp/operations/aggregate.h>

#include <utility>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/operations/checked_count.h>

namespace exactdp::operations {
namespace {

using mechanisms::AggregateKind;

// The output kinds by the name a face gives (a new kind is one line here).
const std::vector<std::pair<std::string, AggregateKind>> kKinds = {
    {"count", AggregateKind::kCount}, {"count_units", AggregateKind::kCountUnits}, {"sum", AggregateKind::kSum},
    {"mean", AggregateKind::kMean},   {"quantile", AggregateKind::kQuantile},
};

AggregateKind kind_named(const std::string& name) {
  for (const auto& [n, k] : kKinds) {
    if (n == name) return k;
  }
  throw ParameterError("aggregate", "aggregate kind '" + abbreviate(name) + "' is not one of count, "
                                    "count_units, sum, mean, quantile");
}

// Adds COL's bounds (the same bounds when COL is named twice).
void add_bounds(mechanisms::AggregateRequest& r, const std::string& column, const std::string& text) {
  const mechanisms::ValueBounds b = mechanisms::parse_value_bounds(text);
  for (const auto& c : r.value_columns) {
    if (c.name != column) continue;
    if (c.bounds.lower != b.lower || c.bounds.upper != b.upper || c.bounds.decimals != b.decimals) {
      throw ParameterError("bounds", "column '" + column + "' is given two different --bounds");
    }
    return;
  }
  r.value_columns.push_back({column, b});
}

// A quantile's q: exact, 0 <= q <= 1, named q on the command line and quantile (the keyword) in
// Python.
mpq_class quantile_q(const std::string& text, const Spelling& s) {
  const std::string name = s.prefix.empty() ? "quantile" : "q";
  const mpq_class q = parse_rational(name, text);
  if (sgn(q) < 0 || q > 1) throw ParameterError::out_of_range(name, abbreviate(to_string(q)), "0 <= q <= 1");
  return q;
}

void add_output(mechanisms::AggregateRequest& r, const AggregateOutputRequest& o, const Spelling& s) {
  const AggregateKind kind = kind_named(o.kind);
  if (o.bounds) add_bounds(r, o.column, *o.bounds);
  if (kind != AggregateKind::kQuantile) {
    r.outputs.push_back({kind, kind == AggregateKind::kSum || kind == AggregateKind::kMean ? o.column : ""});
    return;
  }
  for (const std::string& q : o.q) r.outputs.push_back({kind, o.column, quantile_q(q, s)});
}

unsigned long bounding(const std::optional<std::string>& text, const std::string& name, unsigned long maximum,
                       const Spelling& s) {
  if (!text) return 1;
  return static_cast<unsigned long>(checked_count(s.bare(name), *text, 1, maximum));
}

// The release's laws (registry names, mechanisms::release_laws()); any other law is refused by name.
std::string release_law_named(const std::optional<std::string>& name) {
  if (!name) return "discrete-laplace";
  for (const auto& law : mechanisms::release_laws()) {
    if (*name == law) return law;
  }
  throw ParameterError("mechanism", "mechanism = " + abbreviate(*name) +
                                        " is not a noise law aggregate adds: allowed " + mechanisms::release_law_names());
}

std::optional<mpq_class> scale_in_units(const AggregateReport& report, const mechanisms::QuantityNoise& q,
                                        const mpq_class& grid) {
  if (report.pure_epsilon) return mpq_class(q.scale * grid);
  return mpq_class(q.sigma2 * grid * grid);
}

AggregateQuantityReport quantity_report(const mechanisms::AggregateRequest& r, const AggregateReport& report,
                                        const mechanisms::QuantityNoise& q) {
  AggregateQuantityReport out{q, std::nullopt, std::nullopt, std::nullopt};
  const AggregateKind kind = q.quantity.kind;
  if (kind != AggregateKind::kSum && kind != AggregateKind::kCentredSum) return out;
  const mechanisms::ValueBounds& b = mechanisms::bounds_of(r, q.quantity.column);
  out.grid = b.grid;
  out.scale_in_units = scale_in_units(report, q, b.grid);
  if (kind == AggregateKind::kCentredSum) out.centre = mpq_class(mpq_class(b.centre_index) * b.grid);
  return out;
}

AggregateReport report_of(const mechanisms::AggregateRequest& r, mechanisms::AggregateGuarantee guarantee) {
  AggregateReport report;
  report.guarantee = std::move(guarantee);
  report.pure_epsilon =
      !mechanisms::release_law_composes_by_zcdp(mechanisms::release_law(report.guarantee.mechanism));
  for (const auto& q : report.guarantee.noise) report.quantities.push_back(quantity_report(r, report, q));
  return report;
}

}  // namespace

AggregatePlan plan_aggregate(const AggregateRequest& request) {
  const Spelling& s = request.spelling;
  AggregatePlan plan;
  mechanisms::AggregateRequest& r = plan.request;
  r.privacy_unit = request.privacy_unit;
  for (const std::string& g : request.group_by) {
    if (g.empty()) throw ParameterError("group-by", "group-by has an empty column name");
    r.group_by.push_back(g);
  }
  for (const auto& o : request.outputs) add_output(r, o, s);
  r.bounding.max_groups = bounding(request.max_groups, "max_groups", mechanisms::kMaxAggregateGroupsPerUnit, s);
  r.bounding.max_rows = bounding(request.max_rows, "max_rows", mechanisms::kMaxAggregateRowsPerGroup, s);
  r.mechanism = release_law_named(request.mechanism);
  r.epsilon = parse_rational("epsilon", request.epsilon);
  r.delta = optional_rational("delta", request.delta);
  r.split = optional_rational("split", request.split);
  r.public_keys = request.public_keys;
  if (request.selection) r.selection = mechanisms::parse_selection_method(*request.selection);
  mechanisms::validate_aggregate_request(r);
  if (request.max_input_bytes) {
    plan.limits.csv.max_input_bytes =
        checked_count(s.bare("max_input_bytes"), *request.max_input_bytes, 1, plan.limits.csv.max_input_bytes);
  }
  return plan;
}

std::vector<std::string> read_aggregate_keys(mechanisms::ByteReader& reader, const mechanisms::AggregateRequest& r,
                                             const std::string& source) {
  try {
    return mechanisms::read_public_keys(reader, r.group_by);
  } catch (const mechanisms::CsvError& e) {
    throw ParameterError("keys", source + ": " + e.what());
  }
}

std::string selection_method_words(const mechanisms::PartitionSelection& s) {
  return s.table ? "optimal: each group released with probability p(units) (exact Bernoulli)"
                 : "threshold: units + discrete Laplace noise >= tau";
}

AggregateReport aggregate_guarantee(const AggregatePlan& plan) {
  return report_of(plan.request, mechanisms::calibrate_aggregate(plan.request));
}

AggregateReport aggregate_report(const mechanisms::AggregateRequest& r, mechanisms::AggregateRelease rel) {
  AggregateReport report = report_of(r, std::move(rel.guarantee));
  report.header = std::move(rel.header);
  report.rows = std::move(rel.rows);
  if (!report.guarantee.selection) report.public_keys = rel.candidate_groups;
  return report;
}

AggregateReport aggregate_records(const AggregatePlan& plan, mechanisms::ByteReader& records,
                                  const std::vector<std::string>* public_keys, BitSource& bits) {
  return aggregate_report(plan.request,
                          mechanisms::aggregate_records(records, plan.request, public_keys, bits, plan.limits));
}

AggregateReport aggregate_records(const AggregatePlan& plan, const mechanisms::RecordColumns& records,
                                  const std::vector<std::string>* public_keys, BitSource& bits) {
  return aggregate_report(plan.request,
                          mechanisms::aggregate_records(records, plan.request, public_keys, bits, plan.limits));
}

}  // namespace exactdp::operations
