// The guarantee of `exactdp aggregate` on stderr and as JSON (cmd_aggregate_report.h).
#include "cli/cmd_aggregate_report.h"

#include <ostream>
#include <string>

#include <exactdp/core/decimal.h>
#include <exactdp/mechanisms/aggregate/joint_gaussian_calibration.h>

namespace exactdp::cli {
namespace {

using mechanisms::AggregateGuarantee;
using operations::AggregateReport;

std::string upper_text(const mpq_class& bound, bool exact, int digits) {
  return exact ? exactdp::exact_decimal(bound) : exactdp::to_decimal(bound, digits).upper;
}

JsonValue selection_json(const AggregateReport& rep, int digits) {
  const AggregateGuarantee& g = rep.guarantee;
  if (!g.selection) {
    JsonValue j = JsonValue::object();
    j.set("method", "public keys (--keys): every key released, none selected from the data");
    j.set("keys", rep.public_keys);
    return j;
  }
  const auto& s = *g.selection;
  JsonValue j = JsonValue::object();
  j.set("method", operations::selection_method_words(s));
  j.set("selection", mechanisms::selection_method_name(s.method));
  j.set("epsilon", exactdp::exact_decimal(s.epsilon));
  j.set("delta_requested", exactdp::exact_decimal(s.delta_requested));
  if (s.table) {
    const auto& t = *s.table;
    const std::string delta = exactdp::exact_decimal(s.delta_bound);  // exact: L0 (delta / L0)
    j.set("delta", JsonValue::interval(delta, delta));
    j.set("epsilon_per_group", exactdp::exact_decimal(t.epsilon));
    j.set("delta_per_group", exactdp::exact_decimal(t.delta));
    j.set("table_entries", static_cast<unsigned long long>(t.numerators.size()));
    j.set("table_bits", static_cast<unsigned long long>(t.bits));
    const auto sat = t.saturation();
    j.set("saturation_units", sat ? JsonValue(static_cast<unsigned long long>(*sat)) : JsonValue::null());
  } else {
    j.set_interval("delta", s.delta, digits);
    j.set("scale", exactdp::exact_decimal(s.scale));
    j.set("threshold", s.threshold.get_str());
  }
  j.set("released_groups", static_cast<unsigned long long>(rep.rows.size()));
  return j;
}

// The selection's line of the stderr report.
std::string selection_text(const mechanisms::PartitionSelection& s, int digits) {
  std::string text = "epsilon = " + exactdp::exact_decimal(s.epsilon);
  if (s.table) {
    const auto sat = s.table->saturation();
    return text + ", optimal: released with probability p(units) for (" + exactdp::exact_decimal(s.table->epsilon) +
           ", " + exactdp::exact_decimal(s.table->delta) + ") per group, p = 1 from " +
           (sat ? std::to_string(*sat) + " unit(s)" : "no table entry (capped at " +
                                                         std::to_string(s.table->numerators.size()) + ")") +
           ", delta <= " + exactdp::exact_decimal(s.delta_bound);
  }
  return text + ", threshold tau = " + s.threshold.get_str() + " on units + discrete Laplace(scale " +
         exactdp::exact_decimal(s.scale) + "), delta <= " + exactdp::to_decimal(s.delta, digits).upper;
}

JsonValue quantities_json(const AggregateReport& rep) {
  JsonValue arr = JsonValue::array();
  for (const auto& qr : rep.quantities) {
    const mechanisms::QuantityNoise& q = qr.noise;
    JsonValue j = JsonValue::object();
    j.set("quantity", q.quantity.name());
    j.set("mechanism", rep.guarantee.mechanism);
    j.set("sensitivity_per_group", q.sensitivity.per_group.get_str());
    j.set("l1_sensitivity", q.sensitivity.l1.get_str());
    j.set("l2_sensitivity_squared", q.sensitivity.l2_squared.get_str());
    if (rep.pure_epsilon) {
      j.set("scale", exactdp::exact_decimal(q.scale));
      j.set("epsilon", exactdp::exact_decimal(q.epsilon));
    } else {
      j.set("sigma2", exactdp::exact_decimal(q.sigma2));
      j.set("rho_zcdp", exactdp::parameter_text(q.rho));
      // product-profile route: the zCDP split's sigma2, which the joint calibration lowered
      if (sgn(q.zcdp_sigma2) > 0) j.set("sigma2_zcdp_split", exactdp::exact_decimal(q.zcdp_sigma2));
    }
    arr.push(j);
  }
  return arr;
}

JsonValue quantiles_json(const AggregateReport& rep) {
  JsonValue arr = JsonValue::array();
  for (const auto& q : rep.guarantee.quantiles) {
    JsonValue j = JsonValue::object();
    j.set("output", q.output.name());
    j.set("column", q.output.column);
    j.set("q", exactdp::exact_decimal(q.output.q));
    j.set("mechanism", operations::kQuantileMechanismWords);
    j.set("candidates", q.candidates.get_str());
    j.set("score_sensitivity_per_group", q.sensitivity.get_str());
    j.set("epsilon_per_group", exactdp::exact_decimal(q.epsilon));
    if (!rep.pure_epsilon) j.set("rho_zcdp", exactdp::parameter_text(q.rho));
    arr.push(j);
  }
  return arr;
}

// " = X in COL's units" for a sum or a centred sum (its noise times the grid step G), else "".
std::string value_units(const operations::AggregateQuantityReport& q) {
  if (!q.scale_in_units) return "";
  return " = " + exactdp::exact_decimal(*q.scale_in_units) + " in " + q.noise.quantity.column + "'s units";
}

}  // namespace

JsonValue aggregate_guarantee_json(const mechanisms::AggregateRequest& r, const AggregateReport& rep, bool seeded,
                                   int digits) {
  const AggregateGuarantee& g = rep.guarantee;
  JsonValue j = JsonValue::object();
  j.set("command", "aggregate");
  j.set("mechanism", g.mechanism);
  JsonValue requested = JsonValue::object();
  requested.set("epsilon", exactdp::exact_decimal(g.requested_epsilon));
  requested.set("delta", g.requested_delta ? JsonValue(exactdp::exact_decimal(*g.requested_delta)) : JsonValue::null());
  j.set("requested", requested);
  j.set("epsilon", upper_text(g.epsilon, g.epsilon_is_exact, digits));
  j.set("delta", upper_text(g.delta, false, digits));
  j.set("neighbouring", "add or remove one privacy unit with all its records");
  JsonValue bounding = JsonValue::object();
  bounding.set("privacy_unit", r.privacy_unit);
  bounding.set("max_groups", r.bounding.max_groups);
  bounding.set("max_rows", r.bounding.max_rows);
  bounding.set("method", "exact reservoir sampling (Algorithm R) with the CSPRNG, per unit");
  j.set("bounding", bounding);
  j.set("split", exactdp::exact_decimal(g.selection_share));
  j.set("partition_selection", selection_json(rep, digits));
  j.set("aggregates_epsilon", exactdp::exact_decimal(g.aggregates_epsilon));
  j.set("aggregates_delta", exactdp::exact_decimal(g.aggregates_delta));
  j.set_interval("aggregates_epsilon_certified", g.aggregates_epsilon_certified, digits);
  j.set("aggregates_route", g.aggregates_route);
  if (g.aggregates_delta_certified) j.set_interval("aggregates_delta_certified", *g.aggregates_delta_certified, digits);
  j.set("composition", "basic (adaptive) composition of selection and aggregates");
  j.set("quantities", quantities_json(rep));
  j.set("quantiles", quantiles_json(rep));
  // Nothing counted from the data (rows, units, candidate groups) is printed: those counts are
  // not private. The released groups are (they are the output's rows).
  j.set("released_groups", static_cast<unsigned long long>(rep.rows.size()));
  j.set("randomness", seeded ? "seeded ChaCha20 (reproducible demo: NOT private)" : "OS CSPRNG");
  return j;
}

void print_aggregate_guarantee(std::ostream& err, const mechanisms::AggregateRequest& r, const AggregateReport& rep,
                               bool seeded, int digits) {
  const AggregateGuarantee& g = rep.guarantee;
  err << "exactdp aggregate: guarantee of the whole release (certified upper ends, rounded up)\n";
  err << "  (epsilon, delta)-DP  epsilon <= " << upper_text(g.epsilon, g.epsilon_is_exact, digits)
      << ", delta <= " << upper_text(g.delta, false, digits) << "  (requested epsilon = "
      << exactdp::parameter_text(g.requested_epsilon) << ", delta = "
      << (g.requested_delta ? exactdp::parameter_text(*g.requested_delta) : std::string("0")) << ")\n";
  err << "  neighbouring         add or remove one privacy unit ('" << r.privacy_unit
      << "') with all its records\n";
  err << "  bounding             each unit keeps at most L0 = " << r.bounding.max_groups
      << " group(s) and Linf = " << r.bounding.max_rows
      << " row(s) per group, uniformly at random (exact reservoir sampling)\n";
  if (g.selection) {
    err << "  partition selection  " << selection_text(*g.selection, digits) << "; " << rep.rows.size()
        << " group(s) released\n";
  } else {
    err << "  partition selection  none: the " << rep.public_keys << " public key(s) of --keys\n";
  }
  err << "  aggregates           epsilon = " << exactdp::exact_decimal(g.aggregates_epsilon)
      << ", delta = " << exactdp::exact_decimal(g.aggregates_delta) << ", route " << g.aggregates_route
      << " (certified epsilon <= " << exactdp::to_decimal(g.aggregates_epsilon_certified, digits).upper
      << (g.aggregates_delta_certified
              ? ", delta <= " + exactdp::to_decimal(*g.aggregates_delta_certified, digits).upper + " by the " +
                    (g.aggregates_route == mechanisms::kJointExactRoute ? "exact profile" : "lattice-smoothed bound") +
                    " of the quantities' discrete Gaussians together"
              : std::string())
      << ")\n";
  for (const auto& qr : rep.quantities) {
    const mechanisms::QuantityNoise& q = qr.noise;
    err << "  " << q.quantity.name() << ": " << g.mechanism << ", "
        << (rep.pure_epsilon ? "scale = " + exactdp::exact_decimal(q.scale) : "sigma2 = " + exactdp::exact_decimal(q.sigma2))
        << " grid step(s)" << value_units(qr)
        << (sgn(q.zcdp_sigma2) > 0 ? " (zCDP split: sigma2 = " + exactdp::exact_decimal(q.zcdp_sigma2) + ")" : std::string())
        << "; sensitivity per group " << q.sensitivity.per_group.get_str() << ", L1 = "
        << q.sensitivity.l1.get_str() << ", L2^2 = " << q.sensitivity.l2_squared.get_str() << "\n";
  }
  for (const auto& q : g.quantiles) {
    err << "  " << q.output.name() << ": exponential mechanism on " << q.candidates.get_str()
        << " grid point(s), epsilon = " << exactdp::exact_decimal(q.epsilon) << " per group (score sensitivity "
        << q.sensitivity.get_str() << ")"
        << (rep.pure_epsilon ? std::string() : ", rho = " + exactdp::parameter_text(q.rho) + " zCDP") << "\n";
  }
  err << "  composition          basic: selection then aggregates (split = "
      << exactdp::exact_decimal(g.selection_share) << ")\n";
  if (seeded) {
    err << "  randomness           SEEDED: a reproducible demo, NOT a private release (anyone with "
           "the seed can remove the noise)\n";
  }
}

}  // namespace exactdp::cli
