// audit.cc — the operation audit (operations/audit.h) on samples given from Python, against the
// law's exact reference law: exactdp.audit.
//
// _audit(law, parameters, samples, alpha) has the operation check the law, its sampling
// parameters (ParameterError naming the parameter) and alpha (0 < alpha < 1, exact text), counts
// the samples (an int64 numpy array read directly; any other sequence of Python ints one by one,
// any size), runs the audit and returns its report as a dict: law,
// n (int), alpha (exact text), verdict, passed, and per test its name, statistic and p-value
// intervals ({"lower", "upper"}: exact dyadic ends, interval_to_dict), threshold (exact text),
// applicable, asymptotic, rejected and detail. The GIL is released while the audit computes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include <exactdp/operations/audit.h>
#include <exactdp/verification/audit.h>
#include <exactdp/verification/sample_reader.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using verification::AuditReport;
using verification::SampleCounter;
using verification::TestResult;
using Given = std::vector<std::pair<std::string, std::string>>;

// One Python int into the counter: int64 directly, larger through mpz_from_python_int.
void add_python_int(const py::handle& item, SampleCounter& counter) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(item.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred() != nullptr) throw py::error_already_set();
  if (overflow == 0) {
    counter.add(static_cast<std::int64_t>(v));
    return;
  }
  counter.add(mpz_from_python_int(item));
}

void count_samples(const py::object& samples, SampleCounter& counter) {
  if (py::isinstance<py::array_t<std::int64_t>>(samples)) {
    const auto a = samples.cast<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>();
    const std::int64_t* data = a.data();
    const py::ssize_t n = a.size();
    const py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < n; ++i) counter.add(data[i]);
    return;
  }
  for (const py::handle item : samples) {
    if (!PyLong_Check(item.ptr())) throw py::type_error("samples must be integers");
    add_python_int(item, counter);
  }
}

py::dict test_dict(const TestResult& t) {
  py::dict d;
  d["name"] = t.name;
  d["statistic_name"] = t.statistic_name;
  d["statistic"] = interval_to_dict(t.statistic);
  d["p_value"] = interval_to_dict(t.p_value);
  d["threshold"] = t.threshold.get_str();
  d["applicable"] = t.applicable;
  d["asymptotic"] = t.asymptotic;
  d["rejected"] = t.rejected;
  d["detail"] = t.detail;
  return d;
}

py::dict audit(const std::string& name, const Given& given, const py::object& samples, const std::string& alpha_text) {
  operations::AuditRequest request;
  request.law = name;
  request.parameters = given;
  request.alpha = alpha_text;
  request.spelling = operations::kPythonSpelling;
  const operations::AuditPlan plan = operations::plan_audit(request);
  SampleCounter counter = operations::audit_counter(plan);
  count_samples(samples, counter);
  AuditReport report;
  {
    const py::gil_scoped_release release;
    report = operations::run_audit(plan, counter);
  }
  py::list tests;
  for (const TestResult& t : report.tests) tests.append(test_dict(t));
  py::dict d;
  d["law"] = report.law;
  d["n"] = report.n;
  d["alpha"] = report.alpha.get_str();
  d["verdict"] = report.passed ? "pass" : "fail";
  d["passed"] = report.passed;
  d["tests"] = tests;
  return d;
}

}  // namespace

void register_audit(py::module_& m) {
  m.def("_audit", &audit, py::arg("law"), py::arg("parameters"), py::arg("samples"), py::arg("alpha"));
}

}  // namespace exactdp::python
