#include <exactdp/samplers/skellam.h>

#include <exactdp/samplers/internal/poisson_table.h>

namespace exactdp {

SkellamParams SkellamParams::make(const mpq_class& mu, const mpz_class& mean) {
  return SkellamParams(PoissonParams::make(mu), mean);
}

void sample_skellam(BitSource& bits, const SkellamParams& params, mpz_class& out) {
  if (const internal::PoissonTable* table = params.poisson().table()) {  // both draws in int64, no allocation
    const std::int64_t first = table->draw(bits);
    out = static_cast<long>(first - table->draw(bits));
    out += params.mean();
    return;
  }
  mpz_class second;
  sample_poisson(bits, params.poisson(), out);
  sample_poisson(bits, params.poisson(), second);
  out -= second;
  out += params.mean();
}

mpz_class sample_skellam(BitSource& bits, const SkellamParams& params) {
  mpz_class out;
  sample_skellam(bits, params, out);
  return out;
}

}  // namespace exactdp
