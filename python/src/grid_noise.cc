// grid_noise.cc — exactdp.add_noise's C++ core: the operation add-noise (operations/add_noise.h:
// its checks and the threads limit) on a numpy float64 / float32 buffer.
//
// _add_noise(x, out, law, parameter, value, granularity_exponent, hardened, rng, threads, before_noise) -> k
//   x, out: C-contiguous numpy arrays of the same dtype (float64 or float32) and size (the Python
//   layer makes them so; out may be x). parameter / value: "sigma", "sigma2" or "scale" and its
//   exact text. granularity_exponent: None (automatic) or k. threads: its integer text (checked
//   by the operation: 1..256). rng: None (the OS CSPRNG, one
//   source per thread) or an exactdp.SeededBits: then 256 bits are taken from it (under its lock)
//   as the key of the chunked substreams, so the output does not depend on `threads` and the
//   next call with the same source gives fresh noise. before_noise: None or a callable run (with
//   the GIL) after every check of the request and before any noise is drawn (the accountant's
//   charge). Returns the k used (g = 2^-k).
// _noise_granularity(law, parameter, value, granularity_exponent) -> k: what _add_noise would use.
// GIL: released for the sampler's setup and the noising (the arrays are kept alive by the caller's
// references; nothing Python is touched without it).
// double and float appear here only as storage types whose bit patterns are
// decoded and encoded exactly (std::bit_cast and integer operations); no floating-point
// arithmetic is done on any value.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sodium.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "bindings.h"
#include "seeded_source.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/add_noise.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

// 256 bits of the caller's seeded source, as the key of this call's chunk substreams.
Seed derived_seed(PySeededBits& rng) {
  Seed s{};
  const std::lock_guard<std::mutex> lock(rng.mutex());
  for (std::size_t word = 0; word < 4; ++word) {
    const std::uint64_t w = rng.bits().bits(64);
    for (std::size_t b = 0; b < 8; ++b) s[word * 8 + b] = static_cast<unsigned char>(w >> (56 - 8 * b));
  }
  return s;
}

// Runs without the GIL (the caller released it): reads and writes the raw buffers only.
template <class Float>
void run(const operations::AddNoisePlan& plan, const void* x, void* out, std::size_t n, PySeededBits* rng) {
  const auto* in = static_cast<const Float*>(x);
  auto* dst = static_cast<Float*>(out);
  std::optional<Seed> seed;
  if (rng != nullptr) seed = derived_seed(*rng);
  try {
    operations::add_noise(plan, std::span<const Float>(in, n), std::span<Float>(dst, n), seed);
  } catch (...) {
    if (seed) sodium_memzero(seed->data(), seed->size());
    throw;
  }
  if (seed) sodium_memzero(seed->data(), seed->size());
}

long add_noise(const py::array& x, py::array& out, const std::string& law, const std::string& parameter,
               const std::string& value, const std::optional<long>& granularity_exponent, bool hardened,
               const py::object& rng, const std::string& threads, const py::object& before_noise) {
  PySeededBits* seeded = rng.is_none() ? nullptr : rng.cast<PySeededBits*>();
  const bool is64 = x.dtype().is(py::dtype::of<double>());
  if ((!is64 && !x.dtype().is(py::dtype::of<float>())) || !out.dtype().is(x.dtype())) {
    throw py::type_error("x and out must both be float64 or both float32 arrays");
  }
  if ((x.flags() & py::array::c_style) == 0 || (out.flags() & py::array::c_style) == 0 || !out.writeable()) {
    throw py::type_error("x and out must be C-contiguous (out writeable)");
  }
  const auto n = static_cast<std::size_t>(x.size());
  const void* in = x.data();
  void* dst = out.mutable_data();
  const operations::AddNoiseRequest request{law, parameter, value, granularity_exponent, hardened, threads, "x"};
  // The sampler's setup (a few milliseconds at the automatic granularity) and the draws run
  // without the GIL, so other Python threads run meanwhile (a DP-SGD step computes while the
  // next step's noise is drawn).
  std::optional<operations::AddNoisePlan> plan;
  {
    const py::gil_scoped_release release;
    plan = operations::plan_add_noise(request);
    operations::check_add_noise_cost(*plan, n);  // a refusal charges nothing
  }
  if (!before_noise.is_none()) before_noise();  // the accountant: after every check, before any draw
  const py::gil_scoped_release release;
  if (is64) {
    run<double>(*plan, in, dst, n, seeded);
  } else {
    run<float>(*plan, in, dst, n, seeded);
  }
  return plan->noise.granularity_exponent();
}

long noise_granularity(const std::string& law, const std::string& parameter, const std::string& value,
                       const std::optional<long>& granularity_exponent) {
  return operations::plan_add_noise({law, parameter, value, granularity_exponent}).noise.granularity_exponent();
}

}  // namespace

void register_grid_noise(py::module_& m) {
  m.def("_add_noise", &add_noise, py::arg("x"), py::arg("out"), py::arg("law"), py::arg("parameter"),
        py::arg("value"), py::arg("granularity_exponent"), py::arg("hardened"), py::arg("rng"), py::arg("threads"),
        py::arg("before_noise"));
  m.def("_noise_granularity", &noise_granularity, py::arg("law"), py::arg("parameter"), py::arg("value"),
        py::arg("granularity_exponent"));
}

}  // namespace exactdp::python
