#include <exactdp/samplers/bernoulli.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/internal/cks20.h>

namespace exactdp {

BernoulliParams BernoulliParams::make(const mpq_class& p) {
  mpq_class canonical = p;
  canonical.canonicalize();
  if (canonical < 0 || canonical > 1) {
    throw ParameterError::out_of_range("p", abbreviate(to_string(canonical)), "0 <= p <= 1");
  }
  return BernoulliParams(std::move(canonical));
}

bool sample_bernoulli(BitSource& bits, const BernoulliParams& params) {
  const mpq_class& p = params.p();
  if (sgn(p) == 0) return false;
  if (p == 1) return true;
  mpz_class r, gap;
  return internal::bernoulli_ratio<mpz_class>(bits, p.get_num(), p.get_den(), r, gap);
}

}  // namespace exactdp
