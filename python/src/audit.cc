// audit.cc — verification::run_audit (verification/audit.h) on samples given from Python, against
// the law's exact reference law (laws::Law::reference_law): exactdp.audit.
//
// _audit(law, parameters, samples, alpha) parses the law's sampling parameters (Law::parse,
// Use::kSample: ParameterError naming the parameter), counts the samples (an int64 numpy array
// read directly; any other sequence of Python ints one by one, any size), runs the audit at
// overall level alpha (0 < alpha < 1, exact text) and returns its report as a dict: law,
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
#include <exactdp/laws/registry.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
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
  const laws::Law& law = laws::law_named(name);
  if (!law.supports(laws::Capability::kAudit)) {
    throw laws::UnsupportedError("law", "law = " + name + " has no audit reference law: allowed " +
                                            laws::law_names_with(laws::Capability::kAudit));
  }
  const std::unique_ptr<verification::ReferenceLaw> reference = law.reference_law(law.parse(given, laws::Use::kSample));
  const mpq_class alpha = parse_rational("alpha", alpha_text);
  if (alpha <= 0 || alpha >= 1) throw ParameterError::out_of_range("alpha", alpha_text, "0 < alpha < 1");
  SampleCounter counter = verification::make_audit_counter(*reference);
  count_samples(samples, counter);
  if (counter.n() == 0) throw ParameterError::out_of_range("samples", "0 samples", "at least one sample");
  AuditReport report;
  {
    const py::gil_scoped_release release;
    report = verification::run_audit(*reference, counter, alpha);
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
