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

void sample_skellam_wide(BitSource& bits, const SkellamParams& params, std::int64_t* out, std::size_t n,
                         std::vector<WideValue>& wide) {
  const internal::PoissonTable* table = params.poisson().table();
  mpz_class v;
  if (table == nullptr || !params.mean().fits_slong_p()) {
    for (std::size_t i = 0; i < n; ++i) {
      sample_skellam(bits, params, v);
      out[i] = v.fits_slong_p() ? v.get_si() : 0;
      if (!v.fits_slong_p()) wide.push_back({i, v});
    }
    return;
  }
  const std::int64_t mean = params.mean().get_si();
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t first = table->draw(bits);
    const std::int64_t difference = first - table->draw(bits);  // both draws in [0, 2^62 + 2^25)
    if (__builtin_add_overflow(difference, mean, &out[i])) {
      out[i] = 0;
      v = static_cast<long>(difference);
      v += params.mean();
      wide.push_back({i, v});
    }
  }
}

}  // namespace exactdp
