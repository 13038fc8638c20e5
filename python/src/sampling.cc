// sampling.cc — the law registry (laws/registry.h) and exact samples into numpy arrays.
//
// _laws() lists every law of the registry (operations::list_laws, as `exactdp laws`): its name,
// summary, parameters (name, kind, role, default, range, help) and capabilities.
//
// _sample(law, parameters, hardened, tau_bits, n, rng) draws n samples of the law named `law`
// (its one spelling, "discrete-gaussian") at `parameters`, a list of (name, exact text) pairs
// that the Python layer wrote exactly from int / Fraction / Decimal / str. They go into an
// operations::SampleRequest: the checks, the count limit (size <= 10^10) and the sampler are the
// operation's (operations/sample.h), run before any bit is drawn. Each draw is exactly the CLI's
// (`exactdp sample`): the same sampler, the same bit stream, so a SeededBits with the same seed
// gives the same numbers as `--seed HEX`.
//
// Returns (array, overflow): an int64 numpy array of n values and a list of (index, hex text)
// for the draws that do not fit in int64 (their slot in the array holds 0); the Python layer
// turns a non-empty overflow into an object array of Python ints.
//
// GIL: released while drawing. The array is allocated before and is not visible to Python until
// _sample returns. A SeededBits is guarded by its own mutex (taken after the GIL is released, so
// two threads sharing one source serialize instead of racing); rng=None uses a SystemBits owned
// by the calling thread (thread_local), so threads never share OS-CSPRNG buffers.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sodium.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "seeded_source.h"
#include <exactdp/laws/registry.h>
#include <exactdp/core/errors.h>
#include <exactdp/operations/laws.h>
#include <exactdp/operations/sample.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

// The 32 bytes of a bytes / bytearray / memoryview seed (a memoryview through its buffer, any
// contiguous layout of 32 bytes), or a str of 64 hex digits.
Seed seed_bytes(const py::object& seed) {
  Seed s{};
  if (py::isinstance<py::str>(seed)) return parse_seed_hex("seed", seed.cast<std::string>());
  if (!py::isinstance<py::bytes>(seed) && !py::isinstance<py::bytearray>(seed) &&
      !py::isinstance<py::memoryview>(seed)) {
    throw py::type_error("seed must be 32 bytes (bytes, bytearray or memoryview) or a str of 64 hex digits");
  }
  const py::bytes raw = py::reinterpret_steal<py::bytes>(PyBytes_FromObject(seed.ptr()));
  if (!raw) throw py::error_already_set();
  const std::string text = raw.cast<std::string>();
  if (text.size() != s.size()) {
    throw ParameterError::out_of_range("seed", std::to_string(text.size()) + " bytes",
                                       "exactly 32 bytes (or 64 hex digits)");
  }
  std::memcpy(s.data(), text.data(), s.size());
  return s;
}

// The all-zero seed is refused unless allow_weak (the CLI's --allow-weak-seed, the C interface's
// allow_weak): a key everyone knows, or a buffer never filled. sodium_is_zero reads all 32 bytes.
std::unique_ptr<PySeededBits> seeded_from_object(const py::object& seed, bool allow_weak) {
  Seed s = seed_bytes(seed);
  if (sodium_is_zero(s.data(), s.size()) == 1 && !allow_weak) {
    throw ParameterError("seed",
                         "seed: the all-zero seed is refused (a key everyone knows, or a buffer never "
                         "filled); pass allow_weak=True if a test really needs it");
  }
  auto bits = std::make_unique<PySeededBits>(s);
  sodium_memzero(s.data(), s.size());
  return bits;
}

BitSource& thread_system_bits() {
  thread_local std::unique_ptr<SystemBits> bits;
  if (!bits) bits = std::make_unique<SystemBits>();
  return *bits;
}

std::string hex_of(const mpz_class& v) {
  std::string s(mpz_sizeinbase(v.get_mpz_t(), 16) + 2, '\0');
  mpz_get_str(s.data(), 16, v.get_mpz_t());
  s.resize(std::strlen(s.c_str()));
  return s;
}

using Overflow = std::vector<std::pair<py::ssize_t, std::string>>;
using Given = std::vector<std::pair<std::string, std::string>>;

py::tuple sample(const std::string& law, const Given& given, bool hardened, const std::optional<unsigned>& tau_bits,
                 py::ssize_t n, const py::object& rng) {
  operations::SampleRequest request{law, given, hardened, {}, operations::kPythonSpelling};
  if (tau_bits) request.tau_bits = std::to_string(*tau_bits);
  const operations::SamplePlan plan = operations::plan_sample(request);
  const std::shared_ptr<const laws::Sampler> sampler = plan.sampler;
  const auto count =
      static_cast<py::ssize_t>(operations::checked_sample_count(*plan.law, plan.params, "size", std::to_string(n)));
  PySeededBits* seeded = rng.is_none() ? nullptr : rng.cast<PySeededBits*>();
  py::array_t<std::int64_t> result(count);
  std::int64_t* out = result.mutable_data();
  std::vector<WideValue> wide;
  {
    const py::gil_scoped_release release;
    if (seeded != nullptr) {
      const std::lock_guard<std::mutex> lock(seeded->mutex());
      sampler->sample_wide(seeded->bits(), out, static_cast<std::size_t>(count), wide);
    } else {
      sampler->sample_wide(thread_system_bits(), out, static_cast<std::size_t>(count), wide);
    }
  }
  py::list big;
  for (const WideValue& w : wide) big.append(py::make_tuple(static_cast<py::ssize_t>(w.index), hex_of(w.value)));
  return py::make_tuple(result, big);
}

py::list laws_list() {
  py::list out;
  for (const operations::LawEntry& law : operations::list_laws().laws) {
    py::list parameters;
    for (const operations::LawParameterEntry& p : law.parameters) {
      py::dict d;
      d["name"] = p.name;
      d["kind"] = p.type;
      d["role"] = p.role;
      d["required"] = p.required;
      d["default"] = p.default_value ? py::object(py::str(*p.default_value)) : py::object(py::none());
      d["range"] = p.range;
      d["help"] = p.help;
      parameters.append(d);
    }
    py::dict d;
    d["name"] = law.name;
    d["summary"] = law.summary;
    d["parameters"] = parameters;
    d["capabilities"] = law.supports;
    out.append(d);
  }
  return out;
}

}  // namespace

void register_sampling(py::module_& m) {
  py::class_<PySeededBits>(m, "SeededBits")
      .def(py::init(&seeded_from_object), py::arg("seed"), py::kw_only(), py::arg("allow_weak") = false)
      .def_property_readonly("bits_consumed", &PySeededBits::bits_consumed);
  m.def("_sample", &sample, py::arg("law"), py::arg("parameters"), py::arg("hardened"), py::arg("tau_bits"),
        py::arg("n"), py::arg("rng"));
  m.def("_laws", &laws_list);
}

}  // namespace exactdp::python
