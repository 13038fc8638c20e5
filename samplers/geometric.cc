#include <exactdp/samplers/geometric.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/internal/cks20.h>

namespace exactdp {

mpz_class sample_geometric_exp(BitSource& bits, const mpz_class& t, const mpz_class& s) {
  if (t < 1) throw ParameterError::out_of_range("t", abbreviate(t.get_str()), "t >= 1 (an integer)");
  if (s < 1) throw ParameterError::out_of_range("s", abbreviate(s.get_str()), "s >= 1 (an integer)");
  return internal::sample_geometric_exp<mpz_class>(bits, t, s);
}

}  // namespace exactdp
