// c_api_sampler.cc — the samplers of the C interface (exactdp.h): the per-law constructors (the
// generic exactdp_sampler_new of c_api_law.cc at a fixed law), batch int64 draws, decimal draws,
// and the hardened samplers' certified tau.
//
// Every handle holds a registry law's laws::Sampler. The hardened path of exactdp_sample_int64 is
// chosen once per call from the sampler's kind (a public fact) and is then a plain loop over the
// isochronous draw: no branch on a value, no range check, no exception path.
#include <gmpxx.h>

#include <cstdint>
#include <utility>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/core/interval.h>
#include <exactdp/exactdp.h>
#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/laws/c_interface_laws.h>
#include <exactdp/operations/draw_cost.h>
#include <exactdp/samplers/hardening.h>
#include <exactdp/core/rational.h>

namespace exactdp::internal {
namespace {

constexpr int kKnownFlags = EXACTDP_HARDENED;

// The options after validation: the C struct read once into C++ values.
struct SamplerOptions {
  bool hardened = false;
  const char* mean = nullptr;  // the integer mean's text; NULL: the law's default (0)
  std::optional<std::string> tau_bits{};  // its decimal text; nullopt (0 in C): the default
};

SamplerOptions flags_only(int flags) {
  SamplerOptions o;
  o.hardened = hardened_flag(flags);
  return o;
}

SamplerOptions read_options(const exactdp_sampler_options* options) {
  require_non_null(options, "options");
  if (options->struct_size != sizeof(exactdp_sampler_options)) {
    throw ParameterError::out_of_range(
        "options.struct_size", std::to_string(options->struct_size),
        "sizeof(exactdp_sampler_options) = " + std::to_string(sizeof(exactdp_sampler_options)) +
            " (call exactdp_sampler_options_init)");
  }
  SamplerOptions o = flags_only(options->flags);
  o.mean = options->mean;
  // Checked by the operation: only with EXACTDP_HARDENED, 40..128, naming tau_bits.
  if (options->tau_bits != 0) o.tau_bits = std::to_string(options->tau_bits);
  return o;
}

// The per-law constructors: the generic one (make_sampler, c_api_law.cc) at a fixed law
// (laws/c_interface_laws.h), with the noise parameter's text under its name and the mean when one is given. NULL text is
// EXACTDP_E_NULL naming the parameter, as before the generic call existed.
int make_additive(const laws::CInterfaceLaw& law, const char* noise_text, const SamplerOptions& o,
                  exactdp_sampler** out) {
  require_non_null(noise_text, law.noise);
  std::vector<std::pair<std::string, std::string>> given{{law.noise, noise_text}};
  if (o.mean != nullptr) given.emplace_back("mean", o.mean);
  *out = make_sampler(law.law, given, o.hardened, o.tau_bits).release();  // the last step: nothing after it can fail
  return EXACTDP_OK;
}

int make_bernoulli_exp(const char* gamma_text, int flags, exactdp_sampler** out) {
  if (flags_only(flags).hardened) {
    throw ParameterError("flags",
                         "flags = EXACTDP_HARDENED does not apply to Bernoulli(exp(-gamma)) (allowed: 0)");
  }
  const laws::CInterfaceLaw& law = laws::kCBernoulliExp;
  require_non_null(gamma_text, law.noise);
  *out = make_sampler(law.law, {{law.noise, gamma_text}}, false, std::nullopt).release();
  return EXACTDP_OK;
}

// n samples; hardened: a plain loop over the isochronous draw. A plain draw outside int64 is
// EXACTDP_E_RANGE (the draw is spent). A law whose sample is several draws is charged n of them
// first, as `sample -n` is (operations/draw_cost.h: EXACTDP_E_LIMIT naming "n", nothing drawn).
void fill(const exactdp_sampler& handle, BitSource& bits, std::int64_t* out, std::size_t n) {
  operations::check_sample_cost(*handle.law, handle.parameters, n, "n", true);
  const laws::Sampler& s = *handle.sampler;
  if (s.hardened()) {
    for (std::size_t i = 0; i < n; ++i) out[i] = s.sample_isochronous(bits);
    return;
  }
  if (s.sample_int64(bits, out, n) < n) {
    throw CApiError(EXACTDP_E_RANGE, "out: a sampled value does not fit in int64_t (use exactdp_sample_decimal)");
  }
}

std::string draw_decimal(const laws::Sampler& s, BitSource& bits) {
  if (s.hardened()) return std::to_string(s.sample_isochronous(bits));  // only the printing varies
  mpz_class v;
  s.sample(bits, v);
  return v.get_str();
}

// A hardened sampler, or EXACTDP_E_UNSUPPORTED saying why a plain one has no such number.
const laws::Sampler& hardened_only(const exactdp_sampler& s, const char* why) {
  if (!s.sampler->hardened()) throw CApiError(EXACTDP_E_UNSUPPORTED, std::string("sampler: not a hardened sampler (") + why + ")");
  return *s.sampler;
}

}  // namespace

bool hardened_flag(int flags) {
  if ((flags & ~kKnownFlags) != 0) {
    throw ParameterError::out_of_range("flags", std::to_string(flags),
                                       "0 or EXACTDP_HARDENED (" + std::to_string(EXACTDP_HARDENED) + ")");
  }
  return (flags & EXACTDP_HARDENED) != 0;
}

const mpq_class* tau_upper_or_null(const exactdp_sampler& s) noexcept {
  return s.sampler->hardened() ? &s.sampler->tau_upper() : nullptr;
}

}  // namespace exactdp::internal

using exactdp::internal::guard;
using exactdp::internal::require_non_null;
namespace internal = exactdp::internal;

extern "C" {

void exactdp_sampler_options_init(exactdp_sampler_options* options) {
  if (options == nullptr) return;
  *options = exactdp_sampler_options{};
  options->struct_size = sizeof(exactdp_sampler_options);
}

int exactdp_discrete_gaussian_new(const char* sigma2, int flags, exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    return internal::make_additive(exactdp::laws::kCDiscreteGaussian, sigma2, internal::flags_only(flags), out);
  });
}

int exactdp_discrete_gaussian_new_ex(const char* sigma2, const exactdp_sampler_options* options,
                                     exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    return internal::make_additive(exactdp::laws::kCDiscreteGaussian, sigma2, internal::read_options(options), out);
  });
}

int exactdp_discrete_laplace_new(const char* scale, int flags, exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    return internal::make_additive(exactdp::laws::kCDiscreteLaplace, scale, internal::flags_only(flags), out);
  });
}

int exactdp_discrete_laplace_new_ex(const char* scale, const exactdp_sampler_options* options,
                                    exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    return internal::make_additive(exactdp::laws::kCDiscreteLaplace, scale, internal::read_options(options), out);
  });
}

int exactdp_bernoulli_exp_new(const char* gamma, int flags, exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    return internal::make_bernoulli_exp(gamma, flags, out);
  });
}

void exactdp_sampler_free(exactdp_sampler* sampler) { delete sampler; }

int exactdp_sample_int64(const exactdp_sampler* sampler, exactdp_bits* bits, int64_t* out,
                         size_t n) {
  return guard([&] {
    require_non_null(sampler, "sampler");
    require_non_null(bits, "bits");
    if (n == 0) return EXACTDP_OK;
    require_non_null(out, "out");
    internal::fill(*sampler, *bits->source, out, n);
    return EXACTDP_OK;
  });
}

int exactdp_sample_decimal(const exactdp_sampler* sampler, exactdp_bits* bits, char* buf,
                           size_t len) {
  return guard([&] {
    require_non_null(sampler, "sampler");
    require_non_null(bits, "bits");
    require_non_null(buf, "buf");  // checked before the draw: a NULL buffer spends nothing
    internal::write_text(internal::draw_decimal(*sampler->sampler, *bits->source), buf, len, "buf");
    return EXACTDP_OK;
  });
}

int exactdp_sampler_is_hardened(const exactdp_sampler* sampler, int* out) {
  return guard([&] {
    require_non_null(sampler, "sampler");
    require_non_null(out, "out");
    *out = sampler->sampler->hardened() ? 1 : 0;
    return EXACTDP_OK;
  });
}

int exactdp_sampler_tau(const exactdp_sampler* sampler, char* buf, size_t len) {
  return guard([&] {
    require_non_null(sampler, "sampler");
    require_non_null(buf, "buf");
    const mpq_class& tau = internal::hardened_only(*sampler, "a plain sampler is exact: tau = 0").tau_upper();
    // Rounded up: the printed tau is >= tau_upper >= the true distance, so charging it is sound.
    const exactdp::Interval t(tau, 64 + 4 * EXACTDP_DECIMAL_DIGITS);
    internal::write_text(exactdp::to_decimal(t, EXACTDP_DECIMAL_DIGITS).upper, buf,
                         len, "buf");
    return EXACTDP_OK;
  });
}

int exactdp_sampler_bits_per_sample(const exactdp_sampler* sampler, uint64_t* out) {
  return guard([&] {
    require_non_null(sampler, "sampler");
    require_non_null(out, "out");
    *out = internal::hardened_only(*sampler, "a plain sampler's bit count varies").bits_per_sample();
    return EXACTDP_OK;
  });
}

}  // extern "C"
