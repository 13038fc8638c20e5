// aggregate.cc — the operation `aggregate` (operations/aggregate.h) for exactdp.aggregate
// (pandas) and exactdp.dask.aggregate; docs/AGGREGATE.md, "From Python and Dask".
//
// spec: a dict {privacy_unit, group_by: [names], outputs: [(kind, column, q)], bounds: [(column,
//   "L,U")], max_groups, max_rows (ints), mechanism, epsilon, delta (text or None), split (text or
//   None), public_keys: bool, selection (text or None)}, turned into the operation's request and
//   checked there; kind is count, count_units, sum, mean or quantile; q is the exact text of a
//   quantile's q (named `quantile` in errors), None for other kinds.
// records: typed columns [(name, kind, values, exponents)] (mechanisms/aggregate/aggregate_columns.h,
//   no CSV): kind "text" (values a list of str: a key's text, or a value's exact decimal), "int"
//   (values an int64 array), "dyadic" (values the int64 mantissas m, exponents the int32 e of a
//   binary float's exact value m 2^e); exponents None otherwise. Or RFC 4180 CSV bytes (read in
//   place, not copied) with a header naming the spec's columns, written exactly.
// keys: RFC 4180 CSV bytes.
// _aggregate_guarantee(spec) -> guarantee dict (calibrate_aggregate: before any data is read)
// _aggregate_records(spec, records, keys, rng) -> {"header", "rows", "guarantee"} (aggregate_records)
// _aggregate_bound_partition(spec, records, keys, rng) -> [(key, rows, units, [sums], [[kept]])]
//   (Python ints; [[kept]]: per quantile of the guarantee, in order, the group's kept grid indices)
// _aggregate_from_totals(spec, totals, keys, rng) -> like _aggregate_records (aggregate_from_totals)
// rng: None (the OS CSPRNG) or an exactdp.SeededBits (its lock held while drawing). The GIL is
// released while the library reads, bounds and draws. Rational fields of the guarantee are exact
// texts ("p/q"); the private counts of AggregateRelease (units, pairs, ...) are never returned.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.h"
#include "record_columns.h"
#include "seeded_source.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/aggregate/optimal_partition_selection.h>
#include <exactdp/mechanisms/aggregate/aggregate_from_totals.h>
#include <exactdp/operations/aggregate.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using operations::AggregateReport;

std::optional<std::string> optional_text(const py::handle& v) {
  if (v.is_none()) return std::nullopt;
  return v.cast<std::string>();
}

// The spec as the operation's request (operations/aggregate.h), checked there.
operations::AggregatePlan plan_of(const py::dict& spec) {
  operations::AggregateRequest r;
  r.spelling = operations::kPythonSpelling;
  r.privacy_unit = spec["privacy_unit"].cast<std::string>();
  r.group_by = spec["group_by"].cast<std::vector<std::string>>();
  const auto bounds = spec["bounds"].cast<std::vector<std::pair<std::string, std::string>>>();
  for (const auto& item : spec["outputs"].cast<py::list>()) {
    const auto output = item.cast<py::tuple>();
    operations::AggregateOutputRequest o{output[0].cast<std::string>(), output[1].cast<std::string>(), {}, {}};
    for (const auto& [column, text] : bounds) {
      if (column == o.column && o.kind != "count" && o.kind != "count_units") o.bounds = text;
    }
    if (!output[2].is_none()) o.q.push_back(output[2].cast<std::string>());
    r.outputs.push_back(std::move(o));
  }
  r.max_groups = py::str(spec["max_groups"]).cast<std::string>();
  r.max_rows = py::str(spec["max_rows"]).cast<std::string>();
  r.mechanism = spec["mechanism"].cast<std::string>();
  r.epsilon = spec["epsilon"].cast<std::string>();
  r.delta = optional_text(spec["delta"]);
  r.split = optional_text(spec["split"]);
  r.public_keys = spec["public_keys"].cast<bool>();
  if (spec.contains("selection")) r.selection = optional_text(spec["selection"]);
  return operations::plan_aggregate(r);
}

// A sum's (or a mean's centred sum's) noise is in grid steps of its column's bounds: "grid" is
// that step (the CLI prints the noise in the column's units too), None for a count; a centred sum
// also gives its "centre" (the bounds' midpoint on the grid, added back to the mean).
py::dict quantity_dict(const AggregateReport& rep, const operations::AggregateQuantityReport& qr) {
  const mechanisms::QuantityNoise& q = qr.noise;
  py::dict d;
  d["quantity"] = q.quantity.name();
  d["grid"] = qr.grid ? py::object(py::str(to_string(*qr.grid))) : py::object(py::none());
  if (qr.centre) d["centre"] = to_string(*qr.centre);
  d["mechanism"] = rep.guarantee.mechanism;
  d["sensitivity_per_group"] = q.sensitivity.per_group.get_str();
  d["l1_sensitivity"] = q.sensitivity.l1.get_str();
  d["l2_sensitivity_squared"] = q.sensitivity.l2_squared.get_str();
  if (!rep.pure_epsilon) {
    d["sigma2"] = to_string(q.sigma2);
    d["rho_zcdp"] = to_string(q.rho);
    // product-profile routes: the zCDP split's sigma2 that the joint calibration lowered
    if (sgn(q.zcdp_sigma2) > 0) d["sigma2_zcdp_split"] = to_string(q.zcdp_sigma2);
  } else {
    d["scale"] = to_string(q.scale);
    d["epsilon"] = to_string(q.epsilon);
  }
  return d;
}

// The CLI's --json "quantiles" entries (cli/cmd_aggregate_report.cc), rationals as exact texts.
py::dict quantile_dict(const AggregateReport& rep, const mechanisms::QuantileNoise& q) {
  py::dict d;
  d["output"] = q.output.name();
  d["column"] = q.output.column;
  d["q"] = to_string(q.output.q);
  d["mechanism"] = operations::kQuantileMechanismWords;
  d["candidates"] = q.candidates.get_str();
  d["score_sensitivity_per_group"] = q.sensitivity.get_str();
  d["epsilon_per_group"] = to_string(q.epsilon);
  if (!rep.pure_epsilon) d["rho_zcdp"] = to_string(q.rho);
  return d;
}

py::object selection_dict(const mechanisms::AggregateGuarantee& g) {
  if (!g.selection) return py::none();
  const auto& s = *g.selection;
  py::dict d;
  d["selection"] = mechanisms::selection_method_name(s.method);
  d["epsilon"] = to_string(s.epsilon);
  d["delta_requested"] = to_string(s.delta_requested);
  d["delta_bound"] = to_string(s.delta_bound);
  if (s.table) {  // optimal: the per-group table (docs/AGGREGATE.md, "Partition selection")
    const auto& t = *s.table;
    d["epsilon_per_group"] = to_string(t.epsilon);
    d["delta_per_group"] = to_string(t.delta);
    d["table_entries"] = t.numerators.size();
    d["table_bits"] = t.bits;
    const auto sat = t.saturation();
    d["saturation_units"] = sat ? py::object(py::int_(*sat)) : py::none();
  } else {
    d["delta"] = interval_to_dict(s.delta);
    d["scale"] = to_string(s.scale);
    d["threshold"] = s.threshold.get_str();
  }
  return d;
}

py::dict guarantee_dict(const AggregateReport& rep) {
  const mechanisms::AggregateGuarantee& g = rep.guarantee;
  py::dict d;
  d["mechanism"] = g.mechanism;
  d["requested_epsilon"] = to_string(g.requested_epsilon);
  d["requested_delta"] = g.requested_delta ? py::object(py::str(to_string(*g.requested_delta))) : py::none();
  d["epsilon"] = to_string(g.epsilon);
  d["epsilon_is_exact"] = g.epsilon_is_exact;
  d["delta"] = to_string(g.delta);
  d["split"] = to_string(g.selection_share);
  d["selection"] = selection_dict(g);
  d["aggregates_epsilon"] = to_string(g.aggregates_epsilon);
  d["aggregates_delta"] = to_string(g.aggregates_delta);
  d["aggregates_epsilon_certified"] = interval_to_dict(g.aggregates_epsilon_certified);
  d["aggregates_route"] = g.aggregates_route;
  d["aggregates_delta_certified"] =
      g.aggregates_delta_certified ? py::object(interval_to_dict(*g.aggregates_delta_certified)) : py::none();
  py::list quantities;
  for (const auto& q : rep.quantities) quantities.append(quantity_dict(rep, q));
  d["quantities"] = quantities;
  py::list quantiles;
  for (const auto& q : g.quantiles) quantiles.append(quantile_dict(rep, q));
  d["quantiles"] = quantiles;
  return d;
}

py::dict release_dict(const AggregateReport& rep) {
  py::dict d;
  d["header"] = rep.header;
  d["rows"] = rep.rows;
  d["guarantee"] = guarantee_dict(rep);
  return d;
}

// The keys of a keys CSV (read_public_keys), a CsvError named as `keys` like the CLI's --keys.
std::optional<std::vector<std::string>> keys_of(const mechanisms::AggregateRequest& r,
                                                const std::optional<std::string>& keys_csv) {
  if (!keys_csv) return std::nullopt;
  std::istringstream in(*keys_csv);
  mechanisms::StreamByteReader reader(in);
  return operations::read_aggregate_keys(reader, r, "keys");
}

// The bytes of a Python bytes object, read in place (no copy): the object is immutable and the
// caller's reference keeps it alive while the GIL is released.
class BytesReader : public mechanisms::ByteReader {
 public:
  explicit BytesReader(const py::bytes& b) {
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(b.ptr(), &data, &size) != 0) throw py::error_already_set();
    text_ = std::string_view(data, static_cast<std::size_t>(size));
  }
  std::size_t read(char* out, std::size_t n) override {
    const std::size_t k = std::min(n, text_.size() - pos_);
    std::copy_n(text_.data() + pos_, k, out);
    pos_ += k;
    return k;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// Runs `read(source, bits)` (with_bits) on `records`: CSV bytes through a BytesReader, or the
// typed columns (record_columns).
template <class Read>
auto with_records(const py::object& records, const py::object& rng, Read&& read) {
  if (py::isinstance<py::bytes>(records)) {
    BytesReader reader(records.cast<py::bytes>());
    return with_bits(rng, [&](BitSource& bits) { return read(reader, bits); });
  }
  const mechanisms::RecordColumns columns = record_columns(records.cast<py::list>());
  return with_bits(rng, [&](BitSource& bits) { return read(columns, bits); });
}

py::dict aggregate_guarantee(const py::dict& spec) { return guarantee_dict(operations::aggregate_guarantee(plan_of(spec))); }

py::dict aggregate_records(const py::dict& spec, const py::object& records,
                           const std::optional<std::string>& keys_csv, const py::object& rng) {
  const operations::AggregatePlan plan = plan_of(spec);
  const auto keys = keys_of(plan.request, keys_csv);
  return release_dict(with_records(records, rng, [&](auto& source, BitSource& bits) {
    return operations::aggregate_records(plan, source, keys ? &*keys : nullptr, bits);
  }));
}

// Through hexadecimal text: Python's int-to-str digit limit (4,300 by default) applies to
// decimal only, and a sum may have 10,000 digits and more.
py::object python_int(const mpz_class& v) {
  PyObject* out = PyLong_FromString(v.get_str(16).c_str(), nullptr, 16);
  if (out == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(out);
}

py::list bound_partition(const py::dict& spec, const py::object& records,
                         const std::optional<std::string>& keys_csv, const py::object& rng) {
  const mechanisms::AggregateRequest r = plan_of(spec).request;
  const auto keys = keys_of(r, keys_csv);
  const mechanisms::BoundedTotals t = with_records(records, rng, [&](auto& source, BitSource& bits) {
    return mechanisms::bound_partition(source, r, keys ? &*keys : nullptr, bits);
  });
  py::list out;
  for (std::size_t i = 0; i < t.keys.size(); ++i) {
    py::list sums;
    for (const auto& s : t.totals[i].sums) sums.append(python_int(s));
    py::list kept;
    for (const auto& per_group : t.quantile_values) {
      py::list values;
      for (const auto& v : per_group[i]) values.append(python_int(v));
      kept.append(values);
    }
    out.append(py::make_tuple(t.keys[i], python_int(t.totals[i].rows), python_int(t.totals[i].units), sums, kept));
  }
  return out;
}

mpz_class mpz_of(const py::handle& v, const char* what) {
  if (PyLong_Check(v.ptr()) != 0) return mpz_from_python_int(v);
  return parse_integer(what, py::str(v).cast<std::string>());
}

// The merged totals [(key, rows, units, [sums], [[kept]])] as BoundedTotals; a row's [[kept]]
// (one list per quantile of the request) goes to quantile_values (aggregate_from_totals checks
// every shape, naming totals).
mechanisms::BoundedTotals bounded_totals_of(const mechanisms::AggregateRequest& r, const py::list& totals) {
  mechanisms::BoundedTotals t;
  t.quantile_values.resize(mechanisms::quantile_outputs(r).size());
  for (const auto& item : totals) {
    const auto row = item.cast<py::tuple>();
    if (row.size() != 5) throw ParameterError("totals", "totals: a row is (key, rows, units, sums, kept values)");
    t.keys.push_back(row[0].cast<std::string>());
    mechanisms::GroupTotals g{mpz_of(row[1], "totals"), mpz_of(row[2], "totals"), {}};
    for (const auto& s : row[3].cast<py::list>()) g.sums.push_back(mpz_of(s, "totals"));
    t.totals.push_back(std::move(g));
    const auto kept = row[4].cast<py::list>();
    if (kept.size() != t.quantile_values.size()) {
      throw ParameterError("totals", "totals of group " + abbreviate(t.keys.back()) + ": " +
                                         std::to_string(kept.size()) + " lists of kept values for " +
                                         std::to_string(t.quantile_values.size()) + " quantiles");
    }
    for (std::size_t j = 0; j < kept.size(); ++j) {
      std::vector<mpz_class> values;
      for (const auto& v : kept[j].cast<py::list>()) values.push_back(mpz_of(v, "totals"));
      t.quantile_values[j].push_back(std::move(values));
    }
  }
  return t;
}

py::dict from_totals(const py::dict& spec, const py::list& totals, const std::optional<std::string>& keys_csv,
                     const py::object& rng) {
  const mechanisms::AggregateRequest r = plan_of(spec).request;
  const auto keys = keys_of(r, keys_csv);
  mechanisms::BoundedTotals t = bounded_totals_of(r, totals);
  mechanisms::AggregateRelease rel = with_bits(rng, [&](BitSource& bits) {
    return mechanisms::aggregate_from_totals(r, std::move(t), keys ? &*keys : nullptr, bits);
  });
  return release_dict(operations::aggregate_report(r, std::move(rel)));
}

}  // namespace

mechanisms::RecordColumns record_columns(const py::list& records) {
  using Int64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
  mechanisms::RecordColumns out;
  for (const auto& item : records) {
    const auto spec = item.cast<py::tuple>();
    mechanisms::RecordColumn c;
    c.name = spec[0].cast<std::string>();
    const auto kind = spec[1].cast<std::string>();
    if (kind == "text") {
      c.kind = mechanisms::ColumnKind::kText;
      c.texts = spec[2].cast<std::vector<std::string>>();
    } else if (kind == "int" || kind == "dyadic") {
      c.kind = kind == "int" ? mechanisms::ColumnKind::kInteger : mechanisms::ColumnKind::kDyadic;
      const auto values = spec[2].cast<Int64Array>();
      c.integers.assign(values.data(), values.data() + values.size());
      if (kind == "dyadic") {
        const auto exponents = spec[3].cast<py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>>();
        c.exponents.assign(exponents.data(), exponents.data() + exponents.size());
      }
    } else {
      throw ParameterError("df", "column '" + abbreviate(c.name) + "': kind " + abbreviate(kind) +
                                     " is not one of text, int, dyadic");
    }
    out.columns.push_back(std::move(c));
  }
  return out;
}

mpz_class mpz_from_python_int(const py::handle& v) {
  const py::object hex = py::reinterpret_steal<py::object>(PyNumber_ToBase(v.ptr(), 16));
  if (!hex) throw py::error_already_set();
  const std::string text = hex.cast<std::string>();
  const bool negative = !text.empty() && text[0] == '-';
  const mpz_class magnitude(text.substr(negative ? 3 : 2), 16);  // after "-0x" or "0x"
  return negative ? mpz_class(-magnitude) : magnitude;
}

void register_aggregate(py::module_& m) {
  m.def("_aggregate_guarantee", &aggregate_guarantee, py::arg("spec"));
  m.def("_aggregate_records", &aggregate_records, py::arg("spec"), py::arg("records"), py::arg("keys"),
        py::arg("rng"));
  m.def("_aggregate_bound_partition", &bound_partition, py::arg("spec"), py::arg("records"), py::arg("keys"),
        py::arg("rng"));
  m.def("_aggregate_from_totals", &from_totals, py::arg("spec"), py::arg("totals"), py::arg("keys"),
        py::arg("rng"));
}

}  // namespace exactdp::python
