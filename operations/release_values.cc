// The in-memory release of operations/release.h: release_values.
#include <exactdp/operations/release.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>

namespace exactdp::operations {
namespace {

mechanisms::ColumnSpec column_spec(const ReleaseValuesColumn& column) {
  mechanisms::ColumnSpec spec;
  if (column.granularity) spec.granularity = parse_rational("granularity", *column.granularity);
  if (column.rounding != "refuse" && column.rounding != "nearest") {
    throw ParameterError("rounding", "rounding = " + abbreviate(column.rounding) +
                                         " is not known: allowed refuse or nearest");
  }
  spec.rounding = column.rounding == "nearest" ? mechanisms::Rounding::kNearest : mechanisms::Rounding::kRefuse;
  spec.sensitivity = parse_rational("sensitivity", column.sensitivity);
  return spec;
}

// The noisy value's text: an integer, or the grid decimal with G's number of places (as the CSV
// release prints it).
std::string value_text(const mpq_class& value, const mechanisms::ColumnSpec& spec) {
  if (!spec.granularity) return value.get_num().get_str();
  const mechanisms::CellCodec codec = mechanisms::CellCodec::decimals(*spec.granularity, spec.rounding);
  const mpq_class k = value / *spec.granularity;
  std::string out;
  codec.format(k.get_num(), out);
  return out;
}

}  // namespace

ReleaseValuesPlan plan_release_values(const ReleaseValuesRequest& request) {
  ReleaseValuesPlan plan;
  plan.budget = checked_release_budget(request.mechanism, request.epsilon, request.delta, request.hardened);
  plan.contributions = static_cast<unsigned long>(
      checked_count("contributions", request.contributions, 1, mechanisms::kMaxContributions));
  for (const ReleaseValuesColumn& column : request.columns) plan.specs.push_back(column_spec(column));
  return plan;
}

ReleaseValuesReport release_values(const ReleaseValuesPlan& plan, std::vector<std::vector<mpq_class>>& values,
                                   BitSource& bits) {
  ReleaseValuesReport report;
  report.calibration = mechanisms::release_columns(values, plan.specs, plan.budget, plan.contributions, bits);
  report.values.resize(values.size());
  for (std::size_t c = 0; c < values.size(); ++c) {
    for (const mpq_class& v : values[c]) report.values[c].push_back(value_text(v, plan.specs[c]));
  }
  return report;
}

}  // namespace exactdp::operations
