// c_api_sampler.cc — the samplers of the C interface (exactdp.h): construction from decimal text,
// batch int64 draws, decimal draws, and the hardened samplers' certified tau.
//
// The hardened path of exactdp_sample_int64 is chosen once per call from the sampler's kind (a
// public fact) and is then a plain loop over the isochronous draw: no branch on a value, no range
// check, no exception path. The registry samplers of exactdp_sampler_new (c_api_law.cc) take the
// same two paths through laws::Sampler.
#include <gmpxx.h>

#include <cstdint>
#include <utility>
#include <optional>
#include <string>

#include <exactdp/core/decimal.h>
#include <exactdp/core/interval.h>
#include <exactdp/exactdp.h>
#include <exactdp/mechanisms/internal/c_api_support.h>
#include <exactdp/samplers/hardening.h>
#include <exactdp/core/rational.h>

namespace exactdp::internal {
namespace {

constexpr int kKnownFlags = EXACTDP_HARDENED;

// The options after validation: the C struct read once into C++ values.
struct SamplerOptions {
  bool hardened = false;
  mpz_class mean = 0;
  Hardening hardening{};
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
  if (options->mean != nullptr) o.mean = parse_integer("mean", options->mean);
  if (options->tau_bits != 0) {
    if (!o.hardened) {
      throw ParameterError("tau_bits", "tau_bits = " + std::to_string(options->tau_bits) +
                                           " applies only with EXACTDP_HARDENED (allowed: 0)");
    }
    o.hardening.tau_bits = options->tau_bits;  // range-checked by make(), naming tau_bits
  }
  return o;
}

// Hands a ready sampler to the caller (the last step: nothing after it can fail).
template <class Params>
void publish(exactdp_sampler** out, Params params) {
  *out = new exactdp_sampler{std::move(params)};
}

int make_gaussian(const char* sigma2_text, const SamplerOptions& o, exactdp_sampler** out) {
  const mpq_class sigma2 = rational_argument("sigma2", sigma2_text);
  if (o.hardened) {
    publish(out, HardenedDiscreteGaussianParams::make(sigma2, o.mean, o.hardening));
  } else {
    publish(out, DiscreteGaussianParams::make(sigma2, o.mean));
  }
  return EXACTDP_OK;
}

int make_laplace(const char* scale_text, const SamplerOptions& o, exactdp_sampler** out) {
  const mpq_class scale = rational_argument("scale", scale_text);
  if (o.hardened) {
    publish(out, HardenedDiscreteLaplaceParams::make(scale, o.mean, o.hardening));
  } else {
    publish(out, DiscreteLaplaceParams::make(scale, o.mean));
  }
  return EXACTDP_OK;
}

int make_bernoulli_exp(const char* gamma_text, int flags, exactdp_sampler** out) {
  if (flags_only(flags).hardened) {
    throw ParameterError("flags",
                         "flags = EXACTDP_HARDENED does not apply to Bernoulli(exp(-gamma)) (allowed: 0)");
  }
  publish(out, BernoulliExpParams::make(rational_argument("gamma", gamma_text)));
  return EXACTDP_OK;
}

// Hardened draws: the loop body is the isochronous, noexcept draw and nothing else.
std::int64_t draw_hardened(BitSource& bits, const HardenedDiscreteGaussianParams& p) noexcept {
  return sample_discrete_gaussian(bits, p);
}
std::int64_t draw_hardened(BitSource& bits, const HardenedDiscreteLaplaceParams& p) noexcept {
  return sample_discrete_laplace(bits, p);
}
template <class HardenedParams>
void fill_hardened(BitSource& bits, const HardenedParams& params, std::int64_t* out,
                   std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) out[i] = draw_hardened(bits, params);
}

// Plain draws: exact; a value outside int64 is EXACTDP_E_RANGE (the draw is spent).
std::int64_t checked(std::optional<std::int64_t> v) {
  if (!v) {
    throw CApiError(EXACTDP_E_RANGE,
                    "out: a sampled value does not fit in int64_t (use exactdp_sample_decimal)");
  }
  return *v;
}

// A registry sampler (exactdp_sampler_new). Hardened: a plain loop over the isochronous draw.
void fill_registry(const laws::Sampler& s, BitSource& bits, std::int64_t* out, std::size_t n) {
  if (s.hardened()) {
    for (std::size_t i = 0; i < n; ++i) out[i] = s.sample_isochronous(bits);
    return;
  }
  if (s.sample_int64(bits, out, n) < n) checked(std::nullopt);
}

std::string draw_registry_decimal(const laws::Sampler& s, BitSource& bits) {
  if (s.hardened()) return std::to_string(s.sample_isochronous(bits));  // only the printing varies
  mpz_class v;
  s.sample(bits, v);
  return v.get_str();
}

void fill(const exactdp_sampler& s, BitSource& bits, std::int64_t* out, std::size_t n) {
  if (const auto* r = std::get_if<RegistrySampler>(&s.params)) {
    fill_registry(*r->sampler, bits, out, n);
  } else if (const auto* h = std::get_if<HardenedDiscreteGaussianParams>(&s.params)) {
    fill_hardened(bits, *h, out, n);
  } else if (const auto* hl = std::get_if<HardenedDiscreteLaplaceParams>(&s.params)) {
    fill_hardened(bits, *hl, out, n);
  } else if (const auto* g = std::get_if<DiscreteGaussianParams>(&s.params)) {
    if (sample_n(bits, *g, out, n) < n) checked(std::nullopt);  // the batch path
  } else if (const auto* l = std::get_if<DiscreteLaplaceParams>(&s.params)) {
    if (sample_n(bits, *l, out, n) < n) checked(std::nullopt);
  } else {
    const auto& b = std::get<BernoulliExpParams>(s.params);
    for (std::size_t i = 0; i < n; ++i) out[i] = sample_bernoulli_exp(bits, b) ? 1 : 0;
  }
}

std::string draw_decimal(const exactdp_sampler& s, BitSource& bits) {
  if (const auto* r = std::get_if<RegistrySampler>(&s.params)) return draw_registry_decimal(*r->sampler, bits);
  if (const auto* h = std::get_if<HardenedDiscreteGaussianParams>(&s.params)) {
    return std::to_string(draw_hardened(bits, *h));  // only the printing depends on the value
  }
  if (const auto* hl = std::get_if<HardenedDiscreteLaplaceParams>(&s.params)) {
    return std::to_string(draw_hardened(bits, *hl));
  }
  if (const auto* g = std::get_if<DiscreteGaussianParams>(&s.params)) {
    return to_string(sample_discrete_gaussian(bits, *g));
  }
  if (const auto* l = std::get_if<DiscreteLaplaceParams>(&s.params)) {
    return to_string(sample_discrete_laplace(bits, *l));
  }
  return sample_bernoulli_exp(bits, std::get<BernoulliExpParams>(s.params)) ? "1" : "0";
}

// The certified tau_upper of a hardened sampler; EXACTDP_E_UNSUPPORTED for a plain one.
const mpq_class& hardened_tau(const exactdp_sampler& s) {
  if (const auto* h = std::get_if<HardenedDiscreteGaussianParams>(&s.params)) return h->tau_upper();
  if (const auto* hl = std::get_if<HardenedDiscreteLaplaceParams>(&s.params)) return hl->tau_upper();
  if (const auto* r = std::get_if<RegistrySampler>(&s.params); r != nullptr && r->sampler->hardened()) {
    return r->sampler->tau_upper();
  }
  throw CApiError(EXACTDP_E_UNSUPPORTED,
                  "sampler: not a hardened sampler (a plain sampler is exact: tau = 0)");
}

// A hardened sampler's bits per draw; EXACTDP_E_UNSUPPORTED for a plain one.
std::uint64_t hardened_bits_per_sample(const exactdp_sampler& s) {
  if (const auto* h = std::get_if<HardenedDiscreteGaussianParams>(&s.params)) return h->bits_per_sample();
  if (const auto* l = std::get_if<HardenedDiscreteLaplaceParams>(&s.params)) return l->bits_per_sample();
  if (const auto* r = std::get_if<RegistrySampler>(&s.params); r != nullptr && r->sampler->hardened()) {
    return r->sampler->bits_per_sample();
  }
  throw CApiError(EXACTDP_E_UNSUPPORTED, "sampler: not a hardened sampler (a plain sampler's bit count varies)");
}

}  // namespace

bool hardened_flag(int flags) {
  if ((flags & ~kKnownFlags) != 0) {
    throw ParameterError::out_of_range("flags", std::to_string(flags),
                                       "0 or EXACTDP_HARDENED (" + std::to_string(EXACTDP_HARDENED) + ")");
  }
  return (flags & EXACTDP_HARDENED) != 0;
}

bool is_hardened(const exactdp_sampler& s) noexcept {
  if (const auto* r = std::get_if<RegistrySampler>(&s.params)) return r->sampler->hardened();
  return std::holds_alternative<HardenedDiscreteGaussianParams>(s.params) ||
         std::holds_alternative<HardenedDiscreteLaplaceParams>(s.params);
}

const mpq_class* tau_upper_or_null(const exactdp_sampler& s) noexcept {
  if (const auto* h = std::get_if<HardenedDiscreteGaussianParams>(&s.params)) return &h->tau_upper();
  if (const auto* h = std::get_if<HardenedDiscreteLaplaceParams>(&s.params)) return &h->tau_upper();
  if (const auto* r = std::get_if<RegistrySampler>(&s.params); r != nullptr && r->sampler->hardened()) {
    return &r->sampler->tau_upper();
  }
  return nullptr;
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
    return internal::make_gaussian(sigma2, internal::flags_only(flags), out);
  });
}

int exactdp_discrete_gaussian_new_ex(const char* sigma2, const exactdp_sampler_options* options,
                                     exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    return internal::make_gaussian(sigma2, internal::read_options(options), out);
  });
}

int exactdp_discrete_laplace_new(const char* scale, int flags, exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    return internal::make_laplace(scale, internal::flags_only(flags), out);
  });
}

int exactdp_discrete_laplace_new_ex(const char* scale, const exactdp_sampler_options* options,
                                    exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    return internal::make_laplace(scale, internal::read_options(options), out);
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
    internal::write_text(internal::draw_decimal(*sampler, *bits->source), buf, len, "buf");
    return EXACTDP_OK;
  });
}

int exactdp_sampler_is_hardened(const exactdp_sampler* sampler, int* out) {
  return guard([&] {
    require_non_null(sampler, "sampler");
    require_non_null(out, "out");
    *out = internal::is_hardened(*sampler) ? 1 : 0;
    return EXACTDP_OK;
  });
}

int exactdp_sampler_tau(const exactdp_sampler* sampler, char* buf, size_t len) {
  return guard([&] {
    require_non_null(sampler, "sampler");
    require_non_null(buf, "buf");
    const mpq_class& tau = internal::hardened_tau(*sampler);
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
    *out = internal::hardened_bits_per_sample(*sampler);
    return EXACTDP_OK;
  });
}

}  // extern "C"
