#include <exactdp/samplers/discrete_gaussian.h>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>
#include <exactdp/samplers/internal/sampler_terms.h>
#include <exactdp/samplers/internal/signed_result.h>
#include <exactdp/core/rational.h>

namespace exactdp {

namespace {

using internal::DiscreteGaussianTerms;

// CKS20 Alg. 3 acceptance of the proposal |Y| = y: Bernoulli(exp(-(y q t - p)^2 / (2 p q t^2))),
// on GMP integers.
bool accept_gmp(BitSource& bits, const DiscreteGaussianParams& params, const mpz_class& y) {
  const mpz_class a = y * params.terms().qt - params.sigma2().get_num();  // |Y| q t - p
  return internal::bernoulli_exp<mpz_class>(bits, a * a, params.terms().den);
}

// The same on 128-bit integers when (y q t - p)^2 fits, else on GMP at the same stream position.
// Requires params.fast_path().
bool accept_fast(BitSource& bits, const DiscreteGaussianParams& params, uint128 y) {
  constexpr uint128 k64 = uint128{1} << 64;
  const DiscreteGaussianTerms& c = params.terms();
  if (y < k64) {
    const uint128 a = y * c.qt_fast;  // < 2^128: both factors < 2^64
    const uint128 diff = a >= c.p_fast ? a - c.p_fast : c.p_fast - a;
    if (diff < k64) return internal::bernoulli_exp<uint128>(bits, diff * diff, c.den_fast);
  }
  return accept_gmp(bits, params, internal::to_mpz(y));
}

// CKS20 Alg. 3 on the GMP path. Returns |Y|, sets negative.
mpz_class magnitude_gmp(BitSource& bits, const DiscreteGaussianParams& params, bool& negative) {
  const mpz_class one(1);
  for (;;) {
    mpz_class y = internal::sample_discrete_laplace_signed<mpz_class>(bits, params.t(), one, negative);
    if (accept_gmp(bits, params, y)) return y;
  }
}

// The same on 128-bit integers. Requires params.fast_path().
uint128 magnitude_fast(BitSource& bits, const DiscreteGaussianParams& params, bool& negative) {
  for (;;) {
    const uint128 y =
        internal::sample_discrete_laplace_signed<uint128>(bits, params.terms().t_fast, 1, negative);
    if (accept_fast(bits, params, y)) return y;
  }
}

// sample_n_wide for the machine-integer draws (table, 128-bit buckets) when the mean fits in
// int64: the values store_value would give, without its per-value look at the GMP mean.
template <class Draw>
void store_batch(const Draw& draw, const mpz_class& mean, std::int64_t* out, std::size_t n,
                 std::vector<WideValue>& wide) {
  const auto m = static_cast<int128>(mpz_get_si(mean.get_mpz_t()));
  for (std::size_t i = 0; i < n; ++i) {
    bool negative = false;
    const uint128 magnitude = draw(negative);  // sets negative first
    if (magnitude < (uint128{1} << 64)) {  // |value| < 2^65: exact in int128
      const int128 value = (negative ? -static_cast<int128>(magnitude) : static_cast<int128>(magnitude)) + m;
      if (value >= INT64_MIN && value <= INT64_MAX) {
        out[i] = static_cast<std::int64_t>(value);
        continue;
      }
    }
    internal::store_value(i, magnitude, negative, mean, out, wide);
  }
}

}  // namespace

DiscreteGaussianParams DiscreteGaussianParams::make(const mpq_class& sigma2, const mpz_class& mean) {
  DiscreteGaussianParams out;
  out.sigma2_ = sigma2;
  out.sigma2_.canonicalize();
  if (sgn(out.sigma2_) <= 0) {
    throw ParameterError::out_of_range("sigma2", abbreviate(to_string(out.sigma2_)), "sigma2 > 0");
  }
  out.mean_ = mean;
  const mpz_class& p = out.sigma2_.get_num();
  const mpz_class& q = out.sigma2_.get_den();
  mpz_class floor_sigma2 = p / q;
  mpz_sqrt(out.t_.get_mpz_t(), floor_sigma2.get_mpz_t());  // floor(sqrt(floor(sigma2)))
  out.t_ += 1;
  internal::DiscreteGaussianTerms terms;
  terms.qt = q * out.t_;
  terms.den = 2 * p * q * out.t_ * out.t_;
  uint128 pf = 0, qtf = 0, tf = 0, denf = 0;
  out.fast_ = internal::fits_uint128(p, pf) && pf < (uint128{1} << 64) &&
              internal::fits_uint128(terms.qt, qtf) && qtf < (uint128{1} << 64) &&
              internal::fits_uint128(out.t_, tf) && internal::fits_uint128(terms.den, denf);
  if (out.fast_) {
    terms.p_fast = pf;
    terms.t_fast = tf;
    terms.qt_fast = qtf;
    terms.den_fast = denf;
  }
  terms.table = internal::SymmetricTable::build_gaussian(out.sigma2_);
  if (!terms.table) terms.bucket = internal::BucketGaussian::build(out.sigma2_);
  out.terms_ = std::make_shared<const internal::DiscreteGaussianTerms>(std::move(terms));
  return out;
}

void sample_discrete_gaussian(BitSource& bits, const DiscreteGaussianParams& params, mpz_class& out) {
  bool negative = false;
  if (const internal::SymmetricTable* table = params.terms().table.get()) {
    const uint128 magnitude = table->draw(bits, negative);
    internal::assign_signed(out, magnitude, negative, params.mean());
  } else if (const internal::BucketGaussian* bucket = params.terms().bucket.get()) {
    if (bucket->fast()) {
      const uint128 magnitude = bucket->draw_fast(bits, negative);
      internal::assign_signed(out, magnitude, negative, params.mean());
    } else {
      bucket->draw_gmp(bits, out, negative);  // |Z| in place, then sign and mean
      if (negative) mpz_neg(out.get_mpz_t(), out.get_mpz_t());
      out += params.mean();
    }
  } else if (params.fast_path()) {
    const uint128 magnitude = magnitude_fast(bits, params, negative);
    internal::assign_signed(out, magnitude, negative, params.mean());
  } else {
    const mpz_class magnitude = magnitude_gmp(bits, params, negative);
    internal::assign_signed(out, magnitude, negative, params.mean());
  }
}

mpz_class sample_discrete_gaussian(BitSource& bits, const DiscreteGaussianParams& params) {
  mpz_class out;
  sample_discrete_gaussian(bits, params, out);
  return out;
}

std::optional<std::int64_t> sample_discrete_gaussian_int64(BitSource& bits,
                                                           const DiscreteGaussianParams& params) {
  bool negative = false;
  if (const internal::SymmetricTable* table = params.terms().table.get()) {
    const uint128 magnitude = table->draw(bits, negative);
    return internal::to_int64(magnitude, negative, params.mean());
  }
  if (const internal::BucketGaussian* bucket = params.terms().bucket.get()) {
    if (!bucket->fast()) return internal::to_int64(sample_discrete_gaussian_gmp(bits, params));
    const uint128 magnitude = bucket->draw_fast(bits, negative);
    return internal::to_int64(magnitude, negative, params.mean());
  }
  if (!params.fast_path()) return internal::to_int64(sample_discrete_gaussian_gmp(bits, params));
  const uint128 magnitude = magnitude_fast(bits, params, negative);
  return internal::to_int64(magnitude, negative, params.mean());
}

std::size_t sample_n(BitSource& bits, const DiscreteGaussianParams& params, std::int64_t* out,
                     std::size_t n) {
  const mpz_class& mean = params.mean();
  if (const internal::SymmetricTable* table = params.terms().table.get();
      table != nullptr && mpz_fits_slong_p(mean.get_mpz_t()) != 0) {
    // |Z| <= 2^86 and |mean| < 2^63: the sum is exact in int128.
    const auto m = static_cast<int128>(mpz_get_si(mean.get_mpz_t()));
    for (std::size_t i = 0; i < n; ++i) {
      bool negative = false;
      const uint128 magnitude = table->draw(bits, negative);
      const int128 value = (negative ? -static_cast<int128>(magnitude) : static_cast<int128>(magnitude)) + m;
      if (value < INT64_MIN || value > INT64_MAX) return i;
      out[i] = static_cast<std::int64_t>(value);
    }
    return n;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::optional<std::int64_t> v = sample_discrete_gaussian_int64(bits, params);
    if (!v) return i;
    out[i] = *v;
  }
  return n;
}

// The same branches as sample_discrete_gaussian(bits, params, out), value for value.
void sample_n_wide(BitSource& bits, const DiscreteGaussianParams& params, std::int64_t* out, std::size_t n,
                   std::vector<WideValue>& wide) {
  const mpz_class& mean = params.mean();
  const internal::SymmetricTable* table = params.terms().table.get();
  const internal::BucketGaussian* bucket = params.terms().bucket.get();
  if (mpz_fits_slong_p(mean.get_mpz_t()) != 0) {
    if (table != nullptr) {
      store_batch([&](bool& negative) { return table->draw(bits, negative); }, mean, out, n, wide);
      return;
    }
    if (bucket != nullptr && bucket->fast() && sgn(mean) == 0) {  // the grid noise's case
      for (std::size_t i = 0; i < n; ++i) {
        uint128 magnitude = 0;
        bool negative = false;
        i += bucket->draw_batch(bits, out + i, n - i, magnitude, negative);
        if (i < n) internal::store_value(i, magnitude, negative, mean, out, wide);  // |Z| >= 2^63
      }
      return;
    }
    if (bucket != nullptr && bucket->fast()) {
      store_batch([&](bool& negative) { return bucket->draw_fast(bits, negative); }, mean, out, n, wide);
      return;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    bool negative = false;
    if (table != nullptr) {
      const uint128 magnitude = table->draw(bits, negative);  // sets negative first
      internal::store_value(i, magnitude, negative, mean, out, wide);
    } else if (bucket != nullptr && bucket->fast()) {
      const uint128 magnitude = bucket->draw_fast(bits, negative);  // sets negative first
      internal::store_value(i, magnitude, negative, mean, out, wide);
    } else if (bucket != nullptr) {
      mpz_class magnitude, value;
      bucket->draw_gmp(bits, magnitude, negative);
      internal::assign_signed(value, magnitude, negative, mean);
      internal::store_value(i, std::move(value), out, wide);
    } else if (params.fast_path()) {
      const uint128 magnitude = magnitude_fast(bits, params, negative);  // sets negative first
      internal::store_value(i, magnitude, negative, mean, out, wide);
    } else {
      const mpz_class magnitude = magnitude_gmp(bits, params, negative);
      mpz_class value;
      internal::assign_signed(value, magnitude, negative, mean);
      internal::store_value(i, std::move(value), out, wide);
    }
  }
}

mpz_class sample_discrete_gaussian_gmp(BitSource& bits, const DiscreteGaussianParams& params) {
  bool negative = false;
  mpz_class out;
  if (const internal::SymmetricTable* table = params.terms().table.get()) {
    const uint128 magnitude = table->draw(bits, negative);
    internal::assign_signed(out, internal::to_mpz(magnitude), negative, params.mean());
    return out;
  }
  if (const internal::BucketGaussian* bucket = params.terms().bucket.get()) {
    mpz_class magnitude;
    bucket->draw_gmp(bits, magnitude, negative);
    internal::assign_signed(out, magnitude, negative, params.mean());
    return out;
  }
  const mpz_class magnitude = magnitude_gmp(bits, params, negative);
  internal::assign_signed(out, magnitude, negative, params.mean());
  return out;
}

mpz_class sample_discrete_gaussian_cks20(BitSource& bits, const DiscreteGaussianParams& params) {
  bool negative = false;
  mpz_class out;
  if (params.fast_path()) {
    const uint128 magnitude = magnitude_fast(bits, params, negative);  // sets negative first
    internal::assign_signed(out, magnitude, negative, params.mean());
  } else {
    const mpz_class magnitude = magnitude_gmp(bits, params, negative);  // sets negative first
    internal::assign_signed(out, magnitude, negative, params.mean());
  }
  return out;
}

mpz_class sample_discrete_gaussian_cks20_gmp(BitSource& bits, const DiscreteGaussianParams& params) {
  bool negative = false;
  mpz_class out;
  const mpz_class magnitude = magnitude_gmp(bits, params, negative);
  internal::assign_signed(out, magnitude, negative, params.mean());
  return out;
}

}  // namespace exactdp
