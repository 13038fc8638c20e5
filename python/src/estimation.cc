// estimation.cc — the C++ core of exactdp.estimators: the Cost-of-Privacy estimators of
// mechanisms/estimation/ (docs/ESTIMATION.md) on numpy float64 arrays.
//
// _private_max(v, epsilon, sensitivity, k, rng) -> dict
// _peeling(v, epsilon, delta, route, sensitivity, sparsity, k, rng) -> dict
// _sparse_mean(x, epsilon, delta, route, radius, sparsity, k, rng) -> dict
// _sparse_mean_columns(columns, epsilon, delta, route, radius, sparsity, k, rng) -> dict: the same
//   of typed columns [(name, "text" | "int" | "dyadic", values, exponents)] (record_columns.h),
//   through the operation estimate (operations/estimate.h)
// _private_max_columns, _peeling_columns, _noisy_ols_columns, _dp_lasso_columns: the same of typed
//   columns (v, y: one column; x: one column per coordinate) through the operation estimate
// _noisy_ols(x, y, epsilon, delta, coordinate_bound, response_bound, eigen_bound, k, rng) -> dict
// _dp_lasso(x, y, epsilon, delta, route, sparsity, iterations, step_size, coordinate_bound,
//           response_bound, coefficient_bound, k, rng) -> dict
//   x: a C-contiguous 2-d float64 array, v / y: C-contiguous 1-d float64 arrays (the Python layer
//   makes them so); exact parameters as text ("" for delta / route: none); k: None or the data
//   grid exponent; rng: None (the OS CSPRNG) or an exactdp.SeededBits.
//   The dict: "estimate" (exact texts), "support" (indices in the order chosen), "guarantee"
//   {"epsilon", "delta", "certified_epsilon" {lower, upper}, "composition", "routes" [{route,
//   epsilon_per_round, noise_scale, epsilon {lower, upper}}], "budget_split" {name: text},
//   "tuning" {name: text}}. The GIL is released while computing.
// double is the numpy buffer's storage type only; the library decodes it
// exactly from its bit pattern.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <optional>
#include <span>
#include <string>

#include "bindings.h"
#include "record_columns.h"
#include "seeded_source.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/dp_lasso.h>
#include <exactdp/mechanisms/estimation/noisy_ols.h>
#include <exactdp/mechanisms/estimation/peeling.h>
#include <exactdp/mechanisms/estimation/private_max.h>
#include <exactdp/mechanisms/estimation/sparse_mean.h>
#include <exactdp/operations/estimate.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using mechanisms::EstimateResult;
using mechanisms::EstimationGuarantee;
using mechanisms::MatrixView;
using Array = py::array_t<double, py::array::c_style>;

std::span<const double> span_of(const Array& a) {
  return {a.data(), static_cast<std::size_t>(a.size())};
}

MatrixView matrix_of(const Array& x) {
  if (x.ndim() != 2) throw ParameterError("x", "x has " + std::to_string(x.ndim()) + " dimensions: allowed 2");
  return {span_of(x), static_cast<std::size_t>(x.shape(0)), static_cast<std::size_t>(x.shape(1))};
}

std::optional<mpq_class> optional_rational(const char* name, const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parse_rational(name, text);
}

std::optional<mechanisms::CompositionRoute> optional_route(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return mechanisms::parse_composition_route(text);
}

// The budget Peeling, the sparse mean and DP-LASSO share (estimation_guarantee.h), parsed in
// that order (so the first bad one is the one named).
void set_sparse_budget(mechanisms::PeelingBudget& o, const std::string& epsilon, const std::string& delta,
                       const std::string& route, std::size_t sparsity, std::optional<long> k) {
  o.epsilon = parse_rational("epsilon", epsilon);
  o.delta = optional_rational("delta", delta);
  o.route = optional_route(route);
  o.sparsity = sparsity;
  o.granularity_exponent = k;
}

py::dict named(const std::vector<std::pair<std::string, mpq_class>>& items) {
  py::dict d;
  for (const auto& [name, value] : items) d[py::str(name)] = to_string(value);
  return d;
}

py::dict guarantee_dict(const EstimationGuarantee& g) {
  py::dict d;
  d["epsilon"] = to_string(g.epsilon);
  d["delta"] = g.delta ? py::object(py::str(to_string(*g.delta))) : py::object(py::none());
  d["certified_epsilon"] = interval_to_dict(g.certified_epsilon);
  d["composition"] = g.composition;
  py::list routes;
  for (const auto& r : g.routes) {
    py::dict row;
    row["route"] = mechanisms::to_string(r.route);
    row["epsilon_per_round"] = to_string(r.epsilon_per_round);
    row["noise_scale"] = to_string(r.noise_scale);
    row["epsilon"] = interval_to_dict(r.epsilon);
    routes.append(row);
  }
  d["routes"] = routes;
  d["budget_split"] = named(g.budget_split);
  d["tuning"] = named(g.tuning);
  return d;
}

py::dict result_dict(const EstimateResult& r) {
  py::list estimate;
  for (const auto& v : r.estimate) estimate.append(to_string(v));
  py::dict d;
  d["estimate"] = estimate;
  d["support"] = r.support;
  d["guarantee"] = guarantee_dict(r.guarantee);
  return d;
}

// The dicts of private_max and peeling, shared by the array and the column entry points.
py::dict private_max_dict(const mechanisms::PrivateMaxResult& r) {
  py::dict d;
  d["index"] = r.index;
  d["value"] = to_string(r.value);
  d["guarantee"] = guarantee_dict(r.guarantee);
  return d;
}

py::dict peeling_dict(const mechanisms::PeelingResult& r) {
  py::list values;
  for (const auto& value : r.values) values.append(to_string(value));
  py::dict d;
  d["indices"] = r.indices;
  d["values"] = values;
  d["guarantee"] = guarantee_dict(r.guarantee);
  return d;
}

py::dict private_max(const Array& v, const std::string& epsilon, const std::string& sensitivity,
                     std::optional<long> k, const py::object& rng) {
  mechanisms::PrivateMaxOptions o;
  o.epsilon = parse_rational("epsilon", epsilon);
  o.sensitivity = parse_rational("sensitivity", sensitivity);
  o.granularity_exponent = k;
  const auto r = with_bits(rng, [&](BitSource& bits) { return mechanisms::private_max(span_of(v), o, bits); });
  return private_max_dict(r);
}

py::dict peeling(const Array& v, const std::string& epsilon, const std::string& delta, const std::string& route,
                 const std::string& sensitivity, std::size_t sparsity, std::optional<long> k, const py::object& rng) {
  mechanisms::PeelingOptions o;
  set_sparse_budget(o, epsilon, delta, route, sparsity, k);
  o.sensitivity = parse_rational("sensitivity", sensitivity);
  const auto r = with_bits(rng, [&](BitSource& bits) { return mechanisms::peeling(span_of(v), o, bits); });
  return peeling_dict(r);
}

py::dict sparse_mean(const Array& x, const std::string& epsilon, const std::string& delta, const std::string& route,
                     const std::string& radius, std::size_t sparsity, std::optional<long> k, const py::object& rng) {
  mechanisms::SparseMeanOptions o;
  set_sparse_budget(o, epsilon, delta, route, sparsity, k);
  o.radius = parse_rational("radius", radius);
  const MatrixView m = matrix_of(x);
  return result_dict(with_bits(rng, [&](BitSource& bits) { return mechanisms::sparse_mean(m, o, bits); }));
}

// The sparse mean of typed columns (record_columns.h: a DataFrame's columns, one per coordinate)
// through the operation (operations/estimate.h), Python's spelling; the array path's answer for
// the same values and bits.
py::dict sparse_mean_columns(const py::list& columns, const std::string& epsilon, const std::string& delta,
                             const std::string& route, const std::string& radius, std::size_t sparsity,
                             std::optional<long> k, const py::object& rng) {
  operations::EstimateRequest r;
  r.spelling = operations::kPythonSpelling;
  r.sparsity = std::to_string(sparsity);
  r.radius = radius;
  r.epsilon = epsilon;
  if (!delta.empty()) r.delta = delta;
  if (!route.empty()) r.route = route;
  r.granularity_exponent = k;
  const operations::EstimatePlan plan = operations::plan_estimate(r);
  const mechanisms::RecordColumns data = record_columns(columns);
  return result_dict(
      with_bits(rng, [&](BitSource& bits) { return operations::estimate_sparse_mean(plan, data, bits).result; }));
}

py::dict noisy_ols(const Array& x, const Array& y, const std::string& epsilon, const std::string& delta,
                   const std::string& coordinate_bound, const std::string& response_bound,
                   const std::string& eigen_bound, std::optional<long> k, const py::object& rng) {
  mechanisms::NoisyOlsOptions o;
  o.epsilon = parse_rational("epsilon", epsilon);
  o.delta = parse_rational("delta", delta);
  o.coordinate_bound = parse_rational("coordinate_bound", coordinate_bound);
  o.response_bound = parse_rational("response_bound", response_bound);
  o.eigen_bound = parse_rational("eigen_bound", eigen_bound);
  o.granularity_exponent = k;
  const MatrixView m = matrix_of(x);
  return result_dict(with_bits(rng, [&](BitSource& bits) { return mechanisms::noisy_ols(m, span_of(y), o, bits); }));
}

struct LassoArgs {
  std::string epsilon, delta, route, step_size, coordinate_bound, response_bound, coefficient_bound;
};

py::dict dp_lasso(const Array& x, const Array& y, const LassoArgs& a, std::size_t sparsity,
                  std::optional<std::size_t> iterations, std::optional<long> k, const py::object& rng) {
  mechanisms::DpLassoOptions o;
  set_sparse_budget(o, a.epsilon, a.delta, a.route, sparsity, k);
  o.iterations = iterations;
  o.step_size = parse_rational("step_size", a.step_size);
  o.coordinate_bound = parse_rational("coordinate_bound", a.coordinate_bound);
  o.response_bound = parse_rational("response_bound", a.response_bound);
  o.coefficient_bound = parse_rational("coefficient_bound", a.coefficient_bound);
  const MatrixView m = matrix_of(x);
  return result_dict(with_bits(rng, [&](BitSource& bits) { return mechanisms::dp_lasso(m, span_of(y), o, bits); }));
}

std::optional<std::string> optional_text(const std::string& text) {
  return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

// The one column of a Series / 1-d array (record_columns.h), named `name` in errors.
mechanisms::RecordColumn one_column(const py::list& columns, const char* name) {
  mechanisms::RecordColumns data = record_columns(columns);
  if (data.columns.size() != 1) {
    throw ParameterError(name, std::string(name) + " has " + std::to_string(data.columns.size()) +
                                   " columns: allowed one");
  }
  return std::move(data.columns.front());
}

py::dict private_max_columns(const py::list& v, const std::string& epsilon, const std::string& sensitivity,
                             std::optional<long> k, const py::object& rng) {
  const mechanisms::PrivateMaxOptions o = operations::plan_private_max({epsilon, sensitivity, k});
  const mechanisms::RecordColumn data = one_column(v, "v");
  const auto r = with_bits(rng, [&](BitSource& bits) { return operations::estimate_private_max(o, data, bits); });
  return private_max_dict(r);
}

py::dict peeling_columns(const py::list& v, const std::string& epsilon, const std::string& delta,
                         const std::string& route, const std::string& sensitivity, std::size_t sparsity,
                         std::optional<long> k, const py::object& rng) {
  const mechanisms::PeelingOptions o = operations::plan_peeling(
      {std::to_string(sparsity), epsilon, optional_text(delta), optional_text(route), sensitivity, k});
  const mechanisms::RecordColumn data = one_column(v, "v");
  const auto r = with_bits(rng, [&](BitSource& bits) { return operations::estimate_peeling(o, data, bits); });
  return peeling_dict(r);
}

py::dict noisy_ols_columns(const py::list& x, const py::list& y, const std::string& epsilon, const std::string& delta,
                           const std::string& coordinate_bound, const std::string& response_bound,
                           const std::string& eigen_bound, std::optional<long> k, const py::object& rng) {
  const mechanisms::NoisyOlsOptions o =
      operations::plan_noisy_ols({epsilon, delta, coordinate_bound, response_bound, eigen_bound, k});
  const mechanisms::RecordColumns xs = record_columns(x);
  const mechanisms::RecordColumn ys = one_column(y, "y");
  return result_dict(with_bits(rng, [&](BitSource& bits) { return operations::estimate_noisy_ols(o, xs, ys, bits); }));
}

py::dict dp_lasso_columns(const py::list& x, const py::list& y, const LassoArgs& a, std::size_t sparsity,
                          std::optional<std::size_t> iterations, std::optional<long> k, const py::object& rng) {
  operations::DpLassoRequest r;
  r.sparsity = std::to_string(sparsity);
  r.epsilon = a.epsilon;
  r.delta = optional_text(a.delta);
  r.route = optional_text(a.route);
  if (iterations) r.iterations = std::to_string(*iterations);
  r.step_size = a.step_size;
  r.coordinate_bound = a.coordinate_bound;
  r.response_bound = a.response_bound;
  r.coefficient_bound = a.coefficient_bound;
  r.granularity_exponent = k;
  const mechanisms::DpLassoOptions o = operations::plan_dp_lasso(r);
  const mechanisms::RecordColumns xs = record_columns(x);
  const mechanisms::RecordColumn ys = one_column(y, "y");
  return result_dict(with_bits(rng, [&](BitSource& bits) { return operations::estimate_dp_lasso(o, xs, ys, bits); }));
}

}  // namespace

void register_estimation(py::module_& m) {
  m.def("_private_max", &private_max, py::arg("v"), py::arg("epsilon"), py::arg("sensitivity"), py::arg("k"),
        py::arg("rng"));
  m.def("_peeling", &peeling, py::arg("v"), py::arg("epsilon"), py::arg("delta"), py::arg("route"),
        py::arg("sensitivity"), py::arg("sparsity"), py::arg("k"), py::arg("rng"));
  m.def("_sparse_mean", &sparse_mean, py::arg("x"), py::arg("epsilon"), py::arg("delta"), py::arg("route"),
        py::arg("radius"), py::arg("sparsity"), py::arg("k"), py::arg("rng"));
  m.def("_sparse_mean_columns", &sparse_mean_columns, py::arg("columns"), py::arg("epsilon"), py::arg("delta"),
        py::arg("route"), py::arg("radius"), py::arg("sparsity"), py::arg("k"), py::arg("rng"));
  m.def("_noisy_ols", &noisy_ols, py::arg("x"), py::arg("y"), py::arg("epsilon"), py::arg("delta"),
        py::arg("coordinate_bound"), py::arg("response_bound"), py::arg("eigen_bound"), py::arg("k"), py::arg("rng"));
  m.def(
      "_dp_lasso",
      [](const Array& x, const Array& y, const std::string& epsilon, const std::string& delta,
         const std::string& route, std::size_t sparsity, std::optional<std::size_t> iterations,
         const std::string& step_size, const std::string& coordinate_bound, const std::string& response_bound,
         const std::string& coefficient_bound, std::optional<long> k, const py::object& rng) {
        return dp_lasso(x, y, {epsilon, delta, route, step_size, coordinate_bound, response_bound, coefficient_bound},
                        sparsity, iterations, k, rng);
      },
      py::arg("x"), py::arg("y"), py::arg("epsilon"), py::arg("delta"), py::arg("route"), py::arg("sparsity"),
      py::arg("iterations"), py::arg("step_size"), py::arg("coordinate_bound"), py::arg("response_bound"),
      py::arg("coefficient_bound"), py::arg("k"), py::arg("rng"));
  m.def("_private_max_columns", &private_max_columns, py::arg("v"), py::arg("epsilon"), py::arg("sensitivity"),
        py::arg("k"), py::arg("rng"));
  m.def("_peeling_columns", &peeling_columns, py::arg("v"), py::arg("epsilon"), py::arg("delta"), py::arg("route"),
        py::arg("sensitivity"), py::arg("sparsity"), py::arg("k"), py::arg("rng"));
  m.def("_noisy_ols_columns", &noisy_ols_columns, py::arg("x"), py::arg("y"), py::arg("epsilon"), py::arg("delta"),
        py::arg("coordinate_bound"), py::arg("response_bound"), py::arg("eigen_bound"), py::arg("k"), py::arg("rng"));
  m.def(
      "_dp_lasso_columns",
      [](const py::list& x, const py::list& y, const std::string& epsilon, const std::string& delta,
         const std::string& route, std::size_t sparsity, std::optional<std::size_t> iterations,
         const std::string& step_size, const std::string& coordinate_bound, const std::string& response_bound,
         const std::string& coefficient_bound, std::optional<long> k, const py::object& rng) {
        return dp_lasso_columns(x, y, {epsilon, delta, route, step_size, coordinate_bound, response_bound,
                                       coefficient_bound},
                                sparsity, iterations, k, rng);
      },
      py::arg("x"), py::arg("y"), py::arg("epsilon"), py::arg("delta"), py::arg("route"), py::arg("sparsity"),
      py::arg("iterations"), py::arg("step_size"), py::arg("coordinate_bound"), py::arg("response_bound"),
      py::arg("coefficient_bound"), py::arg("k"), py::arg("rng"));
}

}  // namespace exactdp::python
