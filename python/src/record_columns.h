// record_columns.h — a DataFrame's columns handed to the library without CSV text, for
// exactdp.aggregate (aggregate.cc, where it is defined) and exactdp.estimators.sparse_mean
// (estimation.cc).
#pragma once

#include <pybind11/pybind11.h>

#include <exactdp/mechanisms/aggregate/aggregate_columns.h>

namespace exactdp::python {

// Typed columns [(name, "text" | "int" | "dyadic", values, exponents or None)]
// (mechanisms/aggregate/aggregate_columns.h) as the library's RecordColumns, copied with the GIL
// held so that the library reads them without it. ParameterError naming df for another kind.
[[nodiscard]] mechanisms::RecordColumns record_columns(const pybind11::list& records);

}  // namespace exactdp::python
