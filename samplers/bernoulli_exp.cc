#include <exactdp/samplers/bernoulli_exp.h>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/samplers/internal/gmp_reference_paths.h>
#include <exactdp/samplers/internal/sampler_terms.h>
#include <exactdp/core/rational.h>

namespace exactdp {

BernoulliExpParams BernoulliExpParams::make(const mpq_class& gamma) {
  BernoulliExpParams out;
  out.gamma_ = gamma;
  out.gamma_.canonicalize();
  if (sgn(out.gamma_) < 0) {
    throw ParameterError::out_of_range("gamma", abbreviate(to_string(out.gamma_)), "gamma >= 0");
  }
  internal::BernoulliExpTerms terms;
  uint128 num = 0, den = 0;
  out.fast_ = internal::fits_uint128(out.gamma_.get_num(), num) &&
              internal::fits_uint128(out.gamma_.get_den(), den);
  if (out.fast_) {
    terms.num = num;
    terms.den = den;
  }
  out.terms_ = std::make_shared<const internal::BernoulliExpTerms>(terms);
  return out;
}

bool sample_bernoulli_exp(BitSource& bits, const BernoulliExpParams& params) {
  if (params.fast_path()) {
    return internal::bernoulli_exp<uint128>(bits, params.terms().num, params.terms().den);
  }
  return sample_bernoulli_exp_gmp(bits, params);
}

bool sample_bernoulli_exp_gmp(BitSource& bits, const BernoulliExpParams& params) {
  return internal::bernoulli_exp<mpz_class>(bits, params.gamma().get_num(), params.gamma().get_den());
}

}  // namespace exactdp
