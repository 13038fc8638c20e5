#include "samplers/bernoulli.h"

#include "samplers/errors.h"
#include "samplers/rational.h"
#include "samplers/uniform.h"

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
  return sample_uniform_below(bits, p.get_den()) < p.get_num();
}

}  // namespace exactdp
