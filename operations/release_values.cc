// The in-memory release of operations/release.h: release_values.
#include <exactdp/operations/release.h>

#include <optional>

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

// The calibration release_columns will make, to check the draws' cost before it draws; nullopt
// when a column's sensitivity or the model is refused (release_columns then refuses it, in its
// own order: the columns' lengths first).
std::optional<mechanisms::ReleaseCalibration> expected_calibration(const ReleaseValuesPlan& plan,
                                                                   const std::vector<std::vector<mpq_class>>& values) {
  if (values.empty() || values.size() != plan.specs.size()) return std::nullopt;
  for (const auto& column : values) {
    if (column.size() != values.front().size()) return std::nullopt;
  }
  mechanisms::ContributionModel model;
  model.contributions = plan.contributions;
  model.columns = static_cast<unsigned long>(values.size());
  for (const mechanisms::ColumnSpec& spec : plan.specs) {
    if (spec.granularity) {
      if (sgn(*spec.granularity) <= 0 || sgn(spec.sensitivity) <= 0) return std::nullopt;
      model.column_sensitivities.push_back(mechanisms::grid_sensitivity(spec.sensitivity, *spec.granularity));
    } else {
      if (spec.sensitivity.get_den() != 1 || spec.sensitivity < 1) return std::nullopt;
      model.column_sensitivities.push_back(spec.sensitivity.get_num());
    }
  }
  try {
    return mechanisms::calibrate_release(plan.budget, model, values.front().size());
  } catch (const ParameterError&) {
    return std::nullopt;  // refused again, and reported, by release_columns
  }
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
  if (const auto expected = expected_calibration(plan, values)) check_release_cost(*expected);
  ReleaseValuesReport report;
  report.calibration = mechanisms::release_columns(values, plan.specs, plan.budget, plan.contributions, bits);
  report.values.resize(values.size());
  for (std::size_t c = 0; c < values.size(); ++c) {
    for (const mpq_class& v : values[c]) report.values[c].push_back(value_text(v, plan.specs[c]));
  }
  return report;
}

}  // namespace exactdp::operations
