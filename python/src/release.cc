// release.cc — mechanisms::calibrate_release for Python: the per-cell noise parameter and the
// certified guarantee of a whole release, exactly as `exactdp release` computes them (the same
// contribution model, routes and checks, and the draws' cost limit for `rows` rows), so that
// exactdp.dask.release reports the guarantee of the single-machine release; and the operation
// release_values (operations/release.h: per-column sensitivity and grid) behind exactdp.release
// for a pandas DataFrame (values and results as exact text). This file turns Python values into the operation's request and its report into
// Python objects.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.h"
#include "seeded_source.h"
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/operations/release.h>
#include <exactdp/samplers/system_bits.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

// The guarantee of a calibration, as text (exact rationals) and interval dicts.
py::dict guarantee_dict(const mechanisms::ReleaseCalibration& c) {
  py::dict d;
  d["mechanism"] = c.budget.mechanism;
  d["route"] = c.route;
  d["route_detail"] = c.route_detail;
  d["parameter_name"] = c.parameter;
  d["parameter"] = to_string(c.noise());
  d["epsilon"] = interval_to_dict(c.epsilon);
  d["delta"] = interval_to_dict(c.delta);
  d["rho"] = c.rho ? py::object(py::str(to_string(*c.rho))) : py::object(py::none());
  d["mu"] = c.mu ? py::object(interval_to_dict(*c.mu)) : py::object(py::none());
  d["l1_sensitivity"] = c.l1_sensitivity.get_str();
  d["l2_sensitivity_squared"] = c.l2_sensitivity_squared.get_str();
  d["cells"] = c.cells;
  py::list noise;
  for (std::size_t i = 0; i < c.model.columns; ++i) noise.append(to_string(c.noise_of(i)));
  d["column_parameters"] = noise;
  if (c.budget.hardened) {
    d["tau_upper_per_cell"] = to_string(c.tau_upper_per_cell);
    d["hardened_charge"] = interval_to_dict(c.hardened_charge);
  }
  return d;
}

py::dict release_calibration(const std::string& mechanism, const std::string& epsilon,
                             const std::optional<std::string>& delta, const std::string& sensitivity,
                             unsigned long contributions, unsigned long columns, std::uint64_t rows) {
  const mechanisms::ReleaseBudget budget = operations::checked_release_budget(mechanism, epsilon, delta, false);
  mechanisms::ContributionModel model;
  model.sensitivity = parse_integer("sensitivity", sensitivity);
  model.contributions = contributions;
  model.columns = columns;
  const mechanisms::ReleaseCalibration calibration = mechanisms::calibrate_release(budget, model, rows);
  operations::check_release_cost(calibration);  // the draws of `rows` rows (LimitError naming epsilon)
  return guarantee_dict(calibration);
}

// One column spec from Python: (granularity text or None, "refuse" | "nearest", sensitivity text).
using SpecTuple = std::tuple<std::optional<std::string>, std::string, std::string>;

// The integers of a numpy int64 or uint64 column (read in place: the dtype is exact).
template <class Int>
std::vector<mpq_class> integers_of(const py::handle& column) {
  const auto values = column.cast<py::array_t<Int, py::array::c_style | py::array::forcecast>>();
  std::vector<mpq_class> out;
  out.reserve(static_cast<std::size_t>(values.size()));
  for (py::ssize_t i = 0; i < values.size(); ++i) out.emplace_back(mpz_class(values.data()[i]));
  return out;
}

// The exact binary values of a numpy float64 column (the Python layer widens float32 and
// float16 exactly, and lets floats through only on a grid with rounding="nearest").
std::vector<mpq_class> binary_values_of(const py::handle& column) {
  const auto values = column.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
  std::vector<mpq_class> out;
  out.reserve(static_cast<std::size_t>(values.size()));
  for (py::ssize_t i = 0; i < values.size(); ++i) out.push_back(rational_from_double("values", values.data()[i]));
  return out;
}

// One column's exact values: a numpy int64 / uint64 array read as the integers it holds, a numpy
// float64 array as the exact binary values it holds (no text in between; the Python layer widens
// the other integer and float dtypes), or a list of rationals' texts (decimal strings exactly).
std::vector<mpq_class> column_values(const py::handle& column) {
  if (py::isinstance<py::array_t<std::uint64_t>>(column)) return integers_of<std::uint64_t>(column);
  if (py::isinstance<py::array_t<std::int64_t>>(column)) return integers_of<std::int64_t>(column);
  if (py::isinstance<py::array_t<double>>(column)) return binary_values_of(column);
  std::vector<mpq_class> out;
  for (const auto& v : column.cast<py::list>()) out.push_back(parse_rational("values", v.cast<std::string>()));
  return out;
}

// The operation release_values (operations/release.h): values[c] is a numpy integer column or a
// list of rationals' texts; returns the noisy values' text (integers, or decimals with the grid's
// places) and the guarantee.
py::tuple release_columns(const std::string& mechanism, const std::string& epsilon,
                          const std::optional<std::string>& delta, bool hardened, const std::string& contributions,
                          const py::list& values, const std::vector<SpecTuple>& specs, const py::object& rng) {
  operations::ReleaseValuesRequest request{.mechanism = mechanism, .epsilon = epsilon, .delta = delta,
                                           .hardened = hardened, .contributions = contributions};
  for (const auto& [granularity, rounding, sensitivity] : specs) request.columns.push_back({granularity, rounding, sensitivity});
  const operations::ReleaseValuesPlan plan = operations::plan_release_values(request);
  std::vector<std::vector<mpq_class>> columns;
  for (const auto& column : values) columns.push_back(column_values(column));
  PySeededBits* seeded = rng.is_none() ? nullptr : rng.cast<PySeededBits*>();
  std::optional<operations::ReleaseValuesReport> report;
  {
    const py::gil_scoped_release release;
    if (seeded != nullptr) {
      const std::lock_guard<std::mutex> lock(seeded->mutex());
      report = operations::release_values(plan, columns, seeded->bits());
    } else {
      SystemBits bits;
      report = operations::release_values(plan, columns, bits);
    }
  }
  return py::make_tuple(report->values, guarantee_dict(report->calibration));
}

}  // namespace

void register_release(py::module_& m) {
  m.def("_release_laws", &mechanisms::release_laws);  // exactdp.dask.MECHANISMS
  m.def("_release_calibration", &release_calibration, py::arg("mechanism"), py::arg("epsilon"),
        py::arg("delta"), py::arg("sensitivity"), py::arg("contributions"), py::arg("columns"),
        py::arg("rows"));
  m.def("_release_columns", &release_columns, py::arg("mechanism"), py::arg("epsilon"), py::arg("delta"),
        py::arg("hardened"), py::arg("contributions"), py::arg("values"), py::arg("specs"), py::arg("rng"));
}

}  // namespace exactdp::python
