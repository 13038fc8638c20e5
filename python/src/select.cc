// select.cc — exactdp.select: the operation `select` (operations/select.h) from Python values.
//
// _select(mechanism, noise, epsilon, sensitivity, monotonic, top, n, delta, scores, rng) builds a
// SelectRequest with Python's spelling (every check and the work limits are the operation's),
// reads the scores (exact texts) within the command line's size limits, draws n selections of
// top indices each (GIL released; rng None: the OS CSPRNG, or an exactdp.SeededBits, whose
// stream is that of `exactdp select --seed`) and returns a dict: "mechanism", "noise" (None
// unless report-noisy-max), "epsilon", "sensitivity", "monotonic", "candidates", "top", "n",
// "grid_denominator" / "noise_scale" (report-noisy-max with Laplace noise, else None),
// "selections" (an int64 array of shape (n, top)), "rounds", "basic_epsilon", "delta",
// "optimal_epsilon" (interval dict or None), "tolerance_met" and "optimal_note" (None when
// empty); exact numbers as text.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "seeded_source.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/selection/score_budget.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/operations/select.h>
#include <exactdp/samplers/system_bits.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

using Array = py::array_t<std::int64_t>;

// The scores' exact values, within the command line's limits: 1..kMaxCandidates scores and
// kMaxScoreBits bits in all, counted as they are read (score_budget.h).
std::vector<mpq_class> score_values(const std::vector<std::string>& texts) {
  if (texts.empty() || texts.size() > mechanisms::kMaxCandidates) {
    throw ParameterError::out_of_range("scores", std::to_string(texts.size()) + " scores",
                                       "1 to " + std::to_string(mechanisms::kMaxCandidates) + " scores");
  }
  std::vector<mpq_class> out;
  out.reserve(texts.size());
  mechanisms::ScoreBudget budget;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    out.push_back(parse_rational("scores", texts[i]));
    budget.add(out.back(), "scores[" + std::to_string(i) + "]");
  }
  return out;
}

// The plan's draws into `into` (row-major, n rows of top indices).
void draw_all(mechanisms::Selection& selection, BitSource& bits, const operations::SelectPlan& plan,
              std::int64_t* into) {
  for (unsigned long long d = 0; d < plan.draws; ++d) {
    if (plan.top == 1) {
      *into++ = static_cast<std::int64_t>(selection.select(bits));
      continue;
    }
    for (const std::size_t i : selection.select_top(bits, static_cast<std::size_t>(plan.top))) {
      *into++ = static_cast<std::int64_t>(i);
    }
  }
}

py::object text_or_none(const std::optional<mpq_class>& value) {
  return value ? py::object(py::str(to_string(*value))) : py::object(py::none());
}

py::dict selection_dict(const operations::SelectPlan& plan, const mechanisms::Selection& selection) {
  const mechanisms::SelectionOptions& o = plan.options;
  const bool rnm = o.mechanism == mechanisms::SelectionMechanism::kReportNoisyMax;
  const bool laplace = rnm && o.noise == mechanisms::NoiseKind::kDiscreteLaplace;
  py::dict d;
  d["mechanism"] = mechanisms::to_string(o.mechanism);
  d["noise"] = rnm ? py::object(py::str(mechanisms::to_string(o.noise))) : py::object(py::none());
  d["epsilon"] = to_string(o.epsilon);
  d["sensitivity"] = to_string(o.sensitivity);
  d["monotonic"] = o.monotonic;
  d["candidates"] = selection.candidates();
  d["top"] = plan.top;
  d["n"] = plan.draws;
  d["grid_denominator"] =
      laplace ? py::object(py::str(selection.grid_denominator().get_str())) : py::object(py::none());
  d["noise_scale"] = laplace ? py::object(py::str(to_string(selection.noise_scale()))) : py::object(py::none());
  return d;
}

void add_guarantee(py::dict& d, const operations::SelectPlan& plan, const operations::SelectGuarantee& g) {
  d["rounds"] = g.rounds.get_str();
  d["basic_epsilon"] = to_string(g.basic);
  d["delta"] = text_or_none(plan.delta);
  d["optimal_epsilon"] = g.optimal ? py::object(interval_to_dict(g.optimal->value)) : py::object(py::none());
  d["tolerance_met"] = g.optimal ? py::object(py::bool_(g.optimal->tolerance_met)) : py::object(py::none());
  d["optimal_note"] = g.optimal_note.empty() ? py::object(py::none()) : py::object(py::str(g.optimal_note));
}

py::dict select(const std::string& mechanism, const std::optional<std::string>& noise, const std::string& epsilon,
                const std::string& sensitivity, bool monotonic, const std::string& top, const std::string& n,
                const std::optional<std::string>& delta, const std::vector<std::string>& scores,
                const py::object& rng) {
  operations::SelectRequest request{.mechanism = mechanism, .noise = noise, .epsilon = epsilon,
                                    .sensitivity = sensitivity, .monotonic = monotonic, .top = top,
                                    .draws = n, .delta = delta};
  request.spelling = operations::kPythonSpelling;
  const operations::SelectPlan plan = operations::plan_select(request);
  mechanisms::Selection selection = operations::make_selection(plan, score_values(scores));
  const operations::SelectGuarantee guarantee = operations::select_guarantee(plan);
  PySeededBits* seeded = rng.is_none() ? nullptr : rng.cast<PySeededBits*>();
  Array selections({static_cast<py::ssize_t>(plan.draws), static_cast<py::ssize_t>(plan.top)});
  std::int64_t* into = selections.mutable_data();
  {
    const py::gil_scoped_release release;
    if (seeded != nullptr) {
      const std::lock_guard<std::mutex> lock(seeded->mutex());
      draw_all(selection, seeded->bits(), plan, into);
    } else {
      SystemBits bits;
      draw_all(selection, bits, plan, into);
    }
  }
  py::dict d = selection_dict(plan, selection);
  d["selections"] = selections;
  add_guarantee(d, plan, guarantee);
  return d;
}

}  // namespace

void register_select(py::module_& m) {
  m.def("_select", &select, py::arg("mechanism"), py::arg("noise"), py::arg("epsilon"), py::arg("sensitivity"),
        py::arg("monotonic"), py::arg("top"), py::arg("n"), py::arg("delta"), py::arg("scores"), py::arg("rng"));
}

}  // namespace exactdp::python
