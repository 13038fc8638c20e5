#include <exactdp/samplers/discrete_laplace.h>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>
#include <exactdp/samplers/internal/sampler_terms.h>
#include <exactdp/samplers/internal/signed_result.h>
#include <exactdp/core/rational.h>

namespace exactdp {

namespace {

// |X - mean| on the fast path (requires params.fast_path()); sets negative.
uint128 magnitude_fast(BitSource& bits, const DiscreteLaplaceParams& params, bool& negative) {
  return internal::sample_discrete_laplace_signed<uint128>(bits, params.terms().t, params.terms().s,
                                                           negative);
}

}  // namespace

DiscreteLaplaceParams DiscreteLaplaceParams::make(const mpq_class& scale, const mpz_class& mean) {
  DiscreteLaplaceParams out;
  out.scale_ = scale;
  out.scale_.canonicalize();
  if (sgn(out.scale_) <= 0) {
    throw ParameterError::out_of_range("scale", abbreviate(to_string(out.scale_)), "scale > 0");
  }
  out.mean_ = mean;
  internal::DiscreteLaplaceTerms terms;
  uint128 t = 0, s = 0;
  out.fast_ = internal::fits_uint128(out.scale_.get_num(), t) &&
              internal::fits_uint128(out.scale_.get_den(), s) && t < (uint128{1} << 64) &&
              s < (uint128{1} << 64);
  if (out.fast_) {
    terms.t = t;
    terms.s = s;
  }
  terms.table = internal::SymmetricTable::build_laplace(out.scale_);
  out.terms_ = std::make_shared<const internal::DiscreteLaplaceTerms>(std::move(terms));
  return out;
}

void sample_discrete_laplace(BitSource& bits, const DiscreteLaplaceParams& params, mpz_class& out) {
  if (const internal::SymmetricTable* table = params.terms().table.get()) {
    bool negative = false;
    const uint128 magnitude = table->draw(bits, negative);
    internal::assign_signed(out, magnitude, negative, params.mean());
    return;
  }
  if (!params.fast_path()) {
    out = sample_discrete_laplace_cks20_gmp(bits, params);
    return;
  }
  bool negative = false;
  const uint128 magnitude = magnitude_fast(bits, params, negative);
  internal::assign_signed(out, magnitude, negative, params.mean());
}

mpz_class sample_discrete_laplace(BitSource& bits, const DiscreteLaplaceParams& params) {
  mpz_class out;
  sample_discrete_laplace(bits, params, out);
  return out;
}

std::optional<std::int64_t> sample_discrete_laplace_int64(BitSource& bits,
                                                          const DiscreteLaplaceParams& params) {
  bool negative = false;
  if (const internal::SymmetricTable* table = params.terms().table.get()) {
    const uint128 magnitude = table->draw(bits, negative);
    return internal::to_int64(magnitude, negative, params.mean());
  }
  if (!params.fast_path()) return internal::to_int64(sample_discrete_laplace_cks20_gmp(bits, params));
  const uint128 magnitude = magnitude_fast(bits, params, negative);
  return internal::to_int64(magnitude, negative, params.mean());
}

mpz_class sample_discrete_laplace_gmp(BitSource& bits, const DiscreteLaplaceParams& params) {
  bool negative = false;
  if (const internal::SymmetricTable* table = params.terms().table.get()) {
    mpz_class out;
    const uint128 magnitude = table->draw(bits, negative);  // sets negative first
    internal::assign_signed(out, internal::to_mpz(magnitude), negative, params.mean());
    return out;
  }
  return sample_discrete_laplace_cks20_gmp(bits, params);
}

mpz_class sample_discrete_laplace_cks20(BitSource& bits, const DiscreteLaplaceParams& params) {
  if (!params.fast_path()) return sample_discrete_laplace_cks20_gmp(bits, params);
  bool negative = false;
  mpz_class out;
  const uint128 magnitude = magnitude_fast(bits, params, negative);  // sets negative first
  internal::assign_signed(out, magnitude, negative, params.mean());
  return out;
}

mpz_class sample_discrete_laplace_cks20_gmp(BitSource& bits, const DiscreteLaplaceParams& params) {
  bool negative = false;
  const mpz_class magnitude = internal::sample_discrete_laplace_signed<mpz_class>(
      bits, params.scale().get_num(), params.scale().get_den(), negative);
  mpz_class out;
  internal::assign_signed(out, magnitude, negative, params.mean());
  return out;
}

std::size_t sample_n(BitSource& bits, const DiscreteLaplaceParams& params, std::int64_t* out,
                     std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const std::optional<std::int64_t> v = sample_discrete_laplace_int64(bits, params);
    if (!v) return i;
    out[i] = *v;
  }
  return n;
}


// The same branches as sample_discrete_laplace(bits, params, out), value for value.
void sample_n_wide(BitSource& bits, const DiscreteLaplaceParams& params, std::int64_t* out, std::size_t n,
                   std::vector<WideValue>& wide) {
  const mpz_class& mean = params.mean();
  const internal::SymmetricTable* table = params.terms().table.get();
  for (std::size_t i = 0; i < n; ++i) {
    bool negative = false;
    if (table != nullptr) {
      const uint128 magnitude = table->draw(bits, negative);  // sets negative first
      internal::store_value(i, magnitude, negative, mean, out, wide);
    } else if (!params.fast_path()) {
      internal::store_value(i, sample_discrete_laplace_cks20_gmp(bits, params), out, wide);
    } else {
      const uint128 magnitude = magnitude_fast(bits, params, negative);  // sets negative first
      internal::store_value(i, magnitude, negative, mean, out, wide);
    }
  }
}

}  // namespace exactdp
