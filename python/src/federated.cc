// federated.cc — exactdp.federated's C++ core: the operation `federated` (operations/federated.h)
// and the client encoder / server decoder of mechanisms/federated/ on numpy buffers.
//
// _FlPlan(dimension, clip, granularity, bits, clients, dropout, noise, noise_value, beta,
//         max_wrap, rotation_seed, hardened): the validated plan and its report (texts).
//   .encode(x, out, rng) -> (attempts, zeroed, clipped): x float64/float32 (d), out uint64 (D);
//     rng None (the OS CSPRNG) or an exactdp.SeededBits (its stream goes on, under its lock).
//   .hardened_run_delta(epsilon, delta, rounds) -> {"lower", "upper"}: the run's delta with the
//     hardened shares' tau charged (operations::hardened_run_delta).
//   .event_law, .event_noise, .clients, .dropout, .sensitivity, .padded_dimension: the round's
//     event typed (operations::FederatedEvent), for exactdp.events' classes; .event: its text.
//   .decode(sum, out): sum uint64 (D; overwritten: the workspace) or uint32 (bits <= 32; read, the
//     decoder widening it into a workspace of its own), out float64/float32 (d).
// The buffers must be C-contiguous (the Python layer makes them so). GIL: released for the
// plan's setup and for encoding and decoding (the arrays are kept alive by the caller).
// double and float appear here only as storage types whose bit patterns are decoded and encoded
// exactly; no floating-point arithmetic is done on any value.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mpfr.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.h"
#include "seeded_source.h"
#include <exactdp/core/decimal.h>
#include <exactdp/mechanisms/federated/client_encode.h>
#include <exactdp/mechanisms/federated/server_decode.h>
#include <exactdp/operations/federated.h>
#include <exactdp/samplers/system_bits.h>

namespace py = pybind11;

namespace exactdp::python {
namespace {

struct PyFlPlan {
  operations::FederatedReport report;
};

std::unique_ptr<PyFlPlan> make_plan(std::size_t dimension, const std::string& clip, const std::optional<std::string>& granularity,
                                    const std::string& bits, const std::string& clients, const std::string& dropout,
                                    const std::string& noise, const std::string& noise_value, const std::string& beta,
                                    const std::string& max_wrap, const py::bytes& rotation_seed, bool hardened) {
  operations::FederatedRequest r;
  r.dimension = std::to_string(dimension);
  r.clip = clip;
  r.granularity = granularity;
  r.bits = bits;
  r.clients = clients;
  r.dropout = dropout;
  r.noise = noise;
  r.noise_value = noise_value;
  r.beta = beta;
  r.max_wrap = max_wrap;
  const std::string seed = rotation_seed;
  if (seed.size() != r.rotation_seed.size()) {
    throw ParameterError("rotation_seed", "rotation_seed has " + std::to_string(seed.size()) + " bytes; allowed: exactly 32");
  }
  for (std::size_t i = 0; i < seed.size(); ++i) r.rotation_seed[i] = static_cast<unsigned char>(seed[i]);
  r.hardened = hardened;
  auto plan = std::make_unique<PyFlPlan>();
  const py::gil_scoped_release release;
  plan->report = operations::plan_federated(r);
  mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);  // the bounds' MPFR constants: nothing left in a thread that ends
  return plan;
}

void require_contiguous(const py::array& a, const char* name, bool writeable) {
  if ((a.flags() & py::array::c_style) == 0 || (writeable && !a.writeable())) {
    throw py::type_error(std::string(name) + " must be a C-contiguous" + (writeable ? " writeable" : "") + " array");
  }
}

template <class Float>
mechanisms::EncodeReport encode_with(const mechanisms::FederatedPlan& plan, const py::array& x, py::array& out,
                                     PySeededBits* rng) {
  const std::span<const Float> in(static_cast<const Float*>(x.data()), static_cast<std::size_t>(x.size()));
  const std::span<std::uint64_t> dst(static_cast<std::uint64_t*>(out.mutable_data()), static_cast<std::size_t>(out.size()));
  const py::gil_scoped_release release;
  if (rng != nullptr) {
    const std::lock_guard<std::mutex> lock(rng->mutex());
    return mechanisms::encode_client<Float>(plan, in, dst, rng->bits());
  }
  SystemBits bits;
  return mechanisms::encode_client<Float>(plan, in, dst, bits);
}

std::tuple<unsigned, bool, bool> encode(const PyFlPlan& p, const py::array& x, py::array& out, const py::object& rng) {
  PySeededBits* seeded = rng.is_none() ? nullptr : rng.cast<PySeededBits*>();
  require_contiguous(x, "x", false);
  require_contiguous(out, "out", true);
  if (!out.dtype().is(py::dtype::of<std::uint64_t>())) throw py::type_error("out must be a uint64 array");
  mechanisms::EncodeReport r;
  if (x.dtype().is(py::dtype::of<double>())) {
    r = encode_with<double>(*p.report.plan, x, out, seeded);
  } else if (x.dtype().is(py::dtype::of<float>())) {
    r = encode_with<float>(*p.report.plan, x, out, seeded);
  } else {
    throw py::type_error("x must be a float64 or float32 array");
  }
  return {r.attempts, r.zeroed, r.clipped};
}

template <class Float>
void decode_into(const mechanisms::FederatedPlan& plan, py::array& sum, bool narrow, void* dst, std::size_t n) {
  const auto size = static_cast<std::size_t>(sum.size());
  const std::span<Float> out(static_cast<Float*>(dst), n);
  if (narrow) {
    const std::span<const std::uint32_t> residues(static_cast<const std::uint32_t*>(sum.data()), size);
    const py::gil_scoped_release release;
    std::vector<std::uint64_t> work(size);
    mechanisms::decode_server<Float>(plan, residues, work, out);
    return;
  }
  const std::span<std::uint64_t> work(static_cast<std::uint64_t*>(sum.mutable_data()), size);
  const py::gil_scoped_release release;
  mechanisms::decode_server<Float>(plan, work, out);
}

void decode(const PyFlPlan& p, py::array& sum, py::array& out) {
  const bool narrow = sum.dtype().is(py::dtype::of<std::uint32_t>());
  require_contiguous(sum, "sum", !narrow);
  require_contiguous(out, "out", true);
  if (!narrow && !sum.dtype().is(py::dtype::of<std::uint64_t>())) throw py::type_error("sum must be a uint64 or uint32 array");
  const auto n = static_cast<std::size_t>(out.size());
  const bool is64 = out.dtype().is(py::dtype::of<double>());
  if (!is64 && !out.dtype().is(py::dtype::of<float>())) throw py::type_error("out must be a float64 or float32 array");
  void* dst = out.mutable_data();
  if (is64) {
    decode_into<double>(*p.report.plan, sum, narrow, dst, n);
  } else {
    decode_into<float>(*p.report.plan, sum, narrow, dst, n);
  }
}

}  // namespace

void register_federated(py::module_& m) {
  py::class_<PyFlPlan>(m, "_FlPlan")
      .def(py::init(&make_plan), py::arg("dimension"), py::arg("clip"), py::arg("granularity"), py::arg("bits"),
           py::arg("clients"), py::arg("dropout"), py::arg("noise"), py::arg("noise_value"), py::arg("beta"),
           py::arg("max_wrap"), py::arg("rotation_seed"), py::arg("hardened"))
      .def("encode", &encode, py::arg("x"), py::arg("out"), py::arg("rng"))
      .def("decode", &decode, py::arg("sum"), py::arg("out"))
      .def(
          "hardened_run_delta",
          [](const PyFlPlan& p, const std::string& epsilon, const std::string& delta, const std::string& rounds) {
            return interval_to_dict(operations::hardened_run_delta(p.report, epsilon, delta, rounds));
          },
          py::arg("epsilon"), py::arg("delta"), py::arg("rounds"))
      .def_property_readonly("padded_dimension", [](const PyFlPlan& p) { return p.report.plan->padded_dimension(); })
      .def_property_readonly("granularity_exponent", [](const PyFlPlan& p) { return p.report.plan->granularity_exponent(); })
      .def_property_readonly("modulus_bits", [](const PyFlPlan& p) { return p.report.plan->spec().bits; })
      .def_property_readonly("norm_bound", [](const PyFlPlan& p) { return p.report.norm_bound; })
      .def_property_readonly("sensitivity", [](const PyFlPlan& p) { return p.report.sensitivity; })
      .def_property_readonly("retry_probability", [](const PyFlPlan& p) { return p.report.retry_probability; })
      .def_property_readonly("wrap_probability", [](const PyFlPlan& p) { return p.report.wrap_probability; })
      .def_property_readonly("hardened_tau", [](const PyFlPlan& p) { return p.report.hardened_tau; })
      .def_property_readonly("event", [](const PyFlPlan& p) { return p.report.event; })
      .def_property_readonly("event_law",
                             [](const PyFlPlan& p) {
                               const auto& e = p.report.event_fields;
                               return e ? std::optional<std::string>(e->law) : std::nullopt;
                             })
      .def_property_readonly("event_noise",
                             [](const PyFlPlan& p) { return p.report.event_fields ? p.report.event_fields->noise : ""; })
      .def_property_readonly("clients", [](const PyFlPlan& p) { return p.report.plan->spec().clients; })
      .def_property_readonly("dropout", [](const PyFlPlan& p) { return parameter_text(p.report.plan->spec().dropout); })
      .def_property_readonly("no_event_reason", [](const PyFlPlan& p) { return p.report.no_event_reason; });
}

}  // namespace exactdp::python
