#include "cli/cmd_estimate_report.h"

#include <array>
#include <charconv>
#include <ostream>

#include <exactdp/core/decimal.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/mechanisms/release/csv_reader.h>

namespace exactdp::cli {
namespace {

using mechanisms::RouteBudget;
using operations::EstimateReport;

// exactdp::exact_decimal, except for a denominator too large to divide 10^2000 (p/q then).
std::string exact_text(const mpq_class& q) {
  if (mpz_sizeinbase(q.get_den_mpz_t(), 2) > 6700) return to_string(q);
  return exactdp::exact_decimal(q);
}

// The shortest decimal that reads back as the double nearest q (post-processing of the release).
std::string nearest_double_text(const mpq_class& q) {
  const double x = mechanisms::to_double_nearest(q);
  std::array<char, 64> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), x).ptr;
  return std::string(buffer.data(), end);
}

// The noise of route i relative to the advanced-composition route (the paper's), e.g. "0.41";
// empty when the advanced route was not computed.
std::string noise_ratio_to_advanced(const EstimateReport& report, std::size_t i) {
  const auto& ratio = report.noise_relative_to_advanced[i];
  return ratio ? to_decimal(*ratio, 4).upper : "";
}

std::string support_names(const EstimateReport& report) {
  std::string out;
  for (const std::size_t j : report.result.support) out += (out.empty() ? "" : ", ") + report.names[j];
  return out;
}

}  // namespace

void write_estimate_csv(std::ostream& out, const EstimateReport& report) {
  out << "coordinate,estimate\n";
  for (std::size_t j = 0; j < report.names.size(); ++j) {
    out << mechanisms::csv_quote_if_needed(report.names[j]) << ',' << nearest_double_text(report.result.estimate[j])
        << '\n';
  }
}

JsonValue estimate_guarantee_json(const EstimateReport& report, const EstimateContext& context) {
  const mechanisms::EstimationGuarantee& g = report.result.guarantee;
  JsonValue j = JsonValue::object();
  j.set("command", "estimate sparse-mean");
  j.set("epsilon", exact_text(g.epsilon));
  j.set("delta", g.delta ? JsonValue(exact_text(*g.delta)) : JsonValue::null());
  j.set_interval("certified_epsilon", g.certified_epsilon, context.digits);
  j.set("composition", g.composition);
  JsonValue routes = JsonValue::array();
  for (std::size_t i = 0; i < g.routes.size(); ++i) {
    const RouteBudget& r = g.routes[i];
    JsonValue route = JsonValue::object();
    route.set("route", mechanisms::to_string(r.route));
    route.set("epsilon_per_round", exact_text(r.epsilon_per_round));
    route.set("noise_scale", exact_text(r.noise_scale));
    route.set_interval("certified_epsilon", r.epsilon, context.digits);
    const std::string ratio = noise_ratio_to_advanced(report, i);
    route.set("noise_relative_to_advanced", ratio.empty() ? JsonValue::null() : JsonValue(ratio));
    routes.push(route);
  }
  j.set("routes", routes);
  JsonValue split = JsonValue::object();
  for (const auto& [name, value] : g.budget_split) split.set(name, exact_text(value));
  j.set("budget_split", split);
  JsonValue tuning = JsonValue::object();
  for (const auto& [name, value] : g.tuning) tuning.set(name, exact_text(value));
  j.set("tuning", tuning);
  j.set("neighbours", "replace one row (n is public)");
  j.set("rows", static_cast<unsigned long long>(report.rows));
  j.set("columns", static_cast<unsigned long long>(report.names.size()));
  JsonValue support = JsonValue::array();
  for (const std::size_t c : report.result.support) {
    JsonValue entry = JsonValue::object();
    entry.set("coordinate", report.names[c]);
    entry.set("estimate_exact", exact_text(report.result.estimate[c]));
    support.push(entry);
  }
  j.set("support", support);
  j.set("randomness", context.seeded ? "seeded ChaCha20 (reproducible demo: NOT private)" : "OS CSPRNG");
  return j;
}

void print_estimate_guarantee(std::ostream& err, const EstimateReport& report, const EstimateContext& context) {
  const mechanisms::EstimationGuarantee& g = report.result.guarantee;
  err << "exactdp estimate sparse-mean: guarantee of the whole estimate (certified upper ends, rounded up)\n";
  err << "  (epsilon, delta)-DP  epsilon <= " << to_decimal(g.certified_epsilon, context.digits).upper
      << ", delta = " << (g.delta ? abbreviate(exact_text(*g.delta)) : std::string("0"))
      << "  (requested epsilon = " << abbreviate(exact_text(g.epsilon)) << ")\n";
  err << "  neighbours           replace one row of the " << report.rows << " (n is public); "
      << report.names.size() << " coordinates\n";
  err << "  composition          " << g.composition << "\n";
  for (std::size_t i = 0; i < g.routes.size(); ++i) {
    const RouteBudget& r = g.routes[i];
    const std::string ratio = noise_ratio_to_advanced(report, i);
    err << "  route " << mechanisms::to_string(r.route) << (&r == &g.routes.front() ? " (used)" : "") << ": "
        << "epsilon per round " << abbreviate(exact_text(r.epsilon_per_round)) << ", noise scale "
        << to_decimal(r.noise_scale, context.digits).upper << ", certified epsilon <= "
        << to_decimal(r.epsilon, context.digits).upper
        << (ratio.empty() ? "" : ", noise " + ratio + " x the advanced route's") << "\n";
  }
  for (const auto& [name, value] : g.budget_split) {
    err << "  budget: " << name << " = " << abbreviate(exact_text(value)) << "\n";
  }
  for (const auto& [name, value] : g.tuning) {
    err << "  tuning: " << name << " = " << abbreviate(exact_text(value)) << "\n";
  }
  err << "  support (in order)   " << support_names(report) << "\n";
  if (context.seeded) {
    err << "  randomness           SEEDED: a reproducible demo, NOT a private release (anyone with "
           "the seed can remove the noise)\n";
  }
}

}  // namespace exactdp::cli
