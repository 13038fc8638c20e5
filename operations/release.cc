#include <exactdp/operations/release.h>

#include <algorithm>
#include <map>
#include <utility>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/operations/draw_cost.h>

namespace exactdp::operations {
namespace {

using mechanisms::CellCodec;
using mechanisms::Rounding;

// An exact rational (parse_rational), or 2^k written "2^k" / "2^-k" with |k| <= 10000.
mpq_class checked_granularity(const std::string& text) {
  if (text.rfind("2^", 0) == 0) {
    const mpz_class k = parse_integer("granularity", text.substr(2));
    if (abs(k) > 10'000) {
      throw ParameterError::out_of_range("granularity", abbreviate(text), "2^k with |k| <= 10000");
    }
    return power_of_two(k.get_si());
  }
  return parse_rational("granularity", text);
}

Rounding checked_rounding(const std::string& parameter, const std::string& text) {
  if (text != "refuse" && text != "nearest") {
    throw ParameterError(parameter, parameter + " = " + abbreviate(text) + " is not known: allowed refuse or nearest");
  }
  return text == "nearest" ? Rounding::kNearest : Rounding::kRefuse;
}

// A grid from its texts; the granularity is checked now (CellCodec::decimals).
ReleaseGrid checked_grid(const std::string& granularity, const std::string& round, const std::string& sensitivity) {
  ReleaseGrid grid;
  grid.granularity = checked_granularity(granularity);
  grid.rounding = checked_rounding("round", round);
  grid.sensitivity = parse_rational("sensitivity", sensitivity);
  (void)CellCodec::decimals(grid.granularity, grid.rounding);
  return grid;
}

std::string round_needs_grid(const Spelling& s) { return s.name("round") + " needs " + s.name("granularity"); }

// The defaults of every column into plan.grid and plan.model.sensitivity.
void plan_one_grid(const ReleaseRequest& r, ReleasePlan& plan) {
  if (r.granularity) {
    const ReleaseGrid& grid =
        plan.grid.emplace(checked_grid(*r.granularity, r.round.value_or("refuse"), r.sensitivity.value_or("1")));
    plan.model.sensitivity = mechanisms::grid_sensitivity(grid.sensitivity, grid.granularity);
  } else {
    if (r.round) throw ParameterError("round", round_needs_grid(r.spelling));
    if (r.sensitivity) plan.model.sensitivity = parse_integer("sensitivity", *r.sensitivity);
  }
}

using ColumnValues = std::map<std::string, std::string>;  // option -> value for one column

// The per-column values by column, each naming a column of the request at most once per option.
std::map<std::string, ColumnValues> per_column_table(const ReleaseRequest& r) {
  std::map<std::string, ColumnValues> out;
  for (const ReleaseColumnOption& v : r.per_column) {
    const std::string option = r.spelling.name(v.option);
    if (std::find(r.columns.begin(), r.columns.end(), v.column) == r.columns.end()) {
      throw ParameterError("column", "column '" + v.column + "' (in " + option + " " + v.column + "=" +
                                         abbreviate(v.value) + ") is not a noised column: name it with " +
                                         r.spelling.name("column"));
    }
    if (!out[v.column].emplace(v.option, v.value).second) {
      throw ParameterError(v.option, r.spelling.noun + " " + option + " given more than once for column '" +
                                         v.column + "'");
    }
  }
  return out;
}

// Column `name`'s grid and sensitivity: its own values, else the defaults, else an integer column
// of sensitivity 1. Errors name the column.
ReleaseColumn column_choice(const std::string& name, const ColumnValues& own, const ReleaseRequest& r) {
  auto get = [&](const std::string& option, const std::optional<std::string>& fallback) {
    const auto it = own.find(option);
    return it != own.end() ? std::optional<std::string>(it->second) : fallback;
  };
  const std::optional<std::string> g = get("granularity", r.granularity);
  if (!g && own.count("round") != 0) {
    throw ParameterError("round", r.spelling.name("round") + " " + name + "=... needs a granularity for column '" +
                                      name + "'");
  }
  ReleaseColumn c;
  try {
    if (g) {
      const ReleaseGrid& grid = c.grid.emplace(
          checked_grid(*g, get("round", r.round).value_or("refuse"), get("sensitivity", r.sensitivity).value_or("1")));
      c.sensitivity = grid.sensitivity;
      c.delta = mechanisms::grid_sensitivity(grid.sensitivity, grid.granularity);
    } else {
      c.delta = parse_integer("sensitivity", get("sensitivity", r.sensitivity).value_or("1"));
      accounting::require_integer_sensitivity(c.delta);
      c.sensitivity = c.delta;
    }
  } catch (const ParameterError& e) {
    throw ParameterError(e.parameter(), "column '" + name + "': " + e.what());
  }
  return c;
}

// Per-column values: plan.per_column (one per column) and the per-column model.
void plan_per_column(const ReleaseRequest& r, ReleasePlan& plan) {
  const std::map<std::string, ColumnValues> table = per_column_table(r);
  bool any_grid = false;
  for (const std::string& name : r.columns) {
    const auto it = table.find(name);
    plan.per_column.push_back(column_choice(name, it != table.end() ? it->second : ColumnValues{}, r));
    plan.model.column_sensitivities.push_back(plan.per_column.back().delta);
    any_grid = any_grid || plan.per_column.back().grid.has_value();
  }
  if (r.round && !any_grid) throw ParameterError("round", round_needs_grid(r.spelling));
}

}  // namespace

void check_release_cost(const mechanisms::ReleaseCalibration& c) {
  std::string longest;  // the noise parameter with the most digits: every cell costs at most its draw
  for (std::size_t i = 0; i < c.model.columns; ++i) {
    std::string text = to_string(c.noise_of(i));
    if (text.size() > longest.size()) longest = std::move(text);
  }
  check_draw_cost(mechanisms::release_law(c.budget.mechanism, c.budget.hardened), {{c.parameter, longest}}, c.cells,
                  "epsilon",
                  "cells = " + std::to_string(c.cells) + " (rows x noised columns)");
}

std::string release_exact_text(const mpq_class& q) {
  if (mpz_sizeinbase(q.get_den_mpz_t(), 2) > 6700) return to_string(q);
  return exactdp::exact_decimal(q);
}

mechanisms::ReleaseBudget checked_release_budget(const std::string& mechanism, const std::string& epsilon,
                                                 const std::optional<std::string>& delta, bool hardened) {
  mechanisms::ReleaseBudget budget;
  budget.mechanism = mechanisms::release_law(mechanism, hardened).name();  // the registry's, or refused by name
  budget.epsilon = parse_rational("epsilon", epsilon);
  if (delta) budget.delta = parse_rational("delta", *delta);
  budget.hardened = hardened;
  return budget;
}

ReleasePlan plan_release(const ReleaseRequest& r) {
  const Spelling& s = r.spelling;
  if (r.columns.empty()) {
    throw ParameterError("column", "release needs at least one " + s.name("column") + " NAME to noise");
  }
  ReleasePlan plan;
  plan.columns = r.columns;
  const std::string& mechanism = required(r.mechanism, "mechanism", s);
  plan.budget.mechanism = mechanisms::release_law(mechanism).name();
  plan.budget.epsilon = parse_rational("epsilon", required(r.epsilon, "epsilon", s));
  if (r.delta) plan.budget.delta = parse_rational("delta", *r.delta);
  plan.budget.hardened = r.hardened;
  if (r.per_column.empty()) {
    plan_one_grid(r, plan);
  } else {
    plan_per_column(r, plan);
  }
  if (r.contributions) {
    plan.model.contributions = static_cast<unsigned long>(
        checked_count("contributions", *r.contributions, 1, mechanisms::kMaxContributions));
  }
  plan.model.columns = static_cast<unsigned long>(r.columns.size());
  mechanisms::validate_release(plan.budget, plan.model);
  if (r.digits) plan.digits = static_cast<int>(checked_count("digits", *r.digits, 1, 1000));
  if (r.max_input_bytes) {
    plan.limits.csv.max_input_bytes =
        checked_count(s.bare("max_input_bytes"), *r.max_input_bytes, 1, plan.limits.csv.max_input_bytes);
  }
  return plan;
}

std::vector<CellCodec> ReleasePlan::codecs() const {
  std::vector<CellCodec> out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::optional<ReleaseGrid>& g = per_column.empty() ? grid : per_column[i].grid;
    out.push_back(g ? CellCodec::decimals(g->granularity, g->rounding) : CellCodec::integers());
  }
  return out;
}

ReleaseReport scan_release(const ReleasePlan& plan, mechanisms::TwoPassInput& input) {
  ReleaseReport report;
  report.scan = mechanisms::scan_table(input, plan.columns, plan.limits, plan.codecs());
  report.grid = plan.grid;
  // The model in the draw order (header order, scan.noised) and, per column, the choices in it.
  mechanisms::ContributionModel model = plan.model;
  if (!plan.per_column.empty()) {
    model.column_sensitivities.clear();
    for (const std::size_t i : report.scan.requested) {
      report.per_column.push_back(plan.per_column[i]);
      model.column_sensitivities.push_back(plan.per_column[i].delta);
    }
  }
  report.calibration = mechanisms::calibrate_release(plan.budget, model, report.scan.rows);
  check_release_cost(report.calibration);
  for (const std::size_t i : report.scan.noised) report.noised.push_back(report.scan.header[i]);
  report.in_place = input.rereads_in_place();
  return report;
}

void write_release_table(const ReleasePlan& plan, const ReleaseReport& report, mechanisms::TwoPassInput& input,
                         std::ostream& out, BitSource& bits) {
  input.rewind();
  mechanisms::write_release(input, out, report.scan, report.calibration, bits, plan.limits, plan.codecs());
}

}  // namespace exactdp::operations
