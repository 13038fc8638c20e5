// sampling.cc — exact samples into numpy arrays.
//
// _sample(law, options, n, rng) draws n samples of `law` ("discrete-gaussian",
// "discrete-laplace", "bernoulli-exp") whose parameters are given as the CLI's options
// (["--sigma2", "9/4", "--mean", "0", "--hardened"]), validated by the CLI's own parser
// (cli/sampler_spec.h) before any bit is drawn. Each draw is exactly the CLI's
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

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bindings.h"
#include "cli/args.h"
#include "cli/sampler_spec.h"
#include <exactdp/core/errors.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

// A reproducible bit source shared with Python; FOR TESTS AND DEMOS ONLY (SECURITY.md).
class PySeededBits {
 public:
  explicit PySeededBits(const Seed& seed) : bits_(seed) {}
  SeededBits& bits() { return bits_; }
  std::mutex& mutex() { return mutex_; }
  std::uint64_t bits_consumed() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return bits_.bits_consumed();
  }

 private:
  SeededBits bits_;
  std::mutex mutex_;
};

std::unique_ptr<PySeededBits> seeded_from_object(const py::object& seed) {
  Seed s{};
  if (py::isinstance<py::str>(seed)) {
    return std::make_unique<PySeededBits>(parse_seed_hex("seed", seed.cast<std::string>()));
  }
  if (py::isinstance<py::bytes>(seed) || py::isinstance<py::bytearray>(seed) ||
      py::isinstance<py::memoryview>(seed)) {
    const std::string raw = py::bytes(seed).cast<std::string>();
    if (raw.size() != s.size()) {
      throw ParameterError::out_of_range("seed", std::to_string(raw.size()) + " bytes",
                                         "exactly 32 bytes (or 64 hex digits)");
    }
    std::memcpy(s.data(), raw.data(), s.size());
    return std::make_unique<PySeededBits>(s);
  }
  throw py::type_error("seed must be 32 bytes or a string of 64 hex digits");
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

// Every law through its registry sampler (laws/law.h): the batch that keeps every value, the same
// values and bits as one-by-one draws; a value outside int64 is kept whole, never redrawn, and no
// law is ever treated as another (the hardened samplers' batch is the isochronous loop).
void draw_into(const cli::SamplerSpec& spec, BitSource& bits, std::int64_t* out, py::ssize_t n,
               Overflow& overflow) {
  std::vector<WideValue> wide;
  spec.sampler->sample_wide(bits, out, static_cast<std::size_t>(n), wide);
  for (const WideValue& w : wide) overflow.emplace_back(static_cast<py::ssize_t>(w.index), hex_of(w.value));
}

py::tuple sample(const std::string& law, const std::vector<std::string>& options, py::ssize_t n,
                 const py::object& rng) {
  static_assert(sizeof(long) == sizeof(std::int64_t), "mpz_get_si must give an int64");
  std::vector<cli::OptionSpec> specs = cli::law_option_specs();
  const cli::ParsedArgs parsed(options, specs);
  if (!parsed.positionals().empty()) throw cli::UsageError("unexpected argument " + parsed.positionals()[0]);
  const cli::SamplerSpec spec = cli::parse_sampler_spec(law, parsed);
  if (n < 0) throw ParameterError::out_of_range("size", std::to_string(n), "size >= 0");
  PySeededBits* seeded = rng.is_none() ? nullptr : rng.cast<PySeededBits*>();
  py::array_t<std::int64_t> result(n);
  std::int64_t* out = result.mutable_data();
  Overflow overflow;
  {
    const py::gil_scoped_release release;
    if (seeded != nullptr) {
      const std::lock_guard<std::mutex> lock(seeded->mutex());
      draw_into(spec, seeded->bits(), out, n, overflow);
    } else {
      draw_into(spec, thread_system_bits(), out, n, overflow);
    }
  }
  py::list big;
  for (auto& [index, hex] : overflow) big.append(py::make_tuple(index, hex));
  return py::make_tuple(result, big);
}

}  // namespace

void register_sampling(py::module_& m) {
  py::class_<PySeededBits>(m, "SeededBits")
      .def(py::init(&seeded_from_object), py::arg("seed"))
      .def_property_readonly("bits_consumed", &PySeededBits::bits_consumed);
  m.def("_sample", &sample, py::arg("law"), py::arg("options"), py::arg("n"), py::arg("rng"));
}

}  // namespace exactdp::python
