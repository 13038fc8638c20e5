#include "samplers/discrete_gaussian.h"

#include "samplers/errors.h"
#include "samplers/internal/cks20.h"
#include "samplers/internal/signed_result.h"
#include "samplers/rational.h"

namespace exactdp {

struct DiscreteGaussianAccess {
  // CKS20 Alg. 3 on the GMP path. Returns |Y|, sets negative.
  static mpz_class magnitude_gmp(BitSource& bits, const DiscreteGaussianParams& params, bool& negative) {
    const mpz_class& p = params.sigma2_.get_num();
    const mpz_class one(1);
    mpz_class a, num;
    for (;;) {
      mpz_class y = internal::sample_discrete_laplace_signed<mpz_class>(bits, params.t_, one, negative);
      a = y * params.qt_;  // |Y| q t
      a -= p;              // |Y| q t - p
      num = a * a;         // (|Y| q t - p)^2; gamma = num / (2 p q t^2)
      if (internal::bernoulli_exp<mpz_class>(bits, num, params.den_)) return y;
    }
  }

  // The same on 128-bit integers. Requires params.fast_.
  static uint128 magnitude_fast(BitSource& bits, const DiscreteGaussianParams& params, bool& negative) {
    constexpr uint128 k64 = uint128{1} << 64;
    for (;;) {
      const uint128 y = internal::sample_discrete_laplace_signed<uint128>(bits, params.t_fast_, 1, negative);
      bool accept = false;
      if (y < k64) {
        const uint128 a = y * params.qt_fast_;  // < 2^128: both factors < 2^64
        const uint128 diff = a >= params.p_ ? a - params.p_ : params.p_ - a;
        if (diff < k64) {
          accept = internal::bernoulli_exp<uint128>(bits, diff * diff, params.den_fast_);
        } else {
          const mpz_class d = internal::to_mpz(diff);
          accept = internal::bernoulli_exp<mpz_class>(bits, d * d, params.den_);
        }
      } else {
        mpz_class a = internal::to_mpz(y) * params.qt_ - params.sigma2_.get_num();
        accept = internal::bernoulli_exp<mpz_class>(bits, a * a, params.den_);
      }
      if (accept) return y;
    }
  }
};

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
  out.qt_ = q * out.t_;
  out.den_ = 2 * p * q * out.t_ * out.t_;
  uint128 pf = 0, qtf = 0, tf = 0, denf = 0;
  out.fast_ = internal::fits_uint128(p, pf) && pf < (uint128{1} << 64) &&
              internal::fits_uint128(out.qt_, qtf) && qtf < (uint128{1} << 64) &&
              internal::fits_uint128(out.t_, tf) && internal::fits_uint128(out.den_, denf);
  if (out.fast_) {
    out.p_ = pf;
    out.t_fast_ = tf;
    out.qt_fast_ = qtf;
    out.den_fast_ = denf;
  }
  return out;
}

void sample_discrete_gaussian(BitSource& bits, const DiscreteGaussianParams& params, mpz_class& out) {
  bool negative = false;
  if (params.fast_path()) {
    const uint128 magnitude = DiscreteGaussianAccess::magnitude_fast(bits, params, negative);
    internal::assign_signed(out, magnitude, negative, params.mean());
  } else {
    const mpz_class magnitude = DiscreteGaussianAccess::magnitude_gmp(bits, params, negative);
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
  if (!params.fast_path()) return internal::to_int64(sample_discrete_gaussian_gmp(bits, params));
  bool negative = false;
  const uint128 magnitude = DiscreteGaussianAccess::magnitude_fast(bits, params, negative);
  return internal::to_int64(magnitude, negative, params.mean());
}

mpz_class sample_discrete_gaussian_gmp(BitSource& bits, const DiscreteGaussianParams& params) {
  bool negative = false;
  const mpz_class magnitude = DiscreteGaussianAccess::magnitude_gmp(bits, params, negative);
  mpz_class out;
  internal::assign_signed(out, magnitude, negative, params.mean());
  return out;
}

}  // namespace exactdp
