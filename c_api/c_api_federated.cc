// c_api_federated.cc — the federated round of the C interface (exactdp.h, "Federated rounds"):
// exactdp_fl_* over the operation `federated` (operations/federated.h) and the client encoder /
// server decoder of mechanisms/federated/.
//
// Order of checks: pointers (EXACTDP_E_NULL), params->struct_size and flags, the plan (every
// parameter, in plan_federated's order), the client seed (all-zero refused), then the buffers'
// sizes and the input's values (the encoder and decoder check them before writing). Outputs
// (*padded, *attempts, text buffers) are written only on success. The data path works in the
// caller's buffers; building the plan allocates the sampler's tables and D / 8 bytes of signs.
// double and float appear here only as storage types whose bit patterns are decoded and encoded
// exactly; no floating-point arithmetic is done on any value.
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/core/errors.h>
#include <exactdp/exactdp.h>
#include <exactdp/mechanisms/federated/client_encode.h>
#include <exactdp/mechanisms/federated/server_decode.h>
#include <exactdp/operations/federated.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

namespace exactdp::internal {
namespace {

std::string text_or(const char* text, const char* fallback) { return text == nullptr ? fallback : text; }

operations::FederatedReport report_of(const exactdp_fl_params* p) {
  const MpfrCacheRelease release;  // the plan's bounds use MPFR: leave nothing in a thread that ends
  require_non_null(p, "params");
  if (p->struct_size != sizeof(exactdp_fl_params)) {
    throw ParameterError("params.struct_size", "params.struct_size = " + std::to_string(p->struct_size) +
                                                   " is not this version's sizeof(exactdp_fl_params) = " +
                                                   std::to_string(sizeof(exactdp_fl_params)) + "; use exactdp_fl_params_init");
  }
  if ((p->flags & ~EXACTDP_FL_PLAIN) != 0) {
    throw ParameterError("flags", "flags = " + std::to_string(p->flags) + ": allowed 0 (hardened) or EXACTDP_FL_PLAIN");
  }
  require_non_null(p->clip, "clip");
  require_non_null(p->noise_value, "noise_value");
  operations::FederatedRequest r;
  r.dimension = std::to_string(p->dimension);
  r.clip = p->clip;
  if (p->granularity != nullptr) r.granularity = p->granularity;
  r.bits = std::to_string(p->bits);
  r.clients = std::to_string(p->clients);
  r.dropout = text_or(p->dropout, "0");
  r.noise = text_or(p->noise, "discrete-gaussian");
  r.noise_value = p->noise_value;
  r.beta = text_or(p->beta, "1/2");
  r.max_wrap = text_or(p->max_wrap, "1/1000000");
  for (std::size_t i = 0; i < r.rotation_seed.size(); ++i) r.rotation_seed[i] = p->rotation_seed[i];
  r.hardened = (p->flags & EXACTDP_FL_PLAIN) == 0;
  return operations::plan_federated(r);
}

// The client's private source: the OS CSPRNG, or a seeded stream (tests and audits only).
struct ClientBits {
  explicit ClientBits(const unsigned char* seed) {
    if (seed == nullptr) {
      source.emplace<SystemBits>();
      return;
    }
    Seed s{};
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = seed[i];
    const bool zero = sodium_is_zero(s.data(), s.size()) == 1;
    if (!zero) source.emplace<SeededBits>(s);
    sodium_memzero(s.data(), s.size());
    if (zero) throw ParameterError("seed", "seed: the all-zero seed is refused (a key everyone knows, or a buffer never filled)");
  }
  BitSource& bits() { return source.index() == 1 ? static_cast<BitSource&>(std::get<1>(source)) : std::get<2>(source); }
  std::variant<std::monostate, SystemBits, SeededBits> source;
};

// The client's encoding under a plan already built (pointers checked by the caller); returns the
// *attempts to report (0 when the vector was zeroed).
template <class Float>
unsigned encode_planned(const operations::FederatedReport& report, const Float* in, std::size_t n,
                        const unsigned char* seed, std::uint64_t* out, std::size_t out_len) {
  ClientBits bits(seed);
  mechanisms::EncodeReport r;
  try {
    r = mechanisms::encode_client<Float>(*report.plan, std::span<const Float>(in, n), std::span<std::uint64_t>(out, out_len),
                                         bits.bits());
  } catch (const ParameterError& e) {
    if (e.parameter() != "x") throw;
    throw ParameterError("in", "in" + std::string(e.what()).substr(1));  // "x[17] is NaN ..." -> "in[17] ..."
  }
  return r.zeroed ? 0 : r.attempts;
}

template <class Float>
int encode_c(const exactdp_fl_params* p, const Float* in, std::size_t n, const unsigned char* seed, std::uint64_t* out,
             std::size_t out_len, unsigned* attempts) {
  if (n > 0) require_non_null(in, "in");
  require_non_null(out, "out");
  const unsigned made = encode_planned(report_of(p), in, n, seed, out, out_len);
  if (attempts != nullptr) *attempts = made;
  return EXACTDP_OK;
}

// The same into uint32_t residues (bits <= 32): the encoder runs in the caller's uint64_t
// workspace `work` (work_len == D), which is then narrowed into out (out_len == D) and wiped.
template <class Float>
int encode_c_u32(const exactdp_fl_params* p, const Float* in, std::size_t n, const unsigned char* seed,
                 std::uint32_t* out, std::size_t out_len, std::uint64_t* work, std::size_t work_len, unsigned* attempts) {
  if (n > 0) require_non_null(in, "in");
  require_non_null(out, "out");
  require_non_null(work, "work");
  const operations::FederatedReport report = report_of(p);
  const unsigned bits = report.plan->spec().bits;
  if (bits > 32) {
    throw ParameterError("bits", "bits = " + std::to_string(bits) + " does not fit uint32_t residues: allowed bits <= 32 "
                                                                    "(or exactdp_fl_client_encode_f32 / _f64 with uint64_t)");
  }
  const std::size_t padded = report.plan->padded_dimension();
  if (out_len != padded) {
    throw ParameterError("out", "out has " + std::to_string(out_len) + " entries; allowed: the padded dimension " +
                                    std::to_string(padded));
  }
  if (work_len != padded) {
    throw ParameterError("work", "work has " + std::to_string(work_len) + " entries; allowed: the padded dimension " +
                                     std::to_string(padded));
  }
  const unsigned made = encode_planned(report, in, n, seed, work, work_len);
  for (std::size_t i = 0; i < padded; ++i) out[i] = static_cast<std::uint32_t>(work[i]);  // each < 2^bits <= 2^32
  sodium_memzero(work, padded * sizeof(std::uint64_t));
  if (attempts != nullptr) *attempts = made;
  return EXACTDP_OK;
}

template <class Float>
int decode_c(const exactdp_fl_params* p, std::uint64_t* sum, std::size_t sum_len, Float* out, std::size_t n) {
  require_non_null(sum, "sum");
  require_non_null(out, "out");
  const operations::FederatedReport report = report_of(p);
  mechanisms::decode_server<Float>(*report.plan, std::span<std::uint64_t>(sum, sum_len), std::span<Float>(out, n));
  return EXACTDP_OK;
}

// The same from uint32_t residues (bits <= 32): sum is read, the decoder works in the caller's
// uint64_t workspace `work` (work_len == D).
template <class Float>
int decode_c_u32(const exactdp_fl_params* p, const std::uint32_t* sum, std::size_t sum_len, Float* out, std::size_t n,
                 std::uint64_t* work, std::size_t work_len) {
  require_non_null(sum, "sum");
  require_non_null(out, "out");
  require_non_null(work, "work");
  const operations::FederatedReport report = report_of(p);
  mechanisms::decode_server<Float>(*report.plan, std::span<const std::uint32_t>(sum, sum_len),
                                   std::span<std::uint64_t>(work, work_len), std::span<Float>(out, n));
  return EXACTDP_OK;
}

}  // namespace
}  // namespace exactdp::internal

using exactdp::internal::guard;

extern "C" {

void exactdp_fl_params_init(exactdp_fl_params* params) {
  if (params == nullptr) return;
  *params = exactdp_fl_params{};
  params->struct_size = sizeof(exactdp_fl_params);
  params->bits = 32;
  params->clients = 1;
}

int exactdp_fl_padded_dimension(const exactdp_fl_params* params, size_t* padded) {
  return guard([&] {
    exactdp::internal::require_non_null(padded, "padded");
    const auto report = exactdp::internal::report_of(params);
    *padded = report.plan->padded_dimension();
    return EXACTDP_OK;
  });
}

int exactdp_fl_report(const exactdp_fl_params* params, char* wrap_probability, char* event, size_t len) {
  return guard([&] {
    exactdp::internal::require_non_null(wrap_probability, "wrap_probability");
    const auto report = exactdp::internal::report_of(params);
    if (event != nullptr && !report.event) {
      throw exactdp::ParameterError("noise", "noise = " + std::string(params->noise == nullptr ? "discrete-gaussian" : params->noise) + ": no accountant event for this round: " + report.no_event_reason);
    }
    if (event != nullptr) exactdp::internal::write_text(*report.event, event, len, "event");
    exactdp::internal::write_text(report.wrap_probability, wrap_probability, len, "wrap_probability");
    return EXACTDP_OK;
  });
}

int exactdp_fl_client_encode_f32(const exactdp_fl_params* params, const float* in, size_t n, const unsigned char* seed,
                                 uint64_t* out, size_t out_len, unsigned* attempts) {
  return guard([&] { return exactdp::internal::encode_c(params, in, n, seed, out, out_len, attempts); });
}

int exactdp_fl_client_encode_f64(const exactdp_fl_params* params, const double* in, size_t n, const unsigned char* seed,
                                 uint64_t* out, size_t out_len, unsigned* attempts) {
  return guard([&] { return exactdp::internal::encode_c(params, in, n, seed, out, out_len, attempts); });
}

int exactdp_fl_client_encode_f32_u32(const exactdp_fl_params* params, const float* in, size_t n,
                                     const unsigned char* seed, uint32_t* out, size_t out_len, uint64_t* work,
                                     size_t work_len, unsigned* attempts) {
  return guard([&] {
    return exactdp::internal::encode_c_u32(params, in, n, seed, out, out_len, work, work_len, attempts);
  });
}

int exactdp_fl_client_encode_f64_u32(const exactdp_fl_params* params, const double* in, size_t n,
                                     const unsigned char* seed, uint32_t* out, size_t out_len, uint64_t* work,
                                     size_t work_len, unsigned* attempts) {
  return guard([&] {
    return exactdp::internal::encode_c_u32(params, in, n, seed, out, out_len, work, work_len, attempts);
  });
}

int exactdp_fl_server_decode_f32(const exactdp_fl_params* params, uint64_t* sum, size_t sum_len, float* out, size_t n) {
  return guard([&] { return exactdp::internal::decode_c(params, sum, sum_len, out, n); });
}

int exactdp_fl_server_decode_f64(const exactdp_fl_params* params, uint64_t* sum, size_t sum_len, double* out, size_t n) {
  return guard([&] { return exactdp::internal::decode_c(params, sum, sum_len, out, n); });
}

int exactdp_fl_server_decode_f32_u32(const exactdp_fl_params* params, const uint32_t* sum, size_t sum_len, float* out,
                                     size_t n, uint64_t* work, size_t work_len) {
  return guard([&] { return exactdp::internal::decode_c_u32(params, sum, sum_len, out, n, work, work_len); });
}

int exactdp_fl_server_decode_f64_u32(const exactdp_fl_params* params, const uint32_t* sum, size_t sum_len, double* out,
                                     size_t n, uint64_t* work, size_t work_len) {
  return guard([&] { return exactdp::internal::decode_c_u32(params, sum, sum_len, out, n, work, work_len); });
}

}  // extern "C"
